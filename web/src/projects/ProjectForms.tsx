import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  MenuItem,
  Slider,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useEffect, useState, type ChangeEvent } from 'react';
import { useToast } from '../layout/toast';
import { ApiError } from '../providers/errorMapper';
import { createProject, getPartnerChoices, updateProject, type ProjectRecord } from './projectsApi';

export const VALIDITY_NOTICE = 'A deal registration is valid for 60 days from the date of submission.';
const BOQ_ACCEPT = '.pdf,.xls,.xlsx,.csv,.doc,.docx,.png,.jpg,.jpeg';
const BOQ_MAX_BYTES = 10 * 1024 * 1024;

/** The fields of spec 001 §3, in the order the form shows them. */
const TEXT_FIELDS: Array<{ name: keyof ProjectRecord; label: string; type?: string; multiline?: boolean; section: 'project' | 'end user' | 'partner' }> = [
  { name: 'country_region', label: 'Country / Region', section: 'project' },
  { name: 'sales_person', label: 'Sales Person', section: 'project' },
  { name: 'project_stage', label: 'Project Stage', section: 'project' },
  { name: 'project_progress_remarks', label: 'Progress Remarks', multiline: true, section: 'project' },
  { name: 'end_user_customer_name', label: 'End User Customer Name', section: 'end user' },
  { name: 'end_user_location', label: 'End User Location', section: 'end user' },
  { name: 'end_user_it_head_name', label: 'End User IT Head Name', section: 'end user' },
  { name: 'end_user_contact_number', label: 'End User Contact Number', type: 'tel', section: 'end user' },
  { name: 'end_user_email', label: 'End User Email', type: 'email', section: 'end user' },
  { name: 'end_user_requirements', label: 'End User Requirements', multiline: true, section: 'end user' },
  { name: 'partner_company_name', label: 'Partner Company Name', section: 'partner' },
  { name: 'partner_company_location', label: 'Partner Company Location', section: 'partner' },
  { name: 'partner_email', label: 'Partner Email', type: 'email', section: 'partner' },
  { name: 'partner_contact_number', label: 'Partner Contact Number', type: 'tel', section: 'partner' },
];

type Values = Record<string, string>;

const valuesOf = (project: ProjectRecord | null): Values => {
  const values: Values = {
    title: project?.title ?? '',
    expected_closure_date: project?.expected_closure_date ?? '',
    value: project?.value === null || project?.value === undefined ? '' : String(project.value),
    progress: String(project?.progress ?? 0),
    status: project?.status ?? 'Planning',
  };
  for (const field of TEXT_FIELDS) values[field.name] = (project?.[field.name] as string | null) ?? '';
  return values;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Client-side checks that mirror the server's: a title, a budget of at least 0, valid e-mails. */
function problemsOf(values: Values): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!values.title.trim()) problems.title = 'Title is required';
  if (values.value.trim() && (!Number.isFinite(Number(values.value)) || Number(values.value) < 0)) problems.value = 'Budget must be a number of at least 0.';
  for (const field of ['end_user_email', 'partner_email'])
    if (values[field].trim() && !EMAIL.test(values[field].trim())) problems[field] = 'Please enter a valid e-mail address.';
  return problems;
}

function ProjectInputs({ values, problems, onChange }: { values: Values; problems: Record<string, string>; onChange: (name: string, value: string) => void }) {
  const field = (name: string) => ({
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange(name, event.target.value),
    error: Boolean(problems[name]),
    helperText: problems[name],
    fullWidth: true,
    size: 'small' as const,
    id: `project-${name}`,
  });
  const section = (title: string, key: 'project' | 'end user' | 'partner') => (
    <>
      <Typography variant="subtitle2" sx={{ gridColumn: '1 / -1', mt: 1 }}>
        {title}
      </Typography>
      {TEXT_FIELDS.filter((f) => f.section === key).map((f) => (
        <TextField
          key={f.name}
          label={f.label}
          type={f.type ?? 'text'}
          multiline={f.multiline}
          minRows={f.multiline ? 2 : undefined}
          sx={f.multiline ? { gridColumn: '1 / -1' } : undefined}
          {...field(f.name)}
        />
      ))}
    </>
  );
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
      <TextField label="Title" required sx={{ gridColumn: '1 / -1' }} {...field('title')} />
      <TextField label="Expected Closure Date" type="date" slotProps={{ inputLabel: { shrink: true } }} {...field('expected_closure_date')} />
      <TextField label="Budget (USD)" type="number" slotProps={{ htmlInput: { min: 0, step: 0.01 } }} {...field('value')} />
      <Box sx={{ gridColumn: '1 / -1', px: 1 }}>
        <Typography variant="body2" id="project-progress-label">
          Progress: {values.progress}%
        </Typography>
        <Slider
          value={Number(values.progress)}
          min={0}
          max={100}
          step={1}
          onChange={(_, v) => onChange('progress', String(v))}
          aria-labelledby="project-progress-label"
          valueLabelDisplay="auto"
        />
      </Box>
      {section('Project', 'project')}
      {section('End user', 'end user')}
      {section('Partner contact', 'partner')}
    </Box>
  );
}

/** Only filled fields are sent (spec 001 §5). */
const filled = (values: Values) => Object.entries(values).filter(([, v]) => v.trim() !== '');

