import type { RebateView } from '@contracts/rebates';
import { formatUsd } from '@domain/money';
import CloseIcon from '@mui/icons-material/Close';
import DescriptionIcon from '@mui/icons-material/Description';
import DownloadIcon from '@mui/icons-material/Download';
import LinkIcon from '@mui/icons-material/Link';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  IconButton,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useState, type ReactNode } from 'react';
import { formatDate, formatDateTime } from '../formatting';
import { messageOf } from '../providers/errorMapper';
import { RecordHistory } from '../history';
import { RebateStatusChip } from './RebateStatusChip';
import { downloadAttachment } from './rebatesApi';

const kb = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="p">
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Box>
  );
}

/** One claim: its fields, the order it matches, its documents and its status history. `actions` are the caller's buttons. */
export function RebateDetail({
  rebate,
  onClose,
  actions,
  showOrganisation,
}: {
  rebate: RebateView | null;
  onClose: () => void;
  actions?: ReactNode;
  showOrganisation?: boolean;
}) {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const [error, setError] = useState<string | null>(null);
  if (!rebate) return null;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby="rebate-detail-title">
      <DialogTitle id="rebate-detail-title" sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 6 }}>
        <Box component="span" sx={{ overflowWrap: 'anywhere' }}>
          Rebate {rebate.invoice_number}
        </Box>
        <RebateStatusChip status={rebate.status} />
        <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        {rebate.match_note ? (
          <Alert severity="info" icon={<LinkIcon />} sx={{ mb: 2 }} data-testid="rebate-match">
            This claim {rebate.match_note}
            {rebate.matched_order?.matched_by === 'product_and_amount' ? ' (same product and amount, delivered)' : ' (the invoice number is the order number)'}.
          </Alert>
        ) : null}
        {rebate.status === 'rejected' && rebate.rejection_reason ? (
          <Alert severity="error" sx={{ mb: 2 }} data-testid="rebate-rejection-reason">
            <strong>Rejected:</strong> {rebate.rejection_reason}
          </Alert>
        ) : null}
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, minmax(0, 1fr))' }, gap: 2 }}>
          {showOrganisation ? <Field label="Organisation">{rebate.company_name ?? '—'}</Field> : null}
          <Field label="Product">{rebate.product_name}</Field>
          <Field label="Category">{rebate.product_category}</Field>
          <Field label="Rebate type">{rebate.rebate_type}</Field>
          <Field label="Invoice number">{rebate.invoice_number}</Field>
          <Field label="Purchase date">{formatDate(`${rebate.purchase_date}T12:00:00Z`)}</Field>
          <Field label="Purchase amount">{formatUsd(rebate.purchase_amount)}</Field>
          <Field label="Rebate amount">{rebate.rebate_amount === null ? '—' : formatUsd(rebate.rebate_amount)}</Field>
          <Field label="Submitted">
            {formatDateTime(rebate.submitted_date)}
            {rebate.submitted_by_name ? ` by ${rebate.submitted_by_name}` : ''}
          </Field>
          {rebate.reviewed_at ? (
            <Field label="Reviewed">
              {formatDateTime(rebate.reviewed_at)}
              {rebate.reviewed_by_name ? ` by ${rebate.reviewed_by_name}` : ''}
            </Field>
          ) : null}
          {rebate.notes && rebate.status !== 'rejected' ? <Field label="Reviewer's note">{rebate.notes}</Field> : null}
        </Box>
        <Box sx={{ mt: 2 }}>
          <Field label="Description">{rebate.description}</Field>
        </Box>
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          Supporting documents
        </Typography>
        {error ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {error}
          </Alert>
        ) : null}
        {rebate.attachments.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No documents attached.
          </Typography>
        ) : (
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
            {rebate.attachments.map((attachment) => (
              <Box component="li" key={attachment.file} data-testid="rebate-document" sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                <DescriptionIcon color="action" fontSize="small" />
                <Typography variant="body2" noWrap sx={{ flex: 1, minWidth: 0 }} title={attachment.name}>
                  {attachment.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {kb(attachment.size)}
                </Typography>
                <Button
                  size="small"
                  startIcon={<DownloadIcon />}
                  aria-label={`Download ${attachment.name}`}
                  onClick={() => {
                    setError(null);
                    downloadAttachment(attachment).catch((e) => setError(messageOf(e, 'Failed to download the document')));
                  }}
                >
                  Download
                </Button>
              </Box>
            ))}
          </Box>
        )}
        <Divider sx={{ my: 2 }} />
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          History
        </Typography>
        {/* Keyed on the claim's last change, so a review made in this dialog shows at once. */}
        <RecordHistory key={rebate.updated_at} path="/rebates" id={rebate.id} />
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {actions}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
