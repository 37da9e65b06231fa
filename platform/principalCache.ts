import type { PoolClient } from './db';

/**
 * The channel that says "this account's principal changed": its sessions ended, or its row in
 * read.users changed (permissions, role, activation, deletion, profile). The payload is the user id.
 */
export const PRINCIPALS_CHANNEL = 'partnerhub_principals';

/** Tells every API process, at commit, that `userId`'s principal changed. */
export async function principalChanged(db: Pick<PoolClient, 'query'>, userId: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [PRINCIPALS_CHANNEL, userId]);
}

// Changes made by this process are applied here at once, before their NOTIFY comes back: the
// request after a sign-out in this process must already be refused.
const changedHere = new Set<(userId: string) => void>();

/** Calls `listener` with every account whose principal this process changed; returns the unsubscribe. */
export function onPrincipalChangedHere(listener: (userId: string) => void): () => void {
  changedHere.add(listener);
  return () => changedHere.delete(listener);
}

/** This process changed these accounts' principals (their NOTIFY is on its way to the other processes). */
export function principalsChangedHere(userIds: readonly string[]): void {
  for (const listener of changedHere) for (const userId of userIds) listener(userId);
}

/** What authentication reads about a session and its account, as of `storedAt`. */
export interface CachedPrincipal<Row> {
  row: Row;
  userId: string;
  /** The owner of the caller's organisation: a change of the owner changes its members too. */
  parentUserId: string | null;
  sessionExpiresAt: number;
  storedAt: number;
}

/** What the cache needs to know about its invalidation channel. */
export interface InvalidationChannel {
  /** True while every change committed up to about a second ago has reached this process. */
  alive(): boolean;
}

const MAX_ENTRIES = 10_000;

/**
 * Principals of recent sessions, so an authenticated request needs no database round trip for the
 * caller. Entries are dropped when PRINCIPALS_CHANNEL names their account or its organisation's
 * owner, when their session's expiry passes, and after `maxAgeMs` in any case. While the channel is
 * not known to be alive, nothing is served from the cache (every request reads the database).
 */
export class PrincipalCache<Row> {
  private readonly entries = new Map<string, CachedPrincipal<Row>>();
  /** Moves on every invalidation: a read that started before one must not be stored after it. */
  private generation = 0;

  constructor(
    private readonly channel: InvalidationChannel,
    private readonly maxAgeMs: number,
  ) {}

  get enabled(): boolean {
    return this.maxAgeMs > 0 && this.channel.alive();
  }

  /** The generation to hand back to `store` after reading the database. */
  begin(): number {
    return this.generation;
  }

  lookup(key: string, now = Date.now()): Row | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (!this.enabled || now >= entry.sessionExpiresAt || now - entry.storedAt > this.maxAgeMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.row;
  }

  store(key: string, entry: Omit<CachedPrincipal<Row>, 'storedAt'>, generation: number): void {
    if (!this.enabled || generation !== this.generation) return;
    // A burst of sessions beyond the bound starts the cache afresh rather than tracking recency per hit.
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { ...entry, storedAt: Date.now() });
  }

  /** The account changed: its entries and those of its organisation's members go. */
  forgetUser(userId: string): void {
    this.generation++;
    for (const [key, entry] of this.entries) {
      if (entry.userId === userId || entry.parentUserId === userId) this.entries.delete(key);
    }
  }

  /** Changes may have been missed (the channel was interrupted): everything goes. */
  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }
}
