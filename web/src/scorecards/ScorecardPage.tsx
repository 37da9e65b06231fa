import { isAdminRole } from '@domain/access';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { Alert, Box, Button, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useAccess } from '../access/usePrincipal';
import { PageTitle } from '../layout/PageTitle';
import { useToast } from '../layout/toast';
import { LoadError, Loading } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { OverrideDialog } from '../programme/OverrideDialog';
import { StandingPanel, TierHistory } from '../programme/ProgrammeParts';
import { endOverride, historyOf, scorecardOf, standingOf, useLoad, type ScorecardDetail } from '../programme/programmeApi';
import { dollars, percent, ScorecardCharts, ScorecardFigures } from './ScorecardParts';

/** Every quarter with activity, newest first. */
function QuarterTable({ detail }: { detail: ScorecardDetail }) {
  const rows = [...detail.history].reverse();
  if (rows.length === 0) return null;
  const hide = { display: { xs: 'none', sm: 'table-cell' } } as const;
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: '100%', overflowX: 'auto' }}>
      <Table size="small" aria-label="Quarters">
        <TableHead>
          <TableRow>
            <TableCell>Quarter</TableCell>
            <TableCell align="right">Score</TableCell>
            <TableCell align="right">Revenue</TableCell>
            <TableCell align="right" sx={hide}>
              Deals won
            </TableCell>
            <TableCell align="right" sx={hide}>
              Win rate
            </TableCell>
            <TableCell align="right" sx={hide}>
              Lead conv.
            </TableCell>
            <TableCell align="right" sx={hide}>
              Open tickets
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((q) => (
            <TableRow key={q.quarter} data-testid="quarter-row">
              <TableCell>{q.quarter_label}</TableCell>
              <TableCell align="right">{Math.round(q.score)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                {dollars(q.revenue_cents)}
              </TableCell>
              <TableCell align="right" sx={hide}>
                {q.deals_won}
              </TableCell>
              <TableCell align="right" sx={hide}>
                {percent(q.win_rate_percent)}
              </TableCell>
              <TableCell align="right" sx={hide}>
                {percent(q.lead_conversion_percent)}
              </TableCell>
              <TableCell align="right" sx={hide}>
                {q.open_tickets}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** A scorecard: the latest quarter's figures, the quarter-by-quarter charts and table. Shared by the admin page and the partner's own tab. */
export function ScorecardBody({ detail }: { detail: ScorecardDetail }) {
  if (!detail.current && detail.history.length === 0) {
    return (
      <Alert severity="info" data-testid="scorecard-empty">
        No scorecard yet: it is built once {detail.organisation_name} has orders, deals, leads or tickets.
      </Alert>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
      {detail.current ? (
        <Box>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            {detail.current.quarter_label}
          </Typography>
          <ScorecardFigures row={detail.current} />
        </Box>
      ) : null}
      <ScorecardCharts detail={detail} />
      <QuarterTable detail={detail} />
    </Box>
  );
}

/** /scorecards/:organisationId (admins and manufacturers): a partner's programme standing and scorecard history. */
export default function ScorecardPage() {
  const { organisationId = '' } = useParams();
  const { role } = useAccess();
  const admin = isAdminRole(role);
  const toast = useToast();
  const scorecard = useLoad(() => scorecardOf(organisationId), [organisationId]);
  const standing = useLoad(() => standingOf(organisationId), [organisationId]);
  const history = useLoad(() => historyOf(organisationId), [organisationId]);
  const [overriding, setOverriding] = useState(false);
  const name = scorecard.data?.organisation_name ?? standing.data?.organisation_name;
  const stop = async () => {
    try {
      const answer = await endOverride(organisationId);
      toast(answer.message, 'success');
      standing.replace(answer.data);
      history.reload();
    } catch (e) {
      toast(messageOf(e, 'The override could not be ended.'), 'error');
    }
  };
  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <Button component={RouterLink} to="/scorecards" size="small" startIcon={<ArrowBackIcon />} sx={{ mb: 1, ml: -1 }}>
        All scorecards
      </Button>
      <PageTitle title={name ? `Scorecard: ${name}` : 'Scorecard'} subtitle="Programme standing and quarter-by-quarter results." />
      <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }}>
        <LoadError error={standing.error} message="The programme standing could not be loaded." onRetry={standing.reload} />
        {standing.data ? (
          <StandingPanel
            standing={standing.data}
            actions={
              admin ? (
                <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
                  {standing.data.override ? (
                    <Button size="small" onClick={() => void stop()} data-testid="end-override">
                      End override
                    </Button>
                  ) : null}
                  <Button size="small" variant="outlined" onClick={() => setOverriding(true)} data-testid="open-override">
                    Override tier
                  </Button>
                </Box>
              ) : undefined
            }
          />
        ) : standing.loading ? (
          <Loading />
        ) : null}
        <LoadError error={scorecard.error} message="The scorecard could not be loaded." onRetry={scorecard.reload} />
        {scorecard.loading ? <Loading /> : scorecard.data ? <ScorecardBody detail={scorecard.data} /> : null}
        <Box>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
            Tier history
          </Typography>
          <LoadError error={history.error} message="The tier history could not be loaded." onRetry={history.reload} />
          {history.data ? <TierHistory history={history.data} /> : history.loading ? <Loading /> : null}
        </Box>
      </Box>
      {standing.data && admin ? (
        <OverrideDialog
          standing={standing.data}
          open={overriding}
          onClose={() => setOverriding(false)}
          onDone={(next, message) => {
            setOverriding(false);
            toast(message, 'success');
            standing.replace(next);
            history.reload();
          }}
        />
      ) : null}
    </Box>
  );
}
