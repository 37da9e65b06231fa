import { createHash } from 'node:crypto';
import type { CommandMetadata, Decider, DomainEvent } from '../../domain/decider';
import { DomainError, fold } from '../../domain/decider';
import { newEventId } from '../eventstore/eventIds';
import { asDomainEvents, ConcurrencyError, type EventStore, type ExpectedRevision, type GlobalPosition, type NewEvent } from '../eventstore';

export const MAX_CONFLICT_RETRIES = 3;

export interface CommandResult<State, Event extends DomainEvent> {
  state: State;
  events: Event[];
  /** Where the last appended event landed; undefined when the command changed nothing. */
  position: GlobalPosition | undefined;
  revision: bigint | undefined;
}

export interface CommandOptions {
  /**
   * Makes event ids deterministic, so a process step replayed after a crash appends nothing twice:
   * the store answers an append of already-stored ids as a no-op.
   */
  idempotencyKey?: string;
}

/** A uuid derived from text, so the same step always produces the same event ids. */
export function deterministicUuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export class CommandConflictError extends DomainError {
  constructor(streamId: string) {
    super('conflict', 'CONCURRENCY_CONFLICT', 'This record was changed by someone else at the same moment. Please reload it and try again.', { streamId });
  }
}

/**
 * Loads the record's stream, decides, and appends with the revision it read. A concurrent writer
 * makes the append fail; the command is then decided again on the fresh state, a few times at most.
 */
/**
 * Decides without appending: throws the refusal the command would get now. For steps that must come
 * before the command and cannot be undone cleanly (claiming an e-mail address), so a refused command
 * leaves the log untouched.
 */
export async function checkCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  recordId: string,
  command: Command,
  metadata: CommandMetadata,
): Promise<void> {
  const recorded = await store.readStream(decider.streamId(recordId));
  decider.decide(command, fold(decider, asDomainEvents<Event>(recorded)), metadata);
}

export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  recordId: string,
  command: Command,
  metadata: CommandMetadata,
  options: CommandOptions = {},
): Promise<CommandResult<State, Event>> {
  const streamId = decider.streamId(recordId);
  for (let attempt = 0; ; attempt++) {
    const recorded = await store.readStream(streamId);
    const state = fold(decider, asDomainEvents<Event>(recorded));
    const events = decider.decide(command, state, metadata);
    if (events.length === 0) return { state, events, position: undefined, revision: undefined };
    const expectedRevision: ExpectedRevision = recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1].revision;
    const toAppend: NewEvent[] = events.map((event, index) => ({
      id: options.idempotencyKey ? deterministicUuid(`${options.idempotencyKey}:${streamId}:${index}`) : newEventId(),
      type: event.type,
      data: event.data,
      metadata: {
        actorId: metadata.actorId,
        actorRole: metadata.actorRole,
        correlationId: metadata.correlationId,
        causationId: metadata.causationId,
        occurredAt: metadata.now,
        ...(metadata.apiKeyId ? { apiKeyId: metadata.apiKeyId, apiKeyName: metadata.apiKeyName } : {}),
      },
    }));
    try {
      const appended = await store.appendToStream(streamId, toAppend, { expectedRevision });
      return { state: events.reduce(decider.evolve, state), events, position: appended.position, revision: appended.nextExpectedRevision };
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      if (attempt >= MAX_CONFLICT_RETRIES) throw new CommandConflictError(streamId);
    }
  }
}
