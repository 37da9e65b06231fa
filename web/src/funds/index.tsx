import { lazy } from 'react';
import { Route } from 'react-router-dom';
import { RouteGuard } from '../access/RouteGuard';

const FundsPage = lazy(() => import('./FundsPage'));

/** The market development funds screen, mounted among the app's custom routes. */
export const fundRoutes = [
  <Route
    key="funds"
    path="/funds"
    element={
      <RouteGuard path="/funds" title="Marketing Funds">
        <FundsPage />
      </RouteGuard>
    }
  />,
];
