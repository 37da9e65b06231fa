import { formatUsd } from '@domain/money';
import { hasAnyPermission, isAdminRole } from '@domain/access';
import AddIcon from '@mui/icons-material/Add';
import AssignmentIcon from '@mui/icons-material/Assignment';
import AttachMoneyIcon from '@mui/icons-material/AttachMoney';
import DownloadIcon from '@mui/icons-material/Download';
import EditIcon from '@mui/icons-material/Edit';
import GppMaybeOutlinedIcon from '@mui/icons-material/GppMaybeOutlined';
import HourglassBottomIcon from '@mui/icons-material/HourglassBottom';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import TableRowsIcon from '@mui/icons-material/TableRows';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import VisibilityIcon from '@mui/icons-material/Visibility';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  IconButton,
  Link,
  MenuItem,
  Pagination,
  Paper,
  Tab,
  Tabs,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
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
import { RegistrationBulkReviewDialog } from './RegistrationBulkReviewDialog';
import { allProjects, getProjectStatistics, type ProjectRecord, type ProjectStatistics } from './projectsApi';
import {
  alphabetical,
  BulkReviewButtons,
  ColumnChooser,
  DateText,
  EmptyState,
  ListPagination,
  ListToolbar,
  RecordTable,
  SavedFilters,
  useColumnChoice,
  NEWEST_FIRST,
  useListControls,
  useSelection,
  useUserStore,
  type BulkDecision,
  type ListSort,
  type ListSortChoice,
  type RecordColumn,
} from '../lists';

const CARD_PAGE_SIZE = 12;
const TABS = [
  { key: 'active', label: 'Active Projects', filter: { active: true } },
  { key: 'completed', label: 'Completed Projects', filter: { active: false } },
  { key: 'all', label: 'All Projects', filter: {} },
] as const;
type TabKey = (typeof TABS)[number]['key'];

/** The card view's sort menu (cards have no column headers); the table sorts by its headers. */
const SORT_CHOICES: ListSortChoice[] = [
  NEWEST_FIRST,
  { field: 'expires_at', order: 'ASC', label: 'Expiring first' },
  { field: 'value', order: 'DESC', label: 'Highest value' },
  alphabetical('title', 'Title'),
  { field: 'progress', order: 'DESC', label: 'Most progress' },
];
const DEFAULT_SORT: ListSort = { field: 'created_at', order: 'DESC' };

const REGISTRATION_FILTERS = [
  { key: '', label: 'Any registration' },
  { key: 'pending', label: 'Awaiting review' },
  { key: 'approved', label: 'Approved' },
  { key: 'conflict', label: 'Conflict under review' },
  { key: 'expired', label: 'Expired' },
  { key: 'rejected', label: 'Rejected' },
] as const;

/** What a saved filter of the projects list holds: the tab, the search, the registration filter and the sort. */
interface ProjectQuery {
  tab: TabKey;
  search: string;
  registration: string;
  sort: ListSort;
}
const DEFAULT_QUERY: ProjectQuery = { tab: 'active', search: '', registration: '', sort: DEFAULT_SORT };

const undecided = (project: ProjectRecord) => project.registration_status === 'pending' || project.registration_status === 'conflict';

