import type { UnitWarranty, WarrantyCheckAnswer } from '@contracts/tickets';
import { Alert, Box, Button, Paper, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useAccess } from '../access/usePrincipal';
import { formatDate } from '../formatting';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { checkWarranty, requestRma } from './ticketsApi';

/** The Warranty/RMA tab: look a shipped unit up by serial number; a unit under warranty can be returned. */
export function WarrantyRma({ onTicket }: { onTicket: (ticketId: string) => void }) {
  const { canDo } = useAccess();
  const toast = useToast();
  const [serial, setSerial] = useState('');
  const [error, setError] = useState('');
  const [result, setResult] = useState<WarrantyCheckAnswer | null>(null);
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);

  const check = async () => {
    if (!serial.trim()) {
      setError('Serial number is required.');
      return;
    }
    setBusy(true);
    try {
      setResult(await checkWarranty(serial.trim()));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The serial number could not be checked.');
    } finally {
      setBusy(false);
    }
  };

  const rma = async (unit: UnitWarranty) => {
    setBusy(true);
    try {
      const answer = await requestRma({ serial_number: unit.serial_number, ...(description.trim() ? { description } : {}) });
      toast(`${answer.message}: ${answer.data.ticket_id}`, 'success');
      onTicket(answer.data.id);
    } catch (failure) {
      if (!(failure instanceof ApiError && failure.handled)) toast(failure instanceof Error ? failure.message : 'The return could not be requested.', 'error');
    } finally {
      setBusy(false);
    }
  };

  const unit = result?.data;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 760 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Warranty check
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Enter the serial number printed on the unit (for example SN-2026-001001-01001). It is also listed on the order's tracking page.
      </Typography>
      <Box
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          void check();
        }}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start' }}
      >
        <TextField
          label="Serial number"
          name="serial_number"
          size="small"
          value={serial}
          onChange={(e) => {
            setSerial(e.target.value);
            setError('');
          }}
          error={Boolean(error)}
          helperText={error}
          sx={{ flex: '1 1 260px' }}
        />
        <Button type="submit" variant="contained" disabled={busy}>
          Check Warranty
        </Button>
      </Box>
      {result && !unit ? (
        <Alert severity="warning" sx={{ mt: 2 }}>
          {result.message}
        </Alert>
      ) : null}
      {unit ? (
        <Box sx={{ mt: 2 }} data-testid="warranty-result">
          <Alert severity={unit.under_warranty ? 'success' : 'warning'} sx={{ mb: 2 }}>
            {result!.message}
          </Alert>
          <Box sx={{ display: 'grid', gap: 0.5, gridTemplateColumns: { xs: '1fr', sm: '160px 1fr' } }}>
            <Typography variant="body2" color="text.secondary">
              Product
            </Typography>
            <Typography variant="body2">{unit.product_name}</Typography>
            <Typography variant="body2" color="text.secondary">
              Serial number
            </Typography>
            <Typography variant="body2">{unit.serial_number}</Typography>
            <Typography variant="body2" color="text.secondary">
              Order
            </Typography>
            <Typography variant="body2">{unit.order_number}</Typography>
            <Typography variant="body2" color="text.secondary">
              Delivered
            </Typography>
            <Typography variant="body2">{unit.delivered_at ? formatDate(unit.delivered_at) : `Not yet (shipped ${formatDate(unit.shipped_at)})`}</Typography>
            <Typography variant="body2" color="text.secondary">
              Warranty ends
            </Typography>
            <Typography variant="body2">
              {formatDate(unit.warranty_ends_at)} ({unit.warranty_months} months)
            </Typography>
          </Box>
          {unit.under_warranty && canDo('create-support-case') ? (
            <Box sx={{ mt: 2, display: 'grid', gap: 1.5 }}>
              <TextField
                label="What is wrong with the unit?"
                name="rma_description"
                multiline
                minRows={2}
                value={description}
                onChange={(e) => setDescription(e.target.value)}
              />
              <Box>
                <Button variant="contained" color="secondary" disabled={busy} onClick={() => void rma(unit)}>
                  Request RMA
                </Button>
              </Box>
            </Box>
          ) : null}
        </Box>
      ) : null}
    </Paper>
  );
}
