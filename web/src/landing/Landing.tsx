import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import AssignmentIcon from '@mui/icons-material/Assignment';
import FactoryIcon from '@mui/icons-material/Factory';
import HandshakeIcon from '@mui/icons-material/Handshake';
import HubIcon from '@mui/icons-material/Hub';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import WarehouseIcon from '@mui/icons-material/Warehouse';
import { Box, Card, CardActionArea, CardContent, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';

export interface RoleCard {
  title: string;
  description: string;
  to: string;
  icon: ReactElement;
}

export const ROLE_CARDS: readonly RoleCard[] = [
  { title: 'Manufacturer', description: 'Manages product lines, distributors and partner relationships.', to: '/manufacturerdashboard', icon: <FactoryIcon /> },
  { title: 'Distributor', description: 'Handles inventory, orders, partner support and a team.', to: '/distributordashboard', icon: <WarehouseIcon /> },
  { title: 'Partner', description: 'Accesses projects (deal registrations), orders and rebate tracking.', to: '/partnerdashboard', icon: <HandshakeIcon /> },
  { title: 'Support', description: 'Provides technical assistance and case management.', to: '/support-dashboard', icon: <SupportAgentIcon /> },
  { title: 'Administrator', description: 'Manages users, settings and partner approvals.', to: '/administratordashboard', icon: <AdminPanelSettingsIcon /> },
];

export const FEATURE_CARDS = [
  {
    title: 'Project Management',
    description: 'Track projects from initiation to completion with timeline views, milestone tracking and collaborative tools.',
    icon: <AssignmentIcon />,
  },
  {
    title: 'Order Processing',
    description: 'Real-time inventory, ETA tracking and an automated workflow from order to delivery.',
    icon: <LocalShippingIcon />,
  },
  {
    title: 'Partner Network',
    description: 'Verified partners, certifications, exclusive resources and rewards.',
    icon: <HubIcon />,
  },
] as const;

const grid = { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } };

/** The landing page: one card per role and the three feature cards. */
export default function Landing() {
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title="PartnerHub" subtitle="Grow, explore and succeed with us" />
      <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
        Dashboards
      </Typography>
      <Box sx={grid} data-testid="role-cards">
        {ROLE_CARDS.map((card) => (
          <Card key={card.to} variant="outlined">
            <CardActionArea component={Link} to={card.to} sx={{ height: '100%' }}>
              <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
                <Box sx={{ color: 'primary.main', mt: 0.25 }}>{card.icon}</Box>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                    {card.title}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {card.description}
                  </Typography>
                </Box>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
      <Typography variant="h6" component="h2" sx={{ mt: 4, mb: 1.5 }}>
        What you can do
      </Typography>
      <Box sx={grid} data-testid="feature-cards">
        {FEATURE_CARDS.map((card) => (
          <Card key={card.title} variant="outlined" sx={{ bgcolor: 'grey.50' }}>
            <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
              <Box sx={{ color: 'secondary.main', mt: 0.25 }}>{card.icon}</Box>
              <Box sx={{ minWidth: 0 }}>
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                  {card.title}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {card.description}
                </Typography>
              </Box>
            </CardContent>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
