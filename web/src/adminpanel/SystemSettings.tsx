import { Box, Paper, Tab, Tabs } from '@mui/material';
import { useSearchParams } from 'react-router-dom';
import { AccessControlSection } from './settings/AccessControlSection';
import { ApiKeysSection } from './settings/ApiKeysSection';
import { BackupSection } from './settings/BackupSection';
import { EmailTemplatesSection } from './settings/EmailTemplatesSection';
import { NotificationSection } from './settings/NotificationSection';
import { SecuritySection } from './settings/SecuritySection';
import { SupportContactSection } from './settings/SupportContactSection';

/** The areas of System Settings (spec 002's six, and Security & Sign-in), each with a real screen. System Configuration holds the support contact. */
export const SYSTEM_SETTINGS = [
  { key: 'configuration', label: 'System Configuration', screen: SupportContactSection },
  { key: 'templates', label: 'Email Templates', screen: EmailTemplatesSection },
  { key: 'notifications', label: 'Notification Settings', screen: NotificationSection },
  { key: 'access', label: 'Access Control', screen: AccessControlSection },
  { key: 'api-keys', label: 'API Keys', screen: ApiKeysSection },
  { key: 'security', label: 'Security & Sign-in', screen: SecuritySection },
  { key: 'backup', label: 'Backup Settings', screen: BackupSection },
] as const;
type SectionKey = (typeof SYSTEM_SETTINGS)[number]['key'];

export function SystemSettings() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('section');
  const section = SYSTEM_SETTINGS.find((s) => s.key === requested) ?? SYSTEM_SETTINGS[0];
  const Screen = section.screen;
  const choose = (key: SectionKey) => {
    const next = new URLSearchParams(params);
    next.set('section', key);
    setParams(next, { replace: true });
  };
  return (
    <Box sx={{ minWidth: 0 }}>
      <Paper variant="outlined" sx={{ mb: 2, minWidth: 0, maxWidth: '100%' }}>
        <Tabs
          value={section.key}
          onChange={(_, key: SectionKey) => choose(key)}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label="System settings sections"
        >
          {SYSTEM_SETTINGS.map((s) => (
            <Tab key={s.key} value={s.key} label={s.label} sx={{ textTransform: 'none' }} />
          ))}
        </Tabs>
      </Paper>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
        <Screen />
      </Paper>
    </Box>
  );
}
