import { lazy } from 'react';
import type { Screen } from '../layout/screens';

const TeamManagement = lazy(() => import('./TeamManagement'));

/** The two team-management screens. */
export const teamScreens: Screen[] = [
  { path: '/partner/team-management', element: <TeamManagement kind="partner" /> },
  { path: '/distributor/team-management', element: <TeamManagement kind="distributor" /> },
];
