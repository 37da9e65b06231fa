import { isPermission, PARTNER_APPROVAL_PERMISSION_GROUPS, type Permission } from '@domain/access';
import { isPartnerCategory, PARTNER_CATEGORIES, REJECTION_REASON_MAX } from '@domain/partners/application';
import { defaultPermissionsOfCategory } from '@domain/partners/categoryDefaults';
import { Alert, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useEffect, useState } from 'react';
import { PermissionGroupGrid } from '../access/PermissionGroupGrid';
import { ActionDialog } from '../layout/ActionDialog';
import { RejectionDialog } from '../layout/RejectionDialog';
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
    <PermissionGroupGrid
      groups={PARTNER_APPROVAL_PERMISSION_GROUPS}
      selected={selected}
      onChange={(next) => onChange(new Set([...next].filter(isPermission)))}
      named
      testId="approval-permission-picker"
    />
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
  return (
    <RejectionDialog
      subject={partner}
      titleId="reject-partner-title"
      title="Reject Partner"
      confirmLabel="Reject Partner"
      summary={
        <Typography variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {partner?.company_name}
        </Typography>
      }
      reasonName="rejection_reason"
      reasonMax={REJECTION_REASON_MAX}
      reasonSx={{ mt: 2 }}
      // The server says why, for instance that the application was decided meanwhile.
      failure="Failed to reject partner"
      failed={(error) => (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
      reject={(rejected, reason) => rejectPartner(rejected.id, reason)}
      onRejected={(answer) => {
        toast(answer.message || REJECTED_MESSAGE, 'success');
        onDone();
      }}
      onClose={onClose}
    />
  );
}
