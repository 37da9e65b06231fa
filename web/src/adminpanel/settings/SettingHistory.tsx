import HistoryIcon from '@mui/icons-material/History';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useState } from 'react';
import { formatDateTime } from '../../formatting';
import type { SettingChange } from '@contracts/settings';
import { settingsApi } from './settingsApi';

const WORDS: Record<string, string> = {
  SupportContactChanged: 'Support contact changed',
  NotificationSettingsChanged: 'Notification settings changed',
  EmailTemplateChanged: 'Template changed',
  EmailTemplateReset: 'Reset to the standard wording',
};

/** Every change of one setting, newest first: settings are stored as events, so nothing is lost. */
export function SettingHistory({ setting, title }: { setting: string; title: string }) {
  const [open, setOpen] = useState(false);
  const [history, setHistory] = useState<SettingChange[] | null>(null);
  const [error, setError] = useState('');
  const show = () => {
    setOpen(true);
    setHistory(null);
    setError('');
    settingsApi.history(setting).then(
      (answer) => setHistory(answer.data.history),
      () => setError('The history could not be loaded.'),
    );
  };
  return (
    <>
      <Button size="small" startIcon={<HistoryIcon />} onClick={show}>
        History
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="sm" aria-labelledby={`history-${setting}`}>
        <DialogTitle id={`history-${setting}`}>History: {title}</DialogTitle>
        <DialogContent dividers>
          {error ? <Alert severity="error">{error}</Alert> : null}
          {history && history.length === 0 ? <Alert severity="info">Not changed yet: the standard setting applies.</Alert> : null}
          <List dense>
            {(history ?? []).map((change, index) => (
              <ListItem key={`${change.changed_at}-${index}`} disableGutters>
                <ListItemText
                  primary={WORDS[change.type] ?? change.type}
                  secondary={`${formatDateTime(change.changed_at)} · ${change.changed_by_name ?? 'the system'}`}
                />
              </ListItem>
            ))}
          </List>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** A section's heading line with its actions (history) on the right, wrapping on phones. */
export function SectionHeading({ title, text, children }: { title: string; text: string; children?: React.ReactNode }) {
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', justifyContent: 'space-between', mb: 1.5 }}>
      <Box sx={{ minWidth: 0, flex: '1 1 320px' }}>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {text}
        </Typography>
      </Box>
      {children}
    </Box>
  );
}
