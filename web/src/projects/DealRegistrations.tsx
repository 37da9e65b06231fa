import { formatUsd } from '@domain/money';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Checkbox,
  Chip,
  FormControlLabel,
  MenuItem,
  Pagination,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { useGetList } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { LoadError, Loading } from '../layout/ListStates';
import { ProjectStatusChip, RegistrationChip } from './ProjectParts';
import { getProject, type ProjectRecord } from './projectsApi';
import { RegistrationBulkReviewDialog } from './RegistrationBulkReviewDialog';
import { RegistrationDialog, type RegistrationAction } from './RegistrationDialogs';
import { BulkReviewBar, DateText, SelectRowBox, useSelection, type BulkDecision, type Selection } from '../lists';

const PAGE_SIZE = 10;
const QUEUES = [
  { key: 'review', label: 'Needs review', filter: {} as Record<string, unknown> },
  { key: 'conflict', label: 'Conflicts', filter: { registration_status: 'conflict' } },
  { key: 'pending', label: 'Awaiting review', filter: { registration_status: 'pending' } },
  { key: 'approved', label: 'Approved', filter: { registration_status: 'approved' } },
  { key: 'expired', label: 'Expired', filter: { registration_status: 'expired' } },
  { key: 'rejected', label: 'Rejected', filter: { registration_status: 'rejected' } },
] as const;

function Side({ project, label }: { project: ProjectRecord; label: string }) {
  return (
    <Box sx={{ flex: 1, minWidth: 0, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }} data-testid={`conflict-side-${label}`}>
      <Typography variant="overline">{label}</Typography>
      <Typography sx={{ fontWeight: 700, wordBreak: 'break-word' }}>{project.title}</Typography>
      <Typography variant="body2">{project.company_name}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
        {project.end_user_customer_name ?? '—'} {project.end_user_email ? `· ${project.end_user_email}` : ''}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p">
        Submitted <DateText value={project.submitted_at} /> · {project.value === null ? '—' : formatUsd(project.value)}
      </Typography>
      <Box sx={{ mt: 0.5 }}>
        <RegistrationChip project={project} />
      </Box>
    </Box>
  );
}

/** A registration with what the admin decides on: both sides of a conflict, the extension request. */
function RegistrationCard({
  project,
  onAction,
  onOpen,
  selection,
}: {
  project: ProjectRecord;
  onAction: (project: ProjectRecord, action: RegistrationAction) => void;
  onOpen: () => void;
  selection: Selection;
}) {
  const [full, setFull] = useState<ProjectRecord | null>(null);
  useEffect(() => {
    if (['conflict', 'pending'].includes(project.registration_status))
      getProject(project.id)
        .then(setFull)
        .catch(() => setFull(null));
  }, [project]);
  const undecided = ['pending', 'conflict'].includes(project.registration_status);
  return (
    <Card variant="outlined" data-testid="registration-card" data-project-id={project.id}>
      <CardContent>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1 }}>
          {undecided ? <SelectRowBox selection={selection} id={project.id} label={`Select ${project.title}`} /> : null}
          <ProjectStatusChip status={project.status} />
          {project.registration_status === 'conflict' ? <Chip size="small" color="warning" label="Conflict" /> : null}
          {project.extension_status === 'requested' ? <Chip size="small" color="info" label="Extension requested" /> : null}
          {project.registration_status !== 'conflict' && full?.possible_conflicts?.length ? (
            <Chip
              size="small"
              color="warning"
              variant="outlined"
              label="Possible conflict"
              title={full.possible_conflicts.map((c) => `${c.end_user_customer_name ?? c.title} (${c.company_name ?? 'another partner'})`).join('; ')}
            />
          ) : null}
        </Box>
        {project.registration_status === 'conflict' && full?.conflicting_project ? (
          <Box sx={{ display: 'flex', gap: 1.5, flexDirection: { xs: 'column', md: 'row' } }}>
            <Side project={full.conflicting_project} label="Earlier registration" />
            <Side project={full} label="Later registration" />
          </Box>
        ) : (
          <Side project={project} label="Registration" />
        )}
        {project.extension_status === 'requested' ? (
          <Alert severity="info" sx={{ mt: 1 }}>
            Extension requested: {project.extension_reason}
          </Alert>
        ) : null}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, gap: 1, flexWrap: 'wrap' }}>
        {undecided ? (
          <>
            <Button size="small" variant="contained" onClick={() => onAction(project, 'approve')}>
              {project.registration_status === 'conflict' ? 'Approve both' : 'Approve'}
            </Button>
            <Button size="small" variant="outlined" color="error" onClick={() => onAction(project, 'reject')}>
              {project.registration_status === 'conflict' ? 'Reject later one' : 'Reject'}
            </Button>
          </>
        ) : null}
        {project.extension_status === 'requested' ? (
          <>
            <Button size="small" variant="contained" onClick={() => onAction(project, 'extension-approve')}>
              Approve Extension
            </Button>
            <Button size="small" variant="outlined" color="error" onClick={() => onAction(project, 'extension-decline')}>
              Decline Extension
            </Button>
          </>
        ) : null}
        <Button size="small" onClick={onOpen}>
          Details & History
        </Button>
      </CardActions>
    </Card>
  );
}

