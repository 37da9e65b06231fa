import GppGoodOutlinedIcon from '@mui/icons-material/GppGoodOutlined';
import GppMaybeOutlinedIcon from '@mui/icons-material/GppMaybeOutlined';
import GppBadOutlinedIcon from '@mui/icons-material/GppBadOutlined';
import HourglassBottomIcon from '@mui/icons-material/HourglassBottom';
import { Box, Chip, LinearProgress, Typography } from '@mui/material';
import { isAdminRole } from '@domain/access';
import { useAccess } from '../access/usePrincipal';
import { formatDate } from '../formatting';
import { getStoredUser } from '../providers/session';
import type { ProjectRecord } from './projectsApi';

/** Spec 001: Planning amber, In Progress blue, Completed green, On Hold purple, others grey. */
const STATUS_COLOURS: Record<string, { bg: string; fg: string }> = {
  Planning: { bg: '#fff4e5', fg: '#8a4b00' },
  'In Progress': { bg: '#e3f2fd', fg: '#0d47a1' },
  Completed: { bg: '#e8f5e9', fg: '#1b5e20' },
  'On Hold': { bg: '#f3e5f5', fg: '#6a1b9a' },
};

export function ProjectStatusChip({ status }: { status: string }) {
  const colours = STATUS_COLOURS[status] ?? { bg: '#eceff1', fg: '#37474f' };
  return <Chip size="small" label={status} data-status={status} sx={{ bgcolor: colours.bg, color: colours.fg, fontWeight: 600 }} />;
}

/** The registration as the card tells it: protected until a date, expiring soon, expired, rejected, or a conflict under review. */
export function registrationText(project: Pick<ProjectRecord, 'registration_state' | 'registration_status' | 'expires_at'>): string {
  switch (project.registration_state) {
    case 'conflict_review':
      return 'Conflict under review';
    case 'expired':
      return `Expired ${formatDate(project.expires_at)}`;
    case 'rejected':
      return 'Registration rejected';
    case 'expiring_soon':
      return `Expiring soon: ${formatDate(project.expires_at)}`;
    default:
      return `${project.registration_status === 'approved' ? 'Approved, protected' : 'Protected'} until ${formatDate(project.expires_at)}`;
  }
}

export function RegistrationChip({ project }: { project: Pick<ProjectRecord, 'registration_state' | 'registration_status' | 'expires_at'> }) {
  const state = project.registration_state;
  const look =
    state === 'conflict_review'
      ? { color: 'warning' as const, icon: <GppMaybeOutlinedIcon /> }
      : state === 'expired' || state === 'rejected'
        ? { color: 'default' as const, icon: <GppBadOutlinedIcon /> }
        : state === 'expiring_soon'
          ? { color: 'error' as const, icon: <HourglassBottomIcon /> }
          : { color: 'success' as const, icon: <GppGoodOutlinedIcon /> };
  return (
    <Chip
      size="small"
      variant="outlined"
      color={look.color}
      icon={look.icon}
      label={registrationText(project)}
      data-testid="registration-state"
      data-state={state}
      sx={{ maxWidth: '100%' }}
    />
  );
}

export function ProgressBar({ value }: { value: number }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <LinearProgress variant="determinate" value={value} sx={{ flex: 1, height: 8, borderRadius: 4 }} aria-label="Progress" />
      <Typography variant="caption" sx={{ minWidth: 36, textAlign: 'right' }} data-testid="progress-value">
        {value}%
      </Typography>
    </Box>
  );
}

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The projects as a CSV download. */
export function downloadProjectsCsv(projects: ProjectRecord[]) {
  const columns: Array<[string, (p: ProjectRecord) => unknown]> = [
    ['id', (p) => p.id],
    ['title', (p) => p.title],
    ['client', (p) => p.client],
    ['partner', (p) => p.company_name],
    ['status', (p) => p.status],
    ['progress', (p) => p.progress],
    ['value_usd', (p) => p.value],
    ['expected_closure_date', (p) => p.expected_closure_date],
    ['registration_status', (p) => p.registration_status],
    ['submitted_at', (p) => p.submitted_at],
    ['expires_at', (p) => p.expires_at],
    ['extension_status', (p) => p.extension_status],
  ];
  const lines = [columns.map(([name]) => name).join(','), ...projects.map((p) => columns.map(([, read]) => csvCell(read(p))).join(','))];
  const blob = new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `projects-${new Date().toISOString().slice(0, 10)}.csv`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** Who may change a project: holders of Projects.Update for their own organisation's projects, administrators for all. */
export function useCanChangeProject(): (project: Pick<ProjectRecord, 'organisation_id'>) => boolean {
  const { principal, canDo } = useAccess();
  const admin = isAdminRole(principal?.role);
  const user = getStoredUser();
  const own = user ? (user.parent_user_id ?? user.id) : null;
  const mayUpdate = canDo('edit-project');
  return (project) => mayUpdate && (admin || project.organisation_id === own);
}
