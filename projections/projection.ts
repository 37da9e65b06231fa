import type { PoolClient } from '../platform/db';
import type { RecordedEvent } from '../platform/eventstore';

/**
 * A read model: the tables it owns in the `read` schema and how each event changes them.
 * `apply` runs inside the projector's batch transaction with `search_path` set to the schema being
 * written (live `read`, or a fresh one during a rebuild), so its SQL names tables without a schema.
 */
export interface Projection {
  name: string;
  apply(event: RecordedEvent, db: PoolClient, context?: ApplyContext): Promise<void>;
  /** When given, used instead of `apply` per event: one round trip for a whole batch. */
  applyBatch?(events: readonly RecordedEvent[], db: PoolClient, context?: ApplyContext): Promise<void>;
  /**
   * Runs once when a rebuild has replayed the whole log, with the same search_path as its batches: a read
   * model worked out from the others' final state (the scorecards) is worked out here, once, rather than
   * after every batch of the replay (see ApplyContext.replaying).
   */
  replayed?(db: PoolClient): Promise<void>;
  /**
   * The rebuild stage: 'records' (the default) for the record types' read models, which may read each
   * other's tables; 'history' for the status history and 'log' for the audit log and activity feed,
   * which read only their own stage's tables. A rebuild runs the stages as a pipeline: while one stage
   * applies a batch, the next applies the batch before it.
   */
  stage?: 'records' | 'history' | 'log';
}

const STAGES = ['records', 'history', 'log'] as const;

/** The projections of each stage, in pipeline order; within a stage, in the order given. */
export function projectionStages(projections: readonly Projection[]): Projection[][] {
  return STAGES.map((stage) => projections.filter((p) => (p.stage ?? 'records') === stage)).filter((group) => group.length > 0);
}

/**
 * Read models that hold secrets (password and API key hashes) keep those tables in a schema of their own, out of
 * the analysts' reach: `secret` beside the live `read`, `<schema>_secret` beside a rebuild's schema.
 */
export const SECRET_SCHEMA = 'secret';
export const PROJECTED_SECRET_TABLES = ['user_credentials', 'api_keys', 'user_factors', 'recovery_codes', 'identity_provider_secrets'] as const;
export const secretSchemaBeside = (schema: string) => (schema === 'read' ? SECRET_SCHEMA : `${schema}_secret`);

/** How a batch is applied: live, or as part of a rebuild's replay of the whole log (which ends with `replayed`). */
export interface ApplyContext {
  replaying: boolean;
}

/** Projections own disjoint tables, so each can take the whole batch in turn. */
export async function applyToProjection(projection: Projection, events: readonly RecordedEvent[], db: PoolClient, context?: ApplyContext): Promise<void> {
  if (projection.applyBatch) return projection.applyBatch(events, db, context);
  for (const event of events) await projection.apply(event, db, context);
}
