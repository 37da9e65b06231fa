import type { OrderView } from '@contracts/orders';
import { COMMON_CARRIERS, nextStatuses, shipmentProblems, statusLabel } from '@domain/orders/orders';
import {
  Alert,
  Autocomplete,
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
import { useDialogAction } from '../lists';
import { ApiError } from '../providers/errorMapper';
import { changeOrderStatus } from './ordersApi';

/** The note a status change starts with; the administrator may rewrite it. */
export const defaultStatusNote = (status: string) => (status ? `Order ${statusLabel(status).toLowerCase()}.` : '');

/**
 * The administrator's Update Status dialog (spec 001 §2): only the allowed next statuses, the first
 * one preselected, notes prefilled; confirm disabled while updating, without a choice, or when the
 * choice is the current status. Shipping also asks for the carrier and the tracking number, which
 * the partner then sees on the tracking page and in the notification.
 */
export function OrderStatusDialog({ order, onClose, onUpdated }: { order: OrderView | null; onClose: () => void; onUpdated: (message: string) => void }) {
  const fullScreen = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const allowed = order ? nextStatuses(order.status) : [];
  const [status, setStatus] = useState('');
  const [notes, setNotes] = useState('');
  const [notesEdited, setNotesEdited] = useState(false);
  const [carrier, setCarrier] = useState('');
  const [trackingNumber, setTrackingNumber] = useState('');
  const [shipmentErrors, setShipmentErrors] = useState<{ carrier?: string; trackingNumber?: string }>({});
  // The notice is the dialog's error: a refusal, or that the chosen status is the current one.
  const {
    busy: updating,
    error: notice,
    setError: setNotice,
    run,
  } = useDialogAction(statusUpdateFailure, (_, error) => {
    if (error instanceof ApiError) setShipmentErrors({ carrier: error.fieldErrors.carrier, trackingNumber: error.fieldErrors.tracking_number });
  });

  useEffect(() => {
    const first = order ? (nextStatuses(order.status)[0] ?? '') : '';
    setStatus(first);
    setNotes(defaultStatusNote(first));
    setNotesEdited(false);
    setNotice(null);
    setCarrier('');
    setTrackingNumber('');
    setShipmentErrors({});
  }, [order, setNotice]);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice, setNotice]);

  if (!order) return null;
  const same = status === order.status;

  const confirm = async () => {
    if (same) {
      setNotice(STATUS_MESSAGES.sameStatus);
      return;
    }
    const shipping = status === 'shipped';
    if (shipping) {
      const problems = shipmentProblems({ carrier, trackingNumber });
      setShipmentErrors(problems);
      if (problems.carrier || problems.trackingNumber) return;
    }
    await run(
      () => changeOrderStatus(order.id, status, notes, shipping ? { carrier: carrier.trim(), tracking_number: trackingNumber.trim() } : undefined),
      (answer) => {
        onUpdated(answer.message ?? statusUpdatedMessage(order.order_id, status));
        onClose();
      },
    );
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
            {status === 'shipped' ? (
              <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }} data-testid="shipment-fields">
                <Autocomplete
                  freeSolo
                  options={COMMON_CARRIERS}
                  inputValue={carrier}
                  onInputChange={(_, value) => {
                    setCarrier(value);
                    setShipmentErrors((current) => ({ ...current, carrier: undefined }));
                  }}
                  renderInput={(params) => (
                    <TextField
                      {...params}
                      label="Carrier"
                      required
                      error={Boolean(shipmentErrors.carrier)}
                      helperText={shipmentErrors.carrier ?? 'Choose one or type its name.'}
                      slotProps={{ htmlInput: { ...params.inputProps, maxLength: 60, name: 'carrier' } }}
                    />
                  )}
                />
                <TextField
                  label="Tracking number"
                  name="tracking_number"
                  required
                  value={trackingNumber}
                  onChange={(event) => {
                    setTrackingNumber(event.target.value);
                    setShipmentErrors((current) => ({ ...current, trackingNumber: undefined }));
                  }}
                  error={Boolean(shipmentErrors.trackingNumber)}
                  helperText={shipmentErrors.trackingNumber ?? 'Shown to the partner with the carrier.'}
                  slotProps={{ htmlInput: { maxLength: 60 } }}
                />
              </Box>
            ) : null}
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
