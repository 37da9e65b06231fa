import { hasAnyPermission, isAdminRole } from '@domain/access';
import { Box } from '@mui/material';
import { usePrincipal } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';
import { AdminFunds } from './AdminFunds';
import { PartnerFunds } from './PartnerFunds';

/** /funds: Marketing Funds for an organisation, the Funds administration for admins. */
export default function FundsPage() {
  const principal = usePrincipal();
  if (!principal) return null;
  const admin = isAdminRole(principal.role);
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle
        title={admin ? 'Funds' : 'Marketing Funds'}
        subtitle={
          admin
            ? 'Market development funds: allocations, the request and claim queues, payouts.'
            : 'Request funds for marketing activities, claim them with proof, follow your balance.'
        }
      />
      {admin ? <AdminFunds /> : <PartnerFunds canRequest={hasAnyPermission(principal, ['MDF.Create'])} />}
    </Box>
  );
}
