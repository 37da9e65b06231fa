import { PERMISSION_DENIED_MESSAGE } from '@domain/access';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Box, Tooltip, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useAccess } from './usePrincipal';

export interface PermissionGuardProps {
  /** A screen action such as `new-project`, checked with the shared action rules. */
  action?: string;
  /** With `action`, a resource name (`users`, `orders`…) to check a resource action instead. */
  resource?: string;
  /** A route such as `/rebates`, checked with the shared route rules. */
  route?: string;
  /** What to do when access is refused: hide (default), show `fallback`, or show a disabled overlay. */
  mode?: 'hide' | 'fallback' | 'disable';
  fallback?: ReactNode;
  children: ReactNode;
}

/**
 * Shows its children only when the signed-in user may perform the action (spec 000 §6): otherwise
 * hides them, shows a fallback, or shows them disabled under an overlay that says why.
 */
export function PermissionGuard({ action, resource, route, mode = 'hide', fallback = null, children }: PermissionGuardProps) {
  const { can, canOpen, canDo } = useAccess();
  const allowed =
    (route === undefined || canOpen(route)) &&
    (action === undefined || (resource ? can(action, resource) : canDo(action)));
  if (allowed) return <>{children}</>;
  if (mode === 'fallback') return <>{fallback}</>;
  if (mode === 'disable') {
    return (
      <Tooltip title={PERMISSION_DENIED_MESSAGE}>
        <Box sx={{ position: 'relative', display: 'inline-block', maxWidth: '100%' }} data-testid="permission-overlay">
          <Box aria-hidden sx={{ opacity: 0.45, pointerEvents: 'none', userSelect: 'none' }} inert>
            {children}
          </Box>
          <Box
            role="note"
            sx={{
              position: 'absolute',
              inset: 0,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 0.5,
              bgcolor: 'rgba(255,255,255,0.6)',
              cursor: 'not-allowed',
              p: 0.5,
            }}
          >
            <LockOutlinedIcon fontSize="small" color="action" />
            <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center' }}>
              {PERMISSION_DENIED_MESSAGE}
            </Typography>
          </Box>
        </Box>
      </Tooltip>
    );
  }
  return null;
}
