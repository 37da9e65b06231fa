import { isAdminRole } from '@domain/access';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteIcon from '@mui/icons-material/Delete';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { usePrincipal } from '../access/usePrincipal';
import { formatDate } from '../formatting';
import { PageTitle } from '../layout/PageTitle';
import { sectionTestId, SectionTabs } from '../layout/SectionTabs';
import { RecordTable, SelectFilter, type RecordColumn } from '../lists';
import { showToast } from '../layout/toast';
import { LeadReportsPanel } from './LeadReports';
import type { ImportReport, Lead, LeadRule } from '@contracts/leads';
import {
  assignLead,
  deleteRule,
  exportLeads,
  importLeads,
  listLeads,
  listRules,
  money,
  moveRule,
  organisations,
  SOURCE_LABELS,
  type LeadFilters,
} from './leadsApi';

const STATUSES = ['unassigned', 'assigned', 'accepted', 'contacted', 'qualified', 'converted', 'disqualified'];
const REGIONS = ['Americas', 'EMEA', 'APAC'];
const SOURCE_CHOICES = Object.entries(SOURCE_LABELS).map(([value, label]) => ({ value, label }));
const FILTERS = [
  { key: 'status', label: 'Status', choices: STATUSES, minWidth: 150 },
  { key: 'source', label: 'Source', choices: SOURCE_CHOICES, minWidth: 150 },
  { key: 'region', label: 'Region', choices: REGIONS, minWidth: 130 },
] as const;
const METHOD_LABELS: Record<string, string> = { named: 'Named organisation', round_robin: 'Round robin', fewest_open: 'Fewest open leads' };

const ASSIGNABLE = (lead: Lead) => lead.status !== 'converted' && lead.status !== 'disqualified';

/** All leads with the filters: the shared admin table on wide screens, one card per lead on phones (no sideways scrolling). */
function LeadTable({ filters, onAssign }: { filters: LeadFilters; onAssign?: (lead: Lead) => void }) {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ leads: Lead[]; total: number } | null>(null);
  useEffect(() => {
    listLeads(filters, page, 25).then(setData, (caught: Error) => showToast(caught.message, 'error'));
  }, [filters, page]);
  const assignButton = (lead: Lead) =>
    onAssign && ASSIGNABLE(lead) ? (
      <Button size="small" onClick={() => onAssign(lead)} aria-label={`${lead.organisation_id ? 'Reassign' : 'Assign'} the lead from ${lead.company}`}>
        {lead.organisation_id ? 'Reassign' : 'Assign'}
      </Button>
    ) : null;
  const companyCell = (lead: Lead) => (
    <Box component="span" sx={{ cursor: 'pointer' }} onClick={() => navigate(`/leads/${lead.id}`)}>
      {lead.company}
      {lead.duplicate_of ? <Chip size="small" color="warning" label="Duplicate" sx={{ ml: 1 }} /> : null}
    </Box>
  );
  const columns: RecordColumn<Lead>[] = [
    { label: 'Company', render: companyCell },
    { label: 'Status', render: (lead) => lead.status_label },
    { label: 'Organisation', render: (lead) => lead.organisation_name ?? '—', hideBelow: 'md' },
    { label: 'Source', render: (lead) => SOURCE_LABELS[lead.source] ?? lead.source, hideBelow: 'sm' },
    { label: 'Region', render: (lead) => lead.region ?? '—', hideBelow: 'md' },
    { label: 'Value', align: 'right', render: (lead) => money(lead.estimated_value) },
    { label: 'Received', render: (lead) => formatDate(lead.created_at), hideBelow: 'lg' },
    ...(onAssign ? [{ label: 'Assign', render: assignButton } satisfies RecordColumn<Lead>] : []),
  ];
  return (
    <Box>
      <RecordTable
        label="Leads"
        rows={data?.leads ?? []}
        rowId={(lead) => lead.id}
        columns={columns}
        sort={{ field: 'created_at', order: 'DESC' }}
        onSort={() => undefined}
        rowProps={(lead) => ({ 'data-testid': `lead-row-${lead.id}` })}
        cardsProps={{ 'data-testid': 'lead-cards' }}
        card={(lead) => (
          <Card variant="outlined" data-testid={`lead-row-${lead.id}`}>
            <CardContent sx={{ pb: '12px !important' }}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, alignItems: 'flex-start' }}>
                <Box sx={{ minWidth: 0, flex: 1 }}>
                  <Typography variant="subtitle1" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
                    {companyCell(lead)}
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {lead.organisation_name ?? 'Unassigned'}
                  </Typography>
                </Box>
                {assignButton(lead)}
              </Box>
              <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 1, alignItems: 'center' }}>
                <Chip size="small" label={lead.status_label} />
                <Typography variant="body2">{money(lead.estimated_value)}</Typography>
              </Box>
              <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
                {SOURCE_LABELS[lead.source] ?? lead.source}
                {lead.region ? ` · ${lead.region}` : ''} · Received {formatDate(lead.created_at)}
              </Typography>
            </CardContent>
          </Card>
        )}
        empty={
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
            {data ? 'No leads match these filters.' : 'Loading…'}
          </Typography>
        }
      />
      <Stack direction="row" spacing={1} alignItems="center" sx={{ p: 1 }}>
        <Typography variant="caption">{data ? `${data.total} leads` : ''}</Typography>
        <Button size="small" disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
          Previous
        </Button>
        <Button size="small" disabled={!data || page * 25 >= data.total} onClick={() => setPage((p) => p + 1)}>
          Next
        </Button>
      </Stack>
    </Box>
  );
}

