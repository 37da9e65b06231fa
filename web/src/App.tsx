import { lazy } from 'react';
import { Admin, CustomRoutes } from 'react-admin';
import { Navigate, Route } from 'react-router-dom';
import { RouteGuard } from './access/RouteGuard';
import { AppError } from './layout/AppError';
import { PortalLayout } from './layout/PortalLayout';
import { PortalNotification } from './layout/PortalNotification';
import { FullScreenSpinner } from './layout/Splash';
import { theme } from './layout/theme';
import { authProvider } from './providers/authProvider';
import { dataProvider } from './providers/dataProvider';
import { orderRoutes } from './orders';
import { ticketRoutes } from './tickets';
import { teamRoutes } from './team';
import { projectRoutes } from './projects';
import { rebateRoutes } from './rebates';
import { leadRoutes } from './leads';
import { fundRoutes } from './funds';
import { auditRoutes } from './audit';
import { activityRoutes } from './activity';
import { governanceRoutes } from './governance';

// Signed-in screens: each loads on first visit, so the sign-in page never loads them.
const Home = lazy(() => import('./dashboards/Home'));
const SubUserDashboard = lazy(() => import('./dashboards/SubUserDashboard'));
const dashboard = (name: 'PartnerDashboard' | 'DistributorDashboard' | 'ManufacturerDashboard' | 'SupportDashboard' | 'AdminDashboard') =>
  lazy(() => import('./dashboards/RoleDashboard').then((m) => ({ default: m[name] })));
const PartnerDashboard = dashboard('PartnerDashboard');
const DistributorDashboard = dashboard('DistributorDashboard');
const ManufacturerDashboard = dashboard('ManufacturerDashboard');
const SupportDashboard = dashboard('SupportDashboard');
const AdminDashboard = dashboard('AdminDashboard');
const ChangePassword = lazy(() => import('./auth/ChangePassword'));
const AdminPanel = lazy(() => import('./adminpanel/AdminPanel'));
const PartnerDirectory = lazy(() => import('./partners/PartnerDirectory'));
const staticSection = (name: 'ProductsSection' | 'SolutionsSection' | 'DownloadsSection' | 'PartnerSolutions' | 'DistributorSolutions') =>
  lazy(() => import('./placeholders/StaticSections').then((m) => ({ default: m[name] })));
const ProductsSection = staticSection('ProductsSection');
const SolutionsSection = staticSection('SolutionsSection');
const DownloadsSection = staticSection('DownloadsSection');
const PartnerSolutions = staticSection('PartnerSolutions');
const DistributorSolutions = staticSection('DistributorSolutions');

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
      <CustomRoutes>
        <Route path="/dashboard" element={<Home />} />
        <Route path="/administratordashboard" element={<AdminDashboard />} />
        <Route path="/manufacturerdashboard" element={<ManufacturerDashboard />} />
        <Route path="/distributordashboard" element={<DistributorDashboard />} />
        <Route path="/partnerdashboard" element={<PartnerDashboard />} />
        <Route path="/support-dashboard" element={<SupportDashboard />} />
        <Route path="/sub-user-dashboard" element={<SubUserDashboard />} />
        <Route path="/change-password" element={<ChangePassword />} />
        <Route
          path="/adminpanel"
          element={
            <RouteGuard path="/adminpanel" title="Admin Panel" redirectTo="/">
              <AdminPanel />
            </RouteGuard>
          }
        />
        <Route path="/products" element={<ProductsSection />} />
        <Route path="/solutions" element={<SolutionsSection />} />
        <Route path="/downloads" element={<DownloadsSection />} />
        <Route path="/partner-solutions" element={<PartnerSolutions />} />
        <Route path="/distributor-solutions" element={<DistributorSolutions />} />
        <Route path="/partnerdirectory" element={<RouteGuard path="/partnerdirectory" title="Partner Directory"><PartnerDirectory /></RouteGuard>} />
        {orderRoutes}
        {ticketRoutes}
        {teamRoutes}
        {projectRoutes}
        {rebateRoutes}
        {leadRoutes}
        {fundRoutes}
        {auditRoutes}
        {activityRoutes}
        {governanceRoutes}
      </CustomRoutes>
    </Admin>
  );
}
