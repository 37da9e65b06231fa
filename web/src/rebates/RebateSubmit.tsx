import type { ListEntry, RebateView } from '@contracts/rebates';
import { MAX_REBATE_DOCUMENT_BYTES, MAX_REBATE_DOCUMENTS, REBATE_DOCUMENT_EXTENSIONS } from '@domain/rebates/lists';
import { REBATE_MESSAGES } from '@domain/rebates/rebates';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import DeleteIcon from '@mui/icons-material/Delete';
import DescriptionIcon from '@mui/icons-material/Description';
import { Alert, Box, Button, IconButton, InputAdornment, LinearProgress, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { ApiError, messageOf } from '../providers/errorMapper';
import { getCategories, getRebateTypes, submitRebate } from './rebatesApi';

const SUCCESS = 'Rebate submitted successfully!';
const FAILED = 'Failed to submit rebate';
const EXCEPTION = 'Error submitting rebate. Please try again.';

const FIELDS = ['product_name', 'product_category', 'purchase_date', 'invoice_number', 'purchase_amount', 'rebate_type', 'description'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
const EMPTY: Values = { product_name: '', product_category: '', purchase_date: '', invoice_number: '', purchase_amount: '', rebate_type: '', description: '' };

const REQUIRED: Record<Field, string> = {
  product_name: REBATE_MESSAGES.productNameRequired,
  product_category: REBATE_MESSAGES.categoryRequired,
  purchase_date: REBATE_MESSAGES.purchaseDateRequired,
  invoice_number: REBATE_MESSAGES.invoiceRequired,
  purchase_amount: REBATE_MESSAGES.purchaseAmountRequired,
  rebate_type: REBATE_MESSAGES.rebateTypeRequired,
  description: REBATE_MESSAGES.descriptionRequired,
};

const today = () => {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
};
const extensionOf = (name: string) => name.split('.').pop()?.toLowerCase() ?? '';
const sizeText = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

function problemsOf(values: Values): Partial<Record<Field, string>> {
  const problems: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) if (!values[field].trim()) problems[field] = REQUIRED[field];
  if (values.purchase_date && values.purchase_date > today()) problems.purchase_date = REBATE_MESSAGES.purchaseDateFuture;
  if (values.purchase_amount && !/^\d+(\.\d{1,2})?$/.test(values.purchase_amount.trim()))
    problems.purchase_amount = 'Purchase amount must be a number of at least 0, with at most 2 decimals.';
  return problems;
}

/** The Submit Rebate tab: the claim, its supporting documents (removable before sending) and the upload's progress. */
export function RebateSubmit({ onSubmitted }: { onSubmitted: (rebate: RebateView) => void }) {
  const [categories, setCategories] = useState<ListEntry[]>([]);
  const [types, setTypes] = useState<ListEntry[]>([]);
  const [listError, setListError] = useState<string | null>(null);
  const [values, setValues] = useState<Values>(EMPTY);
  const [touched, setTouched] = useState(false);
  const [files, setFiles] = useState<File[]>([]);
  const [fileMessage, setFileMessage] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    getCategories()
      .then(setCategories)
      .catch((e) => setListError(messageOf(e, 'Failed to fetch categories')));
    getRebateTypes()
      .then(setTypes)
      .catch((e) => setListError(messageOf(e, 'Failed to fetch rebate types')));
  }, []);

  const problems = problemsOf(values);
  const errorOf = (field: Field) => (touched ? problems[field] : undefined) ?? serverErrors[field];
  const set = (field: Field) => (event: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setServerErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const addFiles = (list: FileList | null) => {
    if (!list) return;
    const messages: string[] = [];
    const next = [...files];
    for (const file of Array.from(list)) {
      if (!(REBATE_DOCUMENT_EXTENSIONS as readonly string[]).includes(extensionOf(file.name)))
        messages.push(`${file.name}: only pdf, doc, docx, jpg, jpeg and png files are accepted.`);
      else if (file.size > MAX_REBATE_DOCUMENT_BYTES) messages.push(`${file.name}: a document may be at most 10 MB.`);
      else if (next.length >= MAX_REBATE_DOCUMENTS) messages.push(`At most ${MAX_REBATE_DOCUMENTS} files: ${file.name} was not added.`);
      else next.push(file);
    }
    setFiles(next);
    setFileMessage(messages.join('\n') || null);
    if (input.current) input.current.value = '';
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    setResult(null);
    if (Object.keys(problems).length) return;
    setProgress(0);
    try {
      const answer = await submitRebate({ ...values, attachments: files }, setProgress);
      if (!answer.success) {
        setResult({ severity: 'error', text: answer.message || FAILED });
        return;
      }
      setResult({ severity: 'success', text: SUCCESS });
      setValues(EMPTY);
      setFiles([]);
      setTouched(false);
      setServerErrors({});
      onSubmitted(answer.data);
    } catch (e) {
      if (e instanceof ApiError && e.status !== 0) {
        setServerErrors(e.fieldErrors);
        setResult({ severity: 'error', text: messageOf(e, FAILED) });
      } else {
        setResult({ severity: 'error', text: EXCEPTION });
      }
    } finally {
      setProgress(null);
    }
  };

  const busy = progress !== null;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }} component="form" noValidate onSubmit={submit} aria-label="Submit Rebate">
      {listError ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {listError}
        </Alert>
      ) : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField
          label="Product name"
          name="product_name"
          value={values.product_name}
          onChange={set('product_name')}
          required
          error={Boolean(errorOf('product_name'))}
          helperText={errorOf('product_name')}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <TextField
          select
          label="Product category"
          name="product_category"
          value={values.product_category}
          onChange={set('product_category')}
          required
          error={Boolean(errorOf('product_category'))}
          helperText={errorOf('product_category')}
        >
          {categories.map((c) => (
            <MenuItem key={c.id} value={c.name}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Purchase date"
          name="purchase_date"
          type="date"
          value={values.purchase_date}
          onChange={set('purchase_date')}
          required
          error={Boolean(errorOf('purchase_date'))}
          helperText={errorOf('purchase_date')}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today() } }}
        />
        <TextField
          label="Invoice number"
          name="invoice_number"
          value={values.invoice_number}
          onChange={set('invoice_number')}
          required
          error={Boolean(errorOf('invoice_number'))}
          helperText={errorOf('invoice_number')}
          slotProps={{ htmlInput: { maxLength: 60 } }}
        />
        <TextField
          label="Purchase amount"
          name="purchase_amount"
          type="number"
          value={values.purchase_amount}
          onChange={set('purchase_amount')}
          required
          error={Boolean(errorOf('purchase_amount'))}
          helperText={errorOf('purchase_amount')}
          slotProps={{ input: { startAdornment: <InputAdornment position="start">$</InputAdornment> }, htmlInput: { min: 0, step: 0.01 } }}
        />
        <TextField
          select
          label="Rebate type"
          name="rebate_type"
          value={values.rebate_type}
          onChange={set('rebate_type')}
          required
          error={Boolean(errorOf('rebate_type'))}
          helperText={errorOf('rebate_type')}
        >
          {types.map((t) => (
            <MenuItem key={t.id} value={t.name}>
              {t.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Description"
          name="description"
          value={values.description}
          onChange={set('description')}
          required
          multiline
          minRows={3}
          error={Boolean(errorOf('description'))}
          helperText={errorOf('description')}
          sx={{ gridColumn: { sm: '1 / -1' } }}
          slotProps={{ htmlInput: { maxLength: 2000 } }}
        />
      </Box>

      <Box sx={{ mt: 3 }}>
        <Typography variant="subtitle2" component="h3">
          Supporting documents
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }} data-testid="documents-hint">
          pdf, doc, docx, jpg, jpeg or png; at most {MAX_REBATE_DOCUMENTS} files of up to 10 MB each.
        </Typography>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          accept={REBATE_DOCUMENT_EXTENSIONS.map((e) => `.${e}`).join(',')}
          onChange={(event) => addFiles(event.target.files)}
          data-testid="documents-input"
        />
        <Button
          variant="outlined"
          startIcon={<AttachFileIcon />}
          onClick={() => input.current?.click()}
          disabled={busy || files.length >= MAX_REBATE_DOCUMENTS}
        >
          Add documents
        </Button>
        {fileMessage ? (
          <Alert severity="warning" sx={{ mt: 1, whiteSpace: 'pre-line' }}>
            {fileMessage}
          </Alert>
        ) : null}
        {files.length ? (
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1, display: 'grid', gap: 0.5 }}>
            {files.map((file, index) => (
              <Box component="li" key={`${file.name}-${index}`} data-testid="document-item" sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
                <DescriptionIcon fontSize="small" color="action" />
                <Typography variant="body2" noWrap sx={{ flex: 1, minWidth: 0 }} title={file.name}>
                  {file.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {sizeText(file.size)}
                </Typography>
                <IconButton size="small" aria-label={`Remove ${file.name}`} onClick={() => setFiles(files.filter((_, i) => i !== index))} disabled={busy}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Box>
            ))}
          </Box>
        ) : null}
      </Box>

      {busy ? (
        <Box sx={{ mt: 2 }}>
          <LinearProgress variant="determinate" value={progress ?? 0} aria-label="Upload progress" />
          <Typography variant="caption" color="text.secondary">
            Uploading… {progress}%
          </Typography>
        </Box>
      ) : null}
      {result ? (
        <Alert severity={result.severity} sx={{ mt: 2 }} role="alert" data-testid="submit-result">
          {result.text}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
        <Button type="submit" variant="contained" disabled={busy} sx={{ width: { xs: '100%', sm: 'auto' } }}>
          {busy ? 'Submitting...' : 'Submit Rebate'}
        </Button>
      </Box>
    </Paper>
  );
}
