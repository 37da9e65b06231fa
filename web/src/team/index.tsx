import { lazy } from 'react';
import { Route } from 'react-router-dom';

const TeamManagement = lazy(() => import('./TeamManagement'));

/** The two team-management screens, mounted among the signed-in routes. */
export const teamRoutes = [
  <Route key="partner-team" path="/partner/team-management" element={<TeamManagement kind="partner" />} />,
  <Route key="distributor-team" path="/distributor/team-management" element={<TeamManagement kind="distributor" />} />,
];
