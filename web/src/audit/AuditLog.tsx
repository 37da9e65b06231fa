import { isRole, ROLE_LABELS } from '@domain/access';
import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Link,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useGetList } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime } from '../formatting';
import { LoadError, Loading } from '../layout/ListStates';
import { PageTitle } from '../layout/PageTitle';
import { useToast } from '../layout/toast';
import { useDebounced } from '../layout/useDebounced';
import { ApiError } from '../providers/errorMapper';
import { AUDIT_PAGE_LIMIT, COMMON_EVENT_TYPES, exportAuditLog, RECORD_TYPES, recordLink, type AuditFilters, type AuditLine } from './auditApi';

const PAGE_SIZES = [25, 50, 100];

interface Person {
  id: string;
  full_name: string;
  email: string;
  role: string;
  company_name: string | null;
}

const roleLabel = (role: string | null) => (role && isRole(role) ? ROLE_LABELS[role] : (role ?? ''));

/** A choice of account: typed letters search the users list. */
function PersonFilter({
  label,
  value,
  onChange,
  roles,
  name,
}: {
  label: string;
  value: Person | null;
  onChange: (p: Person | null) => void;
  roles?: string[];
  name: string;
}) {
  const [input, setInput] = useState('');
  const q = useDebounced(input.trim(), 300);
  const { data = [], isPending } = useGetList<Person>('users', {
    pagination: { page: 1, perPage: 20 },
    sort: { field: 'full_name', order: 'ASC' },
    filter: q ? { q } : {},
  });
  const options = roles ? data.filter((p) => roles.includes(p.role)) : data;
  return (
    <Autocomplete
      size="small"
      options={options}
      value={value}
      loading={isPending}
      onChange={(_, next) => onChange(next)}
      onInputChange={(_, next) => setInput(next)}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      getOptionLabel={(p) => (roles ? (p.company_name ?? p.full_name) : `${p.full_name} (${roleLabel(p.role)})`)}
      filterOptions={(x) => x}
      renderInput={(params) => <TextField {...params} label={label} name={name} />}
      sx={{ minWidth: 200, flex: { xs: '1 1 100%', sm: '1 1 200px' } }}
    />
  );
}

function Actor({ line }: { line: AuditLine }) {
  if (!line.actor_id)
    return (
      <Typography variant="body2" color="text.secondary">
        System
      </Typography>
    );
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
        {line.api_key_name ? `API key “${line.api_key_name}”${line.actor_name ? ` for ${line.actor_name}` : ''}` : (line.actor_name ?? 'Deleted account')}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {roleLabel(line.actor_role)}
      </Typography>
    </Box>
  );
}

function RecordRef({ line }: { line: AuditLine }) {
  const to = recordLink(line);
  const label = `${line.record_type}${line.record_id ? ` ${line.record_id.slice(0, 8)}` : ''}`;
  return to ? (
    <Link component={RouterLink} to={to} variant="body2" title={line.record_id} sx={{ overflowWrap: 'anywhere' }}>
      {label}
    </Link>
  ) : (
    <Typography variant="body2" title={line.record_id} sx={{ overflowWrap: 'anywhere' }}>
      {label}
    </Typography>
  );
}

