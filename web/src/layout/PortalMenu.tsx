import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import AssignmentIcon from '@mui/icons-material/Assignment';
import CategoryIcon from '@mui/icons-material/Category';
import DashboardIcon from '@mui/icons-material/Dashboard';
import DownloadIcon from '@mui/icons-material/Download';
import GavelIcon from '@mui/icons-material/Gavel';
import HistoryIcon from '@mui/icons-material/History';
import TimelineIcon from '@mui/icons-material/Timeline';
import GroupsIcon from '@mui/icons-material/Groups';
import HomeIcon from '@mui/icons-material/Home';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import LightbulbIcon from '@mui/icons-material/Lightbulb';
import LocalShippingIcon from '@mui/icons-material/LocalShipping';
import PaidIcon from '@mui/icons-material/Paid';
import CampaignIcon from '@mui/icons-material/Campaign';
import StorefrontIcon from '@mui/icons-material/Storefront';
import SupportAgentIcon from '@mui/icons-material/SupportAgent';
import WarehouseIcon from '@mui/icons-material/Warehouse';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import ContactMailIcon from '@mui/icons-material/ContactMail';
import SchoolIcon from '@mui/icons-material/School';
import WebhookIcon from '@mui/icons-material/Webhook';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import type { ReactElement } from 'react';
import { Menu } from 'react-admin';
import { useAccess } from '../access/usePrincipal';
import { visibleEntries } from './navigation';

const ICONS: Record<string, ReactElement> = {
  home: <HomeIcon />,
  dashboard: <DashboardIcon />,
  projects: <AssignmentIcon />,
  orders: <LocalShippingIcon />,
  catalogue: <StorefrontIcon />,
  rebates: <PaidIcon />,
  funds: <CampaignIcon />,
  webhooks: <WebhookIcon />,
  support: <SupportAgentIcon />,
  directory: <GroupsIcon />,
  team: <GroupsIcon />,
  governance: <GavelIcon />,
  programme: <WorkspacePremiumIcon />,
  inventory: <WarehouseIcon />,
  solutions: <LightbulbIcon />,
  products: <Inventory2Icon />,
  downloads: <DownloadIcon />,
  admin: <AdminPanelSettingsIcon />,
  category: <CategoryIcon />,
  audit: <HistoryIcon />,
  activity: <TimelineIcon />,
  leads: <ContactMailIcon />,
  learning: <SchoolIcon />,
  apikeys: <VpnKeyIcon />,
};

/** The side menu: only the screens the signed-in user may open. */
export function PortalMenu() {
  const { role, canOpen, canDo } = useAccess();
  return (
    <Menu>
      {visibleEntries(role, canOpen, canDo).map((entry) => (
        // A long label wraps onto a second line instead of ending in an ellipsis ("Partnership Governance").
        <Menu.Item
          key={entry.key}
          to={entry.to}
          primaryText={entry.label}
          leftIcon={ICONS[entry.icon]}
          sx={{ '& .MuiTypography-noWrap': { whiteSpace: 'normal', overflow: 'visible', lineHeight: 1.3 } }}
        />
      ))}
    </Menu>
  );
}