function AssignPanel({ lead, onDone }: { lead: Lead; onDone: () => void }) {
  const [choices, setChoices] = useState<Array<{ id: string; name: string }>>([]);
  const [organisation, setOrganisation] = useState('');
  const [reason, setReason] = useState('');
  useEffect(() => {
    organisations().then(setChoices, () => setChoices([]));
  }, []);
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
      <Typography variant="subtitle1" sx={{ mb: 1 }}>
        {lead.organisation_id ? 'Reassign' : 'Assign'} the lead from {lead.company}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          select
          size="small"
          label="Organisation"
          value={organisation}
          onChange={(e) => setOrganisation(e.target.value)}
          sx={{ minWidth: 240 }}
          inputProps={{ 'data-testid': 'assign-organisation' }}
        >
          {choices
            .filter((c) => c.id !== lead.organisation_id)
            .map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
        </TextField>
        <TextField size="small" label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ flex: 1 }} />
        <Button
          variant="contained"
          disabled={!organisation}
          onClick={async () => {
            try {
              await assignLead(lead.id, organisation, reason || null);
              showToast('Lead assigned', 'success');
              onDone();
            } catch (caught) {
              showToast((caught as Error).message, 'error');
            }
          }}
        >
          Assign
        </Button>
        <Button onClick={onDone}>Cancel</Button>
      </Stack>
    </Paper>
  );
}

