/**
 * Any record as it was at any moment: its stream folded with the module's own `evolve`, up to a time
 * or revision. A version is one event of the record's stream; what it changed is the difference
 * between the record before and after it, field by field. Pure: the events come in, nothing is read.
 */

import type { Decider, DomainEvent } from './decider';

/** What versions need of a stored event (the event store's RecordedEvent has all of it). */
export interface VersionedEvent {
  type: string;
  data: unknown;
  revision: bigint | number;
  metadata: { occurredAt: string; actorId: string | null; actorRole: string | null };
}

/** A record's fields as an answer shows them (snake_case, like the read model's row). */
export type RecordFields = Record<string, unknown>;

/**
 * How one record type is read as of a moment: its decider (for `evolve` and the stream), how its state
 * is shown, and words for the events whose effect its fields do not show (a comment, a password change).
 */
export interface VersionedRecordType<State = unknown> {
  /** "Project", for messages. */
  label: string;
  decider: Pick<Decider<State, never, DomainEvent>, 'initialState' | 'evolve' | 'streamId'>;
  /** The record's fields in this state; null while it does not exist (yet, or any more). Secrets never appear here. */
  present: (state: State) => RecordFields | null;
  /** The organisation the record belongs to in this state; omitted for records of no organisation. */
  organisationOf?: (state: State) => string | null;
  /** Event type (without its `.vN`) → what happened, when the changed fields alone do not say it. */
  labels?: Readonly<Record<string, string>>;
}

/**
 * A module's decider as versions use it: only its stream and fold. Its `evolve` takes the module's own events, while
 * versions hand it every event of that module's stream typed as `DomainEvent`; a stream holds only its module's events.
 */
export const foldOf = <State>(decider: { initialState: () => State; evolve: (state: State, event: never) => State; streamId: (id: string) => string }) =>
  // `evolve`'s parameter is narrower than DomainEvent by design (see above); no other cast of a decider is needed.
  decider as unknown as VersionedRecordType<State>['decider'];

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

export interface Version {
  revision: number;
  occurred_at: string;
  actor_id: string | null;
  actor_role: string | null;
  event_type: string;
  summary: string;
  changes: FieldChange[];
  /** The reason or note the event recorded (a rejection's reason, a status change's public comment). */
  reason: string | null;
}

/** The record at one version: its fields, and the version it is at. */
export interface RecordAsOf<State = unknown> {
  state: State;
  record: RecordFields;
  revision: number;
  occurred_at: string;
}

const typeName = (eventType: string) => eventType.replace(/\.v\d+$/, '');

/** `ProjectExtensionRequested.v1` → "Project extension requested". */
export function humanEventName(eventType: string): string {
  const words = typeName(eventType)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields whose value differs, in the order the newer record lists them (then fields it no longer has). */
export function diffFields(before: RecordFields | null, after: RecordFields | null): FieldChange[] {
  const was = before ?? {};
  const now = after ?? {};
  const fields = [...new Set([...Object.keys(now), ...Object.keys(was)])];
  return fields.filter((field) => !same(was[field], now[field])).map((field) => ({ field, before: was[field] ?? null, after: now[field] ?? null }));
}

/** One short line: what happened, and which fields it changed. */
export function summaryOf(eventType: string, changes: FieldChange[], labels: Readonly<Record<string, string>> = {}): string {
  const what = labels[typeName(eventType)] ?? humanEventName(eventType);
  if (changes.length === 0) return what;
  const shown = changes.slice(0, 4).map((change) => change.field.replace(/_/g, ' '));
  const more = changes.length > shown.length ? ` and ${changes.length - shown.length} more` : '';
  return `${what}: ${shown.join(', ')}${more}`;
}

const reasonOf = (data: unknown): string | null => {
  const reason = data && typeof data === 'object' ? (data as { reason?: unknown }).reason : undefined;
  return typeof reason === 'string' && reason.trim() ? reason : null;
};

/** Every version of a record, oldest first. */
export function versionsOf<State>(type: VersionedRecordType<State>, events: readonly VersionedEvent[]): Version[] {
  let state = type.decider.initialState();
  let before = type.present(state);
  return events.map((event) => {
    state = type.decider.evolve(state, event as DomainEvent);
    const after = type.present(state);
    // A deleted record shows no fields: its deletion is its status, not every field emptied.
    const changes = after === null && before !== null ? [{ field: 'status', before: before.status ?? null, after: 'deleted' }] : diffFields(before, after);
    before = after;
    return {
      revision: Number(event.revision),
      occurred_at: event.metadata.occurredAt,
      actor_id: event.metadata.actorId,
      actor_role: event.metadata.actorRole,
      event_type: event.type,
      summary: summaryOf(event.type, changes, type.labels),
      changes,
      reason: reasonOf(event.data),
    };
  });
}

/**
 * The record as it was at `asOf` (every event that happened at or before it), or undefined when it did
 * not exist then. The stream is in the order things happened, so the fold stops at the first later event.
 */
export function recordAsOf<State>(type: VersionedRecordType<State>, events: readonly VersionedEvent[], asOf: Date): RecordAsOf<State> | undefined {
  const limit = asOf.getTime();
  let state = type.decider.initialState();
  let last: VersionedEvent | undefined;
  for (const event of events) {
    if (Date.parse(event.metadata.occurredAt) > limit) break;
    state = type.decider.evolve(state, event as DomainEvent);
    last = event;
  }
  const record = last ? type.present(state) : null;
  if (!last || !record) return undefined;
  return { state, record, revision: Number(last.revision), occurred_at: last.metadata.occurredAt };
}
