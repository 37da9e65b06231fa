import { Alert, Box, Button } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { usePrincipal } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';

/**
 * Governance belongs to a partner or distributor account. Anyone else is told where the same facts
 * live for them instead of meeting a refused call.
 */
export function GovernanceGate({ children }: { children: ReactNode }) {
  const principal = usePrincipal();
  if (!principal) return null;
  if (principal.role === 'partner' || principal.role === 'distributor') return <>{children}</>;
  const admin = principal.role === 'admin' || principal.role === 'administrator';
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title="Partnership Governance" />
      <Alert
        severity="info"
        action={
          admin ? (
            <Button component={RouterLink} to="/adminpanel" color="inherit" size="small">
              Admin Panel
            </Button>
          ) : undefined
        }
      >
        {admin
          ? "Partnership governance shows a partner's or distributor's own agreement, orders, team and rebate programme. Review partners in the Admin Panel."
          : "Partnership governance is kept by your organisation's account owner. Ask them for the agreement details."}
      </Alert>
    </Box>
  );
}
