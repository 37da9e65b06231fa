/**
 * The event store contract shared by the Postgres and EventStoreDB adapters.
 * A global position is the pair ESDB uses ({ commit, prepare }); the Postgres adapter maps
 * commit to the appending transaction's id and prepare to the row's sequence number, so both
 * adapters order events the same way: by commit, then prepare.
 */

export interface EventMetadata {
  actorId: string | null;
  actorRole: string | null;
  correlationId: string;
  causationId: string | null;
  occurredAt: string; // ISO-8601
  [key: string]: unknown;
}

/** An event as a decider produces it. `type` is versioned by name, e.g. `UserRegistered.v1`. */
export interface NewEvent<Type extends string = string, Data = unknown> {
  id: string; // uuid, makes a retried append idempotent
  type: Type;
  data: Data;
  metadata: EventMetadata;
}

export interface GlobalPosition {
  commit: bigint;
  prepare: bigint;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> extends NewEvent<Type, Data> {
  streamId: string;
  revision: bigint; // 0-based position inside its stream
  position: GlobalPosition;
  recordedAt: Date;
}

/**
 * A recorded event read as the domain event its module wrote. The log keeps `data` untyped, but every append goes
 * through a module's decider (the command handler), so an event's type name settles its shape; projections, reactions
 * and command handlers read it back through these two, not through casts of their own.
 */
export function asDomainEvent<E extends { type: string; data: unknown }>(recorded: RecordedEvent): E & RecordedEvent {
  // The one place the log's untyped `data` is taken at its type name's word (see above).
  return recorded as unknown as E & RecordedEvent;
}

/** A stream's recorded events read as its module's domain events (see `asDomainEvent`). */
export function asDomainEvents<E extends { type: string; data: unknown }>(recorded: readonly RecordedEvent[]): Array<E & RecordedEvent> {
  return recorded.map((event) => asDomainEvent<E>(event));
}

/** `no_stream`: the stream must not exist; `any`: no check; a bigint: the stream's last revision. */
export type ExpectedRevision = 'no_stream' | 'any' | bigint;

export interface AppendResult {
  nextExpectedRevision: bigint;
  position: GlobalPosition; // position of the last appended event
}

export class ConcurrencyError extends Error {
  readonly code = 'CONCURRENCY_CONFLICT';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream' | 'unknown',
  ) {
    super(`Stream ${streamId} was changed by someone else (expected revision ${String(expected)}, found ${String(actual)}).`);
  }
}

export interface Subscription {
  /** Stops delivery; resolves once the handler is no longer running. */
  stop(): Promise<void>;
  /** Resolves when the subscription fails for good (its error) or after stop() (undefined). */
  readonly done: Promise<Error | undefined>;
}

export type BatchHandler = (events: RecordedEvent[]) => Promise<void>;

export interface SubscribeOptions {
  /** Deliver events strictly after this position; undefined means from the very start. */
  fromPosition?: GlobalPosition;
  /** Upper bound on events per handler call. */
  batchSize?: number;
}

export interface EventStore {
  appendToStream(streamId: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** All events of one stream in revision order; [] when the stream does not exist. */
  readStream(streamId: string): Promise<RecordedEvent[]>;
  /**
   * Catch-up then live delivery of every stream's events in global order, exactly once per
   * subscription, in batches. The next batch is not delivered before the handler's promise settles;
   * a handler error ends the subscription (done resolves with it).
   */
  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription;
  /** The position of the newest event visible to subscribers, or undefined on an empty store. */
  headPosition(): Promise<GlobalPosition | undefined>;
  close(): Promise<void>;
}

export function comparePositions(a: GlobalPosition, b: GlobalPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}
