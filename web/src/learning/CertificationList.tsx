import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, MenuItem, Paper, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { showToast } from '../layout/toast';
import { useDebounced } from '../layout/useDebounced';
import { EmptyState, ListPagination, ListToolbar, Loading, PlainHeader, SortableHeader, useListControls, type ListSortChoice } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { daysUntil, exportCertifications, formatDay, listCertifications, listCourses, relativeDays } from './learningApi';
import { ErrorRetry, StatusChip, useLoad } from './LearningParts';

const SORTS: ListSortChoice[] = [
  { field: 'expires_at', label: 'Expiring first', order: 'ASC' },
  { field: 'issued_at', label: 'Newest first', order: 'DESC' },
  { field: 'user_name', label: 'Person (A–Z)', order: 'ASC' },
  { field: 'course_title', label: 'Course (A–Z)', order: 'ASC' },
];

const hideOnPhone = { display: { xs: 'none', md: 'table-cell' } } as const;

/**
 * Certifications the caller may see (an owner: the organisation's; administrators, support and
 * manufacturers: everyone's), with search, filters, sorting and the CSV of what the filters select.
 */
export default function CertificationList() {
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [courseId, setCourseId] = useState('');
  const [expiring, setExpiring] = useState('');
  const q = useDebounced(search.trim(), 300);
  const filter = useMemo(
    () => ({ q, status, course_id: courseId, expiring_within_days: expiring ? Number(expiring) : undefined }),
    [q, status, courseId, expiring],
  );
  const controls = useListControls({ sort: { field: 'expires_at', order: 'ASC' }, perPage: 25, filterKey: JSON.stringify(filter) });
  const { page, perPage, sort } = controls;
  const { value, error, reload } = useLoad(
    () => listCertifications({ filter, sort, range: [(page - 1) * perPage, page * perPage - 1] }),
    [JSON.stringify(filter), sort.field, sort.order, page, perPage],
  );
  const courses = useLoad(() => listCourses({ sort: { field: 'title', order: 'ASC' } }).then((r) => r.rows), []);
  const [exporting, setExporting] = useState(false);
  const activeFilters = [status, courseId, expiring].filter(Boolean).length;
  const filtered = activeFilters > 0 || q !== '';

  const exportCsv = async () => {
    setExporting(true);
    try {
      await exportCertifications(filter);
    } catch (caught) {
      showToast(messageOf(caught, 'The export failed. Please try again.'), 'error');
    } finally {
      setExporting(false);
    }
  };

  return (
    <Box data-testid="certification-list">
      <ListToolbar
        search={{ value: search, onChange: setSearch, placeholder: 'Search by person or course', label: 'Search certifications' }}
        filters={
          <>
            <TextField
              select
              size="small"
              label="Status"
              value={status}
              onChange={(event) => setStatus(event.target.value)}
              sx={{ flex: { xs: '1 1 100%', sm: '0 0 150px' } }}
            >
              <MenuItem value="">All</MenuItem>
              <MenuItem value="active">Active</MenuItem>
              <MenuItem value="expired">Expired</MenuItem>
            </TextField>
            <TextField
              select
              size="small"
              label="Course"
              value={courseId}
              onChange={(event) => setCourseId(event.target.value)}
              sx={{ flex: { xs: '1 1 100%', sm: '0 0 220px' } }}
            >
              <MenuItem value="">All</MenuItem>
              {(courses.value ?? [])
                .filter((c) => c.certifying)
                .map((course) => (
                  <MenuItem key={course.id} value={course.id}>
                    {course.title}
                  </MenuItem>
                ))}
            </TextField>
            <TextField
              select
              size="small"
              label="Expiring"
              value={expiring}
              onChange={(event) => setExpiring(event.target.value)}
              sx={{ flex: { xs: '1 1 100%', sm: '0 0 170px' } }}
            >
              <MenuItem value="">Any time</MenuItem>
              <MenuItem value="30">Within 30 days</MenuItem>
              <MenuItem value="90">Within 90 days</MenuItem>
            </TextField>
          </>
        }
        activeFilters={activeFilters}
        sortChoices={SORTS}
        sort={sort}
        onSortChange={controls.setSort}
        actions={
          <Button
            variant="outlined"
            startIcon={<DownloadIcon />}
            onClick={() => void exportCsv()}
            disabled={exporting || value?.total === 0}
            aria-label="Export CSV"
            data-testid="export-certifications"
          >
            {exporting ? 'Exporting...' : 'Export'}
          </Button>
        }
      />
      <ErrorRetry error={error} onRetry={reload} />
      {value === undefined && !error ? (
        <Loading />
      ) : value && value.rows.length === 0 ? (
        <EmptyState
          title={filtered ? 'No certification matches these filters.' : 'No certifications yet.'}
          message={filtered ? 'Try another name, course or status.' : 'People are certified when they pass the quiz of a certifying course.'}
          filtered={filtered}
          onClearFilters={() => {
            setSearch('');
            setStatus('');
            setCourseId('');
            setExpiring('');
          }}
        />
      ) : value ? (
        <Paper variant="outlined" sx={{ minWidth: 0 }}>
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <SortableHeader field="user_name" label="Person" sort={sort} onSort={controls.sortBy} />
                  <SortableHeader field="course_title" label="Course" sort={sort} onSort={controls.sortBy} sx={hideOnPhone} />
                  <PlainHeader sx={hideOnPhone}>Organisation</PlainHeader>
                  <SortableHeader field="issued_at" label="Issued" sort={sort} onSort={controls.sortBy} firstOrder="DESC" sx={hideOnPhone} />
                  <SortableHeader field="expires_at" label="Expires" sort={sort} onSort={controls.sortBy} />
                  <SortableHeader field="status" label="Status" sort={sort} onSort={controls.sortBy} sx={hideOnPhone} />
                  <PlainHeader sx={hideOnPhone}>Code</PlainHeader>
                </TableRow>
              </TableHead>
              <TableBody>
                {value.rows.map((certification) => {
                  const days = daysUntil(certification.expires_at);
                  const expired = certification.status === 'expired' || days < 0;
                  const soon = !expired && days <= 30;
                  return (
                    <TableRow
                      key={certification.id}
                      hover
                      sx={{ cursor: 'pointer' }}
                      onClick={() => navigate(`/learning/certifications/${certification.id}`)}
                      data-testid="certification-row"
                    >
                      <TableCell>
                        {certification.user_name}
                        <Typography variant="caption" color="text.secondary" component="div" sx={{ display: { md: 'none' } }}>
                          {certification.course_title}
                        </Typography>
                      </TableCell>
                      <TableCell sx={hideOnPhone}>{certification.course_title}</TableCell>
                      <TableCell sx={hideOnPhone}>{certification.organisation_name ?? '—'}</TableCell>
                      <TableCell sx={{ ...hideOnPhone, whiteSpace: 'nowrap' }}>{formatDay(certification.issued_at)}</TableCell>
                      <TableCell
                        sx={{
                          whiteSpace: 'nowrap',
                          color: expired ? 'error.main' : soon ? 'warning.dark' : undefined,
                          fontWeight: expired || soon ? 600 : undefined,
                        }}
                      >
                        {formatDay(certification.expires_at)}
                        {expired || soon ? (
                          <Typography variant="caption" component="div">
                            {relativeDays(certification.expires_at)}
                          </Typography>
                        ) : null}
                      </TableCell>
                      <TableCell sx={hideOnPhone}>
                        <StatusChip status={expired ? 'expired' : 'active'} />
                      </TableCell>
                      <TableCell sx={{ ...hideOnPhone, fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{certification.verification_code}</TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </Box>
          <ListPagination total={value.total} controls={controls} />
        </Paper>
      ) : null}
    </Box>
  );
}
