import ChatIcon from '@mui/icons-material/Chat';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumber';
import HelpCenterIcon from '@mui/icons-material/HelpCenter';
import OndemandVideoIcon from '@mui/icons-material/OndemandVideo';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibrary';
import SchoolIcon from '@mui/icons-material/School';
import AssignmentReturnIcon from '@mui/icons-material/AssignmentReturn';
import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { Box, Button, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';

const CARDS: Array<{ to: string; title: string; text: string; icon: ReactElement }> = [
  { to: '/learn-earn', title: 'Learn & Earn', text: 'Courses and certifications for your team.', icon: <SchoolIcon /> },
  { to: '/training-videos', title: 'Training Videos', text: 'Installation and configuration walk-throughs.', icon: <OndemandVideoIcon /> },
  { to: '/tech-gallery', title: 'Tech Gallery', text: 'Reference designs and deployment photos.', icon: <PhotoLibraryIcon /> },
  { to: '/faqs', title: 'FAQs', text: 'Answers to the questions partners ask most.', icon: <HelpCenterIcon /> },
  { to: '/supportcenter', title: 'Online Ticketing Portal', text: 'Open a support case and follow it to resolution.', icon: <ConfirmationNumberIcon /> },
  { to: '/live-chat', title: 'Live Chat', text: 'Talk to the support team.', icon: <ChatIcon /> },
  { to: '/rma', title: 'RMA', text: 'Return a faulty unit.', icon: <AssignmentReturnIcon /> },
  { to: '/warranty-check', title: 'Warranty Check', text: 'Check the warranty of a unit by its serial number.', icon: <VerifiedUserIcon /> },
];

/** /comprehensive-support: the support resource cards (spec 002 §2). */
export default function ComprehensiveSupport() {
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title="Comprehensive Support" subtitle="Support is available 24/7." />
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, mb: 3 }}>
        <Button variant="contained" component={RouterLink} to="/live-chat">Start Live Chat</Button>
        <Button variant="outlined" component={RouterLink} to="/supportcenter?tab=cases">Submit Ticket</Button>
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' } }}>
        {CARDS.map((card) => (
          <Card key={card.to} variant="outlined">
            <CardActionArea component={RouterLink} to={card.to} sx={{ height: '100%' }}>
              <CardContent>
                <Box sx={{ color: 'primary.main', mb: 1 }}>{card.icon}</Box>
                <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>{card.title}</Typography>
                <Typography variant="body2" color="text.secondary">{card.text}</Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
