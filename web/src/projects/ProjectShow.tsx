import { formatUsd } from '@domain/money';
import { StatCard } from '../layout/StatCard';
import { hasAnyPermission, isAdminRole } from '@domain/access';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import EditIcon from '@mui/icons-material/Edit';
import EventIcon from '@mui/icons-material/Event';
import GroupIcon from '@mui/icons-material/Group';
import PaidIcon from '@mui/icons-material/Paid';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { Alert, Box, Button, Paper, Tab, Tabs, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useSearchParams } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { formatDate } from '../formatting';
import { Loading } from '../layout/ListStates';
import { PageTitle } from '../layout/PageTitle';
import { ProjectEditDialog } from './ProjectForms';
import { ProjectsRestricted } from './ProjectList';
import { ProgressBar, ProjectStatusChip, RegistrationChip, registrationText, useCanChangeProject } from './ProjectParts';
import { getProject, type ProjectRecord } from './projectsApi';
import { RegistrationDialog, type RegistrationAction } from './RegistrationDialogs';
import { Overview } from './ProjectOverviewTab';
import { TeamTab } from './ProjectTeamTab';
import { OrdersTab } from './ProjectOrdersTab';
import { TimelineTab } from './ProjectTimelineTab';
import { HistoryTab } from './ProjectHistoryTab';

function RegistrationPanel({
  project,
  canRequest,
  admin,
  onAction,
}: {
  project: ProjectRecord;
  canRequest: boolean;
  admin: boolean;
  onAction: (action: RegistrationAction) => void;
}) {
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
          {project.possible_conflicts
            .map(
              (c) =>
                `"${c.end_user_customer_name ?? c.title ?? '—'}" registered by ${c.company_name ?? 'another partner'} (${c.registration_status}, name similarity ${Math.round(c.similarity * 100)}%)`,
            )
            .join('; ')}
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
        <Alert
          severity="error"
          action={
            id ? (
              <Button color="inherit" size="small" onClick={load}>
                Retry
              </Button>
            ) : undefined
          }
        >
          {id ? failed : 'No project was chosen. Open one from the projects list.'}
        </Alert>
      </Box>
    );
  }
  if (!project) return <Loading />;
  // Others' projects are read-only (manufacturers and support see every organisation's); the server refuses the same.
  const canEdit = canChange(project);
  const tabs: Array<[DetailTab, string]> = [
    ['overview', 'Overview'],
    ['team', 'Team'],
    ['orders', 'Orders'],
    ['timeline', 'Timeline'],
    ['history', 'History'],
  ];

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
        <Tabs
          value={tab}
          onChange={(_, value: DetailTab) =>
            setParams({ id: project.id, ...(value === 'overview' ? {} : { tab: value }) }, { replace: true, state: location.state })
          }
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label="Project sections"
        >
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
            <HistoryTab projectId={project.id} />
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
