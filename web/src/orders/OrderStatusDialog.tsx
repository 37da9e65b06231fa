import { nextStatuses, statusLabel } from '@domain/orders/orders';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { NOTICE_MS, STATUS_MESSAGES, statusUpdatedMessage, statusUpdateFailure } from './orderMessages';
import { OrderStatusChip } from './OrderStatusChip';
import { changeOrderStatus, type OrderRecord } from './ordersApi';

/** The note a status change starts with; the administrator may rewrite it. */
export const defaultStatusNote = (status: string) => (status ? `Order ${statusLabel(status).toLowerCase()}.` : '');

/**
 * The administrator's Update Status dialog (spec 001 §2): only the allowed next statuses, the first
 * one preselected, notes prefilled; confirm disabled while updating, without a choice, or when the
 * choice is the current status.
 */
export function OrderStatusDialog({ order, onClose, onUpdated }: { order: OrderRecord | null; onClose: () => void; onUpdated: (message: string) => void }) {
  const fullScreen = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const allowed = order ? nextStatuses(order.status) : [];
  const [status, setStatus] = useState('');
  const [notes, setNotes] = useState('');
  const [notesEdited, setNotesEdited] = useState(false);
  const [updating, setUpdating] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const first = order ? (nextStatuses(order.status)[0] ?? '') : '';
    setStatus(first);
    setNotes(defaultStatusNote(first));
    setNotesEdited(false);
    setNotice(null);
  }, [order]);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  if (!order) return null;
  const same = status === order.status;

  const confirm = async () => {
    if (same) {
      setNotice(STATUS_MESSAGES.sameStatus);
      return;
    }
    setUpdating(true);
    setNotice(null);
    try {
      const answer = await changeOrderStatus(order.id, status, notes);
      onUpdated(answer.message ?? statusUpdatedMessage(order.order_id, status));
      onClose();
    } catch (error) {
      setNotice(statusUpdateFailure(error));
    } finally {
      setUpdating(false);
    }
  };

  return (
    <Dialog open onClose={() => !updating && onClose()} fullWidth maxWidth="sm" fullScreen={fullScreen} aria-labelledby="order-status-title">
      <DialogTitle id="order-status-title">Update Order Status</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
          <Typography sx={{ fontWeight: 600, wordBreak: 'break-all' }}>{order.order_id}</Typography>
          <Typography color="text.secondary">·</Typography>
          <Typography color="text.secondary">Current status</Typography>
          <OrderStatusChip status={order.status} />
        </Box>
        {allowed.length === 0 ? (
          <Alert severity="info" data-testid="no-transitions">
            No valid status transitions available
          </Alert>
        ) : (
          <Box sx={{ display: 'grid', gap: 2 }}>
            <TextField
              select
              label="New status"
              value={status}
              onChange={(event) => {
                setStatus(event.target.value);
                if (!notesEdited) setNotes(defaultStatusNote(event.target.value));
              }}
              slotProps={{ select: { inputProps: { 'aria-label': 'New status' } } }}
            >
              {allowed.map((next) => (
                <MenuItem key={next} value={next}>
                  {statusLabel(next)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label="Notes"
              multiline
              minRows={3}
              value={notes}
              onChange={(event) => {
                setNotes(event.target.value);
                setNotesEdited(true);
              }}
              helperText="Shown to the ordering partner on the tracking page."
              slotProps={{ htmlInput: { maxLength: 1000 } }}
            />
          </Box>
        )}
        {notice ? (
          <Alert severity="error" sx={{ mt: 2 }} role="alert" data-testid="status-notice">
            {notice}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose} disabled={updating}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void confirm()} disabled={updating || !status || same}>
          {updating ? 'Updating...' : 'Update Status'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
