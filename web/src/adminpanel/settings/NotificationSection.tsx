import type { MailAudience } from '@domain/settings/notifications';
import { Alert, Box, Button, Checkbox, Chip, FormControlLabel, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { LoadError, Loading } from '../../layout/ListStates';
import { useToast } from '../../layout/toast';
import { ApiError } from '../../providers/errorMapper';
import { SectionHeading, SettingHistory } from './SettingHistory';
import { settingsApi, useSettingsData } from './settingsApi';

/**
 * Notification Settings: for each event, which kinds of account also get it by e-mail. The in-app
 * notification always goes out; the notifications worker reads this before every e-mail.
 */
export function NotificationSection() {
  const toast = useToast();
  const { data, setData, error, reload } = useSettingsData(settingsApi.notifications);
  const [draft, setDraft] = useState<Record<string, MailAudience[]>>({});
  const [saveError, setSaveError] = useState('');
  useEffect(() => {
    if (data) setDraft(Object.fromEntries(data.events.map((e) => [e.kind, e.audiences])));
  }, [data]);
  const groups = useMemo(() => [...new Set((data?.events ?? []).map((e) => e.group))], [data]);
  if (error) return <LoadError error={error} message="The notification settings could not be loaded." onRetry={reload} />;
  if (!data) return <Loading />;

  const changed = data.events.some((e) => JSON.stringify(draft[e.kind] ?? []) !== JSON.stringify(e.audiences));
  const toggle = (kind: string, audience: MailAudience) =>
    setDraft((d) => {
      const current = d[kind] ?? [];
      const next = current.includes(audience) ? current.filter((a) => a !== audience) : [...current, audience];
      return { ...d, [kind]: data.audiences.map((a) => a.id).filter((a) => next.includes(a)) };
    });
  const save = async () => {
    setSaveError('');
    try {
      const answer = await settingsApi.saveNotifications(draft);
      setData(answer.data);
      toast(answer.message ?? 'Notification settings saved', 'success');
    } catch (failure) {
      setSaveError(failure instanceof ApiError ? failure.message : 'The notification settings could not be saved.');
    }
  };

  return (
    <Box component="section" aria-label="Notification settings">
      <SectionHeading
        title="Notification settings"
        text="Every notification appears in the portal. Choose who also receives each one by e-mail; an account only ever gets notifications about its own records."
      >
        <SettingHistory setting="notification-settings" title="Notification settings" />
      </SectionHeading>
      {saveError ? (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {saveError}
        </Alert>
      ) : null}
      {groups.map((group) => (
        <Box key={group} sx={{ mb: 2 }}>
          <Typography variant="overline" component="h4" color="text.secondary">
            {group}
          </Typography>
          {data.events
            .filter((e) => e.group === group)
            .map((event) => (
              <Box key={event.kind} sx={{ py: 1, borderTop: 1, borderColor: 'divider' }} data-kind={event.kind}>
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {event.label}
                  </Typography>
                  {(draft[event.kind] ?? []).length === 0 ? <Chip size="small" label="In the portal only" /> : null}
                </Box>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 1 }}>
                  {data.audiences.map((audience) => (
                    <FormControlLabel
                      key={audience.id}
                      control={
                        <Checkbox size="small" checked={(draft[event.kind] ?? []).includes(audience.id)} onChange={() => toggle(event.kind, audience.id)} />
                      }
                      label={<Typography variant="body2">{audience.label}</Typography>}
                      sx={{ mr: 1 }}
                    />
                  ))}
                </Box>
              </Box>
            ))}
        </Box>
      ))}
      <Box
        sx={{
          position: 'sticky',
          bottom: 0,
          bgcolor: 'background.paper',
          py: 1.5,
          display: 'flex',
          gap: 1,
          flexWrap: 'wrap',
          borderTop: 1,
          borderColor: 'divider',
        }}
      >
        <Button variant="contained" disabled={!changed} onClick={() => void save()}>
          Save Notification Settings
        </Button>
        <Button disabled={!changed} onClick={() => setDraft(Object.fromEntries(data.events.map((e) => [e.kind, e.audiences])))}>
          Discard changes
        </Button>
      </Box>
    </Box>
  );
}
