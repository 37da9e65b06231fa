import { CRITERIA, formatMeasure, type RequirementKind } from '@domain/programme/criteria';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremium';
import { Alert, Box, Chip, LinearProgress, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { formatDate } from '../formatting';
import { byRank, SUPPORT_PRIORITY_TEXT, type Standing, type StandingEvent, type Tier } from './programmeApi';

type Progress = Standing['progress'][number];
type TierRequirement = Tier['requirements'][number];
type Benefits = Tier['benefits'];

/** The tier colours, by rank: the entry tier stays neutral, the top ones stand out. */
const RANK_COLOURS = ['#78909c', '#90a4ae', '#f9a825', '#5e35b1', '#00897b', '#c62828'];
export const rankColour = (rank: number) => RANK_COLOURS[Math.min(rank, RANK_COLOURS.length - 1)];

export function TierChip({ tier, size = 'small' }: { tier: { name: string; rank: number } | null; size?: 'small' | 'medium' }) {
  if (!tier) return <Chip size={size} variant="outlined" label="No tier yet" />;
  return <Chip size={size} label={tier.name} sx={{ bgcolor: rankColour(tier.rank), color: '#fff', fontWeight: 600 }} data-testid="tier-chip" />;
}

const months = (n: number) => (n === 12 ? 'the last 12 months' : n === 1 ? 'the last month' : `the last ${n} months`);

/** "Delivered purchases of $250,000 in the last 12 months". */
export function requirementText(requirement: TierRequirement): string {
  const criterion = CRITERIA[requirement.kind as RequirementKind];
  const target = formatMeasure(requirement.kind as RequirementKind, requirement.target);
  return `${criterion?.label ?? requirement.kind}: ${criterion?.unit === 'percent' ? `at least ${target}` : target} in ${months(requirement.window_months)}`;
}

export function benefitLines(benefits: Benefits): Array<[string, string]> {
  return [
    ['Rebate rate', `${benefits.rebate_rate_percent}%`],
    ['Marketing funds share', `${benefits.mdf_share_percent}%`],
    ['Deal protection', `${benefits.protection_days} days`],
    ['Catalogue discount', `${benefits.catalogue_discount_percent}%`],
    ['Support', SUPPORT_PRIORITY_TEXT[benefits.support_priority] ?? benefits.support_priority],
  ];
}

/** One requirement measured: the current value against the target as a bar, and what is missing. */
export function RequirementBar({ progress }: { progress: Progress }) {
  const kind = progress.kind as RequirementKind;
  return (
    <Box data-testid="requirement-progress" data-kind={progress.kind} sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', alignItems: 'baseline' }}>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {progress.label}
          <Typography component="span" variant="caption" color="text.secondary">
            {' '}
            · {months(progress.window_months)}
          </Typography>
        </Typography>
        <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
          {formatMeasure(kind, progress.current)} of {formatMeasure(kind, progress.target)}
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={Math.max(0, Math.min(100, progress.percentage))}
        color={progress.met ? 'success' : 'primary'}
        sx={{ height: 8, borderRadius: 4, my: 0.5 }}
        aria-label={`${progress.label}: ${Math.round(progress.percentage)}%`}
      />
      <Typography
        variant="caption"
        color={progress.met ? 'success.main' : 'text.secondary'}
        sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}
        data-testid="requirement-gap"
      >
        {progress.met ? (
          <>
            <CheckCircleIcon sx={{ fontSize: 14 }} /> Met
          </>
        ) : (
          (progress.sentence ?? `${formatMeasure(kind, progress.gap)} more`)
        )}
      </Typography>
    </Box>
  );
}

