import { Box, Typography } from '@mui/material';
import { PageTitle } from '../layout/PageTitle';
import { ApiKeysManager } from './ApiKeysManager';

/** /api-keys: an organisation's owner makes keys for its own systems (a CRM registering deals, an ERP reading orders). */
export default function OrganisationApiKeysPage() {
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1200 }}>
      <PageTitle
        title="API Keys"
        subtitle="Keys let your own systems call the portal for your organisation: a CRM registering deals, an ERP reading your orders."
      />
      <Typography variant="body2" sx={{ mb: 2 }}>
        Send a key with each request as <code>X-Api-Key: phk_…</code> or <code>Authorization: Bearer phk_…</code>. Each key reaches only the scopes you give it,
        until the day it expires.
      </Typography>
      <ApiKeysManager owner="organisation" />
    </Box>
  );
}
