import { lazy } from 'react';
import { Admin, CustomRoutes } from 'react-admin';
import { Navigate } from 'react-router-dom';
import { AppError } from './layout/AppError';
import { PortalLayout } from './layout/PortalLayout';
import { PortalNotification } from './layout/PortalNotification';
import { screenRoutes } from './layout/screens';
import { FullScreenSpinner } from './layout/Splash';
import { theme } from './layout/theme';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { dashboardScreens } from './dashboards';
import { authScreens } from './auth';
import { adminPanelScreens } from './adminpanel';
import { placeholderScreens } from './placeholders';
import { partnerScreens } from './partners';
import { orderScreens } from './orders';
import { ticketScreens } from './tickets';
import { teamScreens } from './team';
import { projectScreens } from './projects';
import { rebateScreens } from './rebates';
import { leadScreens } from './leads';
import { fundScreens } from './funds';
import { learningScreens } from './learning';
import { webhookScreens } from './webhooks';
import { auditScreens } from './audit';
import { activityScreens } from './activity';
import { apiKeyScreens } from './apiKeys';
import { governanceScreens } from './governance';
import { programmeScreens } from './programme';

// `/` is react-admin's dashboard; every other signed-in screen comes from its module's index.tsx.
const Home = lazy(() => import('./dashboards/Home'));

/** Each module's screens, loaded on their first visit, so the sign-in page never loads them. */
const screens = [
  ...dashboardScreens,
  ...authScreens,
  ...adminPanelScreens,
  ...placeholderScreens,
  ...partnerScreens,
  ...orderScreens,
  ...ticketScreens,
  ...teamScreens,
  ...projectScreens,
  ...rebateScreens,
  ...leadScreens,
  ...fundScreens,
  ...learningScreens,
  ...webhookScreens,
  ...auditScreens,
  ...activityScreens,
  ...apiKeyScreens,
  ...governanceScreens,
  ...programmeScreens,
];

/** Unknown signed-in paths go to `/`. */
const ToHome = () => <Navigate to="/" replace />;

/** The signed-in portal; the signed-out screens and the router are in Root.tsx. */
export function App() {
  return (
    <Admin
      title="PartnerHub"
      dataProvider={dataProvider}
      authProvider={authProvider}
      requireAuth
      loginPage={false}
      layout={PortalLayout}
      dashboard={Home}
      catchAll={ToHome}
      notification={PortalNotification}
      loading={FullScreenSpinner}
      error={AppError}
      theme={theme}
      disableTelemetry
    >
      <CustomRoutes>{screenRoutes(screens)}</CustomRoutes>
    </Admin>
  );
}
