import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { quarterOf } from '../rebates/tiers';
import { foldOf, type RecordFields, type VersionedRecordType } from '../versions';
import { criterionOf, gapSentence, type RequirementKind } from './criteria';

/**
 * The partner programme: one ladder of tiers (requirements measured over a trailing window, and the
 * benefits the tier gives), and each organisation's standing on it.
 *
 * Three deciders:
 * - `programmeTiers` (`programmeTiers-<id>`): a tier, created and edited by administrators.
 * - `programme` (`programmeStandings-<organisationId>`): an organisation's standing. Each evaluation brings the
 *   measured values and the tier they earn (worked out from the ladder outside, see `earnedTier`).
 *   Promotion is immediate; a shortfall first raises `PartnerTierAtRisk.v1` at a quarter's
 *   evaluation, and demotion follows only at a later quarter's evaluation if the shortfall remains
 *   (one quarter's grace). A quarter is evaluated once ('quarterly'); later runs in the same quarter
 *   are 'interim' and may only promote or clear a warning. An override holds a tier until its end date.
 * - `programmeRuns` (`programmeRuns-<id>`): one evaluation run with its results, recorded once.
 *
 * No clock here: the moment comes from the command's metadata, the quarter from that moment.
 */

export interface Requirement {
  kind: RequirementKind;
  target: number;
  window_months: number;
}

export interface Benefits {
  rebate_rate_percent: number;
  mdf_share_percent: number;
  protection_days: number;
  catalogue_discount_percent: number;
  support_priority: 'standard' | 'priority' | 'premium';
}

export interface TierRef {
  id: string;
  name: string;
  rank: number;
}

export interface TierFields {
  name: string;
  rank: number;
  description: string;
  requirements: Requirement[];
  benefits: Benefits;
}

export interface LadderTier extends TierRef {
  requirements: Requirement[];
}

/** One requirement measured for one organisation. */
export interface Measured {
  kind: RequirementKind;
  label: string;
  unit: 'cents' | 'count' | 'percent';
  window_months: number;
  current: number;
  target: number;
  gap: number;
  met: boolean;
  percentage: number;
  sentence: string | null;
}

/** Measured values by kind and window: `delivered_purchases:12`. */
export type Measures = Record<string, number>;
export const measureKey = (requirement: Pick<Requirement, 'kind' | 'window_months'>) => `${requirement.kind}:${requirement.window_months}`;

export function measure(requirement: Requirement, measures: Measures): Measured {
  const criterion = criterionOf(requirement.kind);
  const current = measures[measureKey(requirement)] ?? 0;
  const gap = Math.max(0, Math.round((requirement.target - current) * 100) / 100);
  const met = current >= requirement.target;
  return {
    kind: requirement.kind,
    label: criterion.label,
    unit: criterion.unit,
    window_months: requirement.window_months,
    current,
    target: requirement.target,
    gap,
    met,
    percentage: requirement.target <= 0 ? 100 : Math.min(100, Math.floor((current / requirement.target) * 1000) / 10),
    sentence: met ? null : gapSentence(requirement.kind, gap),
  };
}

export const measureAll = (requirements: Requirement[], measures: Measures) => requirements.map((r) => measure(r, measures));

/** The highest tier whose requirements are all met; tiers are climbed in rank order, so a tier above an unmet one is not earned. */
export function earnedTier(ladder: LadderTier[], measures: Measures): LadderTier {
  const sorted = [...ladder].sort((a, b) => a.rank - b.rank);
  if (!sorted.length) throw new DomainError('invalid', 'no_tiers', 'The programme has no tiers yet.');
  let earned = sorted[0];
  for (const tier of sorted.slice(1)) {
    if (!measureAll(tier.requirements, measures).every((m) => m.met)) break;
    earned = tier;
  }
  return earned;
}

/** "Q4 2026" → "2026-Q4": the key a quarter is evaluated under. */
export const quarterKeyOf = (moment: string | Date) => {
  const q = quarterOf(moment);
  return `${q.year}-Q${q.number}`;
};

