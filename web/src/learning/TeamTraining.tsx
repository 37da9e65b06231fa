import AssignmentIndIcon from '@mui/icons-material/AssignmentInd';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { showToast } from '../layout/toast';
import { EmptyState, Loading } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { assignCourse, cancelAssignment, daysUntil, formatDay, getMatrix, listAssignments, listCourses, STATUS_LABELS, type Matrix } from './learningApi';
import { ErrorRetry, OVERDUE_BG, StatusChip, useLoad } from './LearningParts';

type Cell = Matrix['cells'][number];

/** A cell of the matrix: the person's standing in the course, the certificate's expiry, an open assignment's due date. */
function CellView({ cell }: { cell: Cell | undefined }) {
  if (!cell)
    return (
      <Typography variant="caption" color="text.disabled">
        —
      </Typography>
    );
  const status = cell.status;
  const done = status === 'passed' || status === 'certified';
  const expiringSoon = status === 'certified' && cell.certification_expires_at !== null && daysUntil(cell.certification_expires_at) <= 30;
  const chip = <StatusChip status={status} label={STATUS_LABELS[status]} />;
  return (
    <Stack spacing={0.25} alignItems="flex-start" data-testid={`cell-${cell.user_id}-${cell.course_id}`} data-status={status}>
      {cell.certification_id ? (
        <Tooltip title="Open the certificate">
          <Box component={RouterLink} to={`/learning/certifications/${cell.certification_id}`} sx={{ textDecoration: 'none' }} data-testid="matrix-certificate">
            {chip}
          </Box>
        </Tooltip>
      ) : (
        chip
      )}
      {cell.certification_expires_at ? (
        <Typography
          variant="caption"
          color={status === 'expired' ? 'error.main' : expiringSoon ? 'warning.dark' : 'text.secondary'}
          sx={{ fontWeight: expiringSoon ? 600 : 400 }}
        >
          {status === 'expired' ? 'expired' : expiringSoon ? 'expires' : 'until'} {formatDay(cell.certification_expires_at)}
        </Typography>
      ) : null}
      {cell.progress_percent > 0 && !['passed', 'certified', 'expired'].includes(status) ? (
        <Typography variant="caption" color="text.secondary">
          {cell.progress_percent}% done
        </Typography>
      ) : null}
      {cell.due_date && (cell.overdue || !done) ? (
        <Typography
          variant="caption"
          sx={{ color: cell.overdue ? 'error.main' : 'text.secondary', fontWeight: cell.overdue ? 700 : 400 }}
          data-testid={cell.overdue ? 'overdue' : undefined}
        >
          {cell.overdue ? 'Overdue: ' : 'Due '}
          {formatDay(cell.due_date)}
        </Typography>
      ) : null}
    </Stack>
  );
}

