import { featuresFor, ROLE_LABELS, type Feature, type Role } from '@domain/access';
import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import { useGetIdentity } from 'react-admin';
import { Link } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';

const FEATURE_LINKS: Partial<Record<Feature, { label: string; to: string; description: string }>> = {
  projects: { label: 'Projects', to: '/projects', description: 'Deal registrations and milestones.' },
  orders: { label: 'Orders', to: '/orders', description: 'Follow orders and their delivery.' },
  products: { label: 'Catalogue', to: '/catalogue', description: 'Browse products and fill a cart.' },
  rebates: { label: 'Rebates', to: '/rebates', description: 'Rebate requests and quarterly progress.' },
  support: { label: 'Support Center', to: '/supportcenter', description: 'Support cases and resources.' },
};

/** /sub-user-dashboard: the welcome page of team members, plus the features their permissions allow. */
export default function SubUserDashboard() {
  const { principal, role } = useAccess();
  const { identity } = useGetIdentity();
  const distributor = role === 'distributor_user' || role === 'distributor';
  const title = distributor ? 'Welcome to Distributor Portal' : 'Welcome to Partner Portal';
  const roleLabel = role && role in ROLE_LABELS ? ROLE_LABELS[role as Role] : 'Team Member';
  const features = principal ? featuresFor(principal) : [];
  const links = features.map((feature) => FEATURE_LINKS[feature]).filter((link): link is NonNullable<typeof link> => Boolean(link));
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 960 }}>
      <PageTitle title={title} subtitle={`${identity?.fullName ? `${identity.fullName} · ` : ''}${roleLabel}`} />
      <Typography variant="body1" sx={{ mb: 3 }}>
        You are signed in as a {roleLabel.toLowerCase()}. Contact your administrator if you need access to more features.
      </Typography>
      {links.length ? (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
          {links.map((link) => (
            <Card key={link.to} variant="outlined">
              <CardActionArea component={Link} to={link.to}>
                <CardContent>
                  <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                    {link.label}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {link.description}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Box>
      ) : (
        <Typography color="text.secondary">No features are available with your current permissions.</Typography>
      )}
    </Box>
  );
}