/** The first day of the quarter after the one holding `moment`: when the next evaluation runs. */
export function nextQuarterStart(moment: string | Date): string {
  const end = quarterOf(moment).end;
  return new Date(Date.parse(`${end}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
}

const ref = (tier: TierRef): TierRef => ({ id: tier.id, name: tier.name, rank: tier.rank });

// ---- tiers ----

export type TierState = { status: 'none' } | ({ status: 'active'; id: string; version: number } & TierFields);

export type TierEvent =
  | { type: 'ProgrammeTierCreated.v1'; data: { tierId: string } & TierFields }
  | { type: 'ProgrammeTierUpdated.v1'; data: { tierId: string; changes: Partial<TierFields> } };

export type TierCommand =
  | { type: 'CreateTier'; tierId: string; fields: TierFields; rankTaken: boolean }
  | { type: 'UpdateTier'; tierId: string; changes: Partial<TierFields>; rankTaken: boolean };

function checkTier(fields: Partial<TierFields>, rankTaken: boolean) {
  if (rankTaken) throw new DomainError('conflict', 'rank_taken', `Another tier already has rank ${fields.rank}.`);
  const kinds = (fields.requirements ?? []).map((r) => r.kind);
  if (new Set(kinds).size !== kinds.length) throw new DomainError('invalid', 'duplicate_requirement', 'A tier names each kind of requirement once.');
  if (fields.rank === 0 && fields.requirements?.length)
    throw new DomainError('invalid', 'entry_tier_requirements', 'The entry tier (rank 0) has no requirements: every organisation holds it.');
}

export function decideTier(command: TierCommand, state: TierState, metadata: CommandMetadata): TierEvent[] {
  if (!['admin', 'administrator', null].includes(metadata.actorRole))
    throw new DomainError('forbidden', 'admins_only', 'Only administrators edit the programme.');
  switch (command.type) {
    case 'CreateTier':
      if (state.status !== 'none') throw new DomainError('conflict', 'tier_exists', 'This tier exists already.');
      checkTier(command.fields, command.rankTaken);
      return [{ type: 'ProgrammeTierCreated.v1', data: { tierId: command.tierId, ...command.fields } }];
    case 'UpdateTier': {
      if (state.status === 'none') throw new DomainError('not_found', 'tier_not_found', 'Tier not found.');
      const merged = { ...state, ...command.changes };
      checkTier({ ...command.changes, requirements: merged.requirements, rank: merged.rank }, command.rankTaken);
      // The tier's fields by name, as Object.entries names the changed ones (any string).
      const before: Readonly<Record<string, unknown>> = { ...state };
      const changes = Object.fromEntries(
        Object.entries(command.changes).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])),
      ) as Partial<TierFields>;
      if (!Object.keys(changes).length) return [];
      return [{ type: 'ProgrammeTierUpdated.v1', data: { tierId: command.tierId, changes } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolveTier(state: TierState, event: TierEvent): TierState {
  switch (event.type) {
    case 'ProgrammeTierCreated.v1': {
      const { tierId, ...fields } = event.data;
      return { status: 'active', id: tierId, version: 1, ...fields };
    }
    case 'ProgrammeTierUpdated.v1':
      return state.status === 'none' ? state : { ...state, ...event.data.changes, version: state.version + 1 };
    default:
      return assertNever(event);
  }
}

export const programmeTiers: Decider<TierState, TierCommand, TierEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveTier,
  decide: decideTier,
  streamId: (id) => `programmeTiers-${id}`,
};

// ---- standings ----

export interface Override {
  tier: TierRef;
  reason: string;
  endsOn: string;
  by: string | null;
}

export interface AtRisk {
  quarter: string;
  missing: Measured[];
  demotionOn: string;
}

export type StandingState =
  | { status: 'none'; organisationId: null }
  | {
      status: 'active';
      organisationId: string;
      /** The tier in force (an override's while it lasts). */
      tier: TierRef;
      /** The tier the measured values hold, under any override. */
      measuredTier: TierRef;
      atRisk: AtRisk | null;
      override: Override | null;
      evaluatedQuarters: string[];
    };

export type EvaluationKind = 'quarterly' | 'interim';

export type StandingEvent =
  | {
      type: 'PartnerTierChanged.v1';
      data: {
        organisationId: string;
        fromTier: TierRef | null;
        toTier: TierRef;
        direction: 'initial' | 'promoted' | 'demoted';
        quarter: string;
        runId: string;
        measured: Measures;
        missing: Measured[];
      };
    }
  | {
      type: 'PartnerTierAtRisk.v1';
      data: { organisationId: string; tier: TierRef; quarter: string; runId: string; measured: Measures; missing: Measured[]; demotionOn: string };
    }
  | { type: 'PartnerTierRecovered.v1'; data: { organisationId: string; tier: TierRef; quarter: string; runId: string; measured: Measures } }
  | {
      type: 'PartnerTierEvaluated.v1';
      data: {
        organisationId: string;
        quarter: string;
        kind: EvaluationKind;
        runId: string;
        earnedTier: TierRef;
        measured: Measures;
        outcome: 'promoted' | 'demoted' | 'at_risk' | 'recovered' | 'unchanged' | 'overridden';
      };
    }
  | {
      type: 'PartnerTierOverridden.v1';
      data: { organisationId: string; fromTier: TierRef | null; tier: TierRef; reason: string; endsOn: string; by: string | null };
    }
  | { type: 'PartnerTierOverrideEnded.v1'; data: { organisationId: string; tier: TierRef; restoredTier: TierRef; reason: string } };

export type StandingCommand =
  | {
      type: 'EvaluateStanding';
      organisationId: string;
      kind: EvaluationKind;
      runId: string;
      /** The ladder's entry tier (rank 0): what an organisation holds before its first evaluation. */
      entryTier: TierRef;
      /** The tier the measured values earn, and the measured values. */
      earned: TierRef;
      measured: Measures;
      /** The requirements of the tier in force, measured (for the warning's "what is missing"). */
      currentTierMeasured: Measured[];
    }
  | { type: 'OverrideTier'; organisationId: string; tier: TierRef; reason: string; endsOn: string; entryTier: TierRef }
  | { type: 'EndOverride'; organisationId: string; reason: string };

const today = (metadata: CommandMetadata) => metadata.now.slice(0, 10);

/** An override whose last day is before today has ended; evaluation first records its end. */
function endedOverride(state: StandingState, metadata: CommandMetadata, reason: string): StandingEvent[] {
  if (state.status !== 'active' || !state.override || state.override.endsOn >= today(metadata)) return [];
  return [
    {
      type: 'PartnerTierOverrideEnded.v1',
      data: { organisationId: state.organisationId, tier: state.override.tier, restoredTier: state.measuredTier, reason },
    },
  ];
}

function decideEvaluation(command: Extract<StandingCommand, { type: 'EvaluateStanding' }>, given: StandingState, metadata: CommandMetadata): StandingEvent[] {
  const quarter = quarterKeyOf(metadata.now);
  const { organisationId, runId, measured, earned } = command;
  if (command.kind === 'quarterly' && given.status === 'active' && given.evaluatedQuarters.includes(quarter))
    throw new DomainError('conflict', 'quarter_evaluated', `${quarterOf(metadata.now).label} has been evaluated for this organisation already.`);
  if (command.kind === 'interim' && (given.status === 'none' || !given.evaluatedQuarters.includes(quarter)))
    throw new DomainError(
      'conflict',
      'quarter_not_evaluated',
      `${quarterOf(metadata.now).label} has not been evaluated yet: its first evaluation is the quarterly one.`,
    );

  const events: StandingEvent[] = endedOverride(given, metadata, 'The override reached its end date.');
  const state = events.reduce(evolveStanding, given);
  const evaluated = (outcome: Extract<StandingEvent, { type: 'PartnerTierEvaluated.v1' }>['data']['outcome']): StandingEvent => ({
    type: 'PartnerTierEvaluated.v1',
    data: { organisationId, quarter, kind: command.kind, runId, earnedTier: ref(earned), measured, outcome },
  });

  if (state.status === 'none') {
    return [
      ...events,
      {
        type: 'PartnerTierChanged.v1',
        data: { organisationId, fromTier: null, toTier: ref(earned), direction: 'initial', quarter, runId, measured, missing: [] },
      },
      evaluated('unchanged'),
    ];
  }
  const held = state.measuredTier;
  if (state.override) {
    // The override holds the tier in force; the measured tier still follows the rules underneath it.
    if (earned.rank > held.rank || (command.kind === 'quarterly' && earned.rank < held.rank)) {
      return [
        ...events,
        {
          type: 'PartnerTierChanged.v1',
          data: {
            organisationId,
            fromTier: held,
            toTier: ref(earned),
            direction: earned.rank > held.rank ? 'promoted' : 'demoted',
            quarter,
            runId,
            measured,
            missing: [],
          },
        },
        evaluated('overridden'),
      ];
    }
    return [...events, evaluated('overridden')];
  }
  if (earned.rank > held.rank) {
    return [
      ...events,
      {
        type: 'PartnerTierChanged.v1',
        data: { organisationId, fromTier: held, toTier: ref(earned), direction: 'promoted', quarter, runId, measured, missing: [] },
      },
      evaluated('promoted'),
    ];
  }
  if (earned.rank === held.rank) {
    if (state.atRisk)
      return [...events, { type: 'PartnerTierRecovered.v1', data: { organisationId, tier: held, quarter, runId, measured } }, evaluated('recovered')];
    return [...events, evaluated('unchanged')];
  }
  // Below the tier held: a warning first, demotion at a later quarter's evaluation.
  if (command.kind === 'interim') return [...events, evaluated(state.atRisk ? 'at_risk' : 'unchanged')];
  const missing = command.currentTierMeasured.filter((m) => !m.met);
  if (state.atRisk && state.atRisk.quarter < quarter) {
    return [
      ...events,
      { type: 'PartnerTierChanged.v1', data: { organisationId, fromTier: held, toTier: ref(earned), direction: 'demoted', quarter, runId, measured, missing } },
      evaluated('demoted'),
    ];
  }
  if (state.atRisk) return [...events, evaluated('at_risk')];
  return [
    ...events,
    { type: 'PartnerTierAtRisk.v1', data: { organisationId, tier: held, quarter, runId, measured, missing, demotionOn: nextQuarterStart(metadata.now) } },
    evaluated('at_risk'),
  ];
}

export function decideStanding(command: StandingCommand, state: StandingState, metadata: CommandMetadata): StandingEvent[] {
  switch (command.type) {
    case 'EvaluateStanding':
      return decideEvaluation(command, state, metadata);
    case 'OverrideTier': {
      if (!['admin', 'administrator'].includes(metadata.actorRole ?? ''))
        throw new DomainError('forbidden', 'admins_only', 'Only administrators override a tier.');
      if (command.endsOn <= today(metadata)) throw new DomainError('invalid', 'ends_on_past', 'ends_on must be after today.');
      const reason = command.reason.trim();
      if (reason.length < 3) throw new DomainError('invalid', 'reason_required', 'An override needs a reason.');
      const fromTier = state.status === 'active' ? state.tier : null;
      return [
        {
          type: 'PartnerTierOverridden.v1',
          data: { organisationId: command.organisationId, fromTier, tier: ref(command.tier), reason, endsOn: command.endsOn, by: metadata.actorId },
        },
      ];
    }
    case 'EndOverride': {
      if (state.status !== 'active' || !state.override) throw new DomainError('conflict', 'no_override', 'This organisation has no override in force.');
      return [
        {
          type: 'PartnerTierOverrideEnded.v1',
          data: { organisationId: command.organisationId, tier: state.override.tier, restoredTier: state.measuredTier, reason: command.reason },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

export function evolveStanding(state: StandingState, event: StandingEvent): StandingState {
  switch (event.type) {
    case 'PartnerTierChanged.v1': {
      if (state.status === 'none')
        return {
          status: 'active',
          organisationId: event.data.organisationId,
          tier: event.data.toTier,
          measuredTier: event.data.toTier,
          atRisk: null,
          override: null,
          evaluatedQuarters: [],
        };
      return state.override
        ? { ...state, measuredTier: event.data.toTier, atRisk: null }
        : { ...state, tier: event.data.toTier, measuredTier: event.data.toTier, atRisk: null };
    }
    case 'PartnerTierAtRisk.v1':
      return state.status === 'none'
        ? state
        : { ...state, atRisk: { quarter: event.data.quarter, missing: event.data.missing, demotionOn: event.data.demotionOn } };
    case 'PartnerTierRecovered.v1':
      return state.status === 'none' ? state : { ...state, atRisk: null };
    case 'PartnerTierEvaluated.v1':
      if (state.status === 'none') return state;
      return {
        ...state,
        evaluatedQuarters:
          event.data.kind === 'quarterly' && !state.evaluatedQuarters.includes(event.data.quarter)
            ? [...state.evaluatedQuarters, event.data.quarter]
            : state.evaluatedQuarters,
      };
    case 'PartnerTierOverridden.v1': {
      const override: Override = { tier: event.data.tier, reason: event.data.reason, endsOn: event.data.endsOn, by: event.data.by };
      if (state.status === 'none')
        return {
          status: 'active',
          organisationId: event.data.organisationId,
          tier: event.data.tier,
          measuredTier: event.data.fromTier ?? event.data.tier,
          atRisk: null,
          override,
          evaluatedQuarters: [],
        };
      return { ...state, tier: event.data.tier, atRisk: null, override };
    }
    case 'PartnerTierOverrideEnded.v1':
      return state.status === 'none' ? state : { ...state, tier: event.data.restoredTier, override: null };
    default:
      return assertNever(event);
  }
}

export const programme: Decider<StandingState, StandingCommand, StandingEvent> = {
  initialState: () => ({ status: 'none', organisationId: null }),
  evolve: evolveStanding,
  decide: decideStanding,
  streamId: (id) => `programmeStandings-${id}`,
};

// ---- evaluation runs ----

export interface RunResult {
  organisation_id: string;
  organisation_name: string;
  outcome: 'promoted' | 'demoted' | 'at_risk' | 'recovered' | 'unchanged' | 'overridden' | 'skipped';
  from_tier: TierRef | null;
  to_tier: TierRef | null;
  measured: Measures;
  missing: Measured[];
}

export type RunState = { status: 'none' } | { status: 'recorded'; id: string; quarter: string };
export type RunEvent = {
  type: 'ProgrammeEvaluationRecorded.v1';
  data: { runId: string; quarter: string; kind: EvaluationKind; trigger: 'schedule' | 'admin'; requestedBy: string | null; results: RunResult[] };
};
export type RunCommand = { type: 'RecordEvaluation'; runId: string; kind: EvaluationKind; trigger: 'schedule' | 'admin'; results: RunResult[] };

export const programmeRuns: Decider<RunState, RunCommand, RunEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: (state, event) =>
    event.type === 'ProgrammeEvaluationRecorded.v1' ? { status: 'recorded', id: event.data.runId, quarter: event.data.quarter } : state,
  decide: (command, state, metadata) => {
    if (state.status !== 'none') throw new DomainError('conflict', 'run_recorded', 'This evaluation run has been recorded already.');
    return [
      {
        type: 'ProgrammeEvaluationRecorded.v1',
        data: {
          runId: command.runId,
          quarter: quarterKeyOf(metadata.now),
          kind: command.kind,
          trigger: command.trigger,
          requestedBy: metadata.actorId,
          results: command.results,
        },
      },
    ];
  },
  streamId: (id) => `programmeRuns-${id}`,
};

// ---- versions ----

export const tierVersionType: VersionedRecordType<TierState> = {
  label: 'Tier',
  decider: foldOf<TierState>(programmeTiers),
  present: (state): RecordFields | null =>
    state.status === 'none'
      ? null
      : { id: state.id, name: state.name, rank: state.rank, description: state.description, requirements: state.requirements, benefits: state.benefits },
};

export const standingVersionType: VersionedRecordType<StandingState> = {
  label: 'Programme standing',
  decider: foldOf<StandingState>(programme),
  present: (state): RecordFields | null =>
    state.status === 'none'
      ? null
      : {
          tier: state.tier.name,
          measured_tier: state.measuredTier.name,
          at_risk: state.atRisk !== null,
          override: state.override ? `${state.override.tier.name} until ${state.override.endsOn}: ${state.override.reason}` : null,
          evaluated_quarters: state.evaluatedQuarters,
        },
  organisationOf: (state) => state.organisationId,
  labels: { PartnerTierAtRisk: 'At risk', PartnerTierRecovered: 'No longer at risk', PartnerTierEvaluated: 'Evaluated' },
};
