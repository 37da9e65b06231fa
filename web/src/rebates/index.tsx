import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { RouteGuard } from '../access/RouteGuard';

const RebatesPage = lazy(() => import('./RebatesPage'));

/** The rebates screens, mounted among the app's custom routes. */
export const rebateRoutes = [
  <Route
    key="rebates"
    path="/rebates"
    element={
      <RouteGuard path="/rebates" title="Rebates">
        <RebatesPage />
      </RouteGuard>
    }
  />,
];
