import type { Pool } from '../platform/db';
import { comparePositions, type EventStore, type GlobalPosition, type RecordedEvent } from '../platform/eventstore';
import { CheckpointMovedError, LogFollower } from '../platform/eventstore/follower';
import type { Services } from '../platform/services';
import { CheckpointStore } from '../projections/checkpoints';
import { identityReactions } from './identity';
import { partnerReactions } from './partners';
import { orderReactions } from './orders';
import { projectReactions } from './projects';
import { rebateReactions } from './rebates';
import { leadReactions } from './leads';
import { fundReactions } from './funds';
import { learningReactions } from './learning';
import { programmeReactions } from './programme';
import type { JobRequest, QueueName, Queues } from '../platform/queues';
import { stockReactions } from './stock';
import { ticketReactions } from './tickets';
import { teamReactions } from './team';
import { uploadReactions } from './uploads';
import { webhookReactions } from './webhooks';

export const REACTOR_CHECKPOINT = 'reactor';
export const reactorCheckpoints = new CheckpointStore('subscription_checkpoints');

export interface ReactionContext {
  pool: Pool;
  config: Services['config'];
  /**
   * Waits (bounded) until the read models include the event, for reactions that read them
   * (for example to find the recipients); throws when they lag, so the batch is tried again.
   */
  readModelsInclude(event: RecordedEvent): Promise<void>;
  /** A record's history, for reactions that compare the record before and after the event. */
  readStream: EventStore['readStream'];
}

export type Reaction = (event: RecordedEvent, context: ReactionContext) => Promise<JobRequest[]>;

/** Event type → the reactions it triggers. Each module adds its rows. */
export type ReactionTable = Readonly<Record<string, readonly Reaction[]>>;

/** Joins the modules' tables; two modules reacting to one event type both keep their reactions. */
export function combineReactions(...tables: ReactionTable[]): ReactionTable {
  const combined: Record<string, Reaction[]> = {};
  for (const table of tables) for (const [type, list] of Object.entries(table)) (combined[type] ??= []).push(...list);
  return combined;
}

export const reactions: ReactionTable = combineReactions(
  identityReactions,
  partnerReactions,
  orderReactions,
  stockReactions,
  uploadReactions,
  teamReactions,
  projectReactions,
  rebateReactions,
  leadReactions,
  ticketReactions,
  fundReactions,
  learningReactions,
  programmeReactions,
  webhookReactions,
);

export interface ReactorOptions {
  table?: ReactionTable;
  batchSize?: number;
  onError?: (error: Error) => void;
  /** Called after each batch whose jobs are enqueued and whose checkpoint is stored. */
  onBatch?: (position: GlobalPosition) => void;
}

/**
 * Follows the event log from its own checkpoint and turns events into jobs. A batch's jobs are
 * enqueued before its checkpoint moves, so a crash re-enqueues rather than loses them; the
 * deterministic job ids make a re-enqueued job (and a full replay of the log) a no-op.
 */
export class Reactor {
  private readonly table: ReactionTable;
  private readonly context: ReactionContext;
  private readonly follower: LogFollower;

  constructor(
    private readonly services: Pick<Services, 'store' | 'pool' | 'watcher' | 'config'>,
    private readonly queues: Queues,
    private readonly options: ReactorOptions = {},
  ) {
    this.table = options.table ?? reactions;
    this.context = {
      pool: services.pool,
      config: services.config,
      readModelsInclude: async (event) => {
        if (!(await services.watcher.waitFor(event.position))) {
          throw new Error(`The read models have not reached event ${event.id} (${event.type}) yet; the reactor will try again.`);
        }
      },
      readStream: (streamId) => services.store.readStream(streamId),
    };
    this.follower = new LogFollower(
      services.store,
      () => reactorCheckpoints.load(services.pool, REACTOR_CHECKPOINT),
      (events, checkpoint) => this.react(events, checkpoint),
      { batchSize: options.batchSize ?? 200, onError: options.onError },
    );
  }

  start(): void {
    this.follower.start();
  }

  stop(): Promise<void> {
    return this.follower.stop();
  }

  private async react(events: RecordedEvent[], checkpoint: GlobalPosition | undefined): Promise<GlobalPosition> {
    const next = events[events.length - 1].position;
    const jobs: JobRequest[] = [];
    for (const event of events) {
      if (checkpoint && comparePositions(event.position, checkpoint) <= 0) continue;
      for (const reaction of this.table[event.type] ?? []) jobs.push(...(await reaction(event, this.context)));
    }
    await this.enqueue(jobs);
    if (!(await reactorCheckpoints.compareAndSet(this.services.pool, REACTOR_CHECKPOINT, checkpoint, next))) throw new CheckpointMovedError('reactor');
    this.options.onBatch?.(next);
    return next;
  }

  /** BullMQ ignores a job whose id it still holds (completed jobs are kept a week, failed ones until removed). */
  private async enqueue(jobs: JobRequest[]): Promise<void> {
    const byQueue = new Map<QueueName, JobRequest[]>();
    for (const job of jobs) byQueue.set(job.queue, [...(byQueue.get(job.queue) ?? []), job]);
    for (const [name, requests] of byQueue) {
      await this.queues[name].addBulk(
        requests.map((job) => ({ name: job.name, data: job.data, opts: { jobId: job.id, ...(job.delayMs ? { delay: job.delayMs } : {}) } })),
      );
    }
  }
}
