import { RouteGuard } from '../access/RouteGuard';
import { Placeholder } from './Placeholder';
import type { PlaceholderRoute } from './placeholderRoutes';

export default function PlaceholderScreen({ route }: { route: PlaceholderRoute }) {
  const screen = <Placeholder title={route.title} subtitle={route.subtitle} description={route.description} />;
  const guardPath = route.path.split('/:')[0] ?? route.path;
  return route.guarded ? (
    <RouteGuard path={guardPath} title={route.title}>
      {screen}
    </RouteGuard>
  ) : (
    screen
  );
}