/** One term and its value in a description list (`dl`): a small label above the figure. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography variant="body2" component="dd" sx={{ m: 0, fontWeight: 600, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Box>
  );
}

/** An organisation's place in the programme: its tier, what the next one still needs, warnings and overrides. */
export function StandingPanel({ standing, actions }: { standing: Standing; actions?: ReactNode }) {
  const top = standing.next_tier === null;
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 0 }} data-testid="standing">
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mb: 1.5 }}>
        <WorkspacePremiumIcon sx={{ color: rankColour(standing.tier.rank), fontSize: 40 }} />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="h6" component="h2" sx={{ fontSize: '1.15rem', lineHeight: 1.3 }} data-testid="standing-tier">
            {standing.tier.name} Partner
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {standing.since ? `Since ${formatDate(standing.since)}` : 'Entry tier'}
            {standing.last_evaluated_quarter ? ` · last evaluated ${standing.last_evaluated_quarter}` : ''}
          </Typography>
        </Box>
        {actions ? <Box sx={{ flexBasis: { xs: '100%', sm: 'auto' } }}>{actions}</Box> : null}
      </Box>
      {standing.at_risk ? (
        <Alert severity="warning" icon={<WarningAmberIcon />} sx={{ mb: 2 }} data-testid="at-risk">
          <strong>{standing.tier.name} is at risk.</strong>{' '}
          {standing.at_risk_missing.length > 0
            ? `Still missing: ${standing.at_risk_missing
                .map((m) => m.sentence)
                .filter(Boolean)
                .join(', ')}.`
            : ''}{' '}
          {standing.demotion_on ? `Without them the tier changes at the evaluation on ${formatDate(standing.demotion_on)}.` : ''}
        </Alert>
      ) : null}
      {standing.override ? (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="override">
          Held at {standing.override.tier.name} until {formatDate(standing.override.ends_on)}: {standing.override.reason}
          {standing.measured_tier.id !== standing.override.tier.id ? ` (measured tier: ${standing.measured_tier.name})` : ''}
        </Alert>
      ) : null}
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {top ? `Keeping ${standing.tier.name}` : `Progress to ${standing.next_tier?.name}`}
      </Typography>
      {standing.progress.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {top ? 'The top tier has no requirements to keep.' : `${standing.next_tier?.name} has no requirements: the next evaluation moves you up.`}
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 1.5 }}>
          {standing.progress.map((p) => (
            <RequirementBar key={p.kind} progress={p} />
          ))}
        </Box>
      )}
      {!top && standing.missing_sentence ? (
        <Typography variant="body2" sx={{ mt: 1.5 }} data-testid="missing-sentence">
          To reach {standing.next_tier?.name}: <strong>{standing.missing_sentence}</strong>.
        </Typography>
      ) : null}
      {!top && standing.missing.length === 0 && standing.progress.length > 0 ? (
        <Typography variant="body2" sx={{ mt: 1.5 }} color="success.main">
          Every requirement of {standing.next_tier?.name} is met: the next evaluation promotes you.
        </Typography>
      ) : null}
      <Box component="dl" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, minmax(0, 1fr))' }, m: 0, mt: 2 }}>
        <Fact label="Next evaluation">
          <span data-testid="next-evaluation">{formatDate(standing.next_evaluation)}</span>
        </Fact>
        <Fact label="Rebate rate">{standing.benefits.rebate_rate_percent}%</Fact>
        <Fact label="Deal protection">{standing.benefits.protection_days} days</Fact>
        <Fact label="Support">{SUPPORT_PRIORITY_TEXT[standing.benefits.support_priority]}</Fact>
      </Box>
    </Paper>
  );
}

