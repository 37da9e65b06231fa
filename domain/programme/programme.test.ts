import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { gapSentence } from './criteria';
import {
  earnedTier,
  measure,
  nextQuarterStart,
  programme,
  programmeRuns,
  programmeTiers,
  quarterKeyOf,
  type LadderTier,
  type StandingEvent,
  type TierRef,
} from './programme';

const ORG = 'org-1';
const registered: TierRef = { id: 't0', name: 'Registered', rank: 0 };
const silver: TierRef = { id: 't1', name: 'Silver', rank: 1 };
const gold: TierRef = { id: 't2', name: 'Gold', rank: 2 };
const ladder: LadderTier[] = [
  {
    ...gold,
    requirements: [
      { kind: 'delivered_purchases', target: 300_000_00, window_months: 12 },
      { kind: 'deals_won', target: 3, window_months: 12 },
    ],
  },
  { ...registered, requirements: [] },
  { ...silver, requirements: [{ kind: 'delivered_purchases', target: 100_000_00, window_months: 12 }] },
];
const spec = deciderSpec(programme);
const Q4 = '2026-10-01T06:00:00.000Z';
const Q4_LATER = '2026-11-15T10:00:00.000Z';
const Q1 = '2027-01-01T06:00:00.000Z';
const Q2 = '2027-04-01T06:00:00.000Z';

const measured = { 'delivered_purchases:12': 120_000_00 };
const evaluate = (earned: TierRef, kind: 'quarterly' | 'interim' = 'quarterly', runId = 'run-1', current: ReturnType<typeof measure>[] = []) => ({
  type: 'EvaluateStanding' as const,
  organisationId: ORG,
  kind,
  runId,
  entryTier: registered,
  earned,
  measured,
  currentTierMeasured: current,
});
const changed = (
  fromTier: TierRef | null,
  toTier: TierRef,
  direction: 'initial' | 'promoted' | 'demoted',
  quarter: string,
  runId = 'run-1',
  missing: ReturnType<typeof measure>[] = [],
): StandingEvent => ({
  type: 'PartnerTierChanged.v1',
  data: { organisationId: ORG, fromTier, toTier, direction, quarter, runId, measured, missing },
});
const evaluated = (
  quarter: string,
  earned: TierRef,
  outcome: Extract<StandingEvent, { type: 'PartnerTierEvaluated.v1' }>['data']['outcome'],
  kind: 'quarterly' | 'interim' = 'quarterly',
  runId = 'run-1',
): StandingEvent => ({
  type: 'PartnerTierEvaluated.v1',
  data: { organisationId: ORG, quarter, kind, runId, earnedTier: earned, measured, outcome },
});
const silverMissing = [measure({ kind: 'delivered_purchases', target: 100_000_00, window_months: 12 }, { 'delivered_purchases:12': 81_600_00 })];
const atRisk = (quarter: string, demotionOn: string): StandingEvent => ({
  type: 'PartnerTierAtRisk.v1',
  data: { organisationId: ORG, tier: silver, quarter, runId: 'run-1', measured, missing: silverMissing, demotionOn },
});

describe('measuring requirements', () => {
  it('meets a requirement exactly at its target and phrases the gap below it', () => {
    expect(measure({ kind: 'delivered_purchases', target: 100_000_00, window_months: 12 }, { 'delivered_purchases:12': 100_000_00 })).toMatchObject({
      met: true,
      gap: 0,
      sentence: null,
      percentage: 100,
    });
    expect(silverMissing[0]).toMatchObject({ met: false, current: 81_600_00, gap: 18_400_00, percentage: 81.6, sentence: '$18,400 more delivered purchases' });
    expect(gapSentence('deals_won', 1)).toBe('1 more deal won');
    expect(gapSentence('delivered_purchases', 7_799_940)).toBe('$77,999.40 more delivered purchases');
    expect(gapSentence('deals_approved', 3)).toBe('3 more registered deals approved');
    expect(gapSentence('lead_acceptance_rate', 12.5)).toBe('12.5 points more lead acceptance');
  });

  it('earns the highest tier climbed without a gap, at the thresholds', () => {
    expect(earnedTier(ladder, {}).name).toBe('Registered');
    expect(earnedTier(ladder, { 'delivered_purchases:12': 100_000_00 - 1 }).name).toBe('Registered');
    expect(earnedTier(ladder, { 'delivered_purchases:12': 100_000_00 }).name).toBe('Silver');
    expect(earnedTier(ladder, { 'delivered_purchases:12': 300_000_00, 'deals_won:12': 2 }).name).toBe('Silver');
    expect(earnedTier(ladder, { 'delivered_purchases:12': 300_000_00, 'deals_won:12': 3 }).name).toBe('Gold');
  });

  it('keys quarters by their UTC calendar quarter, at the boundary', () => {
    expect(quarterKeyOf('2026-12-31T23:59:59.999Z')).toBe('2026-Q4');
    expect(quarterKeyOf('2027-01-01T00:00:00.000Z')).toBe('2027-Q1');
    expect(nextQuarterStart('2026-12-31T23:59:59.999Z')).toBe('2027-01-01');
    expect(nextQuarterStart('2027-01-01T00:00:00.000Z')).toBe('2027-04-01');
  });
});

