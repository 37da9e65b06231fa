import { Box, Button, Card, CardActions, CardContent, Paper, Typography } from '@mui/material';
import { landingRouteFor } from '@domain/access';
import { useNavigate } from 'react-router-dom';
import { cataloguePointer } from '../access/invitations';
import { useAccess } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';
import { Downloads } from '../tickets/Downloads';

function TextSection({ title, paragraphs }: { title: string; paragraphs: string[] }) {
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 880 }}>
      <PageTitle title={title} />
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
        {paragraphs.map((text) => (
          <Typography key={text} variant="body1" sx={{ mb: 1.5, '&:last-child': { mb: 0 } }}>
            {text}
          </Typography>
        ))}
      </Paper>
    </Box>
  );
}

/**
 * /products: what the vendor makes, as a brochure. The menu calls it Product Portfolio so it never
 * reads as the Catalogue, where products are priced and ordered.
 */
export function ProductsSection() {
  const { canDo } = useAccess();
  const navigate = useNavigate();
  const canBrowse = canDo('browse-products');
  return (
    <>
      <TextSection
        title={PRODUCT_PORTFOLIO_TITLE}
        paragraphs={[
          'Our portfolio covers managed and unmanaged switches, industrial switches for harsh environments, high-capacity switching, accessories and power supplies.',
          cataloguePointer(canBrowse),
        ]}
      />
      {canBrowse ? (
        <Box sx={{ px: { xs: 2, md: 3 }, mt: -1 }}>
          <Button variant="contained" onClick={() => navigate('/catalogue')}>
            Open the Catalogue
          </Button>
        </Box>
      ) : null}
    </>
  );
}

export const PRODUCT_PORTFOLIO_TITLE = 'Product Portfolio';

export const SolutionsSection = () => (
  <TextSection
    title="Solutions"
    paragraphs={[
      'We design networking solutions for education, hospitality and retail, and technical solutions for CCTV switching, internet access and outdoor networking.',
      'Talk to your partner manager to plan a solution for your customer.',
    ]}
  />
);

/** /downloads: the resources library, the same one as the Support Center's Downloads tab. */
export function DownloadsSection() {
  const { role } = useAccess();
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title="Downloads" subtitle="Datasheets, firmware notes, price lists and manuals published for your role." />
      <Downloads admin={role === 'admin' || role === 'administrator'} />
    </Box>
  );
}

const INDUSTRY = [
  { title: 'Education', text: 'Reliable campus networks for classrooms, libraries and student housing.' },
  { title: 'Hotel', text: 'Guest Wi-Fi, IPTV and back-office networks for hospitality.' },
  { title: 'Retail', text: 'Store networks for point of sale, inventory and in-store analytics.' },
];
const TECHNICAL = [
  { title: 'CCTV Switching Solution', text: 'PoE switching for IP cameras with the bandwidth video needs.' },
  { title: 'Internet', text: 'Access and aggregation for dependable internet connectivity.' },
  { title: 'Outdoor Networking Solution', text: 'Hardened equipment for outdoor and industrial sites.' },
];

function SolutionCards({ title, learnMore }: { title: string; learnMore: boolean }) {
  const navigate = useNavigate();
  const { role } = useAccess();
  const group = (heading: string, cards: typeof INDUSTRY) => (
    <>
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1.5 }}>
        {heading}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
        {cards.map((card) => (
          <Card key={card.title} variant="outlined" sx={{ display: 'flex', flexDirection: 'column' }}>
            <CardContent sx={{ flex: 1 }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                {card.title}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {card.text}
              </Typography>
            </CardContent>
            {learnMore ? (
              <CardActions>
                <Button size="small" onClick={() => navigate('/solutions')}>
                  Learn More
                </Button>
              </CardActions>
            ) : null}
          </Card>
        ))}
      </Box>
    </>
  );
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title={title} />
      <Button variant="outlined" onClick={() => navigate(landingRouteFor(role))}>
        Back to Dashboard
      </Button>
      {group('Industry Solutions', INDUSTRY)}
      {group('Technical Solutions', TECHNICAL)}
    </Box>
  );
}

export const PartnerSolutions = () => <SolutionCards title="Partner Solutions" learnMore={false} />;
export const DistributorSolutions = () => <SolutionCards title="Distributor Solutions" learnMore />;
