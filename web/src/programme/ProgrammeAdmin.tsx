import { isAdminRole } from '@domain/access';
import AddIcon from '@mui/icons-material/Add';
import EditIcon from '@mui/icons-material/Edit';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Alert, Box, Button, Chip, Collapse, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { Fragment, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { formatDateTime } from '../formatting';
import { PageTitle } from '../layout/PageTitle';
import { plainSectionTab, SectionTabs, useUrlSection } from '../layout/SectionTabs';
import { useToast } from '../layout/toast';
import { LoadError, Loading } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { ScorecardTable } from '../scorecards/ScorecardTable';
import { TierChip, TierLadder } from './ProgrammeParts';
import { byRank, evaluateNow, getEvaluation, listEvaluations, listTiers, useLoad, type EvaluationRun, type EvaluationSummary, type Tier } from './programmeApi';
import { TierEditor } from './TierEditor';

const TABS = [
  { key: 'scorecards', label: 'Scorecards' },
  { key: 'tiers', label: 'Tiers' },
  { key: 'evaluations', label: 'Evaluations' },
] as const;

function TiersTab({ admin }: { admin: boolean }) {
  const toast = useToast();
  const { data, error, reload } = useLoad(listTiers);
  const [editing, setEditing] = useState<Tier | null | 'new'>(null);
  const tiers = data ?? [];
  const nextRank = tiers.reduce((max, t) => Math.max(max, t.rank + 1), 0);
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <LoadError error={error} message="The tiers could not be loaded." onRetry={reload} />
      {admin ? (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')} data-testid="new-tier">
            New tier
          </Button>
          <Typography variant="body2" color="text.secondary">
            Changes apply at the next evaluation; partners see the ladder on their programme page.
          </Typography>
        </Box>
      ) : null}
      {!data && !error ? <Loading /> : null}
      {data ? <TierLadder tiers={tiers} /> : null}
      {data && tiers.length > 0 ? (
        <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Table size="small" aria-label="Tiers">
            <TableHead>
              <TableRow>
                <TableCell>Tier</TableCell>
                <TableCell align="right">Rank</TableCell>
                <TableCell align="right">Organisations</TableCell>
                <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                  Version
                </TableCell>
                {admin ? <TableCell /> : null}
              </TableRow>
            </TableHead>
            <TableBody>
              {byRank(tiers).map((tier) => (
                <TableRow key={tier.id} data-testid="tier-row" data-tier={tier.name}>
                  <TableCell>
                    <TierChip tier={tier} />
                  </TableCell>
                  <TableCell align="right">{tier.rank}</TableCell>
                  <TableCell align="right">{tier.organisations}</TableCell>
                  <TableCell align="right" sx={{ display: { xs: 'none', sm: 'table-cell' } }}>
                    {tier.version}
                  </TableCell>
                  {admin ? (
                    <TableCell align="right">
                      <Button size="small" startIcon={<EditIcon />} onClick={() => setEditing(tier)} data-testid={`edit-tier-${tier.name}`}>
                        Edit
                      </Button>
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      {admin ? (
        <TierEditor
          tier={editing === 'new' ? null : editing}
          nextRank={nextRank}
          open={editing !== null}
          onClose={() => setEditing(null)}
          onSaved={(_, message) => {
            setEditing(null);
            toast(message, 'success');
            reload();
          }}
        />
      ) : null}
    </Box>
  );
}

const OUTCOME_COLOURS: Record<string, 'success' | 'error' | 'warning' | 'info' | 'default'> = {
  promoted: 'success',
  recovered: 'success',
  demoted: 'error',
  at_risk: 'warning',
  overridden: 'info',
  unchanged: 'default',
  skipped: 'default',
};
const OUTCOME_TEXT: Record<string, string> = {
  promoted: 'Promoted',
  recovered: 'Back on track',
  demoted: 'Demoted',
  at_risk: 'At risk',
  overridden: 'Overridden',
  unchanged: 'Unchanged',
  skipped: 'Skipped',
};

function countsText(run: EvaluationSummary): string {
  const parts = (['promoted', 'demoted', 'at_risk', 'recovered', 'overridden', 'unchanged'] as const)
    .filter((k) => run.counts[k] > 0)
    .map((k) => `${run.counts[k]} ${OUTCOME_TEXT[k].toLowerCase()}`);
  return parts.length ? parts.join(' · ') : 'No organisations evaluated';
}

/** One run's results, the moves first. */
function RunResults({ run }: { run: EvaluationRun }) {
  const order = ['promoted', 'demoted', 'at_risk', 'recovered', 'overridden', 'unchanged', 'skipped'];
  const results = [...run.results].sort(
    (a, b) => order.indexOf(a.outcome) - order.indexOf(b.outcome) || a.organisation_name.localeCompare(b.organisation_name),
  );
  if (results.length === 0)
    return (
      <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
        No organisations were evaluated.
      </Typography>
    );
  return (
    <Table size="small" aria-label="Evaluation results" data-testid="run-results">
      <TableHead>
        <TableRow>
          <TableCell>Organisation</TableCell>
          <TableCell>Outcome</TableCell>
          <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Still missing</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {results.map((r) => {
          const missing =
            r.missing
              .map((m) => m.sentence)
              .filter(Boolean)
              .join(', ') || '—';
          return (
            <TableRow key={r.organisation_id} data-testid="run-result" data-organisation={r.organisation_name} data-outcome={r.outcome}>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                <RouterLink to={`/scorecards/${r.organisation_id}`}>{r.organisation_name}</RouterLink>
                <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                  {missing}
                </Typography>
              </TableCell>
              <TableCell>
                <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', flexWrap: 'wrap' }}>
                  <Chip size="small" color={OUTCOME_COLOURS[r.outcome]} label={OUTCOME_TEXT[r.outcome] ?? r.outcome} />
                  <Typography variant="caption">
                    {r.from_tier && r.to_tier && r.from_tier.id !== r.to_tier.id
                      ? `${r.from_tier.name} → ${r.to_tier.name}`
                      : (r.to_tier?.name ?? r.from_tier?.name ?? '')}
                  </Typography>
                </Box>
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{missing}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function EvaluationsTab({ admin }: { admin: boolean }) {
  const toast = useToast();
  const { data, error, reload } = useLoad(listEvaluations);
  const [open, setOpen] = useState<EvaluationRun | null>(null);
  const [busy, setBusy] = useState(false);
  const show = async (run: EvaluationSummary) => {
    if (open?.id === run.id) return setOpen(null);
    try {
      setOpen(await getEvaluation(run.id));
    } catch (e) {
      toast(messageOf(e, 'The run could not be loaded.'), 'error');
    }
  };
  const evaluate = async () => {
    setBusy(true);
    try {
      const answer = await evaluateNow();
      toast(answer.message, 'success');
      setOpen(answer.data);
      reload();
    } catch (e) {
      toast(messageOf(e, 'The evaluation failed.'), 'error');
    } finally {
      setBusy(false);
    }
  };
  const runs = data ?? [];
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
        {admin ? (
          <Button variant="contained" startIcon={<PlayArrowIcon />} onClick={() => void evaluate()} disabled={busy} data-testid="evaluate-now">
            {busy ? 'Evaluating…' : 'Evaluate now'}
          </Button>
        ) : null}
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 220 }}>
          Every partner is evaluated at the start of each quarter. A run within a quarter already evaluated promotes and clears warnings only; demotion follows
          a quarter at risk.
        </Typography>
      </Box>
      <LoadError error={error} message="The evaluation runs could not be loaded." onRetry={reload} />
      {!data && !error ? <Loading /> : null}
      {data && runs.length === 0 ? (
        <Alert severity="info" data-testid="no-runs">
          No evaluation has run yet. The first runs at the start of the next quarter{admin ? ', or now with Evaluate now' : ''}.
        </Alert>
      ) : null}
      {runs.length > 0 ? (
        <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: '100%', overflowX: 'auto' }}>
          <Table size="small" aria-label="Evaluation runs">
            <TableHead>
              <TableRow>
                <TableCell>Run</TableCell>
                <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Quarter</TableCell>
                <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>Started by</TableCell>
                <TableCell>Results</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {runs.map((run) => (
                <Fragment key={run.id}>
                  <TableRow hover onClick={() => void show(run)} sx={{ cursor: 'pointer' }} selected={open?.id === run.id} data-testid="evaluation-run">
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {formatDateTime(run.evaluated_at)}
                      <Typography variant="caption" color="text.secondary" component="div">
                        {run.kind === 'quarterly' ? 'Quarterly' : 'Interim'}
                        <Box component="span" sx={{ display: { sm: 'none' } }}>
                          {' '}
                          · {run.quarter}
                        </Box>
                      </Typography>
                    </TableCell>
                    <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{run.quarter}</TableCell>
                    <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                      {run.trigger === 'schedule' ? 'Schedule' : (run.requested_by_name ?? 'An administrator')}
                    </TableCell>
                    <TableCell>{countsText(run)}</TableCell>
                  </TableRow>
                  {open?.id === run.id ? (
                    <TableRow>
                      <TableCell colSpan={4} sx={{ p: 0, bgcolor: 'action.hover' }}>
                        <Collapse in>
                          <Box sx={{ p: 1, overflowX: 'auto' }}>
                            <RunResults run={open} />
                          </Box>
                        </Collapse>
                      </TableCell>
                    </TableRow>
                  ) : null}
                </Fragment>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      {open && !runs.some((r) => r.id === open.id) ? (
        <Paper variant="outlined" sx={{ p: 1, overflowX: 'auto' }}>
          <RunResults run={open} />
        </Paper>
      ) : null}
    </Box>
  );
}

/** /programme (admins; manufacturers read): the ranked scorecards, the tier ladder and its editor, and the evaluation runs. */
export default function ProgrammeAdmin() {
  const { role } = useAccess();
  const admin = isAdminRole(role);
  const [tab, choose] = useUrlSection(TABS, 'scorecards');
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle
        title="Partner Programme"
        subtitle={
          admin
            ? 'Rank partners on their results, shape the tier ladder, and evaluate tiers.'
            : 'Partners ranked on their results, and the tier ladder they are measured against.'
        }
      />
      <SectionTabs sections={TABS} value={tab} onChange={choose} label="Partner programme" tabProps={plainSectionTab} />
      {tab === 'scorecards' ? <ScorecardTable /> : null}
      {tab === 'tiers' ? <TiersTab admin={admin} /> : null}
      {tab === 'evaluations' ? <EvaluationsTab admin={admin} /> : null}
    </Box>
  );
}
