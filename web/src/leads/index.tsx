import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { RouteGuard } from '../access/RouteGuard';

const LeadsPage = lazy(() => import('./LeadsPage'));
const LeadDetail = lazy(() => import('./LeadDetail'));
const LeadManagement = lazy(() => import('./LeadManagement'));

/** The lead screens, mounted among the app's custom routes. */
export const leadRoutes = [
  <Route key="leads" path="/leads" element={<RouteGuard path="/leads" title="Leads"><LeadsPage /></RouteGuard>} />,
  <Route key="lead" path="/leads/:id" element={<RouteGuard path="/leads" title="Lead"><LeadDetail /></RouteGuard>} />,
  <Route key="lead-management" path="/lead-management" element={<RouteGuard path="/lead-management" title="Lead Management"><LeadManagement /></RouteGuard>} />,
];
