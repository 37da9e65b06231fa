import type { EvaluationRun } from '../contracts/programme';
import { DomainError, fold, type CommandMetadata } from '../domain/decider';
import { earnedTier, measureAll, programme, programmeRuns, quarterKeyOf, type LadderTier, type RunResult, type TierRef } from '../domain/programme/programme';
import { findRun, listTiers, measureOrganisations } from '../projections/programme';
import type { Services } from '../platform/services';
import { deterministicUuid, handleCommand } from '../platform/commands/commandHandler';
import { waitForReadModels } from '../platform/commands/dispatch';

type Deps = Pick<Services, 'store' | 'watcher' | 'pool'>;

/** The organisations the programme evaluates: active partner accounts (the organisation ids) whose application, if any, was approved. */
export async function programmeOrganisations(deps: Pick<Services, 'pool'>, only?: string[]): Promise<Array<{ id: string; name: string }>> {
  const { rows } = await deps.pool.query<{ id: string; name: string }>(
    `SELECT u.id::text, coalesce(u.company_name, u.full_name) AS name FROM read.users u
     WHERE u.role = 'partner' AND u.is_active AND u.parent_user_id IS NULL
       AND NOT EXISTS (SELECT 1 FROM read.partners p WHERE p.user_id = u.id AND p.status <> 'approved')
       AND ($1::uuid[] IS NULL OR u.id = ANY($1::uuid[])) ORDER BY 2, 1`,
    [only?.length ? only : null],
  );
  return rows;
}

/** The run id of a quarter's scheduled evaluation: a second scheduled run of the quarter finds it recorded. */
export const scheduledRunId = (moment: string) => deterministicUuid(`programme-evaluation:${quarterKeyOf(moment)}`);

export interface EvaluationRequest {
  runId: string;
  trigger: 'schedule' | 'admin';
  organisationIds?: string[];
}

const ref = (t: TierRef): TierRef => ({ id: t.id, name: t.name, rank: t.rank });

/**
 * Evaluates every (or the given) organisation as of the metadata's moment and records the run. Each
 * organisation's first evaluation in a quarter is the quarterly one (warnings, demotions); later ones
 * are interim. Answers null when the run was recorded already (a repeated scheduled run).
 */
export async function evaluateProgramme(deps: Deps, request: EvaluationRequest, metadata: CommandMetadata): Promise<EvaluationRun | null> {
  const runStream = await deps.store.readStream(programmeRuns.streamId(request.runId));
  if (runStream.length) return null;
  const tiers = await listTiers(deps.pool);
  if (!tiers.length) throw new DomainError('invalid', 'no_tiers', 'The programme has no tiers yet.');
  const ladder: LadderTier[] = tiers.map((t) => ({ id: t.id, name: t.name, rank: t.rank, requirements: t.requirements }));
  const entry = ref(tiers[0]);
  const organisations = await programmeOrganisations(deps, request.organisationIds);
  const measures = await measureOrganisations(
    deps.pool,
    tiers.flatMap((t) => t.requirements),
    new Date(metadata.now),
  );
  const quarter = quarterKeyOf(metadata.now);
  const results: RunResult[] = [];
  let quarterly = false;
  for (const organisation of organisations) {
    const measured = measures.get(organisation.id) ?? {};
    const state = fold(programme, (await deps.store.readStream(programme.streamId(organisation.id))) as never);
    const kind = state.status === 'active' && state.evaluatedQuarters.includes(quarter) ? 'interim' : 'quarterly';
    const held = state.status === 'active' ? (tiers.find((t) => t.id === state.measuredTier.id) ?? tiers[0]) : tiers[0];
    const earned = earnedTier(ladder, measured);
    const currentTierMeasured = measureAll(held.requirements, measured);
    const base = { organisation_id: organisation.id, organisation_name: organisation.name, measured };
    try {
      const { events } = await handleCommand(
        deps.store,
        programme,
        organisation.id,
        {
          type: 'EvaluateStanding',
          organisationId: organisation.id,
          kind,
          runId: request.runId,
          entryTier: entry,
          earned: ref(earned),
          measured,
          currentTierMeasured,
        },
        metadata,
      );
      if (kind === 'quarterly') quarterly = true;
      const evaluated = events.find((e) => e.type === 'PartnerTierEvaluated.v1');
      const change = events.find((e) => e.type === 'PartnerTierChanged.v1');
      const outcome = evaluated?.type === 'PartnerTierEvaluated.v1' ? evaluated.data.outcome : 'unchanged';
      const nextTier = tiers.find((t) => t.rank > earned.rank);
      results.push({
        ...base,
        outcome,
        from_tier: change?.type === 'PartnerTierChanged.v1' ? change.data.fromTier : state.status === 'active' ? state.tier : null,
        to_tier: change?.type === 'PartnerTierChanged.v1' ? change.data.toTier : state.status === 'active' ? state.tier : ref(earned),
        missing:
          outcome === 'at_risk' || outcome === 'demoted'
            ? currentTierMeasured.filter((m) => !m.met)
            : nextTier
              ? measureAll(nextTier.requirements, measured).filter((m) => !m.met)
              : [],
      });
    } catch (error) {
      // Another run evaluated this organisation's quarter in between: it is not evaluated twice.
      if (error instanceof DomainError && error.kind === 'conflict') results.push({ ...base, outcome: 'skipped', from_tier: null, to_tier: null, missing: [] });
      else throw error;
    }
  }
  try {
    const recorded = await handleCommand(
      deps.store,
      programmeRuns,
      request.runId,
      { type: 'RecordEvaluation', runId: request.runId, kind: quarterly ? 'quarterly' : 'interim', trigger: request.trigger, results },
      metadata,
    );
    await waitForReadModels(deps, recorded.position);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'run_recorded') return null;
    throw error;
  }
  return (await findRun(deps.pool, request.runId)) ?? null;
}
