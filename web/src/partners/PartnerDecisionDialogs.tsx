import { PARTNER_APPROVAL_PERMISSION_GROUPS, permissionLabel, type Permission } from '@domain/access';
import { isPartnerCategory, PARTNER_CATEGORIES, REJECTION_REASON_MAX } from '@domain/partners/application';
import { defaultPermissionsOfCategory } from '@domain/partners/categoryDefaults';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormLabel,
  Paper,
  Radio,
  RadioGroup,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { ActionDialog } from '../layout/ActionDialog';
import { RejectionReasonField } from '../layout/RejectionReasonField';
import { useToast } from '../layout/toast';
import { useDialogAction } from '../lists';
import { approvePartner, rejectPartner, type PartnerRecord } from './partnersApi';

export const APPROVED_MESSAGE = 'Partner approved';
export const APPROVE_FAILED_MESSAGE = 'Failed to approve partner';
export const REJECTED_MESSAGE = 'Partner rejected successfully';

/** The picker starts from the chosen category's usual permissions; nothing before a category is chosen. */
const defaultSelection = (category: string) => new Set<Permission>(isPartnerCategory(category) ? defaultPermissionsOfCategory(category) : []);

/** The grouped permission picker of the approve dialog: Projects, Orders, Rebate, Support, each with Select All and Clear All. */
export function ApprovalPermissionPicker({ selected, onChange }: { selected: Set<Permission>; onChange: (next: Set<Permission>) => void }) {
  return (
    <Box data-testid="approval-permission-picker" sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}>
      {PARTNER_APPROVAL_PERMISSION_GROUPS.map((group) => (
        <Paper key={group.key} variant="outlined" sx={{ p: 1.5, minWidth: 0 }} data-group={group.title}>
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
            <Typography variant="body2" component="h4" sx={{ fontWeight: 600 }}>
              {group.title}
            </Typography>
            <Box>
              <Button
                size="small"
                sx={{ minWidth: 0, px: 0.75 }}
                aria-label={`Select All ${group.title}`}
                onClick={() => onChange(new Set([...selected, ...group.permissions]))}
              >
                Select All
              </Button>
              <Button
                size="small"
                sx={{ minWidth: 0, px: 0.75 }}
                aria-label={`Clear All ${group.title}`}
                onClick={() => onChange(new Set([...selected].filter((p) => !group.permissions.includes(p))))}
              >
                Clear All
              </Button>
            </Box>
          </Box>
          {group.permissions.map((permission) => (
            <FormControlLabel
              key={permission}
              sx={{ display: 'flex', mr: 0 }}
              control={
                <Checkbox
                  size="small"
                  name={permission}
                  checked={selected.has(permission)}
                  onChange={(event) => {
                    const next = new Set(selected);
                    if (event.target.checked) next.add(permission);
                    else next.delete(permission);
                    onChange(next);
                  }}
                />
              }
              label={<Typography variant="body2">{permissionLabel(permission)}</Typography>}
            />
          ))}
        </Paper>
      ))}
    </Box>
  );
}

/** Approve Partner: the company, its category and the permissions its account gets. */
export function ApproveDialog({ partner, onClose, onDone }: { partner: PartnerRecord | null; onClose: () => void; onDone: () => void }) {
  const toast = useToast();
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const [category, setCategory] = useState('');
  const [permissions, setPermissions] = useState<Set<Permission>>(() => defaultSelection(''));
  const { busy, error, setError, run } = useDialogAction(APPROVE_FAILED_MESSAGE, (message) => toast(message, 'error'));

  useEffect(() => {
    if (!partner) return;
    const requested = isPartnerCategory(partner.requested_category) ? partner.requested_category : '';
    setCategory(requested);
    setPermissions(defaultSelection(requested));
    setError(null);
  }, [partner, setError]);

  // A new category starts over from its defaults; the admin then adds or removes single permissions.
  const chooseCategory = (next: string) => {
    setCategory(next);
    setPermissions(defaultSelection(next));
  };

  const submit = async () => {
    if (!partner || !category) return;
    await run(
      () => approvePartner(partner.id, category, [...permissions]),
      (answer) => {
        toast(answer.message || APPROVED_MESSAGE, 'success');
        onDone();
        onClose();
      },
    );
  };

  return (
    <ActionDialog
      open={Boolean(partner)}
      titleId="approve-partner-title"
      title="Approve Partner"
      busy={busy}
      onClose={onClose}
      onConfirm={submit}
      confirmLabel="Approve Partner"
      busyLabel="Approving..."
      color="success"
      confirmDisabled={!category}
      maxWidth="md"
      fullScreen={phone}
      dividers
    >
      <Typography variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }} data-testid="approve-company">
        {partner?.company_name}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Choose the partnership category and what the partner may do in the portal.
      </Typography>
      <FormControl sx={{ mb: 2 }}>
        <FormLabel id="partner-category-label" sx={{ fontWeight: 600, color: 'text.primary' }}>
          Partner Category
        </FormLabel>
        <RadioGroup aria-labelledby="partner-category-label" name="category" value={category} onChange={(event) => chooseCategory(event.target.value)}>
          {PARTNER_CATEGORIES.map((choice) => (
            <FormControlLabel key={choice} value={choice} control={<Radio size="small" />} label={choice} />
          ))}
        </RadioGroup>
      </FormControl>
      <Typography variant="subtitle2" component="h3">
        Permissions
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="approve-permissions-hint">
        {category ? `The usual permissions of a ${category} are ticked; change them as needed.` : 'Choose a category to start from its usual permissions.'}
      </Typography>
      <ApprovalPermissionPicker selected={permissions} onChange={setPermissions} />
      {error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      ) : null}
    </ActionDialog>
  );
}

/** Reject Partner: a reason of at most 500 characters, which the applicant reads. */
export function RejectDialog({ partner, onClose, onDone }: { partner: PartnerRecord | null; onClose: () => void; onDone: () => void }) {
  const toast = useToast();
  const [reason, setReason] = useState('');
  // The server says why, for instance that the application was decided meanwhile.
  const { busy, error, setError, run } = useDialogAction('Failed to reject partner');

  useEffect(() => {
    if (!partner) return;
    setReason('');
    setError(null);
  }, [partner, setError]);

  const blank = reason.trim() === '';
  const submit = async () => {
    if (!partner || blank) return;
    await run(
      () => rejectPartner(partner.id, reason.trim()),
      (answer) => {
        toast(answer.message || REJECTED_MESSAGE, 'success');
        onDone();
        onClose();
      },
    );
  };

  return (
    <ActionDialog
      open={Boolean(partner)}
      titleId="reject-partner-title"
      title="Reject Partner"
      busy={busy}
      onClose={onClose}
      onConfirm={submit}
      confirmLabel="Reject Partner"
      busyLabel="Rejecting..."
      confirmDisabled={blank}
      maxWidth="sm"
      dividers
    >
      <Typography variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {partner?.company_name}
      </Typography>
      <RejectionReasonField name="rejection_reason" value={reason} onChange={setReason} max={REJECTION_REASON_MAX} sx={{ mt: 2 }} />
      {error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      ) : null}
    </ActionDialog>
  );
}
