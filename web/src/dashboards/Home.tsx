import { isAdminRole, isSubUserRole } from '@domain/access';
import { lazy } from 'react';
import { useAccess } from '../access/usePrincipal';

const Landing = lazy(() => import('../landing/Landing'));
const SubUserDashboard = lazy(() => import('./SubUserDashboard'));
const PartnerDashboard = lazy(() => import('./RoleDashboard').then((m) => ({ default: m.PartnerDashboard })));
const DistributorDashboard = lazy(() => import('./RoleDashboard').then((m) => ({ default: m.DistributorDashboard })));
const ManufacturerDashboard = lazy(() => import('./RoleDashboard').then((m) => ({ default: m.ManufacturerDashboard })));
const SupportDashboard = lazy(() => import('./RoleDashboard').then((m) => ({ default: m.SupportDashboard })));

/**
 * `/`: the dashboard chosen by role. Administrators get the landing page with the five role
 * dashboards; sub-users their welcome page; any other role the landing page as default dashboard.
 */
export default function Home() {
  const { role } = useAccess();
  if (isAdminRole(role)) return <Landing />;
  if (isSubUserRole(role)) return <SubUserDashboard />;
  switch (role) {
    case 'partner':
      return <PartnerDashboard />;
    case 'distributor':
      return <DistributorDashboard />;
    case 'manufacturer':
      return <ManufacturerDashboard />;
    case 'support':
      return <SupportDashboard />;
    default:
      return <Landing />;
  }
}