describe('a first evaluation', () => {
  it('places the organisation in the tier it earns', () => {
    spec
      .given([])
      .when(evaluate(silver), { now: Q4 })
      .then([changed(null, silver, 'initial', '2026-Q4'), evaluated('2026-Q4', silver, 'unchanged')]);
  });
  it('cannot be interim: a quarter starts with its quarterly evaluation', () => {
    spec
      .given([])
      .when(evaluate(silver, 'interim'), { now: Q4 })
      .thenThrows(/has not been evaluated yet/, 'quarter_not_evaluated');
  });
});

describe('promotion', () => {
  const placed = [changed(null, registered, 'initial', '2026-Q4'), evaluated('2026-Q4', registered, 'unchanged')];
  it('is immediate, also in an interim evaluation later in the quarter', () => {
    spec
      .given(placed)
      .when(evaluate(silver, 'interim', 'run-2'), { now: Q4_LATER })
      .then([changed(registered, silver, 'promoted', '2026-Q4', 'run-2'), evaluated('2026-Q4', silver, 'promoted', 'interim', 'run-2')]);
  });
  it('at the next quarter skips tiers when several are earned at once', () => {
    spec
      .given(placed)
      .when(evaluate(gold), { now: Q1 })
      .then([changed(registered, gold, 'promoted', '2027-Q1'), evaluated('2027-Q1', gold, 'promoted')]);
  });
  it('never evaluates a quarter twice', () => {
    spec
      .given(placed)
      .when(evaluate(silver), { now: Q4_LATER })
      .thenThrows(/Q4 2026 has been evaluated/, 'quarter_evaluated');
  });
});

describe('demotion after one quarter’s grace', () => {
  const atSilver = [changed(null, silver, 'initial', '2026-Q4'), evaluated('2026-Q4', silver, 'unchanged')];
  it('warns first, with what is missing and when demotion follows', () => {
    spec
      .given(atSilver)
      .when(evaluate(registered, 'quarterly', 'run-1', silverMissing), { now: Q1 })
      .then([atRisk('2027-Q1', '2027-04-01'), evaluated('2027-Q1', registered, 'at_risk')]);
  });
  const warned = [...atSilver, atRisk('2027-Q1', '2027-04-01'), evaluated('2027-Q1', registered, 'at_risk')];
  it('does not demote within the quarter of the warning (an interim run)', () => {
    spec
      .given(warned)
      .when(evaluate(registered, 'interim', 'run-2'), { now: '2027-02-10T10:00:00.000Z' })
      .then([evaluated('2027-Q1', registered, 'at_risk', 'interim', 'run-2')]);
  });
  it('demotes at the next quarter’s evaluation when the shortfall remains', () => {
    spec
      .given(warned)
      .when(evaluate(registered, 'quarterly', 'run-1', silverMissing), { now: Q2 })
      .then([changed(silver, registered, 'demoted', '2027-Q2', 'run-1', silverMissing), evaluated('2027-Q2', registered, 'demoted')]);
  });
  it('clears the warning when the tier is met again', () => {
    spec
      .given(warned)
      .when(evaluate(silver, 'interim', 'run-2'), { now: '2027-03-31T23:59:59.000Z' })
      .then([
        { type: 'PartnerTierRecovered.v1', data: { organisationId: ORG, tier: silver, quarter: '2027-Q1', runId: 'run-2', measured } },
        evaluated('2027-Q1', silver, 'recovered', 'interim', 'run-2'),
      ]);
  });
  it('an interim evaluation never starts a warning', () => {
    spec
      .given(atSilver)
      .when(evaluate(registered, 'interim', 'run-2'), { now: Q4_LATER })
      .then([evaluated('2026-Q4', registered, 'unchanged', 'interim', 'run-2')]);
  });
});

