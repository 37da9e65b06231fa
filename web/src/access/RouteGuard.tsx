import { CONTACT_ADMIN_MESSAGE } from '@domain/access';
import { Alert, Box } from '@mui/material';
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { PageTitle } from '../layout/PageTitle';
import { useAccess } from './usePrincipal';

/**
 * Guards a screen with the shared route rules. `/adminpanel` sends a refused visitor to `/`;
 * other guarded screens explain that access is restricted.
 */
export function RouteGuard({ path, title, redirectTo, children }: { path: string; title: string; redirectTo?: string; children: ReactNode }) {
  const { canOpen } = useAccess();
  if (canOpen(path)) return <>{children}</>;
  if (redirectTo) return <Navigate to={redirectTo} replace />;
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title={title} />
      <Alert severity="warning" sx={{ maxWidth: 640 }}>
        <strong>Access restricted.</strong> {CONTACT_ADMIN_MESSAGE}
      </Alert>
    </Box>
  );
}
