import { Button, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import type { FundBalanceRow, FundRequest } from '@contracts/funds';
import { DateRangeFields, FundDialog, messageOf } from './FundDialogParts';
import { sendForm } from '../providers/sendForm';
import { ACTIVITY_LABELS, usd } from './fundsApi';

/**
 * Sends a form with its files and follows the upload: `progress` is null while nothing is being
 * sent, and a failure stays in `error` with the dialog open.
 */
function useUpload() {
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const send = async (
    request: (onProgress: (percent: number) => void) => Promise<{ data: unknown; message?: string }>,
    done: string,
    onDone: (message: string) => void,
  ) => {
    setError(null);
    setProgress(0);
    try {
      const answer = await request(setProgress);
      onDone(answer.message ?? done);
    } catch (caught) {
      setError(messageOf(caught));
    } finally {
      setProgress(null);
    }
  };
  return { error, progress, send };
}

function FilePicker({
  label,
  name,
  files,
  onChange,
  accept,
}: {
  label: string;
  name: string;
  files: File[];
  onChange: (files: File[]) => void;
  accept: string;
}) {
  return (
    <Stack spacing={0.5}>
      <Button variant="outlined" component="label">
        {label}
        <input
          hidden
          type="file"
          multiple
          name={name}
          accept={accept}
          data-testid={`${name}-input`}
          onChange={(event) => onChange([...files, ...Array.from(event.target.files ?? [])])}
        />
      </Button>
      {files.length ? <Typography variant="caption">{files.map((f) => f.name).join(', ')}</Typography> : null}
    </Stack>
  );
}

/** The activity request form: new, or edited while changes are requested. */
export function RequestDialog({
  open,
  funds,
  editing,
  onClose,
  onDone,
}: {
  open: boolean;
  funds: FundBalanceRow[];
  editing?: FundRequest;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [fields, setFields] = useState<Record<string, string>>(() => ({
    fund_id: editing?.fund_id ?? funds[0]?.fund_id ?? '',
    activity_type: editing?.activity_type ?? 'webinar',
    title: editing?.title ?? '',
    description: editing?.description ?? '',
    start_date: editing?.start_date ?? '',
    end_date: editing?.end_date ?? '',
    planned_cost: editing ? String(editing.planned_cost) : '',
    requested_amount: editing ? String(editing.requested_amount) : '',
    expected_leads: editing ? String(editing.expected_leads) : '',
  }));
  const [files, setFiles] = useState<File[]>([]);
  const { error, progress, send } = useUpload();
  const set = (key: string) => (event: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: event.target.value }));
  const fund = funds.find((f) => f.fund_id === fields.fund_id);
  const submit = () => {
    const { fund_id, ...rest } = fields;
    return send(
      (onProgress) =>
        editing
          ? sendForm('PUT', `fund-requests/${editing.id}`, rest, { attachments: files }, onProgress)
          : sendForm('POST', 'fund-requests', { fund_id, ...rest }, { attachments: files }, onProgress),
      'Fund request submitted.',
      onDone,
    );
  };
  return (
    <FundDialog
      open={open}
      title={editing ? 'Edit and resubmit request' : 'Request marketing funds'}
      onClose={onClose}
      onSubmit={submit}
      busy={progress !== null}
      error={error}
      progress={progress}
      submitLabel={editing ? 'Resubmit' : 'Submit request'}
      submitTestId="form-submit"
    >
      {editing ? null : (
        <TextField
          select
          label="Fund"
          value={fields.fund_id}
          onChange={set('fund_id')}
          inputProps={{ 'data-testid': 'fund-select' }}
          helperText={fund ? `Available: ${usd(fund.available)}` : undefined}
        >
          {funds.map((f) => (
            <MenuItem key={f.fund_id} value={f.fund_id}>
              {f.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField select label="Activity type" value={fields.activity_type} onChange={set('activity_type')}>
        {Object.entries(ACTIVITY_LABELS).map(([value, label]) => (
          <MenuItem key={value} value={value}>
            {label}
          </MenuItem>
        ))}
      </TextField>
      <TextField label="Title" name="title" value={fields.title} onChange={set('title')} />
      <TextField label="Description" name="description" value={fields.description} onChange={set('description')} multiline minRows={2} />
      <DateRangeFields
        start={{ label: 'Start date', name: 'start_date', value: fields.start_date, onChange: set('start_date') }}
        end={{ label: 'End date', name: 'end_date', value: fields.end_date, onChange: set('end_date') }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <TextField label="Planned cost ($)" name="planned_cost" value={fields.planned_cost} onChange={set('planned_cost')} fullWidth />
        <TextField label="Requested amount ($)" name="requested_amount" value={fields.requested_amount} onChange={set('requested_amount')} fullWidth />
        <TextField label="Expected leads" name="expected_leads" value={fields.expected_leads} onChange={set('expected_leads')} fullWidth />
      </Stack>
      <FilePicker label="Attach plans or quotes" name="attachments" files={files} onChange={setFiles} accept=".pdf,.doc,.docx,.xlsx,.csv,.jpg,.jpeg,.png" />
    </FundDialog>
  );
}

/** The claim form: actuals and proof of performance. */
export function ClaimDialog({
  open,
  request,
  onClose,
  onDone,
}: {
  open: boolean;
  request: FundRequest;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const [fields, setFields] = useState({ actual_cost: '', claimed_amount: String(request.approved_amount ?? ''), leads_generated: '' });
  const [files, setFiles] = useState<File[]>([]);
  const { error, progress, send } = useUpload();
  const set = (key: keyof typeof fields) => (event: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: event.target.value }));
  const submit = () =>
    send((onProgress) => sendForm('POST', 'fund-claims', { request_id: request.id, ...fields }, { proof: files }, onProgress), 'Claim submitted.', onDone);
  return (
    <FundDialog
      open={open}
      title={`Claim "${request.title}"`}
      onClose={onClose}
      onSubmit={submit}
      busy={progress !== null}
      error={error}
      progress={progress}
      submitLabel="Submit claim"
      submitTestId="form-submit"
    >
      <Typography variant="body2">
        Approved: <strong>{usd(request.approved_amount)}</strong> · claim by <strong>{request.claim_deadline}</strong>
      </Typography>
      <TextField label="Actual cost ($)" name="actual_cost" value={fields.actual_cost} onChange={set('actual_cost')} />
      <TextField label="Claimed amount ($)" name="claimed_amount" value={fields.claimed_amount} onChange={set('claimed_amount')} />
      <TextField label="Leads generated" name="leads_generated" value={fields.leads_generated} onChange={set('leads_generated')} />
      <FilePicker
        label="Add proof (invoices, photos, attendee lists)"
        name="proof"
        files={files}
        onChange={setFiles}
        accept=".pdf,.jpg,.jpeg,.png,.csv,.xlsx"
      />
    </FundDialog>
  );
}
