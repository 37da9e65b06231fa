import { organisationsNamedIn } from '@domain/projects/registration';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useToast } from '../layout/toast';
import { useDialogAction } from '../lists';
import { decideExtension, getPartnerChoices, requestExtension, reviewRegistration, type ProjectRecord } from './projectsApi';

/** Reasons the partner reads: the admin is warned when one names another organisation. */
const SHARED_WITH_PARTNER: ReadonlySet<RegistrationAction> = new Set(['reject', 'extension-decline', 'approve']);

const MAX_REASON = 500;

export type RegistrationAction = 'approve' | 'reject' | 'extension-request' | 'extension-approve' | 'extension-decline';

const COPY: Record<RegistrationAction, { title: string; text: (p: ProjectRecord) => string; label: string; confirm: string; required: boolean }> = {
  approve: {
    title: 'Approve registration',
    text: (p) =>
      p.registration_status === 'conflict'
        ? 'Both registrations will stand. Say why, for the record and both partners.'
        : `Approve the registration of "${p.title}".`,
    label: 'Note',
    confirm: 'Approve',
    required: false,
  },
  reject: {
    title: 'Reject registration',
    text: (p) => `Reject the registration of "${p.title}". The reason is shared with the partner.`,
    label: 'Reason',
    confirm: 'Reject',
    required: true,
  },
  'extension-request': {
    title: 'Request an extension',
    text: () => 'A registration can be extended once, by 30 days, if requested before it expires. An administrator reviews the request.',
    label: 'Reason',
    confirm: 'Request Extension',
    required: true,
  },
  'extension-approve': {
    title: 'Approve extension',
    text: (p) => `Extend "${p.title}" by 30 days. Partner's reason: ${p.extension_reason ?? '—'}`,
    label: 'Note',
    confirm: 'Approve Extension',
    required: false,
  },
  'extension-decline': {
    title: 'Decline extension',
    text: (p) => `Decline the extension of "${p.title}". The reason is shared with the partner.`,
    label: 'Reason',
    confirm: 'Decline Extension',
    required: true,
  },
};

/** One dialog for the registration's decisions: a reason (at most 500 characters, with a counter) and a confirm button. */
export function RegistrationDialog({
  project,
  action,
  onClose,
  onDone,
}: {
  project: ProjectRecord | null;
  action: RegistrationAction | null;
  onClose: () => void;
  onDone: (project: ProjectRecord) => void;
}) {
  const toast = useToast();
  const [reason, setReason] = useState('');
  const [organisations, setOrganisations] = useState<string[]>([]);
  useEffect(() => {
    if (action && SHARED_WITH_PARTNER.has(action) && action !== 'extension-request')
      getPartnerChoices()
        .then((rows) => setOrganisations(rows.map((r) => r.company_name)))
        .catch(() => setOrganisations([]));
  }, [action]);
  // A refusal is told in a toast; the dialog stays open with the reason kept.
  const { busy, run: send } = useDialogAction(
    (caught) => (caught as Error).message || 'The request failed. Please try again.',
    (message) => toast(message, 'error'),
  );
  useEffect(() => setReason(''), [project, action]);
  if (!project || !action) return null;
  const copy = COPY[action];
  const required = copy.required || (action === 'approve' && project.registration_status === 'conflict');
  const run = () => {
    switch (action) {
      case 'approve':
        return reviewRegistration(project.id, 'approved', reason);
      case 'reject':
        return reviewRegistration(project.id, 'rejected', reason);
      case 'extension-request':
        return requestExtension(project.id, reason);
      case 'extension-approve':
        return decideExtension(project.id, 'approved', reason);
      case 'extension-decline':
        return decideExtension(project.id, 'declined', reason);
    }
  };
  const submit = () =>
    send(run, (answer) => {
      toast(answer.message ?? 'Saved', 'success');
      onDone(answer.data);
    });
  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth aria-labelledby="registration-dialog-title">
      <DialogTitle id="registration-dialog-title">{copy.title}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{copy.text(project)}</DialogContentText>
        <TextField
          label={copy.label}
          value={reason}
          onChange={(e) => setReason(e.target.value.slice(0, MAX_REASON))}
          multiline
          minRows={3}
          fullWidth
          required={required}
          helperText={`${reason.length}/${MAX_REASON}`}
          id="registration-reason"
        />
        {project && action && SHARED_WITH_PARTNER.has(action) && organisationsNamedIn(reason, organisations, project.company_name).length ? (
          <Alert severity="warning" sx={{ mt: 1.5 }} data-testid="reason-names-organisation">
            The partner will read this. It names another organisation ({organisationsNamedIn(reason, organisations, project.company_name).join(', ')}): partners
            are not told who else registered a deal.
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="contained"
          color={action === 'reject' || action === 'extension-decline' ? 'error' : 'primary'}
          onClick={() => void submit()}
          disabled={busy || (required && !reason.trim())}
        >
          {copy.confirm}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
