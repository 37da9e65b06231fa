import CloseIcon from '@mui/icons-material/Close';
import { Alert, Box, Chip, CircularProgress, Drawer, IconButton, List, ListItem, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../formatting';
import { dataProvider, type StatusHistoryEntry } from '../providers/dataProvider';
import { messageOf } from '../providers/errorMapper';
import type { UserRecord } from './userRules';

const statusLabel = (status: string | null) =>
  status === null ? 'Created' : status.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/** The History panel: the user's status changes, with who made them and when. */
export function UserHistory({ record, onClose }: { record: UserRecord | null; onClose: () => void }) {
  const [rows, setRows] = useState<StatusHistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!record) return;
    let cancelled = false;
    setRows(null);
    setError(null);
    dataProvider
      .getHistory('users', record.id)
      .then((history) => !cancelled && setRows([...history].sort((a, b) => b.occurred_at.localeCompare(a.occurred_at))))
      .catch((e) => !cancelled && setError(messageOf(e, 'Failed to load the history')));
    return () => {
      cancelled = true;
    };
  }, [record]);

  return (
    <Drawer anchor="right" open={Boolean(record)} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 420 } } } }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', p: 2, borderBottom: 1, borderColor: 'divider' }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h2">
            History
          </Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {record?.full_name}
          </Typography>
        </Box>
        <IconButton aria-label="Close history" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Box sx={{ p: 2 }} data-testid="user-history">
        {error ? (
          <Alert severity="error">{error}</Alert>
        ) : rows === null ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
            <CircularProgress size={28} />
          </Box>
        ) : rows.length === 0 ? (
          <Typography color="text.secondary">No status changes yet.</Typography>
        ) : (
          <List disablePadding>
            {rows.map((row) => (
              <ListItem key={row.id} disableGutters divider sx={{ display: 'block', py: 1.5 }}>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                  <Chip size="small" label={row.from_status ? statusLabel(row.from_status) : 'Created'} />
                  <span aria-hidden>→</span>
                  <Chip size="small" color="primary" variant="outlined" label={statusLabel(row.to_status)} />
                </Box>
                <Typography variant="body2" sx={{ mt: 0.75 }}>
                  by {row.actor_name ?? 'System'}
                  {row.actor_role ? ` (${row.actor_role})` : ''}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {formatDateTime(row.occurred_at)}
                </Typography>
                {row.reason ? (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, wordBreak: 'break-word' }}>
                    {row.reason}
                  </Typography>
                ) : null}
              </ListItem>
            ))}
          </List>
        )}
      </Box>
    </Drawer>
  );
}
