import { rebateStatusLabel } from '@domain/rebates/rebates';
import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../formatting';
import type { StatusHistoryEntry } from '../providers/dataProvider';
import { messageOf } from '../providers/errorMapper';
import { getRebateHistory } from './rebatesApi';

const label = (status: string | null) => (status === null ? 'Submitted' : status === 'deleted' ? 'Deleted' : rebateStatusLabel(status));

/** A claim's status history, oldest first: each step with who took it, when, and the note or reason. */
export function RebateHistoryTimeline({ rebateId, version }: { rebateId: string; version?: string }) {
  const [rows, setRows] = useState<StatusHistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    setRows(null);
    setError(null);
    getRebateHistory(rebateId)
      .then((history) => !cancelled && setRows(history))
      .catch((e) => !cancelled && setError(messageOf(e, 'Failed to load the history')));
    return () => {
      cancelled = true;
    };
  }, [rebateId, version]);

  if (error) return <Alert severity="error">{error}</Alert>;
  if (!rows) return <CircularProgress size={24} />;
  return (
    <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="rebate-history">
      {rows.map((row) => (
        <Box component="li" key={row.id} data-testid="rebate-history-step" data-status={row.to_status} sx={{ borderLeft: 2, borderColor: 'primary.light', pl: 2, pb: 1.5, position: 'relative' }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {row.from_status === null ? 'Submitted' : label(row.to_status)}
          </Typography>
          <Typography variant="caption" color="text.secondary" component="p">
            {formatDateTime(row.occurred_at)} · {row.actor_name ?? 'System'}
            {row.actor_role ? ` (${row.actor_role})` : ''}
          </Typography>
          {row.reason ? (
            <Typography variant="body2" sx={{ mt: 0.5, wordBreak: 'break-word' }} data-testid="rebate-history-note">
              {row.reason}
            </Typography>
          ) : null}
        </Box>
      ))}
    </Box>
  );
}
