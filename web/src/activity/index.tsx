import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { RouteGuard } from '../access/RouteGuard';

const ActivityPage = lazy(() => import('./ActivityPage'));

/** The organisation's activity page, mounted among the app's custom routes. */
export const activityRoutes = [
  <Route
    key="activity"
    path="/activity"
    element={
      <RouteGuard path="/activity" title="Activity">
        <ActivityPage />
      </RouteGuard>
    }
  />,
];