export function ProjectCreateDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (project: ProjectRecord) => void }) {
  const toast = useToast();
  const fullScreen = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [values, setValues] = useState<Values>(valuesOf(null));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [partners, setPartners] = useState<Array<{ id: string; company_name: string }>>([]);
  const [companyId, setCompanyId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setValues(valuesOf(null));
    setProblems({});
    setFile(null);
    setProgress(null);
    setError(null);
    getPartnerChoices()
      .then((choices) => {
        setPartners(choices);
        setCompanyId(choices.length === 1 ? choices[0].id : '');
      })
      .catch(() => setPartners([]));
  }, [open]);

  const pickFile = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0] ?? null;
    event.target.value = '';
    if (picked && picked.size > BOQ_MAX_BYTES) {
      setError('BoQ file must be at most 10 MB.');
      return;
    }
    setError(null);
    setFile(picked);
  };

  const submit = async () => {
    const found = problemsOf(values);
    if (partners.length > 1 && !companyId) found.company_id = 'Please choose a partner.';
    setProblems(found);
    if (Object.keys(found).length) return;
    const form = new FormData();
    for (const [name, value] of filled(values)) if (name !== 'status') form.append(name, value.trim());
    if (companyId) form.append('company_id', companyId);
    if (file) form.append('boq_file', file);
    setProgress(0);
    setError(null);
    try {
      const { json } = await createProject(form, setProgress);
      toast(
        json.data?.registration_warning
          ? `${json.message || 'Project created successfully'}. ${json.data.registration_warning}`
          : json.message || 'Project created successfully',
        json.data?.registration_warning ? 'warning' : 'success',
      );
      onCreated(json.data);
    } catch (caught) {
      setError((caught as Error).message || 'Failed to create project');
    } finally {
      setProgress(null);
    }
  };

  const busy = progress !== null;
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="project-create-title">
      <DialogTitle id="project-create-title">Create New Project</DialogTitle>
      <DialogContent dividers>
        <Alert severity="info" sx={{ mb: 2 }}>
          {VALIDITY_NOTICE}
        </Alert>
        {error ? (
          <Alert severity="error" sx={{ mb: 2 }} role="alert">
            {error}
          </Alert>
        ) : null}
        <TextField
          select
          label="Partner"
          value={companyId}
          onChange={(event) => setCompanyId(event.target.value)}
          fullWidth
          size="small"
          sx={{ mb: 2 }}
          disabled={partners.length <= 1}
          error={Boolean(problems.company_id)}
          helperText={problems.company_id ?? (partners.length === 1 ? 'Projects are registered for your organisation.' : 'Approved partners only.')}
          id="project-company_id"
        >
          {partners.map((p) => (
            <MenuItem key={p.id} value={p.id}>
              {p.company_name}
            </MenuItem>
          ))}
        </TextField>
        <ProjectInputs values={values} problems={problems} onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))} />
        <Box sx={{ mt: 2 }}>
          <Button component="label" variant="outlined" startIcon={<CloudUploadIcon />} disabled={busy}>
            {file ? 'Replace BoQ file' : 'Upload BoQ file'}
            <input hidden type="file" accept={BOQ_ACCEPT} onChange={pickFile} data-testid="boq-input" />
          </Button>
          <Typography variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            {file ? file.name : 'PDF, XLS, XLSX, CSV, DOC, DOCX, PNG or JPG, up to 10 MB'}
          </Typography>
          {busy ? <LinearProgress variant="determinate" value={progress ?? 0} sx={{ mt: 1 }} aria-label="Upload progress" /> : null}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy}>
          {busy ? 'Creating Project...' : 'Create Project'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function ProjectEditDialog({
  project,
  onClose,
  onUpdated,
}: {
  project: ProjectRecord | null;
  onClose: () => void;
  onUpdated: (project: ProjectRecord) => void;
}) {
  const toast = useToast();
  const fullScreen = useMediaQuery(useTheme().breakpoints.down('sm'));
  const [values, setValues] = useState<Values>(valuesOf(project));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setValues(valuesOf(project));
    setProblems({});
    setError(null);
  }, [project]);

  if (!project) return null;
  const submit = async () => {
    const found = problemsOf(values);
    setProblems(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    setError(null);
    try {
      // An emptied field is cleared; the status moves only when changed.
      const body: Record<string, unknown> = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim() === '' ? null : v.trim()]));
      body.progress = Number(values.progress);
      if (values.status === project.status) delete body.status;
      const answer = await updateProject(project.id, body);
      toast(answer.message || 'Project updated successfully', 'success');
      onUpdated(answer.data);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message || 'Update failed' : 'Failed to update project. Please try again.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={saving ? undefined : onClose} fullScreen={fullScreen} maxWidth="md" fullWidth aria-labelledby="project-edit-title">
      <DialogTitle id="project-edit-title">
        Edit Project
        <Typography variant="body2" color="text.secondary" component="span" sx={{ display: 'block' }}>
          Update project information
        </Typography>
      </DialogTitle>
      <DialogContent dividers>
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="important-notice">
          <strong>Important Notice:</strong> the deal registration is valid for 60 days only, from the date of submission.
        </Alert>
        {error ? (
          <Alert severity="error" sx={{ mb: 2 }} role="alert">
            {error}
          </Alert>
        ) : null}
        <TextField
          select
          label="Status"
          value={values.status}
          onChange={(e) => setValues((v) => ({ ...v, status: e.target.value }))}
          size="small"
          fullWidth
          sx={{ mb: 2 }}
          id="project-status"
          helperText={project.next_statuses.length ? undefined : 'A completed project keeps its status.'}
        >
          {[project.status, ...project.next_statuses].map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
        <ProjectInputs values={values} problems={problems} onChange={(name, value) => setValues((v) => ({ ...v, [name]: value }))} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={saving}>
          {saving ? 'Updating Project...' : 'Update Project'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