/** The organisation owner's view: every member × every course, overdue assignments highlighted, and assigning a course. */
export default function TeamTraining() {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const { value, error, reload } = useLoad(async () => {
    const [matrix, assignments] = await Promise.all([getMatrix(), listAssignments({ filter: { status: 'open' } })]);
    return { matrix, assignments: assignments.rows.sort((a, b) => a.due_date.localeCompare(b.due_date)) };
  }, []);
  const [assigning, setAssigning] = useState(false);

  if (error && !value) return <ErrorRetry error={error} onRetry={reload} />;
  if (!value) return <Loading />;
  const { matrix, assignments } = value;
  const cells = new Map(matrix.cells.map((cell) => [`${cell.user_id}:${cell.course_id}`, cell]));
  const overdue = matrix.cells.filter((cell) => cell.overdue).length;

  return (
    <Box data-testid="team-training">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} justifyContent="space-between" alignItems={{ sm: 'center' }} sx={{ mb: 2 }}>
        <Typography variant="body2" color="text.secondary">
          {matrix.people.length === 1 ? '1 person' : `${matrix.people.length} people`} ·{' '}
          {matrix.courses.length === 1 ? '1 course' : `${matrix.courses.length} courses`}
          {overdue ? ` · ${overdue === 1 ? '1 overdue assignment' : `${overdue} overdue assignments`}` : ''}
        </Typography>
        <Button
          variant="contained"
          startIcon={<AssignmentIndIcon />}
          onClick={() => setAssigning(true)}
          disabled={matrix.people.length === 0}
          data-testid="assign-course"
        >
          Assign a course
        </Button>
      </Stack>
      {overdue ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="overdue-summary">
          {overdue === 1 ? 'One assignment is' : `${overdue} assignments are`} past the due date: highlighted in red below.
        </Alert>
      ) : null}
      {matrix.people.length === 0 || matrix.courses.length === 0 ? (
        <EmptyState
          title={matrix.people.length === 0 ? 'Your organisation has no people to train yet.' : 'No courses yet.'}
          message="The matrix shows each person's progress and certifications once courses are published."
        />
      ) : phone ? (
        <Stack spacing={1.5} data-testid="matrix-cards">
          {matrix.people.map((person) => (
            <Paper key={person.user_id} variant="outlined" sx={{ p: 1.5 }}>
              <Typography sx={{ fontWeight: 600 }}>{person.name}</Typography>
              <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
                {person.email}
              </Typography>
              <Box component="dl" sx={{ m: 0, mt: 1, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', gap: 1, alignItems: 'start' }}>
                {matrix.courses.map((course) => {
                  const cell = cells.get(`${person.user_id}:${course.id}`);
                  return (
                    <Box key={course.id} sx={{ display: 'contents' }}>
                      <Typography component="dt" variant="body2" sx={{ bgcolor: cell?.overdue ? OVERDUE_BG : undefined }}>
                        {course.title}
                      </Typography>
                      <Box component="dd" sx={{ m: 0 }}>
                        <CellView cell={cell} />
                      </Box>
                    </Box>
                  );
                })}
              </Box>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Paper variant="outlined" sx={{ overflowX: 'auto', mb: 2 }}>
          <Table size="small" data-testid="training-matrix" aria-label="Training matrix">
            <TableHead>
              <TableRow>
                <TableCell sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', zIndex: 1, fontWeight: 600, minWidth: 180 }}>Person</TableCell>
                {matrix.courses.map((course) => (
                  <TableCell key={course.id} sx={{ fontWeight: 600, minWidth: 130, maxWidth: 180, verticalAlign: 'bottom' }}>
                    {course.title}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {matrix.people.map((person) => (
                <TableRow key={person.user_id} data-testid={`matrix-row-${person.user_id}`}>
                  <TableCell sx={{ position: 'sticky', left: 0, bgcolor: 'background.paper', zIndex: 1 }}>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {person.name}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {person.email}
                    </Typography>
                  </TableCell>
                  {matrix.courses.map((course) => {
                    const cell = cells.get(`${person.user_id}:${course.id}`);
                    return (
                      <TableCell key={course.id} sx={{ bgcolor: cell?.overdue ? OVERDUE_BG : undefined, verticalAlign: 'top' }}>
                        <CellView cell={cell} />
                      </TableCell>
                    );
                  })}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}

      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mt: 2 }} data-testid="open-assignments">
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          Open assignments
        </Typography>
        {assignments.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            No open assignments. Assign a course to a member with a due date; the portal reminds them before it.
          </Typography>
        ) : (
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Person</TableCell>
                  <TableCell>Course</TableCell>
                  <TableCell>Due</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {assignments.map((assignment) => (
                  <TableRow key={assignment.id} sx={{ bgcolor: assignment.overdue ? OVERDUE_BG : undefined }}>
                    <TableCell>{assignment.user_name}</TableCell>
                    <TableCell>{assignment.course_title}</TableCell>
                    <TableCell
                      sx={{ color: assignment.overdue ? 'error.main' : undefined, fontWeight: assignment.overdue ? 600 : undefined, whiteSpace: 'nowrap' }}
                    >
                      {formatDay(assignment.due_date)}
                      {assignment.overdue ? ' (overdue)' : ''}
                    </TableCell>
                    <TableCell align="right">
                      <Button
                        size="small"
                        color="inherit"
                        onClick={async () => {
                          try {
                            await cancelAssignment(assignment.id);
                            showToast('Assignment withdrawn', 'success');
                            await reload();
                          } catch (caught) {
                            showToast(messageOf(caught, 'The assignment could not be withdrawn.'), 'error');
                          }
                        }}
                      >
                        Withdraw
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </Paper>
      {assigning ? (
        <AssignDialog
          people={matrix.people}
          onClose={() => setAssigning(false)}
          onDone={() => {
            setAssigning(false);
            void reload();
          }}
        />
      ) : null}
    </Box>
  );
}

const tomorrowPlus = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

function AssignDialog({ people, onClose, onDone }: { people: Matrix['people']; onClose: () => void; onDone: () => void }) {
  const courses = useLoad(() => listCourses({ sort: { field: 'title', order: 'ASC' } }).then((r) => r.rows.filter((c) => c.status === 'published')), []);
  const [userId, setUserId] = useState('');
  const [courseId, setCourseId] = useState('');
  const [due, setDue] = useState(tomorrowPlus(30));
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!userId || !courseId || !due) {
      setError('Choose a person, a course and a due date.');
      return;
    }
    setBusy(true);
    try {
      await assignCourse({ user_id: userId, course_id: courseId, due_date: due, ...(note.trim() ? { note: note.trim() } : {}) });
      showToast('Course assigned', 'success');
      onDone();
    } catch (caught) {
      setError(messageOf(caught, 'The course could not be assigned.'));
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>Assign a course</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {error ? <Alert severity="error">{error}</Alert> : null}
          <TextField
            select
            label="Person"
            value={userId}
            onChange={(event) => setUserId(event.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'assign-person' } }}
          >
            {people.map((person) => (
              <MenuItem key={person.user_id} value={person.user_id}>
                {person.name} ({person.email})
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label="Course"
            value={courseId}
            onChange={(event) => setCourseId(event.target.value)}
            disabled={!courses.value}
            helperText={courses.error ?? undefined}
            error={Boolean(courses.error)}
            slotProps={{ htmlInput: { 'data-testid': 'assign-course-select' } }}
          >
            {(courses.value ?? []).map((course) => (
              <MenuItem key={course.id} value={course.id}>
                {course.title}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            type="date"
            label="Due date"
            value={due}
            onChange={(event) => setDue(event.target.value)}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: tomorrowPlus(0), 'data-testid': 'assign-due' } }}
          />
          <TextField
            label="Note (optional)"
            value={note}
            onChange={(event) => setNote(event.target.value)}
            multiline
            minRows={2}
            slotProps={{ htmlInput: { maxLength: 500 } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy} data-testid="assign-save">
          Assign
        </Button>
      </DialogActions>
    </Dialog>
  );
}
