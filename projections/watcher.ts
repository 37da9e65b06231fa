import pg from 'pg';
import type { Pool } from '../platform/db';
import { comparePositions, type GlobalPosition } from '../platform/eventstore';
import type { ChannelSubscriber, ReadModelWatcher } from '../platform/services';
import { CheckpointStore } from './checkpoints';
import { PROJECTED_CHANNEL, READ_MODELS_CHECKPOINT } from './runner';

interface Waiter {
  position: GlobalPosition;
  resolve: (caughtUp: boolean) => void;
  timer: NodeJS.Timeout;
}

/** Another channel heard on the watcher's connection, so its messages arrive in commit order with the projector's progress. */
/** How often the listening connection proves it is alive, and how long a proof counts. */
const HEARTBEAT_MS = 300;
const ALIVE_FOR_MS = 1000;
const RECONNECT_MS = 1000;

/**
 * Read-your-writes for the API: after a command, waits until the projector (in this process or
 * another) has committed the appended position. A NOTIFY on the projector's channel only says "look
 * again": any database login may send one, so its payload is ignored and the position is always read
 * from `read.checkpoints`, which only the projector writes. The same connection carries the other
 * channels the API listens to (`subscribe`); it reconnects when lost.
 */
export class ProjectionWatcher implements ReadModelWatcher {
  private latest: GlobalPosition | undefined;
  private latestLsn: string | undefined;
  private readonly waiters = new Set<Waiter>();
  private listener: pg.Client | undefined;
  private readonly checkpoints = new CheckpointStore('read.checkpoints');
  private readonly subscribers = new Map<string, Set<ChannelSubscriber>>();
  private aliveAt = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The checkpoint read under way, if any, and whether another NOTIFY arrived while it ran. */
  private reading: Promise<void> | undefined;
  private readAgain = false;

  constructor(
    private readonly pool: Pool,
    private readonly connectionString: string,
    /** How long `waitFor` waits by default (READ_YOUR_WRITES_WAIT_MS). */
    private readonly defaultWaitMs = 5_000,
  ) {}

  async start(): Promise<void> {
    await this.connect();
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.reconnect);
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiters.clear();
    await this.listener?.end().catch(() => {});
  }

  /** Listens to `channel` too (before `start`, or while running); the returned function stops it. */
  async subscribe(channel: string, subscriber: ChannelSubscriber): Promise<() => void> {
    const known = this.subscribers.get(channel);
    if (known) known.add(subscriber);
    else {
      this.subscribers.set(channel, new Set([subscriber]));
      await this.listener?.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    }
    return () => this.subscribers.get(channel)?.delete(subscriber);
  }

  private everySubscriber(): ChannelSubscriber[] {
    return [...this.subscribers.values()].flatMap((set) => [...set]);
  }

  /** The projector's last committed position as known here; a new object on every advance. */
  get position(): GlobalPosition | undefined {
    return this.latest;
  }

  /** The primary's WAL position when `position` was first read: a replica that has replayed it shows the read models at least there. */
  get lsn(): string | undefined {
    return this.latestLsn;
  }

  /**
   * True while the listening connection has answered within the last second: every NOTIFY committed
   * more than about a second ago has then been delivered.
   */
  alive(): boolean {
    return this.listener !== undefined && performance.now() - this.aliveAt < ALIVE_FOR_MS;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, keepAlive: true });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === PROJECTED_CHANNEL) this.hinted();
      else {
        for (const subscriber of this.subscribers.get(message.channel) ?? []) subscriber.message(message.payload ?? '');
      }
    });
    await client.connect();
    for (const channel of [PROJECTED_CHANNEL, ...this.subscribers.keys()]) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    this.listener = client;
    this.aliveAt = performance.now();
    // Whatever happened while no connection listened is unknown: subscribers start afresh.
    for (const subscriber of this.everySubscriber()) subscriber.interrupted();
    await this.refresh();
  }

  /** Without the listener, waits fall back to re-reading the checkpoint when they time out, and subscribers are told. */
  private lost(client: pg.Client): void {
    if (this.listener !== client) return;
    this.listener = undefined;
    for (const subscriber of this.everySubscriber()) subscriber.interrupted();
    void client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = undefined;
      if (this.stopped) return;
      this.connect().catch(() => this.scheduleReconnect());
    }, RECONNECT_MS);
    this.reconnect.unref();
  }

  private beat(): void {
    const client = this.listener;
    if (!client || this.everySubscriber().length === 0) return;
    const sent = performance.now();
    client.query('SELECT 1').then(
      () => {
        if (this.listener === client) this.aliveAt = Math.max(this.aliveAt, sent);
      },
      () => this.lost(client),
    );
  }

  /**
   * The projector says it moved: read where it really is. Under load NOTIFYs arrive faster than the
   * checkpoint can be read, so at most one read is in flight, plus one more if hints arrived during it
   * (that one sees every commit they announced).
   */
  private hinted(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        // A failed read is retried by the next hint, or by a waiter when its wait ends.
        await this.refresh().catch(() => {});
      } while (this.readAgain && !this.stopped);
    })().finally(() => (this.reading = undefined));
  }

  private async refresh(): Promise<void> {
    const stored = await this.checkpoints.loadWithWalPosition(this.pool, READ_MODELS_CHECKPOINT);
    if (stored) this.advance(stored.position, stored.lsn);
  }

  /** The LSN only moves with the position: the first one read with a position already covers it, and is the one replicas reach first. */
  private advance(position: GlobalPosition, lsn: string): void {
    if (this.latest && comparePositions(position, this.latest) <= 0) return;
    this.latestLsn = lsn;
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
  async waitFor(position: GlobalPosition | undefined, timeoutMs = this.defaultWaitMs): Promise<boolean> {
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
