import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { RouteGuard } from '../access/RouteGuard';

const AuditLog = lazy(() => import('./AuditLog'));

/** The admins' audit log, mounted among the app's custom routes. */
export const auditRoutes = [
  <Route
    key="audit"
    path="/audit"
    element={
      <RouteGuard path="/audit" title="Audit Log">
        <AuditLog />
      </RouteGuard>
    }
  />,
];
