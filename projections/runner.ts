import type { Pool } from '../src/db';
import { comparePositions, type EventStore, type GlobalPosition, type RecordedEvent, type Subscription } from '../src/eventstore';
import { CheckpointStore } from './checkpoints';
import { applyToProjection, type Projection } from './projection';

export const READ_MODELS_CHECKPOINT = 'read-models';
export const PROJECTED_CHANNEL = 'partnerhub_projected';

class CheckpointMovedError extends Error {
  constructor() {
    super('The read-model checkpoint was moved by another projector; resuming from the stored checkpoint.');
  }
}

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
  private subscription: Subscription | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly schema: string;
  private readonly checkpoints: CheckpointStore;

  constructor(
    private readonly store: EventStore,
    private readonly pool: Pool,
    private readonly projections: readonly Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.schema = options.schema ?? 'read';
    this.checkpoints = new CheckpointStore(`${this.schema}.checkpoints`);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.followLog();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.subscription?.stop();
    await this.loop;
  }

  private async followLog(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const from = await this.checkpoints.load(this.pool, READ_MODELS_CHECKPOINT).catch((error: Error) => error);
      if (from instanceof Error) {
        this.options.onError?.(from);
        await delay(backoff(++failures));
        continue;
      }
      let checkpoint = from;
      this.subscription = this.store.subscribeToAll({ fromPosition: from, batchSize: this.options.batchSize ?? 500 }, async (events) => {
        checkpoint = await this.applyBatch(events, checkpoint);
        failures = 0;
      });
      const error = await this.subscription.done;
      if (error && this.running) {
        // A moved checkpoint is expected after a rebuild swapped the tables in; anything else is retried with backoff.
        if (!(error instanceof CheckpointMovedError)) this.options.onError?.(error);
        await delay(error instanceof CheckpointMovedError ? 0 : backoff(++failures));
      }
    }
  }

  private async applyBatch(events: RecordedEvent[], checkpoint: GlobalPosition | undefined): Promise<GlobalPosition> {
    const next = events[events.length - 1].position;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL search_path TO ${this.schema}, public`);
      const fresh = checkpoint ? events.filter((event) => comparePositions(event.position, checkpoint) > 0) : events;
      for (const projection of this.projections) await applyToProjection(projection, fresh, client);
      if (!(await this.checkpoints.compareAndSet(client, READ_MODELS_CHECKPOINT, checkpoint, next))) throw new CheckpointMovedError();
      await client.query('SELECT pg_notify($1, $2)', [PROJECTED_CHANNEL, `${this.schema}:${next.commit}:${next.prepare}`]);
      await client.query('COMMIT');
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

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (failures: number) => Math.min(30_000, 100 * 2 ** failures);
