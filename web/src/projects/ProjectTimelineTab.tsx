import { MILESTONE_STATUSES } from '@domain/projects/projects';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
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
} from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { formatDate } from '../formatting';
import { Loading } from '../layout/ListStates';
import { useToast } from '../layout/toast';
import { createMilestone, deleteMilestone, getMilestone, getMilestones, updateMilestone, type Milestone, type ProjectRecord } from './projectsApi';

export const MILESTONE_DATE_MESSAGE = 'Milestone date must be within project start and end date';

function MilestoneDialog({
  project,
  milestone,
  onClose,
  onSaved,
}: {
  project: ProjectRecord;
  milestone: Milestone | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [name, setName] = useState('');
  const [date, setDate] = useState('');
  const [status, setStatus] = useState<string>('pending');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Editing reads the milestone as it is now (GET /projects/milestones/:id), not the list's copy.
  const [loading, setLoading] = useState(false);
  const [fetchFailed, setFetchFailed] = useState(false);
  const editedId = milestone && milestone !== 'new' ? milestone.id : null;
  const fill = (m: Milestone | null) => {
    setName(m?.name ?? '');
    setDate(m?.date ?? '');
    setStatus(m?.status ?? 'pending');
  };
  const fetchForEditing = useCallback(() => {
    if (!editedId) return undefined;
    let live = true;
    setLoading(true);
    setFetchFailed(false);
    getMilestone(editedId)
      .then((found) => live && fill(found))
      .catch(() => live && setFetchFailed(true))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [editedId]);
  useEffect(() => {
    setProblem(null);
    setFetchFailed(false);
    fill(null);
    return fetchForEditing();
  }, [milestone, fetchForEditing]);
  if (!milestone) return null;
  const start = project.submitted_at.slice(0, 10);
  const end = project.expected_closure_date ?? undefined;
  const save = async () => {
    if (!name.trim() || !date) return setProblem('A milestone needs a title and a date.');
    if (date < start || (end && date > end)) return setProblem(MILESTONE_DATE_MESSAGE);
    setBusy(true);
    try {
      if (milestone === 'new') await createMilestone({ project_id: project.id, name: name.trim(), date, status });
      else await updateMilestone(milestone.id, { name: name.trim(), date, status });
      onSaved();
    } catch (caught) {
      setProblem((caught as Error).message || 'Failed to save milestone');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="milestone-title">
      <DialogTitle id="milestone-title">{milestone === 'new' ? 'Add Milestone' : 'Edit Milestone'}</DialogTitle>
      <DialogContent>
        {fetchFailed ? (
          <Alert
            severity="error"
            sx={{ mb: 2 }}
            role="alert"
            action={
              <Button color="inherit" size="small" onClick={() => void fetchForEditing()}>
                Retry
              </Button>
            }
          >
            Failed to fetch milestone for editing
          </Alert>
        ) : null}
        {loading ? <Loading /> : null}
        {problem ? (
          <Alert severity="error" sx={{ mb: 2 }} role="alert">
            {problem}
          </Alert>
        ) : null}
        <TextField label="Title" value={name} onChange={(e) => setName(e.target.value)} fullWidth required sx={{ mt: 1, mb: 2 }} id="milestone-name" />
        <TextField
          label="Date"
          type="date"
          value={date}
          onChange={(e) => setDate(e.target.value)}
          fullWidth
          required
          sx={{ mb: 2 }}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: start, max: end } }}
          id="milestone-date"
          helperText={`Between ${formatDate(start)} and ${end ? formatDate(end) : 'the closure date'}`}
        />
        <TextField select label="Status" value={status} onChange={(e) => setStatus(e.target.value)} fullWidth id="milestone-status">
          {MILESTONE_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy || loading || fetchFailed}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function TimelineTab({ project, canEdit, onChanged }: { project: ProjectRecord; canEdit: boolean; onChanged: () => void }) {
  const toast = useToast();
  const [milestones, setMilestones] = useState<Milestone[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<Milestone | 'new' | null>(null);
  const load = useCallback(() => {
    getMilestones(project.id)
      .then((list) => {
        setMilestones(list);
        setFailed(false);
      })
      .catch(() => setFailed(true));
  }, [project.id]);
  useEffect(load, [load]);
  const remove = async (m: Milestone) => {
    try {
      await deleteMilestone(m.id);
      toast('Milestone deleted successfully', 'success');
      load();
      onChanged();
    } catch {
      toast('Failed to delete milestone', 'error');
    }
  };
  if (failed)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={load}>
            Retry
          </Button>
        }
      >
        Failed to fetch milestones
      </Alert>
    );
  if (!milestones) return <Loading />;
  return (
    <Box>
      {canEdit ? (
        <Button variant="outlined" sx={{ mb: 2 }} onClick={() => setEditing('new')}>
          Add Milestone
        </Button>
      ) : null}
      {milestones.length === 0 ? (
        <Typography color="text.secondary">No milestones yet</Typography>
      ) : (
        <List dense data-testid="milestones">
          {milestones.map((m) => (
            <ListItem
              key={m.id}
              divider
              secondaryAction={
                canEdit ? (
                  <Box>
                    <IconButton aria-label={`Edit ${m.name}`} onClick={() => setEditing(m)}>
                      <EditIcon />
                    </IconButton>
                    <IconButton edge="end" aria-label={`Delete ${m.name}`} onClick={() => void remove(m)}>
                      <DeleteIcon />
                    </IconButton>
                  </Box>
                ) : undefined
              }
            >
              <ListItemText primary={m.name} secondary={`${formatDate(m.date)} · ${m.status}`} />
            </ListItem>
          ))}
        </List>
      )}
      <MilestoneDialog
        project={project}
        milestone={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          toast('Milestone saved', 'success');
          load();
          onChanged();
        }}
      />
    </Box>
  );
}
