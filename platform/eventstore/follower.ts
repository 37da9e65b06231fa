import type { EventStore, GlobalPosition, RecordedEvent, Subscription } from './eventstore';

/** Thrown by a batch handler whose compare-and-set found the checkpoint moved by someone else. */
export class CheckpointMovedError extends Error {
  constructor(name: string) {
    super(`The ${name} checkpoint was moved by someone else; resuming from the stored checkpoint.`);
  }
}

export interface FollowerOptions {
  batchSize: number;
  onError?: (error: Error) => void;
}

/**
 * Follows the whole event log from a stored checkpoint. `handleBatch` processes a batch and moves the
 * checkpoint (it throws CheckpointMovedError when another follower moved it first); it gets the
 * checkpoint it starts from and answers the one it moved to. Failures resubscribe with backoff; a
 * moved checkpoint resumes at once from the stored one.
 */
export class LogFollower {
  private subscription: Subscription | undefined;
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly loadCheckpoint: () => Promise<GlobalPosition | undefined>,
    private readonly handleBatch: (events: RecordedEvent[], checkpoint: GlobalPosition | undefined) => Promise<GlobalPosition>,
    private readonly options: FollowerOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.subscription?.stop();
    await this.loop;
  }

  private async follow(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const from = await this.loadCheckpoint().catch((error: Error) => error);
      if (from instanceof Error) {
        this.options.onError?.(from);
        await delay(backoff(++failures));
        continue;
      }
      if (!this.running) break;
      let checkpoint = from;
      this.subscription = this.store.subscribeToAll({ fromPosition: from, batchSize: this.options.batchSize }, async (events) => {
        checkpoint = await this.handleBatch(events, checkpoint);
        failures = 0;
      });
      const error = await this.subscription.done;
      if (error && this.running) {
        const moved = error instanceof CheckpointMovedError;
        if (!moved) this.options.onError?.(error);
        await delay(moved ? 0 : backoff(++failures));
      }
    }
  }
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (failures: number) => Math.min(30_000, 100 * 2 ** failures);
