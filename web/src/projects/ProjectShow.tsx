import { RecordHistory } from '../history';
import { formatUsd } from '@domain/catalogue/catalogue';
import { hasAnyPermission, isAdminRole } from '@domain/access';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import EventIcon from '@mui/icons-material/Event';
import GroupIcon from '@mui/icons-material/Group';
import PaidIcon from '@mui/icons-material/Paid';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
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
  Paper,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useSearchParams } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { formatDate, formatDateTime } from '../formatting';
import { Loading } from '../layout/ListStates';
import { PageTitle } from '../layout/PageTitle';
import { useToast } from '../layout/toast';
import { OrderStatusChip } from '../orders/OrderStatusChip';
import type { OrderRecord } from '../orders/ordersApi';
import { ProjectEditDialog } from './ProjectForms';
import { ProjectsRestricted } from './ProjectList';
import { ProgressBar, ProjectStatusChip, RegistrationChip, registrationText, useCanChangeProject } from './ProjectParts';
import {
  addTeamMember,
  createMilestone,
  deleteMilestone,
  getMilestone,
  getMilestones,
  getOrderCandidates,
  getProject,
  getProjectOrders,
  getTeam,
  getTeamCandidates,
  linkOrder,
  removeTeamMember,
  unlinkOrder,
  updateMilestone,
  type Milestone,
  type ProjectRecord,
  type TeamMember,
} from './projectsApi';
import { RegistrationDialog, type RegistrationAction } from './RegistrationDialogs';

export const MILESTONE_DATE_MESSAGE = 'Milestone date must be within project start and end date';
const MILESTONE_STATUSES = ['pending', 'in-progress', 'completed'] as const;

function StatCard({ label, value, icon, children }: { label: string; value: string; icon: ReactElement; children?: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
        <Box sx={{ color: 'primary.main', display: { xs: 'none', sm: 'flex' } }}>{icon}</Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography variant="h6" component="p" sx={{ fontWeight: 700, fontSize: { xs: '1rem', sm: '1.25rem' }, wordBreak: 'break-word' }} aria-label={label} data-testid={`stat-${label}`}>
            {value}
          </Typography>
        </Box>
      </Box>
      {children}
    </Paper>
  );
}

const Field = ({ label, value }: { label: string; value: ReactNode }) => (
  <Box sx={{ minWidth: 0 }}>
    <Typography variant="caption" color="text.secondary">
      {label}
    </Typography>
    <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
      {value === null || value === undefined || value === '' ? '—' : value}
    </Typography>
  </Box>
);

function Overview({ project }: { project: ProjectRecord }) {
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, 1fr)' } }}>
      <Field label="Partner" value={project.company.company_name} />
      <Field label="Client" value={project.client} />
      <Field label="Project Stage" value={project.project_stage} />
      <Field label="Country / Region" value={project.country_region} />
      <Field label="Sales Person" value={project.sales_person} />
      <Field label="Registered by" value={project.created_by_name} />
      <Field label="End User Location" value={project.end_user_location} />
      <Field label="End User IT Head" value={project.end_user_it_head_name} />
      <Field label="End User Contact" value={[project.end_user_contact_number, project.end_user_email].filter(Boolean).join(' · ')} />
      <Field label="Partner Contact" value={[project.partner_company_name, project.partner_email, project.partner_contact_number].filter(Boolean).join(' · ')} />
      <Field label="Submitted" value={formatDateTime(project.submitted_at)} />
      <Field label="Last updated" value={formatDateTime(project.updated_at)} />
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Field label="End User Requirements" value={project.end_user_requirements} />
      </Box>
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Field label="Progress Remarks" value={project.project_progress_remarks} />
      </Box>
      <Field label="Bill of Quantities" value={project.boq_file_url ? <BoqLink project={project} /> : 'No file'} />
    </Box>
  );
}

/** The BoQ is private: fetched with the session's token, then offered as a download. */
function BoqLink({ project }: { project: ProjectRecord }) {
  const toast = useToast();
  const download = async () => {
    const { getAccessToken } = await import('../providers/session');
    const response = await fetch(project.boq_file_url!, { headers: { Authorization: `Bearer ${getAccessToken()}` } });
    if (!response.ok) return toast('The BoQ file could not be downloaded.', 'error');
    const link = document.createElement('a');
    link.href = URL.createObjectURL(await response.blob());
    link.download = `boq-${project.id.slice(0, 8)}.${project.boq_file?.split('.').pop()}`;
    link.click();
  };
  return (
    <Button size="small" onClick={() => void download()} sx={{ p: 0, minWidth: 0 }}>
      Download BoQ
    </Button>
  );
}

