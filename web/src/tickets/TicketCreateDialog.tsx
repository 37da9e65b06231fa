import type { TicketAssignee, TicketWithComments } from '@contracts/tickets';
import { MAX_TICKET_ATTACHMENTS, TICKET_CATEGORIES, TICKET_MESSAGES, TICKET_PRIORITIES } from '@domain/tickets/tickets';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { ApiError } from '../providers/errorMapper';
import { useToast } from '../layout/toast';
import { createTicket, getAssignees } from './ticketsApi';

const ACCEPTED = '.pdf,.doc,.docx,.jpg,.jpeg,.png';

interface Props {
  open: boolean;
  staff: boolean;
  onClose: () => void;
  onCreated: (ticket: TicketWithComments) => void;
}

const EMPTY = { title: '', description: '', priority: 'Medium', category: 'General', due_date: '', tags: '', initial_comment: '', assigned_to: '' };

/** The create-ticket form (spec 002 §5): title and description required; staff also choose the assignee. */
export function TicketCreateDialog({ open, staff, onClose, onCreated }: Props) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const toast = useToast();
  const [values, setValues] = useState(EMPTY);
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const [saving, setSaving] = useState(false);
  const [assignees, setAssignees] = useState<TicketAssignee[]>([]);

  useEffect(() => {
    if (!open) return;
    setValues(EMPTY);
    setFiles([]);
    setErrors({});
    setFailure('');
    if (staff) getAssignees().then(setAssignees, (error) => console.error(error));
  }, [open, staff]);

  const set = (field: keyof typeof EMPTY) => (event: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setErrors((e) => ({ ...e, [field]: '' }));
  };

  const submit = async () => {
    const problems: Record<string, string> = {};
    if (!values.title.trim()) problems.title = TICKET_MESSAGES.titleRequired;
    if (!values.description.trim()) problems.description = TICKET_MESSAGES.descriptionRequired;
    if (staff && !values.assigned_to) problems.assigned_to = TICKET_MESSAGES.assigneeRequired;
    setErrors(problems);
    if (Object.keys(problems).length) return;
    const form = new FormData();
    for (const [key, value] of Object.entries(values)) if (value.trim()) form.append(key, value);
    for (const file of files) form.append('attachments', file, file.name);
    setSaving(true);
    setFailure('');
    try {
      const answer = await createTicket(form);
      toast(answer.message, 'success');
      onCreated(answer.data);
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(error.fieldErrors);
        setFailure(error.message);
      } else setFailure('The ticket could not be created.');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby="create-ticket-title">
      <DialogTitle id="create-ticket-title">Create Ticket</DialogTitle>
      <DialogContent dividers>
        {failure ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        ) : null}
        <Box sx={{ display: 'grid', gap: 2 }}>
          <TextField
            label="Title"
            name="title"
            required
            value={values.title}
            onChange={set('title')}
            error={Boolean(errors.title)}
            helperText={errors.title}
            slotProps={{ htmlInput: { maxLength: 200 } }}
          />
          <TextField
            label="Description"
            name="description"
            required
            multiline
            minRows={4}
            value={values.description}
            onChange={set('description')}
            error={Boolean(errors.description)}
            helperText={errors.description}
          />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            <TextField select label="Priority" name="priority" value={values.priority} onChange={set('priority')}>
              {TICKET_PRIORITIES.map((p) => (
                <MenuItem key={p} value={p}>
                  {p}
                </MenuItem>
              ))}
            </TextField>
            <TextField select label="Category" name="category" value={values.category} onChange={set('category')}>
              {TICKET_CATEGORIES.map((c) => (
                <MenuItem key={c} value={c}>
                  {c}
                </MenuItem>
              ))}
            </TextField>
          </Box>
          {staff ? (
            <TextField
              select
              label="Assign to"
              name="assigned_to"
              required
              value={values.assigned_to}
              onChange={set('assigned_to')}
              error={Boolean(errors.assigned_to)}
              helperText={errors.assigned_to}
            >
              {assignees.map((u) => (
                <MenuItem key={u.id} value={u.id}>
                  {u.full_name} ({u.role})
                </MenuItem>
              ))}
            </TextField>
          ) : null}
          <TextField
            label="Due date"
            name="due_date"
            type="date"
            value={values.due_date}
            onChange={set('due_date')}
            error={Boolean(errors.due_date)}
            helperText={errors.due_date || 'Optional. Without one, the priority sets it: Critical 4 hours, High 1 day, Medium 3 days, Low 7 days.'}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField label="Tags" name="tags" value={values.tags} onChange={set('tags')} helperText="Comma separated, e.g. firmware, poe" />
          <TextField label="Initial comment" name="initial_comment" multiline minRows={2} value={values.initial_comment} onChange={set('initial_comment')} />
          <Box>
            <Button component="label" variant="outlined" startIcon={<AttachFileIcon />} disabled={files.length >= MAX_TICKET_ATTACHMENTS}>
              Add attachments
              <input
                hidden
                type="file"
                multiple
                accept={ACCEPTED}
                data-testid="ticket-attachments"
                onChange={(event) => {
                  const chosen = Array.from(event.target.files ?? []);
                  setFiles((current) => [...current, ...chosen].slice(0, MAX_TICKET_ATTACHMENTS));
                  event.target.value = '';
                }}
              />
            </Button>
            <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
              PDF, DOC, DOCX, JPG, JPEG or PNG; at most {MAX_TICKET_ATTACHMENTS} files of 10 MB each.
            </Typography>
            {errors.attachments ? (
              <Typography color="error" variant="caption">
                {errors.attachments}
              </Typography>
            ) : null}
            <List dense>
              {files.map((file, index) => (
                <ListItem
                  key={`${file.name}-${index}`}
                  secondaryAction={
                    <IconButton edge="end" aria-label={`Remove ${file.name}`} onClick={() => setFiles((f) => f.filter((_, i) => i !== index))}>
                      <CloseIcon />
                    </IconButton>
                  }
                >
                  <ListItemText primary={file.name} secondary={`${Math.max(1, Math.round(file.size / 1024))} KB`} />
                </ListItem>
              ))}
            </List>
          </Box>
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={saving}>
          {saving ? 'Creating…' : 'Create Ticket'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
