import { isPermission, permissionLabel, ROLE_LABELS, isRole, normalizePermissions } from '@domain/access';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Box, Chip, Paper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { usePrincipal } from '../access/usePrincipal';

/** The user's role and permissions, as the restricted screens show them. */
export function RoleAndPermissions() {
  const principal = usePrincipal();
  const role = principal?.role ?? '';
  const permissions = normalizePermissions(principal?.permissions ?? []);
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="body2">
        <strong>Your role:</strong> {isRole(role) ? ROLE_LABELS[role] : role || '—'}
      </Typography>
      <Typography variant="body2" sx={{ mt: 1, mb: 0.5 }}>
        <strong>Your permissions:</strong>
      </Typography>
      {permissions.length ? (
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }} data-testid="current-permissions">
          {permissions.map((p) => (
            <Chip key={p} size="small" variant="outlined" label={isPermission(p) ? `${permissionLabel(p)} (${p})` : p} />
          ))}
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          None
        </Typography>
      )}
    </Box>
  );
}

/** A lock, what is needed, and the user's role and permissions. */
export function AccessRestricted({ title = 'Access Restricted', children }: { title?: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 4 }, maxWidth: 720, mx: 'auto', textAlign: 'center' }} role="alert" data-testid="access-restricted">
      <LockOutlinedIcon color="warning" sx={{ fontSize: 48 }} />
      <Typography variant="h6" component="h2" sx={{ mt: 1 }}>
        {title}
      </Typography>
      <Box sx={{ color: 'text.secondary', mt: 1 }}>{children}</Box>
      <Box sx={{ textAlign: 'left' }}>
        <RoleAndPermissions />
      </Box>
    </Paper>
  );
}
