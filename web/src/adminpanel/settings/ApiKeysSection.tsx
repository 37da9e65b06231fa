import { Box, Paper, Typography } from '@mui/material';
import { ApiKeysManager } from '../../apiKeys/ApiKeysManager';
import { SectionHeading } from './SettingHistory';

/** API Keys: the vendor's keys for analysts' tools and integrations, each with its scopes, expiry and rotation. */
export function ApiKeysSection() {
  return (
    <Box component="section" aria-label="API keys">
      <SectionHeading
        title="API keys"
        text="Vendor keys let analysts' tools and integrations call the portal across every organisation, within the scopes each is given (a BI tool reads orders and rebates; a web form creates leads). Partners and distributors make keys for their own organisation on their API Keys page."
      />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="body2">
          Send the key with each request as <code>X-Api-Key: phk_…</code> or <code>Authorization: Bearer phk_…</code>, for example{' '}
          <code style={{ wordBreak: 'break-all' }}>GET /api/orders?limit=100</code>. Every key expires; rotate it before then, with an overlap so the tool can
          switch without a gap. A revoked key is refused at once.
        </Typography>
      </Paper>
      <ApiKeysManager owner="vendor" />
    </Box>
  );
}
