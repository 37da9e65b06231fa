import type { SupportContactView } from '@contracts/settings';
import { telLink } from '@domain/settings/settings';
import DownloadIcon from '@mui/icons-material/Download';
import EmailIcon from '@mui/icons-material/Email';
import PhoneIcon from '@mui/icons-material/Phone';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import HelpCenterIcon from '@mui/icons-material/HelpCenter';
import AssignmentReturnIcon from '@mui/icons-material/AssignmentReturn';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import SchoolIcon from '@mui/icons-material/School';
import OndemandVideoIcon from '@mui/icons-material/OndemandVideo';
import CollectionsIcon from '@mui/icons-material/Collections';
import { Box, Button, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { useEffect, useState, type ReactElement } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';
import { getSupportContact } from './SupportContactCard';

/**
 * The resource cards. A card is shown only when something is behind it for the user: Learn & Earn,
 * Training Videos and Tech Gallery (spec 002 §2) open the Learning page's catalogue and media views,
 * for those who may learn; the portal has no live chat, so that card is left out (its route answers plainly).
 */
const CARDS: Array<{ to: string; title: string; text: string; icon: ReactElement; needs?: string }> = [
  { to: '/faqs', title: 'FAQs', text: 'Answers to the questions partners ask most.', icon: <HelpCenterIcon /> },
  {
    to: '/supportcenter',
    title: 'Online Ticketing Portal',
    text: 'Open a support case and follow it to resolution.',
    icon: <ConfirmationNumberIcon />,
    needs: '/supportcenter',
  },
  { to: '/rma', title: 'RMA', text: 'Return a faulty unit.', icon: <AssignmentReturnIcon />, needs: '/supportcenter' },
  {
    to: '/warranty-check',
    title: 'Warranty Check',
    text: 'Check the warranty of a unit by its serial number.',
    icon: <VerifiedUserIcon />,
    needs: '/supportcenter',
  },
  { to: '/downloads', title: 'Downloads', text: 'Datasheets, firmware notes and manuals.', icon: <DownloadIcon /> },
  {
    to: '/learn-earn',
    title: 'Learn & Earn',
    text: 'Courses and certifications that count towards your programme tier.',
    icon: <SchoolIcon />,
    needs: '/learning',
  },
  { to: '/training-videos', title: 'Training Videos', text: 'The videos of the courses.', icon: <OndemandVideoIcon />, needs: '/learning' },
  { to: '/tech-gallery', title: 'Tech Gallery', text: 'Every lesson video, document and picture.', icon: <CollectionsIcon />, needs: '/learning' },
];

/** The subtitle: the hours administrators set for the support team, never a promise the settings do not make. */
export const supportHoursText = (contact: SupportContactView | null | undefined) =>
  contact === undefined
    ? ' '
    : contact
      ? `Support hours: ${contact.hours}`
      : 'Open a support case at any time; the support team answers within the time its priority sets.';

/** /comprehensive-support: the support resource cards (spec 002 §2). */
export default function ComprehensiveSupport() {
  const { canOpen } = useAccess();
  const [contact, setContact] = useState<SupportContactView | null | undefined>(undefined);
  useEffect(() => {
    getSupportContact().then(setContact, (error) => {
      console.error(error);
      setContact(null);
    });
  }, []);
  const cards = CARDS.filter((card) => !card.needs || canOpen(card.needs));
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title="Comprehensive Support" subtitle={supportHoursText(contact)} />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 3 }}>
        {contact ? (
          <Button variant="contained" startIcon={<PhoneIcon />} href={telLink(contact.phone)}>
            Call {contact.phone}
          </Button>
        ) : null}
        {contact ? (
          <Button variant="outlined" startIcon={<EmailIcon />} href={`mailto:${contact.email}`}>
            E-mail {contact.email}
          </Button>
        ) : null}
        {canOpen('/supportcenter') ? (
          <Button variant="outlined" component={RouterLink} to="/supportcenter?tab=cases">
            Submit Ticket
          </Button>
        ) : null}
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
        }}
      >
        {cards.map((card) => (
          <Card key={card.to} variant="outlined">
            <CardActionArea component={RouterLink} to={card.to} sx={{ height: '100%' }}>
              <CardContent>
                <Box sx={{ color: 'primary.main', mb: 1 }}>{card.icon}</Box>
                <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                  {card.title}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {card.text}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
