import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const Home = lazy(() => import('./Home'));
const SubUserDashboard = lazy(() => import('./SubUserDashboard'));
const dashboard = (name: 'PartnerDashboard' | 'DistributorDashboard' | 'ManufacturerDashboard' | 'SupportDashboard' | 'AdminDashboard') =>
  lazy(() => import('./RoleDashboard').then((m) => ({ default: m[name] })));
const PartnerDashboard = dashboard('PartnerDashboard');
const DistributorDashboard = dashboard('DistributorDashboard');
const ManufacturerDashboard = dashboard('ManufacturerDashboard');
const SupportDashboard = dashboard('SupportDashboard');
const AdminDashboard = dashboard('AdminDashboard');

/** The role dashboards by their own URLs; `/` shows Home as react-admin's dashboard (App.tsx). */
export const dashboardScreens: Screen[] = [
  { path: '/dashboard', element: <Home /> },
  { path: '/administratordashboard', element: <AdminDashboard /> },
  { path: '/manufacturerdashboard', element: <ManufacturerDashboard /> },
  { path: '/distributordashboard', element: <DistributorDashboard /> },
  { path: '/partnerdashboard', element: <PartnerDashboard /> },
  { path: '/support-dashboard', element: <SupportDashboard /> },
  { path: '/sub-user-dashboard', element: <SubUserDashboard /> },
];
