import { formatUsd } from '@domain/catalogue/catalogue';
import { hasAnyPermission } from '@domain/access';
import AddIcon from '@mui/icons-material/Add';
import AssignmentIcon from '@mui/icons-material/Assignment';
import AttachMoneyIcon from '@mui/icons-material/AttachMoney';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import GppMaybeOutlinedIcon from '@mui/icons-material/GppMaybeOutlined';
import HourglassBottomIcon from '@mui/icons-material/HourglassBottom';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import SearchIcon from '@mui/icons-material/Search';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  InputAdornment,
  MenuItem,
  Pagination,
  Paper,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useState, type ReactElement } from 'react';
import { useGetList } from 'react-admin';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { UrlFilterNotice, useUrlFilter } from '../lists/useUrlFilter';
import { useAccess } from '../access/usePrincipal';
import { formatDate } from '../formatting';
import { LoadError, Loading } from '../layout/ListStates';
import { PageTitle } from '../layout/PageTitle';
import { useToast } from '../layout/toast';
import { useDebounced } from '../layout/useDebounced';
import { ProjectCreateDialog, ProjectEditDialog } from './ProjectForms';
import { downloadProjectsCsv, ProgressBar, ProjectStatusChip, RegistrationChip, useCanChangeProject } from './ProjectParts';
import { allProjects, getProjectStatistics, type ProjectRecord, type ProjectStatistics } from './projectsApi';
import { EmptyState } from '../lists';

const PAGE_SIZE = 12;
const TABS = [
  { key: 'active', label: 'Active Projects', filter: { active: true } },
  { key: 'completed', label: 'Completed Projects', filter: { active: false } },
  { key: 'all', label: 'All Projects', filter: {} },
] as const;
type TabKey = (typeof TABS)[number]['key'];

const SORTS = [
  { key: 'newest', label: 'Newest first', sort: { field: 'created_at', order: 'DESC' } },
  { key: 'expiry', label: 'Expiring first', sort: { field: 'expires_at', order: 'ASC' } },
  { key: 'value', label: 'Highest value', sort: { field: 'value', order: 'DESC' } },
  { key: 'title', label: 'Title A–Z', sort: { field: 'title', order: 'ASC' } },
  { key: 'progress', label: 'Most progress', sort: { field: 'progress', order: 'DESC' } },
] as const;

const REGISTRATION_FILTERS = [
  { key: '', label: 'Any registration' },
  { key: 'pending', label: 'Awaiting review' },
  { key: 'approved', label: 'Approved' },
  { key: 'conflict', label: 'Conflict under review' },
  { key: 'expired', label: 'Expired' },
  { key: 'rejected', label: 'Rejected' },
] as const;

function SummaryCard({ label, value, icon }: { label: string; value: string; icon: ReactElement }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, display: 'flex', gap: { xs: 1, sm: 2 }, alignItems: 'center', minWidth: 0 }}>
      <Box sx={{ color: 'primary.main', display: { xs: 'none', sm: 'flex' } }}>{icon}</Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary" noWrap>
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 700, fontSize: { xs: '1.05rem', sm: '1.5rem' }, wordBreak: 'break-word' }} aria-label={label} data-testid={`summary-${label}`}>
          {value}
        </Typography>
      </Box>
    </Paper>
  );
}

function ProjectCard({ project, canManage, onView, onManage }: { project: ProjectRecord; canManage: boolean; onView: () => void; onManage: () => void }) {
  return (
    <Card variant="outlined" data-testid="project-card" data-project-id={project.id} sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <CardContent sx={{ flex: 1, pb: 1 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'center' }}>
          <ProjectStatusChip status={project.status} />
          <Typography variant="caption" color="text.secondary" title={project.id}>
            #{project.id.slice(0, 8)}
          </Typography>
        </Box>
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, mt: 1, wordBreak: 'break-word' }}>
          {project.title}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
          {project.client ?? 'No client named'}
          {project.company_name ? ` · ${project.company_name}` : ''}
        </Typography>
        <Box sx={{ my: 1 }}>
          <RegistrationChip project={project} />
        </Box>
        <ProgressBar value={project.progress} />
        <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 1, gap: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {project.value === null ? '—' : formatUsd(project.value)}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            Closes {formatDate(project.expected_closure_date)}
          </Typography>
        </Box>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, gap: 1, flexWrap: 'wrap' }}>
        <Button size="small" variant="outlined" startIcon={<VisibilityIcon />} onClick={onView} aria-label={`View details of ${project.title}`}>
          View Details
        </Button>
        {canManage ? (
          <Button size="small" variant="contained" startIcon={<EditIcon />} onClick={onManage} aria-label={`Manage ${project.title}`}>
            Manage
          </Button>
        ) : null}
      </CardActions>
    </Card>
  );
}

