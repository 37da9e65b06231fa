import { Alert, Box, Typography } from '@mui/material';
import { LoadError, Loading } from '../lists';
import { ApiError } from '../providers/errorMapper';
import { ScorecardBody } from '../scorecards/ScorecardPage';
import { RankBandChip } from '../scorecards/ScorecardParts';
import { StandingPanel, TierHistory, TierLadder } from './ProgrammeParts';
import { historyOf, listTiers, ownStanding, scorecardOf, useLoad, type Standing } from './programmeApi';

/** A refusal or a missing standing means the organisation is not in the programme, which is no error to retry. */
const notInProgramme = (error: unknown) => error instanceof ApiError && (error.status === 403 || error.status === 404);

function NotInProgramme() {
  return (
    <Alert severity="info" data-testid="not-in-programme">
      Your organisation is not part of the partner programme yet. It joins at the entry tier once its partner agreement is approved.
    </Alert>
  );
}

/** The organisation's standing with the progress to the next tier, the ladder, and its tier changes. */
export function ProgrammeTab() {
  const standing = useLoad(ownStanding);
  const tiers = useLoad(listTiers);
  if (notInProgramme(standing.error)) return <NotInProgramme />;
  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }} data-testid="programme-tab">
      <LoadError error={standing.error} message="Your programme standing could not be loaded." onRetry={standing.reload} />
      {standing.loading ? <Loading /> : null}
      {standing.data ? <StandingPanel standing={standing.data} /> : null}
      <Box>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
          Programme tiers
        </Typography>
        <LoadError error={tiers.error} message="The tiers could not be loaded." onRetry={tiers.reload} />
        {tiers.data ? <TierLadder tiers={tiers.data} currentRank={standing.data?.tier.rank} /> : tiers.loading ? <Loading /> : null}
      </Box>
      {standing.data ? <OwnHistory standing={standing.data} /> : null}
    </Box>
  );
}

function OwnHistory({ standing }: { standing: Standing }) {
  const history = useLoad(() => historyOf(standing.organisation_id), [standing.organisation_id]);
  return (
    <Box>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        Tier history
      </Typography>
      <LoadError error={history.error} message="The tier history could not be loaded." onRetry={history.reload} />
      {history.data ? <TierHistory history={history.data} /> : history.loading ? <Loading /> : null}
    </Box>
  );
}

/** The organisation's own scorecard: its figures and where it stands among partners (a band, never others' figures). */
export function OwnScorecardTab() {
  const standing = useLoad(ownStanding);
  const organisationId = standing.data?.organisation_id;
  const scorecard = useLoad(() => (organisationId ? scorecardOf(organisationId) : new Promise<never>(() => undefined)), [organisationId]);
  if (notInProgramme(standing.error) || notInProgramme(scorecard.error)) return <NotInProgramme />;
  const current = scorecard.data?.current;
  return (
    <Box sx={{ display: 'grid', gap: 2, minWidth: 0 }} data-testid="own-scorecard">
      <LoadError
        error={standing.error ?? scorecard.error}
        message="Your scorecard could not be loaded."
        onRetry={() => (standing.reload(), scorecard.reload())}
      />
      {!scorecard.data && !standing.error && !scorecard.error ? <Loading /> : null}
      {current ? (
        <Alert severity="info" icon={false} data-testid="rank-statement">
          In {current.quarter_label} your organisation ranks in the{' '}
          <Box component="span" sx={{ display: 'inline-block', verticalAlign: 'middle' }}>
            <RankBandChip row={current} />
          </Box>{' '}
          of partners, with a score of {Math.round(current.score)} out of 100. Other partners' figures stay private, as yours do.
        </Alert>
      ) : null}
      {scorecard.data ? <ScorecardBody detail={scorecard.data} /> : null}
    </Box>
  );
}
