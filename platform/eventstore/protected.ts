import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { erasedData, erasedValue, PERSONAL_FIELDS, SECRET_FIELDS, type PersonalFields } from '../../domain/personalData';
import type { Pool } from '../db';
import type { AppendResult, BatchHandler, EventStore, ExpectedRevision, NewEvent, RecordedEvent, SubscribeOptions, Subscription } from './eventstore';

/** The event that erases a person: its append first deletes the person's key. */
export const ERASURE_EVENT = 'UserErased.v1';

/**
 * Where an event keeps its personal fields in the log: one sealed value per event (one decryption per
 * event however many fields), the fields' paths beside it so an erased person's event knows which fields
 * to show as erased. `sealed` is `pii:v1:` then base64 of IV (12 bytes), tag (16) and ciphertext of the
 * JSON object of path → value.
 */
const SEALED = '$personal';
const ENCRYPTED = 'pii:v1:';
interface Sealed {
  fields: string[];
  sealed: string;
}

type Data = Record<string, unknown>;
/** Each person's key, or null once the person is erased. A person with no entry has never had a key. */
type Keys = Map<string, Buffer | null>;

const isData = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value);
const isSealed = (value: unknown): value is Sealed =>
  isData(value) && Array.isArray(value.fields) && typeof value.sealed === 'string' && value.sealed.startsWith(ENCRYPTED);

function encrypt(key: Buffer, person: string, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(person));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return ENCRYPTED + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function decrypt(key: Buffer, person: string, sealed: string): unknown {
  const raw = Buffer.from(sealed.slice(ENCRYPTED.length), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12)).setAAD(Buffer.from(person));
  decipher.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'));
}

/** A copy of `data` with the value at `path` (dotted, at most one level deep) replaced; `data` itself is left as it is. */
function withValue(data: Data, path: readonly string[], value: unknown): Data {
  const [head, ...rest] = path;
  if (rest.length === 0) return { ...data, [head]: value };
  return isData(data[head]) ? { ...data, [head]: withValue(data[head], rest, value) } : data;
}

/** A copy of `data` without the value at `path`. */
function withoutValue(data: Data, path: readonly string[]): Data {
  const [head, ...rest] = path;
  if (rest.length === 0) {
    const { [head]: _gone, ...kept } = data;
    return kept;
  }
  return isData(data[head]) ? { ...data, [head]: withoutValue(data[head], rest) } : data;
}

function valueAt(data: Data, path: readonly string[]): unknown {
  let current: unknown = data;
  for (const part of path) current = isData(current) ? current[part] : undefined;
  return current;
}

const PATHS = new Map(Object.entries(PERSONAL_FIELDS).map(([type, rule]) => [type, Object.keys(rule.fields).map((path) => ({ path: path.split('.') }))]));

const kindOf = (type: string, path: string) => PERSONAL_FIELDS[type]?.fields[path] ?? 'name';

/** The person whose fields an event holds, when it holds any. */
function personOf(event: { type: string; data: unknown }): { person: string; rule: PersonalFields } | null {
  const rule = PERSONAL_FIELDS[event.type];
  if (!rule || !isData(event.data)) return null;
  const person = rule.person(event.data);
  return person ? { person, rule } : null;
}

/**
 * The one place where events change between the deciders and the log, for both event stores:
 *
 * - On append, secret fields (SECRET_FIELDS) are written to `secret.event_secrets` under the event's id
 *   and left out of the event, and personal fields (PERSONAL_FIELDS) are encrypted with their person's
 *   key from `secret.person_keys` (made on first use). Both writes come before the append: the secret
 *   store and the log share no transaction (EventStoreDB), so a crash in between leaves at most an
 *   unused secret row or key, never an event that refers to nothing. An erasure event deletes its
 *   person's key before it is appended; a crash in between leaves the data unreadable and the erasure
 *   not yet recorded, and the administrator's retry records it.
 * - On read (a stream, or a subscription's batch: projections, the reactor, history and the backup all
 *   read here), personal fields are decrypted with one key look-up per batch; those of an erased person
 *   read as erased, including values appended before encryption existed. Secret fields that events
 *   appended before this layer still carry are moved to `secret.event_secrets` and left out.
 */
export class ProtectedEventStore implements EventStore {
  constructor(
    private readonly inner: EventStore,
    private readonly pool: Pool,
  ) {}

  async appendToStream(streamId: string, events: NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    return this.inner.appendToStream(streamId, await this.protect(events), options);
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    return this.reveal(await this.inner.readStream(streamId));
  }

  subscribeToAll(options: SubscribeOptions, handler: BatchHandler): Subscription {
    return this.inner.subscribeToAll(options, async (events) => handler(await this.reveal(events)));
  }

  headPosition() {
    return this.inner.headPosition();
  }

  close() {
    return this.inner.close();
  }