/** The ladder: every tier with what it asks and what it gives, the organisation's own tier marked. */
export function TierLadder({ tiers, currentRank }: { tiers: Tier[]; currentRank?: number }) {
  if (tiers.length === 0) return <Alert severity="info">No tiers are defined yet.</Alert>;
  const ladder = byRank(tiers);
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 1.5,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: `repeat(${Math.min(ladder.length, 4)}, minmax(0, 1fr))` },
      }}
      data-testid="tier-ladder"
    >
      {ladder.map((tier) => {
        const current = tier.rank === currentRank;
        return (
          <Paper
            key={tier.id}
            variant="outlined"
            data-testid="ladder-tier"
            data-tier={tier.name}
            sx={{
              p: 1.5,
              minWidth: 0,
              borderTop: 4,
              borderTopColor: rankColour(tier.rank),
              ...(current ? { borderColor: rankColour(tier.rank), borderWidth: 2, borderTopWidth: 4 } : {}),
            }}
          >
            <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
                {tier.name}
              </Typography>
              {current ? <Chip size="small" color="primary" label="Your tier" /> : null}
            </Box>
            {tier.description ? (
              <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
                {tier.description}
              </Typography>
            ) : null}
            <Typography variant="overline" color="text.secondary" component="p" sx={{ lineHeight: 1.8 }}>
              Requirements
            </Typography>
            {tier.requirements.length === 0 ? (
              <Typography variant="body2">None: every approved partner starts here.</Typography>
            ) : (
              <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                {tier.requirements.map((r) => (
                  <Typography key={r.kind} component="li" variant="body2">
                    {requirementText(r)}
                  </Typography>
                ))}
              </Box>
            )}
            <Typography variant="overline" color="text.secondary" component="p" sx={{ lineHeight: 1.8, mt: 1 }}>
              Benefits
            </Typography>
            <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 1.5, rowGap: 0.25 }}>
              {benefitLines(tier.benefits).map(([label, value]) => (
                <Box key={label} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {label}
                  </Typography>
                  <Typography component="dd" variant="body2" sx={{ m: 0, fontWeight: 600 }}>
                    {value}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Paper>
        );
      })}
    </Box>
  );
}

const EVENT_TEXT: Record<StandingEvent['kind'], string> = {
  promoted: 'Promoted',
  demoted: 'Demoted',
  at_risk: 'At risk',
  recovered: 'Back on track',
  override_set: 'Override set',
  override_ended: 'Override ended',
};
const EVENT_COLOURS: Record<StandingEvent['kind'], 'success' | 'error' | 'warning' | 'info' | 'default'> = {
  promoted: 'success',
  demoted: 'error',
  at_risk: 'warning',
  recovered: 'success',
  override_set: 'info',
  override_ended: 'default',
};

function eventDetail(event: StandingEvent): string {
  const move =
    event.from_tier && event.to_tier && event.from_tier.id !== event.to_tier.id
      ? `${event.from_tier.name} → ${event.to_tier.name}`
      : (event.to_tier?.name ?? event.from_tier?.name ?? '');
  const missing = event.missing
    .map((m) => m.sentence)
    .filter(Boolean)
    .join(', ');
  return [move, event.quarter ? `(${event.quarter})` : '', event.reason ?? '', missing ? `Missing: ${missing}` : ''].filter(Boolean).join(' ');
}

/** The organisation's tier changes, newest first. */
export function TierHistory({ history }: { history: StandingEvent[] }) {
  if (history.length === 0)
    return (
      <Typography variant="body2" color="text.secondary" data-testid="tier-history-empty">
        No tier changes yet: the first evaluation records one.
      </Typography>
    );
  const rows = [...history].sort((a, b) => b.at.localeCompare(a.at));
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: '100%', overflowX: 'auto' }}>
      <Table size="small" aria-label="Tier history" data-testid="tier-history">
        <TableHead>
          <TableRow>
            <TableCell>Date</TableCell>
            <TableCell>Change</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>Details</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((event, index) => (
            <TableRow key={`${event.at}-${index}`}>
              <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>{formatDate(event.at)}</TableCell>
              <TableCell sx={{ verticalAlign: 'top' }}>
                <Chip size="small" color={EVENT_COLOURS[event.kind]} label={EVENT_TEXT[event.kind]} />
                <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' }, mt: 0.5 }}>
                  {eventDetail(event)}
                </Typography>
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{eventDetail(event)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
