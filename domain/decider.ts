/**
 * The shape every module's decider follows: pure functions, no I/O, no clock, no id generation.
 * Time and ids arrive in the command's metadata.
 */

export interface CommandMetadata {
  now: string; // ISO-8601, the moment the command is handled
  actorId: string | null;
  actorRole: string | null;
  correlationId: string;
  causationId: string | null;
  /** The API key the command was made with (the actor is then the key's owner, or the vendor's key itself). */
  apiKeyId?: string;
  apiKeyName?: string;
}

/** An event before it gets an id and metadata from the command handler. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  /** Returns the events the command causes, or throws a DomainError. */
  decide: (command: Command, state: State, metadata: CommandMetadata) => Event[];
  /** The stream that holds one record of this module, e.g. `users-<id>`. */
  streamId: (id: string) => string;
}

/**
 * Why a command was refused. `kind` lets the HTTP layer pick the status code without the domain
 * knowing about HTTP.
 */
export type DomainErrorKind = 'invalid' | 'forbidden' | 'not_found' | 'conflict';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function fold<State, Event extends DomainEvent>(decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>, events: Event[]): State {
  return events.reduce(decider.evolve, decider.initialState());
}

export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