  private async protect(events: NewEvent[]): Promise<NewEvent[]> {
    const withoutSecrets = await this.keepSecretsApart(events, 'replace');
    const erased = withoutSecrets
      .filter((e) => e.type === ERASURE_EVENT && isData(e.data) && typeof e.data.userId === 'string')
      .map((e) => (e.data as Data).userId as string);
    if (erased.length) await this.shredKeys(erased);
    const persons = [
      ...new Set(
        withoutSecrets
          .map(personOf)
          .filter((p) => p !== null)
          .map((p) => p.person),
      ),
    ];
    if (persons.length === 0) return withoutSecrets;
    const keys = await this.keysOf(persons, true);
    return withoutSecrets.map((event) => {
      const owner = personOf(event);
      if (!owner) return event;
      const key = keys.get(owner.person) ?? null;
      // An erased person's new events get the erased values, in plain.
      if (!key) return { ...event, data: erasedData(event.type, event.data as Data, owner.person) };
      let data = event.data as Data;
      const values: Record<string, unknown> = {};
      for (const { path } of PATHS.get(event.type)!) {
        const value = valueAt(data, path);
        if (value === undefined || value === null || value === '') continue;
        values[path.join('.')] = value;
        data = withoutValue(data, path);
      }
      if (Object.keys(values).length === 0) return event;
      const sealed: Sealed = { fields: Object.keys(values), sealed: encrypt(key, owner.person, values) };
      return { ...event, data: { ...data, [SEALED]: sealed } };
    });
  }

  private async reveal(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const withoutSecrets = await this.keepSecretsApart(events, 'keep');
    const persons = [
      ...new Set(
        withoutSecrets
          .map(personOf)
          .filter((p) => p !== null)
          .map((p) => p.person),
      ),
    ];
    if (persons.length === 0) return withoutSecrets;
    const keys = await this.keysOf(persons, false);
    return withoutSecrets.map((event) => {
      const owner = personOf(event);
      if (!owner) return event;
      const erased = keys.has(owner.person) && !keys.get(owner.person);
      const key = keys.get(owner.person) ?? null;
      const { [SEALED]: sealed, ...rest } = event.data as Data;
      let data: Data = rest;
      if (isSealed(sealed)) {
        const values = key ? (decrypt(key, owner.person, sealed.sealed) as Record<string, unknown>) : null;
        for (const field of sealed.fields)
          data = withValue(data, field.split('.'), values ? values[field] : erasedValue(kindOf(event.type, field), owner.person));
      } else if (erased) {
        // Values appended before encryption are plain: readable until their person is erased.
        data = erasedData(event.type, data, owner.person);
      } else {
        return event;
      }
      return { ...event, data };
    });
  }

  /**
   * Takes the secret fields out of the events, storing each under its event's id. An append replaces
   * a stored value (a retried append of the same event id carries a fresh hash of the same secret); a
   * read of an event appended before secrets left the log keeps what is stored.
   */
  private async keepSecretsApart<E extends NewEvent>(events: E[], onConflict: 'replace' | 'keep'): Promise<E[]> {
    const ids: string[] = [];
    const names: string[] = [];
    const values: string[] = [];
    const result = events.map((event) => {
      const fields = SECRET_FIELDS[event.type];
      if (!fields || !isData(event.data) || !fields.some((f) => f in (event.data as Data))) return event;
      const data = { ...(event.data as Data) };
      for (const field of fields) {
        if (typeof data[field] === 'string') {
          ids.push(event.id);
          names.push(field);
          values.push(data[field] as string);
        }
        delete data[field];
      }
      return { ...event, data };
    });
    if (ids.length) {
      await this.pool.query(
        `INSERT INTO secret.event_secrets (event_id, name, value) SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[])
         ON CONFLICT (event_id, name) DO ${onConflict === 'replace' ? 'UPDATE SET value = EXCLUDED.value' : 'NOTHING'}`,
        [ids, names, values],
      );
    }
    return result;
  }

  /**
   * The persons' keys; with `create`, a new key for each person who has none yet (an erased person gets
   * none). One round trip: the statement's snapshot shows the keys that existed before it, the insert
   * returns those it made; a key another append made meanwhile is read once more.
   */
  private async keysOf(persons: string[], create: boolean): Promise<Keys> {
    const read = (ids: string[]) =>
      this.pool.query<{ person_id: string; key: Buffer | null }>('SELECT person_id, key FROM secret.person_keys WHERE person_id = ANY($1::text[])', [ids]);
    const { rows } = create
      ? await this.pool.query<{ person_id: string; key: Buffer | null }>(
          `WITH made AS (
             INSERT INTO secret.person_keys (person_id, key) SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (person_id) DO NOTHING RETURNING person_id, key
           )
           SELECT person_id, key FROM made
           UNION ALL SELECT person_id, key FROM secret.person_keys WHERE person_id = ANY($1::text[])`,
          [persons, persons.map(() => randomBytes(32))],
        )
      : await read(persons);
    const keys: Keys = new Map(rows.map((row) => [row.person_id, row.key]));
    const missing = persons.filter((person) => !keys.has(person));
    if (create && missing.length) for (const row of (await read(missing)).rows) keys.set(row.person_id, row.key);
    return keys;
  }

  /** Deletes the persons' keys for good; their personal data in the log can no longer be read. */
  private async shredKeys(persons: string[]): Promise<void> {
    await this.pool.query(
      `INSERT INTO secret.person_keys (person_id, key, erased_at) SELECT person_id, NULL, now() FROM unnest($1::text[]) AS t(person_id)
       ON CONFLICT (person_id) DO UPDATE SET key = NULL, erased_at = coalesce(secret.person_keys.erased_at, now())`,
      [persons],
    );
  }
}
