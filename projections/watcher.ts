import pg from 'pg';
import type { Pool } from '../src/db';
import { comparePositions, type GlobalPosition } from '../src/eventstore';
import { CheckpointStore } from './checkpoints';
import { PROJECTED_CHANNEL, READ_MODELS_CHECKPOINT } from './runner';

interface Waiter {
  position: GlobalPosition;
  resolve: (caughtUp: boolean) => void;
  timer: NodeJS.Timeout;
}

/**
 * Read-your-writes for the API: after a command, waits until the projector (in this process or
 * another) has committed the appended position, learning of progress through NOTIFY.
 */
export class ProjectionWatcher {
  private latest: GlobalPosition | undefined;
  private readonly waiters = new Set<Waiter>();
  private listener: pg.Client | undefined;
  private readonly checkpoints = new CheckpointStore('read.checkpoints');

  constructor(
    private readonly pool: Pool,
    private readonly connectionString: string,
  ) {}

  async start(): Promise<void> {
    this.listener = new pg.Client({ connectionString: this.connectionString });
    this.listener.on('error', () => {
      // Without the listener, waits fall back to re-reading the checkpoint when they time out.
      this.listener = undefined;
    });
    this.listener.on('notification', (message) => {
      const [schema, commit, prepare] = (message.payload ?? '').split(':');
      if (schema === 'read' && commit && prepare) this.advance({ commit: BigInt(commit), prepare: BigInt(prepare) });
    });
    await this.listener.connect();
    await this.listener.query(`LISTEN ${PROJECTED_CHANNEL}`);
    await this.refresh();
  }

  async stop(): Promise<void> {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters.clear();
    await this.listener?.end().catch(() => {});
  }

  private async refresh(): Promise<void> {
    const stored = await this.checkpoints.load(this.pool, READ_MODELS_CHECKPOINT);
    if (stored) this.advance(stored);
  }

  private advance(position: GlobalPosition): void {
    if (this.latest && comparePositions(position, this.latest) <= 0) return;
    this.latest = position;
    for (const waiter of this.waiters) {
      if (comparePositions(position, waiter.position) >= 0) {
        clearTimeout(waiter.timer);
        this.waiters.delete(waiter);
        waiter.resolve(true);
      }
    }
  }

  /** True once the read models include `position`; false if that took longer than `timeoutMs`. */
  async waitFor(position: GlobalPosition | undefined, timeoutMs = 5_000): Promise<boolean> {
    if (!position || (this.latest && comparePositions(this.latest, position) >= 0)) return true;
    const caughtUp = await new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        position,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
    if (caughtUp) return true;
    await this.refresh();
    return this.latest !== undefined && comparePositions(this.latest, position) >= 0;
  }
}