function TeamTab({ project, canEdit, onChanged }: { project: ProjectRecord; canEdit: boolean; onChanged: () => void }) {
  const toast = useToast();
  const [team, setTeam] = useState<TeamMember[] | null>(null);
  const [candidates, setCandidates] = useState<Array<{ id: string; full_name: string; role: string }>>([]);
  const [chosen, setChosen] = useState('');
  const load = useCallback(() => {
    getTeam(project.id).then(setTeam).catch(() => setTeam([]));
    if (canEdit) getTeamCandidates(project.id).then(setCandidates).catch(() => setCandidates([]));
  }, [project.id, canEdit]);
  useEffect(load, [load]);
  const act = async (work: () => Promise<{ message?: string }>) => {
    try {
      toast((await work()).message ?? 'Saved', 'success');
      setChosen('');
      load();
      onChanged();
    } catch (caught) {
      toast((caught as Error).message, 'error');
    }
  };
  if (!team) return <Loading />;
  return (
    <Box>
      {canEdit ? (
        <Box sx={{ display: 'grid', gap: 1, mb: 2, alignItems: 'start', gridTemplateColumns: { xs: 'minmax(0, 1fr) auto', sm: 'minmax(0, 360px) auto' }, justifyContent: 'start' }}>
          <TextField select size="small" label="Add a team member" value={chosen} onChange={(e) => setChosen(e.target.value)} disabled={!candidates.length} helperText={candidates.length ? undefined : 'Everyone in your organisation is on the team.'}>
            {candidates.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.full_name} ({c.role})
              </MenuItem>
            ))}
          </TextField>
          <Button variant="outlined" sx={{ height: 40 }} disabled={!chosen} onClick={() => void act(() => addTeamMember(project.id, chosen))}>
            Add
          </Button>
        </Box>
      ) : null}
      {team.length === 0 ? (
        <Typography color="text.secondary">No team members found</Typography>
      ) : (
        <List dense>
          {team.map((m) => (
            <ListItem
              key={m.id}
              divider
              secondaryAction={
                canEdit ? (
                  <IconButton edge="end" aria-label={`Remove ${m.full_name}`} onClick={() => void act(() => removeTeamMember(project.id, m.user_id))}>
                    <DeleteIcon />
                  </IconButton>
                ) : undefined
              }
            >
              <ListItemText primary={m.full_name} secondary={`${m.role} · ${m.email}`} />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}

function OrdersTab({ project, canEdit }: { project: ProjectRecord; canEdit: boolean }) {
  const toast = useToast();
  const [orders, setOrders] = useState<OrderRecord[] | null>(null);
  const [candidates, setCandidates] = useState<OrderRecord[]>([]);
  const [chosen, setChosen] = useState('');
  const load = useCallback(() => {
    getProjectOrders(project.id).then(setOrders).catch(() => setOrders([]));
    if (canEdit) getOrderCandidates(project.id).then(setCandidates).catch(() => setCandidates([]));
  }, [project.id, canEdit]);
  useEffect(load, [load]);
  const act = async (work: () => Promise<{ message?: string }>) => {
    try {
      toast((await work()).message ?? 'Saved', 'success');
      setChosen('');
      load();
    } catch (caught) {
      toast((caught as Error).message, 'error');
    }
  };
  if (!orders) return <Loading />;
  return (
    <Box>
      {canEdit ? (
        <Box sx={{ display: 'grid', gap: 1, mb: 2, alignItems: 'start', gridTemplateColumns: { xs: 'minmax(0, 1fr) auto', sm: 'minmax(0, 360px) auto' }, justifyContent: 'start' }}>
          <TextField select size="small" label="Link an order" value={chosen} onChange={(e) => setChosen(e.target.value)} disabled={!candidates.length} helperText={candidates.length ? undefined : 'No other orders of your organisation.'}>
            {candidates.map((o) => (
              <MenuItem key={o.id} value={o.id}>
                {o.order_number} · {formatUsd(o.total_amount)}
              </MenuItem>
            ))}
          </TextField>
          <Button variant="outlined" sx={{ height: 40 }} disabled={!chosen} onClick={() => void act(() => linkOrder(project.id, chosen))}>
            Link
          </Button>
        </Box>
      ) : null}
      {orders.length === 0 ? (
        <Typography color="text.secondary">No orders linked to this project yet</Typography>
      ) : (
        <List dense>
          {orders.map((o) => (
            <ListItem
              key={o.id}
              divider
              secondaryAction={
                canEdit ? (
                  <IconButton edge="end" aria-label={`Unlink ${o.order_number}`} onClick={() => void act(() => unlinkOrder(project.id, o.id))}>
                    <DeleteIcon />
                  </IconButton>
                ) : undefined
              }
            >
              <ListItemText
                primary={
                  <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                    <RouterLink to={`/order/track/${o.id}`}>{o.order_number}</RouterLink>
                    <OrderStatusChip status={o.status} />
                  </Box>
                }
                secondary={`${formatDate(o.order_date)} · ${formatUsd(o.total_amount)}`}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}

function MilestoneDialog({ project, milestone, onClose, onSaved }: { project: ProjectRecord; milestone: Milestone | 'new' | null; onClose: () => void; onSaved: () => void }) {
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
          <Alert severity="error" sx={{ mb: 2 }} role="alert" action={<Button color="inherit" size="small" onClick={() => void fetchForEditing()}>Retry</Button>}>
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
        <TextField label="Date" type="date" value={date} onChange={(e) => setDate(e.target.value)} fullWidth required sx={{ mb: 2 }} slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: start, max: end } }} id="milestone-date" helperText={`Between ${formatDate(start)} and ${end ? formatDate(end) : 'the closure date'}`} />
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

function TimelineTab({ project, canEdit, onChanged }: { project: ProjectRecord; canEdit: boolean; onChanged: () => void }) {
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
  if (failed) return <Alert severity="error" action={<Button color="inherit" size="small" onClick={load}>Retry</Button>}>Failed to fetch milestones</Alert>;
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

function RegistrationPanel({ project, canRequest, admin, onAction }: { project: ProjectRecord; canRequest: boolean; admin: boolean; onAction: (action: RegistrationAction) => void }) {
  const live = ['pending', 'conflict', 'approved'].includes(project.registration_status) && Date.parse(project.expires_at) > Date.now();
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} component="section" aria-label="Deal registration">
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', justifyContent: 'space-between' }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', minWidth: 0 }}>
          <Typography variant="subtitle2">Deal registration</Typography>
          <RegistrationChip project={project} />
        </Box>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {admin && ['pending', 'conflict'].includes(project.registration_status) ? (
            <>
              <Button size="small" variant="contained" onClick={() => onAction('approve')}>
                Approve
              </Button>
              <Button size="small" color="error" variant="outlined" onClick={() => onAction('reject')}>
                Reject
              </Button>
            </>
          ) : null}
          {admin && project.extension_status === 'requested' ? (
            <>
              <Button size="small" variant="contained" onClick={() => onAction('extension-approve')}>
                Approve Extension
              </Button>
              <Button size="small" color="error" variant="outlined" onClick={() => onAction('extension-decline')}>
                Decline Extension
              </Button>
            </>
          ) : null}
          {canRequest && live && project.extension_status === 'none' ? (
            <Button size="small" variant="outlined" onClick={() => onAction('extension-request')}>
              Request Extension
            </Button>
          ) : null}
        </Box>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="registration-text">
        {project.registration_state === 'conflict_review' && admin && project.conflicting_project
          ? `Conflicts with the earlier registration "${project.conflicting_project.title}" by ${project.conflicting_project.company_name ?? 'another partner'} (submitted ${formatDate(project.conflicting_project.submitted_at)}, customer ${project.conflicting_project.end_user_customer_name ?? '—'}). Reject this one, or approve it with a note to let both stand.`
          : project.registration_state === 'conflict_review'
          ? 'Another registration for this customer exists. Your registration is under review by an administrator; you will be told the outcome.'
          : `${registrationText(project)}. Submitted ${formatDate(project.submitted_at)}.`}
        {project.extension_status === 'requested' ? ' An extension request is awaiting review.' : ''}
        {project.extension_status === 'approved' ? ' Extended by 30 days.' : ''}
        {project.extension_status === 'declined' ? ` Extension declined${project.extension_decision_note ? `: ${project.extension_decision_note}` : ''}.` : ''}
        {project.registration_status === 'rejected' && project.review_note ? ` Reason: ${project.review_note}` : ''}
      </Typography>
      {/* Under conflict review the text above already says so; a possible conflict is said here. */}
      {!admin && project.registration_warning && project.registration_status !== 'conflict' ? (
        <Alert severity="warning" sx={{ mt: 1 }} data-testid="registration-warning">
          {project.registration_warning}
        </Alert>
      ) : null}
      {admin && project.possible_conflicts?.length ? (
        <Alert severity="info" sx={{ mt: 1 }} data-testid="possible-conflicts">
          Possible conflict (not blocking):{' '}
          {project.possible_conflicts.map((c) => `"${c.end_user_customer_name ?? c.title ?? '—'}" registered by ${c.company_name ?? 'another partner'} (${c.registration_status}, name similarity ${Math.round(c.similarity * 100)}%)`).join('; ')}
          . Check whether it is the same customer before approving.
        </Alert>
      ) : null}
    </Paper>
  );
}

type DetailTab = 'overview' | 'team' | 'orders' | 'timeline' | 'history';

/** /project/details?id=…: the project from navigation state at once, then fresh from the server (so a reload works too). */
export default function ProjectShow() {
  const { principal } = useAccess();
  if (principal && hasAnyPermission(principal, ['Projects.Read'])) return <ProjectDetails />;
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <ProjectsRestricted />
    </Box>
  );
}

function ProjectDetails() {
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const { principal } = useAccess();
  const canChange = useCanChangeProject();
  const admin = isAdminRole(principal?.role);
  const id = params.get('id') ?? (location.state as { project?: ProjectRecord } | null)?.project?.id ?? null;
  const [project, setProject] = useState<ProjectRecord | null>((location.state as { project?: ProjectRecord } | null)?.project ?? null);
  const [failed, setFailed] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [action, setAction] = useState<RegistrationAction | null>(null);
  const tab = (params.get('tab') as DetailTab | null) ?? 'overview';

  const load = useCallback(() => {
    if (!id) return;
    getProject(id)
      .then((p) => {
        setProject(p);
        setFailed(null);
      })
      .catch((error: Error) => setFailed(error.message || 'Project not found.'));
  }, [id]);
  useEffect(load, [load]);

  const back = (
    <Button component={RouterLink} to="/projects" startIcon={<ArrowBackIcon />} sx={{ mb: 1 }}>
      Back to Projects
    </Button>
  );
  if (!id || (failed && !project)) {
    return (
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        {back}
        <PageTitle title="Project Details" />
        <Alert severity="error" action={id ? <Button color="inherit" size="small" onClick={load}>Retry</Button> : undefined}>
          {id ? failed : 'No project was chosen. Open one from the projects list.'}
        </Alert>
      </Box>
    );
  }
  if (!project) return <Loading />;
  // Others' projects are read-only (manufacturers and support see every organisation's); the server refuses the same.
  const canEdit = canChange(project);
  const tabs: Array<[DetailTab, string]> = [['overview', 'Overview'], ['team', 'Team'], ['orders', 'Orders'], ['timeline', 'Timeline'], ['history', 'History']];

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      {back}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ minWidth: 0 }}>
          <PageTitle title={project.title} subtitle={`${project.client ?? 'No client named'} · ${project.company.company_name ?? ''}`} />
        </Box>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <ProjectStatusChip status={project.status} />
          {canEdit ? (
            <Button variant="contained" startIcon={<EditIcon />} onClick={() => setEditing(true)}>
              Manage
            </Button>
          ) : null}
        </Box>
      </Box>
      <RegistrationPanel project={project} canRequest={canEdit && !admin} admin={admin} onAction={setAction} />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, mb: 2 }}>
        <StatCard label="Progress" value={`${project.progress}%`} icon={<TrendingUpIcon />}>
          <Box sx={{ mt: 1 }}>
            <ProgressBar value={project.progress} />
          </Box>
        </StatCard>
        <StatCard label="Value" value={project.value === null ? '—' : formatUsd(project.value)} icon={<PaidIcon />} />
        <StatCard label="Team Size" value={String(project.team_size)} icon={<GroupIcon />} />
        <StatCard label="End Date" value={formatDate(project.expected_closure_date)} icon={<EventIcon />} />
      </Box>
      <Paper variant="outlined" sx={{ minWidth: 0 }}>
        <Tabs value={tab} onChange={(_, value: DetailTab) => setParams({ id: project.id, ...(value === 'overview' ? {} : { tab: value }) }, { replace: true, state: location.state })} variant="scrollable" allowScrollButtonsMobile aria-label="Project sections">
          {tabs.map(([key, label]) => (
            <Tab key={key} value={key} label={label} />
          ))}
        </Tabs>
        <Box sx={{ p: { xs: 2, md: 3 } }}>
          {tab === 'team' ? (
            <TeamTab project={project} canEdit={canEdit} onChanged={load} />
          ) : tab === 'orders' ? (
            <OrdersTab project={project} canEdit={canEdit} />
          ) : tab === 'timeline' ? (
            <TimelineTab project={project} canEdit={canEdit} onChanged={load} />
          ) : tab === 'history' ? (
            <RecordHistory path="/projects" id={project.id} />
          ) : (
            <Overview project={project} />
          )}
        </Box>
      </Paper>
      <ProjectEditDialog
        project={editing ? project : null}
        onClose={() => setEditing(false)}
        onUpdated={(updated) => {
          setEditing(false);
          setProject(updated);
        }}
      />
      <RegistrationDialog
        project={project}
        action={action}
        onClose={() => setAction(null)}
        onDone={(updated) => {
          setAction(null);
          setProject(updated);
        }}
      />
    </Box>
  );
}