function ImportPanel() {
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (mode: 'preview' | 'all' | 'valid') => {
    if (!file) return;
    try {
      const answer = await importLeads(file, mode);
      setReport(answer);
      setError(null);
      if (mode !== 'preview') showToast(`${answer.created} leads imported`, 'success');
    } catch (caught) {
      setError((caught as Error).message);
    }
  };
  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="body2" sx={{ mb: 1 }}>
        A CSV file with the columns company, contact_name, email, phone, country, region, product_interest, estimated_value, source and notes. The preview
        checks every row; a file with bad rows is imported only as a whole once corrected, or by importing its valid rows.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }} sx={{ mb: 2 }}>
        <Button variant="outlined" component="label">
          Choose file
          <input
            hidden
            type="file"
            accept=".csv,text/csv"
            data-testid="import-file"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setReport(null);
            }}
          />
        </Button>
        <Typography variant="body2">{file?.name ?? 'No file chosen'}</Typography>
        <Button variant="contained" disabled={!file} onClick={() => run('preview')} data-testid="import-preview">
          Preview
        </Button>
        {report?.dry_run && report.invalid === 0 && report.valid > 0 ? (
          <Button variant="contained" color="success" onClick={() => run('all')} data-testid="import-all">
            Import {report.valid} leads
          </Button>
        ) : null}
        {report?.dry_run && report.invalid > 0 && report.valid > 0 ? (
          <Button variant="contained" color="warning" onClick={() => run('valid')} data-testid="import-valid">
            Import the {report.valid} valid rows
          </Button>
        ) : null}
      </Stack>
      {error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {error}
        </Alert>
      ) : null}
      {report ? (
        <>
          <Alert severity={report.invalid ? 'warning' : 'success'} sx={{ mb: 1 }} data-testid="import-summary">
            {report.dry_run ? 'Preview: ' : ''}
            {report.total} rows, {report.valid} valid, {report.invalid} with errors, {report.already_imported} already imported
            {report.dry_run ? '' : `; ${report.created} imported`}.
          </Alert>
          <Box sx={{ overflowX: 'auto', maxHeight: 420 }}>
            <Table size="small" stickyHeader>
              <TableHead>
                <TableRow>
                  <TableCell>Line</TableCell>
                  <TableCell>Company</TableCell>
                  <TableCell>Result</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {[...report.rows]
                  .sort((a, b) => Number(b.status === 'invalid') - Number(a.status === 'invalid') || a.line - b.line)
                  .slice(0, 200)
                  .map((row) => (
                    <TableRow key={row.line} data-testid={`import-row-${row.line}`}>
                      <TableCell>{row.line}</TableCell>
                      <TableCell>{row.company ?? '—'}</TableCell>
                      <TableCell>
                        {row.status === 'invalid' ? (
                          <Typography variant="body2" color="error">
                            {row.errors.map((e) => `${e.field}: ${e.message}`).join(' ')}
                          </Typography>
                        ) : row.status === 'already_imported' ? (
                          'Already imported'
                        ) : (
                          'OK'
                        )}
                      </TableCell>
                    </TableRow>
                  ))}
              </TableBody>
            </Table>
          </Box>
        </>
      ) : null}
    </Box>
  );
}

function RulesPanel() {
  const [rules, setRules] = useState<LeadRule[] | null>(null);
  const load = useCallback(() => listRules().then(setRules, (caught: Error) => showToast(caught.message, 'error')), []);
  useEffect(() => {
    void load();
  }, [load]);
  const move = async (rule: LeadRule, position: number) => {
    await moveRule(rule.id, position).catch((caught: Error) => showToast(caught.message, 'error'));
    await load();
  };
  return (
    <Box sx={{ p: 2 }}>
      <Typography variant="body2" sx={{ mb: 1 }}>
        Rules are tried from the top; the first that matches a new lead and has an eligible organisation with room routes it. A change applies to leads created
        from then on.
      </Typography>
      {(rules ?? []).map((rule, index) => (
        <Paper key={rule.id} variant="outlined" sx={{ p: 1.5, mb: 1 }} data-testid={`rule-${index}`}>
          <Stack direction="row" spacing={1} alignItems="center">
            <Typography sx={{ width: 24 }} color="text.secondary">
              {index + 1}
            </Typography>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="subtitle2">{rule.name}</Typography>
              <Typography variant="caption" color="text.secondary" component="div">
                {[
                  rule.regions.join(', '),
                  rule.countries.join(', '),
                  rule.product_interests.join(', '),
                  rule.min_value !== null || rule.max_value !== null
                    ? `${money(rule.min_value ?? 0)}–${rule.max_value === null ? '∞' : money(rule.max_value)}`
                    : '',
                ]
                  .filter(Boolean)
                  .join(' · ') || 'Any lead'}
              </Typography>
              <Typography variant="caption" component="div">
                {METHOD_LABELS[rule.method] ?? rule.method}: {rule.organisation_names.join(', ')}
                {rule.capacity ? ` (at most ${rule.capacity} open each)` : ''}
              </Typography>
            </Box>
            <IconButton aria-label="Move up" disabled={index === 0} onClick={() => move(rule, index - 1)}>
              <ArrowUpwardIcon fontSize="small" />
            </IconButton>
            <IconButton aria-label="Move down" disabled={index === (rules?.length ?? 0) - 1} onClick={() => move(rule, index + 1)}>
              <ArrowDownwardIcon fontSize="small" />
            </IconButton>
            <IconButton
              aria-label="Delete rule"
              onClick={async () => {
                await deleteRule(rule.id);
                await load();
              }}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Stack>
        </Paper>
      ))}
      {rules && rules.length === 0 ? <Alert severity="info">No routing rules: every new lead waits in the unassigned queue.</Alert> : null}
    </Box>
  );
}

