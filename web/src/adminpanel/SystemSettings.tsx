import { Box, Button, Typography } from '@mui/material';
import { PanelComing } from './PanelComing';

export const SYSTEM_SETTINGS = ['System Configuration', 'Email Templates', 'Notification Settings', 'Access Control', 'API Keys', 'Backup Settings'];

/** System Settings: the six areas, not yet configurable. */
export function SystemSettings() {
  return (
    <>
      <PanelComing title="System Settings" text="These settings areas are not configurable yet; they will open in an upcoming release." />
      <Box sx={{ display: 'grid', gap: 1.5, mt: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' } }}>
        {SYSTEM_SETTINGS.map((label) => (
          <Button key={label} variant="outlined" disabled sx={{ justifyContent: 'flex-start', py: 1.5 }}>
            <Typography variant="body2">{label}</Typography>
          </Button>
        ))}
      </Box>
    </>
  );
}