/** The admins' audit log: every event, newest first, filtered and exported as shown. */
export default function AuditLog() {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const toast = useToast();
  const [actor, setActor] = useState<Person | null>(null);
  const [organisation, setOrganisation] = useState<Person | null>(null);
  const [recordType, setRecordType] = useState('');
  const [eventType, setEventType] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(PAGE_SIZES[0]);
  const [exporting, setExporting] = useState(false);
  const typedEventType = useDebounced(eventType.trim(), 400);

  const rangeError = from && to && from > to ? 'The start date must not be after the end date.' : '';
  const filters: AuditFilters = useMemo(
    () => ({
      actor_id: actor?.id,
      organisation_id: organisation?.id,
      record_type: recordType || undefined,
      event_type: /^[A-Za-z]+\.v\d+$/.test(typedEventType) ? typedEventType : undefined,
      from: rangeError ? undefined : from || undefined,
      to: rangeError ? undefined : to || undefined,
    }),
    [actor, organisation, recordType, typedEventType, from, to, rangeError],
  );
  const filter = useMemo(() => Object.fromEntries(Object.entries(filters).filter(([, v]) => v)), [filters]);
  const {
    data = [],
    total = 0,
    meta,
    isPending,
    error,
    refetch,
  } = useGetList<AuditLine>('audit', {
    pagination: { page: page + 1, perPage },
    sort: { field: 'occurred_at', order: 'DESC' },
    filter,
  });
  const filtering = Object.keys(filter).length > 0;
  // Past the pages' last line the screen asks for narrower filters.
  const capped = total > AUDIT_PAGE_LIMIT;
  // The server counts a window of lines past the page; when more match, the total is "more than" and grows with the pages.
  const moreThan = capped || meta?.totalCapped === true;
  const change =
    <T,>(set: (v: T) => void) =>
    (value: T) => {
      set(value);
      setPage(0);
    };
  const clear = () => {
    setActor(null);
    setOrganisation(null);
    setRecordType('');
    setEventType('');
    setFrom('');
    setTo('');
    setPage(0);
  };
  const onExport = async () => {
    setExporting(true);
    try {
      await exportAuditLog(filters);
    } catch (failure) {
      toast(failure instanceof ApiError ? failure.message : 'The export failed. Please try again.', 'error');
    } finally {
      setExporting(false);
    }
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageTitle title="Audit Log" subtitle="Every change, sign-in and export in the portal, newest first." />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }} component="form" aria-label="Audit log filters" onSubmit={(e) => e.preventDefault()}>
        <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1.5 }}>
          <PersonFilter label="Actor" name="actor" value={actor} onChange={change(setActor)} />
          <PersonFilter label="Organisation" name="organisation" value={organisation} onChange={change(setOrganisation)} roles={['partner', 'distributor']} />
          <TextField
            select
            size="small"
            label="Record type"
            name="record_type"
            value={recordType}
            onChange={(e) => change(setRecordType)(e.target.value)}
            sx={{ minWidth: 170, flex: { xs: '1 1 100%', sm: '0 1 190px' } }}
          >
            <MenuItem value="">All records</MenuItem>
            {RECORD_TYPES.map((t) => (
              <MenuItem key={t.id} value={t.id}>
                {t.name}
              </MenuItem>
            ))}
          </TextField>
          <Autocomplete
            freeSolo
            size="small"
            options={COMMON_EVENT_TYPES as readonly string[]}
            inputValue={eventType}
            onInputChange={(_, next) => change(setEventType)(next)}
            renderInput={(params) => <TextField {...params} label="Event type" name="event_type" placeholder="e.g. SignInFailed.v1" />}
            sx={{ minWidth: 220, flex: { xs: '1 1 100%', sm: '1 1 220px' } }}
          />
          <TextField
            size="small"
            type="date"
            label="From"
            name="from"
            value={from}
            onChange={(e) => change(setFrom)(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ flex: { xs: '1 1 40%', sm: '0 0 160px' } }}
          />
          <TextField
            size="small"
            type="date"
            label="To"
            name="to"
            value={to}
            onChange={(e) => change(setTo)(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
            error={Boolean(rangeError)}
            helperText={rangeError || undefined}
            sx={{ flex: { xs: '1 1 40%', sm: '0 0 160px' } }}
          />
          <Box sx={{ display: 'flex', gap: 1, ml: { md: 'auto' }, flex: { xs: '1 1 100%', md: '0 0 auto' } }}>
            <Button onClick={clear} disabled={!filtering && !eventType} sx={{ flex: { xs: 1, md: 'none' } }}>
              Clear filters
            </Button>
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              onClick={() => void onExport()}
              disabled={exporting || Boolean(rangeError)}
              sx={{ flex: { xs: 1, md: 'none' } }}
            >
              {exporting ? 'Exporting...' : 'Export CSV'}
            </Button>
          </Box>
        </Stack>
      </Paper>

      <LoadError error={error} message="The audit log could not be loaded." onRetry={refetch} />
      {capped ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          More than {AUDIT_PAGE_LIMIT.toLocaleString('en-US')} lines match: the pages show the newest ones. Narrow the filters to see older lines, or export
          them all.
        </Alert>
      ) : null}
      {isPending ? (
        <Loading />
      ) : data.length === 0 && !error ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center' }}>
          <Typography>{filtering ? 'No audit entries match these filters.' : 'Nothing has happened yet.'}</Typography>
          {filtering ? (
            <Button onClick={clear} sx={{ mt: 1 }}>
              Clear the filters
            </Button>
          ) : null}
        </Paper>
      ) : phone ? (
        <Stack spacing={1.5} aria-label="Audit log">
          {data.map((line) => (
            <Card key={line.id} variant="outlined" data-testid="audit-line">
              <CardContent sx={{ '&:last-child': { pb: 2 } }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, mb: 0.5, flexWrap: 'wrap' }}>
                  <Typography variant="caption" color="text.secondary">
                    {formatDateTime(line.occurred_at)}
                  </Typography>
                  <Chip size="small" variant="outlined" label={line.event_type} sx={{ maxWidth: '100%' }} />
                </Box>
                <Typography variant="body2" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
                  {line.summary}
                </Typography>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'flex-end' }}>
                  <Actor line={line} />
                  <RecordRef line={line} />
                </Box>
              </CardContent>
            </Card>
          ))}
        </Stack>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Audit log">
            <TableHead>
              <TableRow>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>Time</TableCell>
                <TableCell>Actor</TableCell>
                <TableCell>Record</TableCell>
                <TableCell>Event</TableCell>
                <TableCell>Summary</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((line) => (
                <TableRow key={line.id} hover data-testid="audit-line">
                  <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>{formatDateTime(line.occurred_at)}</TableCell>
                  <TableCell sx={{ verticalAlign: 'top', minWidth: 140 }}>
                    <Actor line={line} />
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    <RecordRef line={line} />
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top' }}>
                    <Typography variant="body2" sx={{ fontFamily: 'monospace', fontSize: '0.8rem' }}>
                      {line.event_type}
                    </Typography>
                  </TableCell>
                  <TableCell sx={{ verticalAlign: 'top', overflowWrap: 'anywhere' }}>{line.summary}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {data.length > 0 ? (
        <TablePagination
          component="div"
          count={Math.min(total, AUDIT_PAGE_LIMIT)}
          page={page}
          rowsPerPage={perPage}
          rowsPerPageOptions={PAGE_SIZES}
          onPageChange={(_, next) => setPage(next)}
          onRowsPerPageChange={(e) => {
            setPerPage(Number(e.target.value));
            setPage(0);
          }}
          labelDisplayedRows={({ from: first, to: last, count }) =>
            `${first}–${last} of ${moreThan ? `more than ${count.toLocaleString('en-US')}` : count.toLocaleString('en-US')}`
          }
        />
      ) : null}
    </Box>
  );
}
