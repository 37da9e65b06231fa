import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, Paper, TableCell, Typography } from '@mui/material';
import { useMemo, useState } from 'react';
import { showToast } from '../layout/toast';
import { useDebounced } from '../layout/useDebounced';
import { EmptyState, ListPagination, ListToolbar, Loading, PlainHeader, SelectFilter, SortableHeader, useListControls, type ListSortChoice } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { exportCertifications, formatDay, listCertifications, listCourses, relativeDays } from './learningApi';
import { ErrorRetry, StatusChip, useLoad } from './LearningParts';
import { certificationExpiry, CompactTable, OpenRow } from './LearningTable';

const SORTS: ListSortChoice[] = [
  { field: 'expires_at', label: 'Expiring first', order: 'ASC' },
  { field: 'issued_at', label: 'Newest first', order: 'DESC' },
  { field: 'user_name', label: 'Person (A–Z)', order: 'ASC' },
  { field: 'course_title', label: 'Course (A–Z)', order: 'ASC' },
];

const hideOnPhone = { display: { xs: 'none', md: 'table-cell' } } as const;

const STATUSES = [
  { value: 'active', label: 'Active' },
  { value: 'expired', label: 'Expired' },
];

const EXPIRING = [
  { value: '30', label: 'Within 30 days' },
  { value: '90', label: 'Within 90 days' },
];

/** A filter's own width beside the others, the full row on a phone. */
const filterWidth = (width: string) => ({ flex: { xs: '1 1 100%', sm: `0 0 ${width}` } });

/**
 * Certifications the caller may see (an owner: the organisation's; administrators, support and
 * manufacturers: everyone's), with search, filters, sorting and the CSV of what the filters select.
 */
export default function CertificationList() {
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
            <SelectFilter label="Status" value={status} onChange={setStatus} allLabel="All" choices={STATUSES} sx={filterWidth('150px')} />
            <SelectFilter
              label="Course"
              value={courseId}
              onChange={setCourseId}
              allLabel="All"
              choices={(courses.value ?? []).filter((c) => c.certifying).map((course) => ({ value: course.id, label: course.title }))}
              sx={filterWidth('220px')}
            />
            <SelectFilter label="Expiring" value={expiring} onChange={setExpiring} allLabel="Any time" choices={EXPIRING} sx={filterWidth('170px')} />
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
          <CompactTable
            head={
              <>
                <SortableHeader field="user_name" label="Person" sort={sort} onSort={controls.sortBy} />
                <SortableHeader field="course_title" label="Course" sort={sort} onSort={controls.sortBy} sx={hideOnPhone} />
                <PlainHeader sx={hideOnPhone}>Organisation</PlainHeader>
                <SortableHeader field="issued_at" label="Issued" sort={sort} onSort={controls.sortBy} firstOrder="DESC" sx={hideOnPhone} />
                <SortableHeader field="expires_at" label="Expires" sort={sort} onSort={controls.sortBy} />
                <SortableHeader field="status" label="Status" sort={sort} onSort={controls.sortBy} sx={hideOnPhone} />
                <PlainHeader sx={hideOnPhone}>Code</PlainHeader>
              </>
            }
          >
            {value.rows.map((certification) => {
              const { expired, soon, sx } = certificationExpiry(certification);
              return (
                <OpenRow key={certification.id} to={`/learning/certifications/${certification.id}`} testId="certification-row">
                  <TableCell>
                    {certification.user_name}
                    <Typography variant="caption" color="text.secondary" component="div" sx={{ display: { md: 'none' } }}>
                      {certification.course_title}
                    </Typography>
                  </TableCell>
                  <TableCell sx={hideOnPhone}>{certification.course_title}</TableCell>
                  <TableCell sx={hideOnPhone}>{certification.organisation_name ?? '—'}</TableCell>
                  <TableCell sx={{ ...hideOnPhone, whiteSpace: 'nowrap' }}>{formatDay(certification.issued_at)}</TableCell>
                  <TableCell sx={sx}>
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
                </OpenRow>
              );
            })}
          </CompactTable>
          <ListPagination total={value.total} controls={controls} />
        </Paper>
      ) : null}
    </Box>
  );
}