/** The admin panel's Deal Registrations tab: conflicts first, then registrations awaiting review and extension requests. */
export function DealRegistrations() {
  const navigate = useNavigate();
  const [queue, setQueue] = useState<(typeof QUEUES)[number]['key']>('review');
  const [page, setPage] = useState(1);
  const [acting, setActing] = useState<{ project: ProjectRecord; action: RegistrationAction } | null>(null);
  const [reviewing, setReviewing] = useState<BulkDecision | null>(null);
  useEffect(() => setPage(1), [queue]);
  const { data, total, isPending, error, refetch } = useGetList<ProjectRecord>('projects', {
    pagination: { page, perPage: PAGE_SIZE },
    sort: { field: 'review_priority', order: 'DESC' },
    filter: QUEUES.find((q) => q.key === queue)!.filter,
  });
  const shown = (data ?? []).filter((p) => queue !== 'review' || ['pending', 'conflict'].includes(p.registration_status) || p.extension_status === 'requested');
  // Registrations awaiting a decision can be ticked and reviewed together with one reason.
  const tickable = useMemo(() => shown.filter((p) => ['pending', 'conflict'].includes(p.registration_status)).map((p) => p.id), [shown]);
  const selection = useSelection(tickable);
  const reviewTotal = queue === 'review' && shown.length < (data?.length ?? 0) ? shown.length + (page - 1) * PAGE_SIZE : total;
  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 2, alignItems: 'center' }}>
        <Typography variant="h6" component="h2">
          Deal Registrations
        </Typography>
        <TextField select size="small" label="Show" value={queue} onChange={(e) => setQueue(e.target.value as typeof queue)} sx={{ minWidth: 200 }}>
          {QUEUES.map((q) => (
            <MenuItem key={q.key} value={q.key}>
              {q.label}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {selection.count > 0 ? (
        <BulkReviewBar selection={selection} onReview={setReviewing} />
      ) : tickable.length > 0 ? (
        <FormControlLabel
          sx={{ mb: 1, ml: 0 }}
          control={
            <Checkbox size="small" checked={selection.all} indeterminate={selection.some} onChange={(event) => selection.toggleAll(event.target.checked)} />
          }
          label={<Typography variant="body2">Select all awaiting a decision on this page</Typography>}
        />
      ) : null}
      <LoadError error={error} onRetry={refetch} message="Failed to load deal registrations" />
      {isPending ? (
        <Loading />
      ) : shown.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }}>
          {queue === 'review' ? 'Nothing needs review right now.' : 'No registrations found.'}
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 2 }}>
          {shown.map((project) => (
            <RegistrationCard
              key={project.id}
              project={project}
              selection={selection}
              onAction={(p, action) => setActing({ project: p, action })}
              onOpen={() => navigate(`/project/details?id=${project.id}&tab=history`)}
            />
          ))}
        </Box>
      )}
      {reviewTotal !== undefined && reviewTotal > PAGE_SIZE ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Pagination count={Math.ceil(reviewTotal / PAGE_SIZE)} page={page} onChange={(_, next) => setPage(next)} size="small" />
        </Box>
      ) : null}
      <RegistrationBulkReviewDialog
        decision={reviewing}
        selection={selection}
        registrations={shown}
        onClose={() => setReviewing(null)}
        onReviewed={() => void refetch()}
      />
      <RegistrationDialog
        project={acting?.project ?? null}
        action={acting?.action ?? null}
        onClose={() => setActing(null)}
        onDone={() => {
          setActing(null);
          void refetch();
        }}
      />
    </Box>
  );
}
