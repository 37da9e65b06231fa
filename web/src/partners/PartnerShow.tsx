import { isPermission, permissionLabel } from '@domain/access';
import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  List,
  ListItem,
  Tab,
  Tabs,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../formatting';
import { messageOf } from '../providers/errorMapper';
import { FieldRow, fieldText, PARTNER_SECTIONS, PartnerLogo, PartnerStatusChip } from './PartnerParts';
import { getPartner, getPartnerHistory, type PartnerHistoryEntry, type PartnerRecord } from './partnersApi';

const statusLabel = (status: string | null) => (status ? status.charAt(0).toUpperCase() + status.slice(1) : 'Created');

/** The application's history: who did what, when, and why. */
export function PartnerHistory({ partnerId }: { partnerId: string }) {
  const [rows, setRows] = useState<PartnerHistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    setRows(null);
    setError(null);
    getPartnerHistory(partnerId)
      .then((history) => !cancelled && setRows([...history].reverse()))
      .catch((e) => !cancelled && setError(messageOf(e, 'Failed to load the history')));
    return () => {
      cancelled = true;
    };
  }, [partnerId]);

  if (error) return <Alert severity="error">{error}</Alert>;
  if (rows === null)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
        <CircularProgress size={28} />
      </Box>
    );
  return (
    <List disablePadding data-testid="partner-history">
      {rows.map((row) => (
        <ListItem key={row.id} disableGutters divider sx={{ display: 'block', py: 1.5 }} data-testid="partner-history-entry">
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="subtitle2" component="span" sx={{ overflowWrap: 'anywhere' }}>
              {row.action}
            </Typography>
            {row.from_status !== null || row.event_type === 'PartnerApplicationSubmitted.v1' ? (
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                {row.from_status ? <Chip size="small" label={statusLabel(row.from_status)} /> : null}
                {row.from_status ? <span aria-hidden>→</span> : null}
                <Chip size="small" color="primary" variant="outlined" label={statusLabel(row.to_status)} />
              </Box>
            ) : null}
          </Box>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            by {row.actor_name ?? 'System'}
            {row.actor_role ? ` (${row.actor_role})` : ''}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {formatDateTime(row.occurred_at)}
          </Typography>
          {row.reason ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
              Reason: {row.reason}
            </Typography>
          ) : null}
          {Array.isArray(row.details?.permissions) ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              Permissions: {row.details.permissions.length ? row.details.permissions.map((p) => (isPermission(p) ? permissionLabel(p) : p)).join(', ') : 'none'}
            </Typography>
          ) : null}
        </ListItem>
      ))}
    </List>
  );
}

/**
 * The partner detail modal: the whole application in sections, and (for admins) its history. Approve
 * and Reject are offered while it is pending.
 */
export function PartnerShow({
  partner,
  onClose,
  isAdmin,
  onApprove,
  onReject,
  initialTab = 'application',
}: {
  partner: PartnerRecord | null;
  onClose: () => void;
  isAdmin: boolean;
  onApprove?: (partner: PartnerRecord) => void;
  onReject?: (partner: PartnerRecord) => void;
  /** History opens the decision history directly (the cards' and User Management's History buttons). */
  initialTab?: 'application' | 'history';
}) {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const [tab, setTab] = useState<'application' | 'history'>(initialTab);
  const [record, setRecord] = useState<PartnerRecord | null>(partner);

  useEffect(() => {
    setTab(isAdmin ? initialTab : 'application');
    setRecord(partner);
    if (!partner) return;
    let cancelled = false;
    // The list may be a moment old: show the record as it is now.
    getPartner(partner.id)
      .then((fresh) => !cancelled && setRecord(fresh))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [partner]);

  const shown = record ?? partner;
  return (
    <Dialog open={Boolean(partner)} onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby="partner-detail-title">
      <DialogTitle id="partner-detail-title" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, pr: 6 }}>
        {shown ? <PartnerLogo partner={shown} size={40} /> : null}
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="span" sx={{ display: 'block', overflowWrap: 'anywhere', lineHeight: 1.3 }}>
            {shown?.company_name}
          </Typography>
          {shown ? <PartnerStatusChip status={shown.status} /> : null}
        </Box>
        <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      {isAdmin ? (
        <Tabs value={tab} onChange={(_, value) => setTab(value)} sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
          <Tab value="application" label="Application" />
          <Tab value="history" label="History" />
        </Tabs>
      ) : null}
      <DialogContent sx={{ pt: 2 }}>
        {shown && tab === 'application' ? (
          <Box data-testid="partner-detail">
            {PARTNER_SECTIONS.map((section) => (
              <Box key={section.title} component="section" sx={{ mb: 2.5 }}>
                <Typography variant="subtitle2" component="h3" sx={{ mb: 0.5, color: 'primary.dark' }}>
                  {section.title}
                </Typography>
                {section.fields
                  .filter((field) => field.key in shown)
                  .map((field) => (
                    <FieldRow key={field.key} label={field.label} value={fieldText(shown, field)} />
                  ))}
              </Box>
            ))}
          </Box>
        ) : null}
        {shown && tab === 'history' ? <PartnerHistory partnerId={shown.id} /> : null}
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {isAdmin && shown?.status === 'pending' ? (
          <>
            <Button color="error" variant="outlined" onClick={() => onReject?.(shown)}>
              Reject
            </Button>
            <Button color="success" variant="contained" onClick={() => onApprove?.(shown)}>
              Approve
            </Button>
          </>
        ) : null}
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