function ProjectManagement() {
  const { canDo } = useAccess();
  const canChange = useCanChangeProject();
  const navigate = useNavigate();
  const toast = useToast();
  const [tab, setTab] = useState<TabKey>('active');
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const [sortKey, setSortKey] = useState<(typeof SORTS)[number]['key']>('newest');
  const [registration, setRegistration] = useState('');
  const [page, setPage] = useState(1);
  const [stats, setStats] = useState<ProjectStatistics | null>(null);
  // `?create=1` (the dashboards' New Project quick action) opens the create modal for those who may create.
  const [params] = useSearchParams();
  const [creating, setCreating] = useState(() => params.get('create') === '1' && canDo('new-project'));
  const [editing, setEditing] = useState<ProjectRecord | null>(null);
  const [exporting, setExporting] = useState(false);

  // A dashboard card's link shows exactly what the card counted; the tabs and filters apply once it is cleared.
  const { filter: cardFilter, clear: clearCardFilter } = useUrlFilter();
  const filter = cardFilter ?? { ...TABS.find((t) => t.key === tab)!.filter, ...(query ? { q: query } : {}), ...(registration ? { registration_status: registration } : {}) };
  useEffect(() => setPage(1), [tab, query, sortKey, registration]);

  const loadStats = useCallback(() => {
    getProjectStatistics().then(setStats).catch(() => setStats(null));
  }, []);
  useEffect(loadStats, [loadStats]);

  const { data, total, isPending, error, refetch } = useGetList<ProjectRecord>('projects', {
    pagination: { page, perPage: PAGE_SIZE },
    sort: SORTS.find((s) => s.key === sortKey)!.sort,
    filter,
  });
  const counts = {
    active: useGetList<ProjectRecord>('projects', { pagination: { page: 1, perPage: 1 }, filter: { active: true } }).total,
    completed: useGetList<ProjectRecord>('projects', { pagination: { page: 1, perPage: 1 }, filter: { active: false } }).total,
    all: useGetList<ProjectRecord>('projects', { pagination: { page: 1, perPage: 1 }, filter: {} }).total,
  };
  const projects = data ?? [];
  const open = (project: ProjectRecord) => navigate(`/project/details?id=${project.id}`, { state: { project } });
  const refresh = () => {
    void refetch();
    loadStats();
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      downloadProjectsCsv(await allProjects(filter));
    } catch {
      toast('Failed to export projects', 'error');
    } finally {
      setExporting(false);
    }
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
        <PageTitle title="Project Management" subtitle="Track and manage your project portfolio" />
        {canDo('new-project') ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
            New Project
          </Button>
        ) : null}
      </Box>

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }, mb: 3 }}>
        <SummaryCard label="Active Projects" value={stats ? String(stats.activeProjects) : '—'} icon={<AssignmentIcon />} />
        <SummaryCard label="Total Value" value={stats ? formatUsd(stats.totalValue) : '—'} icon={<AttachMoneyIcon />} />
        <SummaryCard label="Expiring Soon" value={stats ? String(stats.expiringSoon) : '—'} icon={<HourglassBottomIcon />} />
        <SummaryCard label="Under Review" value={stats ? String(stats.conflicts + stats.pendingReview) : '—'} icon={<GppMaybeOutlinedIcon />} />
      </Box>

      <UrlFilterNotice filter={cardFilter} onClear={clearCardFilter} total={cardFilter ? total : undefined} />
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 2.5 }, minWidth: 0 }} component="section" aria-label="Projects">
        <Tabs value={tab} onChange={(_, value: TabKey) => setTab(value)} variant="scrollable" allowScrollButtonsMobile aria-label="Project lists" sx={{ mb: 2 }}>
          {TABS.map((t) => (
            <Tab key={t.key} value={t.key} label={`${t.label}${counts[t.key] === undefined ? '' : ` (${counts[t.key]})`}`} />
          ))}
        </Tabs>
        <Box sx={{ display: 'grid', gap: 1.5, mb: 2, alignItems: 'center', gridTemplateColumns: { xs: 'minmax(0, 1fr) minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr) auto' } }}>
          <TextField
            size="small"
            placeholder="Search title, client or partner"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> }, htmlInput: { 'aria-label': 'Search projects' } }}
          />
          <TextField select size="small" label="Registration" value={registration} onChange={(e) => setRegistration(e.target.value)} fullWidth>
            {REGISTRATION_FILTERS.map((f) => (
              <MenuItem key={f.key} value={f.key}>
                {f.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField select size="small" label="Sort" value={sortKey} onChange={(e) => setSortKey(e.target.value as typeof sortKey)} fullWidth>
            {SORTS.map((s) => (
              <MenuItem key={s.key} value={s.key}>
                {s.label}
              </MenuItem>
            ))}
          </TextField>
          <Button size="small" startIcon={<DownloadIcon />} onClick={() => void exportCsv()} disabled={exporting || !total} sx={{ justifySelf: 'start', whiteSpace: 'nowrap' }}>
            Export CSV
          </Button>
        </Box>
        <LoadError error={error} onRetry={refetch} message={(error as Error | null)?.message || 'Failed to load projects'} />
        {isPending ? (
          <Loading />
        ) : projects.length === 0 ? (
          <EmptyState
            title={query || registration ? 'No projects match your search.' : tab === 'completed' ? 'No completed projects yet.' : 'No projects yet.'}
            filtered={Boolean(query || registration)}
            onClearFilters={() => {
              setSearch('');
              setRegistration('');
            }}
            action={
              canDo('new-project') ? (
                <Button startIcon={<AddIcon />} onClick={() => setCreating(true)}>
                  Register your first project
                </Button>
              ) : undefined
            }
          />
        ) : (
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
            {projects.map((project) => (
              <ProjectCard key={project.id} project={project} canManage={canChange(project)} onView={() => open(project)} onManage={() => setEditing(project)} />
            ))}
          </Box>
        )}
        {total !== undefined && total > PAGE_SIZE ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
            <Pagination count={Math.ceil(total / PAGE_SIZE)} page={page} onChange={(_, next) => setPage(next)} size="small" />
          </Box>
        ) : null}
      </Paper>

      <ProjectCreateDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(project) => {
          setCreating(false);
          refresh();
          open(project);
        }}
      />
      <ProjectEditDialog
        project={editing}
        onClose={() => setEditing(null)}
        onUpdated={() => {
          setEditing(null);
          refresh();
        }}
      />
    </Box>
  );
}

/** Spec 001: without any project permission, a lock and the text below. */
export function ProjectsRestricted() {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 }, maxWidth: 640, mx: 'auto', mt: 4, textAlign: 'center' }} role="alert" data-testid="access-restricted">
      <LockOutlinedIcon color="warning" sx={{ fontSize: 56 }} />
      <Typography variant="h6" component="h2" sx={{ mt: 1 }}>
        Access Restricted
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        You don&apos;t have permission to view projects. Please contact your administrator.
      </Typography>
    </Paper>
  );
}

/** /projects: summary cards, the three lists, and the create and edit modals. */
export default function ProjectList() {
  const { principal } = useAccess();
  if (principal && hasAnyPermission(principal, ['Projects.Read'])) return <ProjectManagement />;
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <ProjectsRestricted />
    </Box>
  );
}