/** /lead-management: all leads with filters, the unassigned queue, import with the per-row preview, routing rules and reassignment. */
export default function LeadManagement() {
  const principal = usePrincipal();
  const admin = Boolean(principal && isAdminRole(principal.role));
  const [tab, setTab] = useState('all');
  const [filters, setFilters] = useState<LeadFilters>({});
  const [assigning, setAssigning] = useState<Lead | null>(null);
  const [version, setVersion] = useState(0);
  const tabs = [
    { key: 'all', label: 'All leads' },
    { key: 'queue', label: 'Unassigned queue' },
    { key: 'import', label: 'Import' },
    { key: 'reports', label: 'Reports' },
    ...(admin ? [{ key: 'rules', label: 'Routing rules' }] : []),
  ];
  const setFilter = (key: keyof LeadFilters, value: string) => setFilters((f) => ({ ...f, [key]: value || undefined }));
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle title="Lead Management" subtitle="Vendor leads: route, import and follow them from the first answer to the deal." />
      <SectionTabs sections={tabs} value={tab} onChange={setTab} label="Lead management sections" tabProps={sectionTestId} sx={{ minWidth: 0 }}>
        {assigning ? (
          <Box sx={{ p: 2, pb: 0 }}>
            <AssignPanel
              lead={assigning}
              onDone={() => {
                setAssigning(null);
                setVersion((v) => v + 1);
              }}
            />
          </Box>
        ) : null}
        {tab === 'all' ? (
          <>
            <Box sx={{ p: 2, display: 'flex', flexWrap: 'wrap', gap: 1, '& > .MuiTextField-root': { width: { xs: '100%', sm: 'auto' } } }}>
              <TextField size="small" label="Search" value={filters.search ?? ''} onChange={(e) => setFilter('search', e.target.value)} />
              {FILTERS.map((filter) => (
                <SelectFilter
                  key={filter.key}
                  label={filter.label}
                  value={filters[filter.key] ?? ''}
                  onChange={(value) => setFilter(filter.key, value)}
                  allLabel="Any"
                  choices={filter.choices}
                  sx={{ minWidth: filter.minWidth }}
                />
              ))}
              <Button onClick={() => exportLeads(filters)}>Export CSV</Button>
            </Box>
            <LeadTable key={version} filters={filters} onAssign={admin ? setAssigning : undefined} />
          </>
        ) : tab === 'queue' ? (
          <LeadTable key={`queue-${version}`} filters={{ status: 'unassigned' }} onAssign={admin ? setAssigning : undefined} />
        ) : tab === 'import' ? (
          <ImportPanel />
        ) : tab === 'reports' ? (
          <LeadReportsPanel />
        ) : (
          <RulesPanel />
        )}
      </SectionTabs>
    </Box>
  );
}