describe('overrides', () => {
  const atSilver = [changed(null, silver, 'initial', '2026-Q4'), evaluated('2026-Q4', silver, 'unchanged')];
  const override = { type: 'OverrideTier' as const, organisationId: ORG, tier: gold, reason: 'Launch partner', endsOn: '2027-01-31', entryTier: registered };
  const overridden: StandingEvent = {
    type: 'PartnerTierOverridden.v1',
    data: { organisationId: ORG, fromTier: silver, tier: gold, reason: 'Launch partner', endsOn: '2027-01-31', by: 'actor-1' },
  };
  it('holds a tier with a reason until an end date after today', () => {
    spec.given(atSilver).when(override, { now: Q4_LATER }).then([overridden]);
    spec
      .given(atSilver)
      .when({ ...override, endsOn: '2026-11-15' }, { now: Q4_LATER })
      .thenThrows(/after today/, 'ends_on_past');
    spec
      .given(atSilver)
      .when(override, { now: Q4_LATER, actorRole: 'manufacturer' })
      .thenThrows(/Only administrators/, 'admins_only');
  });
  it('keeps the tier in force while the measured tier follows the rules underneath', () => {
    spec
      .given([...atSilver, overridden])
      .when(evaluate(registered, 'quarterly'), { now: Q1 })
      .then([changed(silver, registered, 'demoted', '2027-Q1'), evaluated('2027-Q1', registered, 'overridden')]);
  });
  it('ends after its last day: the next evaluation records the end, then evaluates the measured tier', () => {
    spec
      .given([...atSilver, overridden])
      .when(evaluate(silver, 'quarterly'), { now: '2027-02-01T00:00:00.000Z' })
      .then([
        { type: 'PartnerTierOverrideEnded.v1', data: { organisationId: ORG, tier: gold, restoredTier: silver, reason: 'The override reached its end date.' } },
        evaluated('2027-Q1', silver, 'unchanged'),
      ]);
  });
  it('is still in force on its last day', () => {
    spec
      .given([...atSilver, overridden])
      .when(evaluate(silver, 'quarterly'), { now: '2027-01-31T23:00:00.000Z' })
      .then([evaluated('2027-Q1', silver, 'overridden')]);
  });
  it('may be ended early by an administrator, and only when there is one', () => {
    spec
      .given([...atSilver, overridden])
      .when({ type: 'EndOverride', organisationId: ORG, reason: 'Ended early' })
      .then([{ type: 'PartnerTierOverrideEnded.v1', data: { organisationId: ORG, tier: gold, restoredTier: silver, reason: 'Ended early' } }]);
    spec
      .given(atSilver)
      .when({ type: 'EndOverride', organisationId: ORG, reason: 'x' })
      .thenThrows(/no override/, 'no_override');
  });
});

describe('tiers', () => {
  const tiers = deciderSpec(programmeTiers);
  const fields = {
    name: 'Silver',
    rank: 1,
    description: '',
    requirements: [{ kind: 'deals_won' as const, target: 2, window_months: 12 }],
    benefits: { rebate_rate_percent: 3.5, mdf_share_percent: 100, protection_days: 90, catalogue_discount_percent: 5, support_priority: 'priority' as const },
  };
  it('are created and edited by administrators, one rank per tier', () => {
    tiers
      .given([])
      .when({ type: 'CreateTier', tierId: 't1', fields, rankTaken: false })
      .then([{ type: 'ProgrammeTierCreated.v1', data: { tierId: 't1', ...fields } }]);
    tiers
      .given([])
      .when({ type: 'CreateTier', tierId: 't1', fields, rankTaken: true })
      .thenThrows(/already has rank 1/, 'rank_taken');
    tiers
      .given([])
      .when({ type: 'CreateTier', tierId: 't1', fields, rankTaken: false }, { actorRole: 'partner' })
      .thenThrows(/Only administrators/);
    tiers
      .given([])
      .when({ type: 'CreateTier', tierId: 't1', fields: { ...fields, rank: 0 }, rankTaken: false })
      .thenThrows(/entry tier/);
  });
  it('record only what changed', () => {
    const created = { type: 'ProgrammeTierCreated.v1' as const, data: { tierId: 't1', ...fields } };
    tiers
      .given([created])
      .when({ type: 'UpdateTier', tierId: 't1', changes: { name: 'Silver', rank: 1 }, rankTaken: false })
      .then([]);
    tiers
      .given([created])
      .when({ type: 'UpdateTier', tierId: 't1', changes: { requirements: [{ kind: 'deals_won', target: 4, window_months: 12 }] }, rankTaken: false })
      .then([{ type: 'ProgrammeTierUpdated.v1', data: { tierId: 't1', changes: { requirements: [{ kind: 'deals_won', target: 4, window_months: 12 }] } } }]);
  });
});

describe('evaluation runs', () => {
  it('are recorded once, under the quarter of their moment', () => {
    const runs = deciderSpec(programmeRuns);
    const command = { type: 'RecordEvaluation' as const, runId: 'r', kind: 'quarterly' as const, trigger: 'schedule' as const, results: [] };
    const event = {
      type: 'ProgrammeEvaluationRecorded.v1' as const,
      data: { runId: 'r', quarter: '2027-Q1', kind: 'quarterly' as const, trigger: 'schedule' as const, requestedBy: 'actor-1', results: [] },
    };
    runs.given([]).when(command, { now: Q1 }).then([event]);
    runs
      .given([event])
      .when(command, { now: Q1 })
      .thenThrows(/recorded already/, 'run_recorded');
    expect(event.data.quarter).toBe('2027-Q1');
  });
});
