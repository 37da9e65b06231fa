import type { Pool } from '../platform/db';
import { comparePositions, type EventStore, type GlobalPosition, type RecordedEvent } from '../platform/eventstore';
import { CheckpointMovedError, LogFollower } from '../platform/eventstore/follower';
import { CheckpointStore } from './checkpoints';
import { applyToProjection, secretSchemaBeside, type Projection } from './projection';

const pgLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

export const READ_MODELS_CHECKPOINT = 'read-models';
export const PROJECTED_CHANNEL = 'partnerhub_projected';

export interface ProjectionRunnerOptions {
  schema?: string; // 'read' live; another schema during a rebuild
  batchSize?: number;
  onError?: (error: Error) => void;
  /** Called after each committed batch; the rebuild uses it to know when it has caught up. */
  onBatch?: (position: GlobalPosition) => void;
}

/**
 * Follows the event log and applies every event to every projection. Each batch is one transaction
 * that also compare-and-sets the checkpoint, so a crash loses nothing and applies nothing twice.
 */
export class ProjectionRunner {
  private readonly schema: string;
  private readonly checkpoints: CheckpointStore;
  private readonly follower: LogFollower;

  constructor(
    store: EventStore,
    private readonly pool: Pool,
    private readonly projections: readonly Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.schema = options.schema ?? 'read';
    this.checkpoints = new CheckpointStore(`${this.schema}.checkpoints`);
    // A moved checkpoint is expected after a rebuild swapped the tables in.
    this.follower = new LogFollower(
      store,
      () => this.checkpoints.load(this.pool, READ_MODELS_CHECKPOINT),
      (events, checkpoint) => this.applyBatch(events, checkpoint),
      { batchSize: options.batchSize ?? 500, onError: options.onError },
    );
  }

  start(): void {
    this.follower.start();
  }

  stop(): Promise<void> {
    return this.follower.stop();
  }

  private async applyBatch(events: RecordedEvent[], checkpoint: GlobalPosition | undefined): Promise<GlobalPosition> {
    const next = events[events.length - 1].position;
    const client = await this.pool.connect();
    try {
      // Read models are derived from the log and move with their checkpoint in this one transaction: if a
      // crash loses the last batches before they reach disk, both go back together and are projected again.
      // So the batch need not wait for its WAL flush, which is most of the projection lag under load.
      // Statements without parameters travel together: a batch's fixed cost is its round trips.
      await client.query(`BEGIN; SET LOCAL search_path TO ${this.schema}, ${secretSchemaBeside(this.schema)}, public; SET LOCAL synchronous_commit = off`);
      const fresh = checkpoint ? events.filter((event) => comparePositions(event.position, checkpoint) > 0) : events;
      for (const projection of this.projections) await applyToProjection(projection, fresh, client);
      if (!(await this.checkpoints.compareAndSet(client, READ_MODELS_CHECKPOINT, checkpoint, next))) throw new CheckpointMovedError('read-model');
      // The payload is the schema name and two integers, so it is written into the statement as a literal.
      const payload = `${this.schema}:${next.commit}:${next.prepare}`;
      await client.query(`SELECT pg_notify('${PROJECTED_CHANNEL}', ${pgLiteral(payload)}); COMMIT`);
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    this.options.onBatch?.(next);
    return next;
  }
}
