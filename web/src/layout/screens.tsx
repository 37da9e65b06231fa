import type { ReactElement, ReactNode } from 'react';
import { Route } from 'react-router-dom';
import { RouteGuard } from '../access/RouteGuard';

/**
 * A signed-in screen as its module declares it. `guard` puts the screen behind the shared route rules
 * (domain/access): `path` is the rule's path (the screen's own when left out), `title` heads the
 * "Access restricted" page, and `redirectTo` sends a refused visitor away instead.
 */
export interface Screen {
  path: string;
  element: ReactNode;
  guard?: { title: string; path?: string; redirectTo?: string };
}

/** The screens as routes for react-admin's CustomRoutes, which accepts only <Route> elements. */
export function screenRoutes(screens: readonly Screen[]): ReactElement[] {
  return screens.map(({ path, element, guard }) => (
    <Route
      key={path}
      path={path}
      element={
        guard ? (
          <RouteGuard path={guard.path ?? path} title={guard.title} redirectTo={guard.redirectTo}>
            {element}
          </RouteGuard>
        ) : (
          element
        )
      }
    />
  ));
}