/** The table view's columns; the column chooser hides any but the title. */
function projectColumns(
  canChange: (project: ProjectRecord) => boolean,
  onView: (project: ProjectRecord) => void,
  onManage: (project: ProjectRecord) => void,
): RecordColumn<ProjectRecord>[] {
  return [
    {
      label: 'Project',
      sortField: 'title',
      alwaysShown: true,
      cellSx: { minWidth: { md: 180 }, maxWidth: 300 },
      render: (project) => (
        <Box sx={{ minWidth: 0 }}>
          <Link
            component="button"
            variant="body2"
            onClick={() => onView(project)}
            sx={{ fontWeight: 600, textAlign: 'left', overflowWrap: 'anywhere' }}
            data-testid="project-row-title"
          >
            {project.title}
          </Link>
          <Typography variant="caption" color="text.secondary" component="p" sx={{ overflowWrap: 'anywhere' }}>
            {project.client ?? 'No client named'}
          </Typography>
          {/* Phones leave the Status column out: the chip goes under the title. */}
          <Box sx={{ display: { xs: 'block', sm: 'none' }, mt: 0.5 }}>
            <ProjectStatusChip status={project.status} />
          </Box>
        </Box>
      ),
    },
    {
      label: 'Partner',
      sortField: 'company_name',
      hideBelow: 'md',
      cellSx: { maxWidth: 180, overflowWrap: 'anywhere' },
      render: (project) => project.company_name ?? '—',
    },
    { label: 'Status', sortField: 'status', hideBelow: 'sm', render: (project) => <ProjectStatusChip status={project.status} /> },
    {
      label: 'Registration',
      sortField: 'registration_status',
      hideBelow: 'sm',
      // The chip's text wraps so the table fits 1280 px without sideways scrolling.
      cellSx: { maxWidth: 190, '& .MuiChip-root': { height: 'auto', py: 0.5 }, '& .MuiChip-label': { whiteSpace: 'normal' } },
      render: (project) => <RegistrationChip project={project} />,
    },
    {
      label: 'Value',
      sortField: 'value',
      firstOrder: 'DESC',
      align: 'right',
      cellSx: { whiteSpace: 'nowrap' },
      render: (project) => <span data-testid="project-row-value">{project.value === null ? '—' : formatUsd(project.value)}</span>,
    },
    {
      label: 'Progress',
      sortField: 'progress',
      firstOrder: 'DESC',
      hideBelow: 'xl',
      cellSx: { minWidth: 110 },
      render: (project) => <ProgressBar value={project.progress} />,
    },
    {
      label: 'Submitted',
      sortField: 'submitted_at',
      firstOrder: 'DESC',
      hideBelow: 'md',
      cellSx: { whiteSpace: 'nowrap' },
      render: (project) => <DateText value={project.submitted_at} />,
    },
    {
      label: 'Protected until',
      sortField: 'expires_at',
      hideBelow: 'xl',
      cellSx: { whiteSpace: 'nowrap' },
      render: (project) => formatDate(project.expires_at),
    },
    {
      label: 'Expected closure',
      sortField: 'expected_closure_date',
      hideBelow: 'xl',
      cellSx: { whiteSpace: 'nowrap' },
      render: (project) => formatDate(project.expected_closure_date),
    },
    {
      label: 'Actions',
      align: 'right',
      // On phones the title opens the project; Manage is on its page and on the cards.
      hideBelow: 'sm',
      cellSx: { whiteSpace: 'nowrap' },
      render: (project) => (
        <>
          <Tooltip title="View details">
            <IconButton size="small" aria-label={`View details of ${project.title}`} onClick={() => onView(project)}>
              <VisibilityIcon fontSize="small" />
            </IconButton>
          </Tooltip>
          {canChange(project) ? (
            <Tooltip title="Manage">
              <IconButton size="small" aria-label={`Manage ${project.title}`} onClick={() => onManage(project)}>
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
        </>
      ),
    },
  ];
}

function SummaryCard({ label, value, icon }: { label: string; value: string; icon: ReactElement }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, display: 'flex', gap: { xs: 1, sm: 2 }, alignItems: 'center', minWidth: 0 }}>
      <Box sx={{ color: 'primary.main', display: { xs: 'none', sm: 'flex' } }}>{icon}</Box>
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary" noWrap>
          {label}
        </Typography>
        <Typography
          variant="h5"
          component="p"
          sx={{ fontWeight: 700, fontSize: { xs: '1.05rem', sm: '1.5rem' }, wordBreak: 'break-word' }}
          aria-label={label}
          data-testid={`summary-${label}`}
        >
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
  const { canDo, role } = useAccess();
  const admin = isAdminRole(role ?? '');
  const canChange = useCanChangeProject();
  const navigate = useNavigate();
  const toast = useToast();
  const [view, setView] = useUserStore<'cards' | 'table'>('projects.listView', 'cards');
  const [tab, setTab] = useState<TabKey>('active');
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const [registration, setRegistration] = useState('');
  const filterKey = JSON.stringify([tab, query, registration]);
  const controls = useListControls({ sort: DEFAULT_SORT, filterKey });
  const { sort, setSort, page, setPage } = controls;
  const perPage = view === 'table' ? controls.perPage : CARD_PAGE_SIZE;
  const [stats, setStats] = useState<ProjectStatistics | null>(null);
  // `?create=1` (the dashboards' New Project quick action) opens the create modal for those who may create.
  const [params] = useSearchParams();
  const [creating, setCreating] = useState(() => params.get('create') === '1' && canDo('new-project'));
  const [editing, setEditing] = useState<ProjectRecord | null>(null);
  const [exporting, setExporting] = useState(false);
  const [reviewing, setReviewing] = useState<BulkDecision | null>(null);
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));

  // A dashboard card's link shows exactly what the card counted; the tabs and filters apply once it is cleared.
  const { filter: cardFilter, clear: clearCardFilter } = useUrlFilter();
  const filter = cardFilter ?? {
    ...TABS.find((t) => t.key === tab)!.filter,
    ...(query ? { q: query } : {}),
    ...(registration ? { registration_status: registration } : {}),
  };
  useEffect(() => setPage(1), [view, setPage]);

  const loadStats = useCallback(() => {
    getProjectStatistics()
      .then(setStats)
      .catch(() => setStats(null));
  }, []);
  useEffect(loadStats, [loadStats]);

  const { data, total, isPending, error, refetch } = useGetList<ProjectRecord>('projects', { pagination: { page, perPage }, sort, filter });
  const counts = {
    active: useGetList<ProjectRecord>('projects', { pagination: { page: 1, perPage: 1 }, filter: { active: true } }).total,
    completed: useGetList<ProjectRecord>('projects', { pagination: { page: 1, perPage: 1 }, filter: { active: false } }).total,
    all: useGetList<ProjectRecord>('projects', { pagination: { page: 1, perPage: 1 }, filter: {} }).total,
  };
  const projects = useMemo(() => data ?? [], [data]);
  // Admins tick registrations awaiting a decision (pending or in conflict review) for a bulk review.
  const selection = useSelection(admin && view === 'table' ? projects.filter(undecided).map((p) => p.id) : []);
  const open = (project: ProjectRecord) => navigate(`/project/details?id=${project.id}`, { state: { project } });
  const refresh = () => {
    void refetch();
    loadStats();
  };
  const columnChoice = useColumnChoice('projects.table', projectColumns(canChange, open, setEditing), ['Expected closure']);

  const current: ProjectQuery = { tab, search: search.trim(), registration, sort };
  const apply = (saved: ProjectQuery) => {
    setTab(saved.tab);
    setSearch(saved.search);
    setRegistration(saved.registration);
    setSort(saved.sort);
  };
  const filtered = Boolean(query || registration);

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

  const empty = (
    <EmptyState
      title={filtered ? 'No projects match your search.' : tab === 'completed' ? 'No completed projects yet.' : 'No projects yet.'}
      filtered={filtered}
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
  );

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
        <Tabs
          value={tab}
          onChange={(_, value: TabKey) => setTab(value)}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label="Project lists"
          sx={{ mb: 2 }}
        >
          {TABS.map((t) => (
            <Tab key={t.key} value={t.key} label={`${t.label}${counts[t.key] === undefined ? '' : ` (${counts[t.key]})`}`} />
          ))}
        </Tabs>
        <ListToolbar
          search={{ value: search, onChange: setSearch, placeholder: 'Search title, client or partner', label: 'Search projects' }}
          filters={
            <TextField
              select
              size="small"
              label="Registration"
              value={registration}
              onChange={(e) => setRegistration(e.target.value)}
              sx={{ flex: { xs: '1 1 100%', sm: '0 1 220px' } }}
            >
              {REGISTRATION_FILTERS.map((f) => (
                <MenuItem key={f.key} value={f.key}>
                  {f.label}
                </MenuItem>
              ))}
            </TextField>
          }
          activeFilters={registration ? 1 : 0}
          sortChoices={SORT_CHOICES}
          sortMenuAlways={view === 'cards'}
          sort={sort}
          onSortChange={setSort}
          selection={selection}
          bulkActions={<BulkReviewButtons onReview={setReviewing} />}
          actions={
            <>
              <ToggleButtonGroup
                size="small"
                exclusive
                value={view}
                onChange={(_, next: 'cards' | 'table' | null) => next && setView(next)}
                aria-label="View"
                sx={{ flex: '0 0 auto !important' }}
              >
                <ToggleButton value="cards" aria-label="Card view">
                  <Tooltip title="Cards">
                    <ViewModuleIcon fontSize="small" />
                  </Tooltip>
                </ToggleButton>
                <ToggleButton value="table" aria-label="Table view">
                  <Tooltip title="Table">
                    <TableRowsIcon fontSize="small" />
                  </Tooltip>
                </ToggleButton>
              </ToggleButtonGroup>
              {view === 'table' ? <ColumnChooser choice={columnChoice} compact={phone} /> : null}
              <SavedFilters<ProjectQuery>
                storeKey="projects"
                current={current}
                onApply={apply}
                canSave={JSON.stringify(current) !== JSON.stringify(DEFAULT_QUERY)}
                compact={phone}
              />
              <Button
                variant="outlined"
                startIcon={<DownloadIcon />}
                onClick={() => void exportCsv()}
                disabled={exporting || !total}
                sx={{ flex: { xs: '1 1 auto !important', md: '0 0 auto !important' } }}
              >
                Export CSV
              </Button>
            </>
          }
        />
        <LoadError error={error} onRetry={refetch} message={(error as Error | null)?.message || 'Failed to load projects'} />
        {isPending ? (
          <Loading />
        ) : view === 'table' ? (
          <Box data-testid="projects-table" sx={{ '& .MuiTableCell-root': { px: 1 }, '& .MuiTableCell-paddingCheckbox': { pl: 0.5 } }}>
            <RecordTable<ProjectRecord>
              label="Projects"
              rows={projects}
              rowId={(p) => p.id}
              columns={columnChoice.shown}
              sort={sort}
              onSort={controls.sortBy}
              selection={admin ? selection : undefined}
              canSelect={undecided}
              selectLabel={(p) => `Select ${p.title}`}
              rowProps={(p) => ({ 'data-testid': 'project-row', 'data-project-id': p.id })}
              empty={empty}
            />
            <ListPagination total={total} controls={controls} />
          </Box>
        ) : projects.length === 0 ? (
          empty
        ) : (
          <Box
            sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}
          >
            {projects.map((project) => (
              <ProjectCard
                key={project.id}
                project={project}
                canManage={canChange(project)}
                onView={() => open(project)}
                onManage={() => setEditing(project)}
              />
            ))}
          </Box>
        )}
        {view === 'cards' && total !== undefined && total > CARD_PAGE_SIZE ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
            <Pagination count={Math.ceil(total / CARD_PAGE_SIZE)} page={page} onChange={(_, next) => setPage(next)} size="small" />
          </Box>
        ) : null}
      </Paper>

      <RegistrationBulkReviewDialog
        decision={reviewing}
        selection={selection}
        registrations={projects}
        onClose={() => setReviewing(null)}
        onReviewed={refresh}
      />
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
