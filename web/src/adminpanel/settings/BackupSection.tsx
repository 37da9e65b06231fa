import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Paper, Typography } from '@mui/material';
import { useState } from 'react';
import { formatDateTime } from '../../formatting';
import { LoadError, Loading } from '../../layout/ListStates';
import { ApiError } from '../../providers/errorMapper';
import { SectionHeading } from './SettingHistory';
import { settingsApi, useSettingsData } from './settingsApi';

/** Backup Settings: what protects the data, and a download of the event log. */
export function BackupSection() {
  const { data, error, reload } = useSettingsData(settingsApi.backup);
  const [downloadError, setDownloadError] = useState('');
  const [busy, setBusy] = useState(false);
  const downloadLog = async () => {
    setDownloadError('');
    setBusy(true);
    try {
      await settingsApi.downloadEventLog();
    } catch (failure) {
      setDownloadError(failure instanceof ApiError ? failure.message : 'The event log could not be downloaded.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="section" aria-label="Backup settings">
      <SectionHeading title="Backup" text="What protects the portal's data, and a copy you can keep." />
      <Typography variant="body2" sx={{ mb: 1 }}>
        Every change in PartnerHub is recorded as an event in an append-only event log: nothing is ever overwritten or deleted. The lists, dashboards and
        figures you see are rebuilt from that log, so the log is the one thing that must be backed up. The database that holds it is backed up by your hosting
        (point-in-time recovery of the Postgres database or EventStoreDB).
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        For a copy of your own, download the whole log: one JSON event per line, oldest first. It holds everything, including password hashes and API key
        hashes, so store it as securely as the database itself.
      </Typography>
      {error ? <LoadError error={error} message="The event log summary could not be loaded." onRetry={reload} /> : null}
      {!data && !error ? <Loading /> : null}
      {data ? (
        <Paper variant="outlined" sx={{ p: 2, mb: 2, display: 'grid', gap: 1, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, minmax(0, 1fr))' } }}>
          {[
            ['Events', data.events.toLocaleString('en-US')],
            ['Records', data.streams.toLocaleString('en-US')],
            ['First event', formatDateTime(data.first_event_at)],
            ['Latest event', formatDateTime(data.last_event_at)],
          ].map(([label, value]) => (
            <Box key={label} sx={{ minWidth: 0 }}>
              <Typography variant="caption" color="text.secondary">
                {label}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Paper>
      ) : null}
      {downloadError ? (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {downloadError}
        </Alert>
      ) : null}
      <Button variant="contained" startIcon={<DownloadIcon />} disabled={busy} onClick={() => void downloadLog()}>
        Download Event Log
      </Button>
    </Box>
  );
}
