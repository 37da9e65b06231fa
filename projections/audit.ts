import type { AuditLine } from '../contracts/audit';
import type { PoolClient, Queryable } from '../platform/db';
import type { RecordedEvent } from '../platform/eventstore';
import { seesAllOrganisations } from '../domain/access';
import { accountNamedBy, auditRecordOf, auditSummary, organisationNamedBy } from '../domain/audit/audit';
import type { Projection } from './projection';
import { ERASED_NAME, erasedValue } from '../domain/personalData';

/**
 * read.audit_log: every event of the log as one line for the admins' audit screen (who, when, which
 * record, what), and read.audit_people: each account's name, role and organisation as last known, so
 * lines keep naming people after their accounts are deleted.
 */

export interface Person {
  fullName: string;
  role: string;
  organisationId: string | null;
}

interface Registered {
  userId: string;
  fullName: string;
  role: string;
  parentUserId: string | null;
}

const organisationOfAccount = (account: { userId: string; role: string; parentUserId: string | null }) =>
  seesAllOrganisations(account.role) ? null : (account.parentUserId ?? account.userId);

export type KnownPerson = { fullName: string; role: string | null; organisationId: string | null };

/** What an account event teaches about its person (registration or rename), applied to what was known. */
export function learn(people: Map<string, KnownPerson>, event: RecordedEvent): string | undefined {
  if (event.type === 'UserRegistered.v1') {
    const d = event.data as Registered;
    people.set(d.userId, { fullName: d.fullName, role: d.role, organisationId: organisationOfAccount(d) });
    return d.userId;
  }
  if (event.type === 'UserErased.v1') {
    const d = event.data as { userId: string };
    const known = people.get(d.userId);
    people.set(d.userId, { fullName: ERASED_NAME, role: known?.role ?? null, organisationId: known?.organisationId ?? null });
    return d.userId;
  }
  if (event.type === 'UserProfileUpdated.v1') {
    const d = event.data as { userId: string; fullName: string };
    const known = people.get(d.userId);
    people.set(d.userId, { fullName: d.fullName, role: known?.role ?? null, organisationId: known?.organisationId ?? null });
    return d.userId;
  }
  return undefined;
}

/** Stores the people a batch registered or renamed. */
async function rememberPeople(people: Map<string, KnownPerson>, changed: Set<string>, db: PoolClient): Promise<void> {
  if (changed.size === 0) return;
  const ids = [...changed];
  const rows = ids.map((id) => people.get(id)!);
  // A rename of an account registered in an earlier batch keeps its stored role and organisation.
  await db.query(
    `INSERT INTO audit_people (user_id, full_name, role, organisation_id)
     SELECT id, full_name, coalesce(role, ''), organisation_id FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[]) AS t(id, full_name, role, organisation_id)
     ON CONFLICT (user_id) DO UPDATE SET full_name = EXCLUDED.full_name,
       role = CASE WHEN EXCLUDED.role = '' THEN audit_people.role ELSE EXCLUDED.role END,
       organisation_id = CASE WHEN EXCLUDED.role = '' THEN audit_people.organisation_id ELSE EXCLUDED.organisation_id END`,
    [ids, rows.map((r) => r.fullName), rows.map((r) => r.role), rows.map((r) => r.organisationId)],
  );
}

export async function peopleNamed(ids: Iterable<string>, db: PoolClient): Promise<Map<string, Person>> {
  const wanted = [...new Set([...ids].filter((id) => /^[0-9a-f-]{36}$/i.test(id)))];
  const people = new Map<string, Person>();
  if (wanted.length === 0) return people;
  const { rows } = await db.query<{ user_id: string; full_name: string; role: string; organisation_id: string | null }>(
    'SELECT user_id, full_name, role, organisation_id FROM audit_people WHERE user_id = ANY($1::uuid[])',
    [wanted],
  );
  for (const row of rows) people.set(row.user_id, { fullName: row.full_name, role: row.role, organisationId: row.organisation_id });
  return people;
}

/**
 * Lines written before an erasure stop naming the person: as actor, and in the summaries of the lines
 * about the account (its name, and any e-mail address, which only the person's own lines quote).
 * A rebuild writes them so from the start, as the erased events read so.
 */
async function forgetPerson(userId: string, name: string | null, db: PoolClient): Promise<void> {
  await db.query('UPDATE audit_log SET actor_name = $2 WHERE actor_id = $1', [userId, ERASED_NAME]);
  await db.query(
    `UPDATE audit_log SET summary = regexp_replace(CASE WHEN $2::text IS NULL THEN summary ELSE replace(summary, $2, $3) END, '[^\\s():,]+@[^\\s():,]+', $4, 'g')
     WHERE record_type = 'users' AND record_id = $1`,
    [userId, name === ERASED_NAME ? null : name, ERASED_NAME, erasedValue('email', userId)],
  );
}

const COLUMNS =
  'event_id, occurred_at, actor_id, actor_name, actor_role, record_type, record_id, organisation_id, event_type, summary, api_key_id, api_key_name';

export const auditProjection: Projection = {
  name: 'audit',
  stage: 'log',
  apply(event: RecordedEvent, db: PoolClient) {
    return this.applyBatch!([event], db);
  },
  /**
   * Three round trips per batch: the people it mentions, one INSERT of every line, the people it
   * taught. Each line names people as known at its event, so a rebuild (other batch boundaries)
   * writes the same lines as the live projector did.
   */
  async applyBatch(events: readonly RecordedEvent[], db: PoolClient) {
    if (events.length === 0) return;
    const known = await peopleNamed(
      events.flatMap((e) => [e.metadata.actorId ?? '', accountNamedBy(e) ?? '']),
      db,
    );
    const people = new Map<string, KnownPerson>(known);
    const changed = new Set<string>();
    const erasures: Array<{ userId: string; name: string | null }> = [];
    const rows = events.map((event) => {
      if (event.type === 'UserErased.v1') {
        const userId = (event.data as { userId: string }).userId;
        erasures.push({ userId, name: people.get(userId)?.fullName ?? null });
      }
      // A registration's own line already knows its person (and organisation).
      const learnt = learn(people, event);
      if (learnt) changed.add(learnt);
      const { recordType, recordId } = auditRecordOf(event);
      const account = accountNamedBy(event);
      const subject = account ? people.get(account) : undefined;
      const actor = event.metadata.actorId ? people.get(event.metadata.actorId) : undefined;
      const organisationId = organisationNamedBy(event) ?? subject?.organisationId ?? null;
      return {
        event_id: event.id,
        occurred_at: event.metadata.occurredAt,
        actor_id: event.metadata.actorId,
        actor_name: actor?.fullName ?? null,
        actor_role: event.metadata.actorRole,
        record_type: recordType,
        record_id: recordId,
        organisation_id: organisationId && /^[0-9a-f-]{36}$/i.test(organisationId) ? organisationId : null,
        event_type: event.type,
        summary: auditSummary(event, { subject: subject?.fullName }),
        // An action taken with an API key: the key is the actor, on behalf of the owner named above.
        api_key_id: typeof event.metadata.apiKeyId === 'string' ? event.metadata.apiKeyId : null,
        api_key_name: typeof event.metadata.apiKeyName === 'string' ? event.metadata.apiKeyName : null,
      };
    });
    // One JSON document for the batch's lines: native to serialise, unlike an escaped array literal per column.
    await db.query(
      `INSERT INTO audit_log (${COLUMNS})
       SELECT ${COLUMNS} FROM json_to_recordset($1::json)
         AS t(event_id uuid, occurred_at timestamptz, actor_id text, actor_name text, actor_role text, record_type text, record_id text, organisation_id uuid, event_type text, summary text, api_key_id uuid, api_key_name text)
       ON CONFLICT (event_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
    for (const erasure of erasures) await forgetPerson(erasure.userId, erasure.name, db);
    await rememberPeople(people, changed, db);
  },
};

// ---- queries ----

export interface AuditFilters {
  /** Only these lines (event ids; react-admin's getMany). */
  ids?: string[];
  actor_id?: string;
  record_type?: string;
  record_id?: string;
  event_type?: string;
  organisation_id?: string;
  occurred_after?: string;
  occurred_before?: string;
}

/** Where a page ends: the next page starts strictly after it, in the order of the page. */
export interface AuditCursor {
  occurredAt: string;
  eventId: string;
}

export type { AuditLine };

/** The cursor as one opaque token for the API: base64url of `<time>|<event id>`. */
export const encodeAuditCursor = (cursor: AuditCursor) => Buffer.from(`${cursor.occurredAt}|${cursor.eventId}`).toString('base64url');

export function decodeAuditCursor(token: string): AuditCursor | undefined {
  const [occurredAt, eventId, ...rest] = Buffer.from(token, 'base64url').toString('utf8').split('|');
  if (rest.length || !occurredAt || !eventId || Number.isNaN(Date.parse(occurredAt)) || !/^[0-9a-f-]{36}$/i.test(eventId)) return undefined;
  return { occurredAt, eventId };
}

function whereOf(filters: AuditFilters, values: unknown[]): string[] {
  const where: string[] = [];
  const add = (sql: string, value: unknown) => {
    values.push(value);
    where.push(sql.replace('?', `$${values.length}`));
  };
  if (filters.ids) add('event_id = ANY(?::uuid[])', filters.ids);
  if (filters.actor_id) add('actor_id = ?', filters.actor_id);
  if (filters.record_type) add('record_type = ?', filters.record_type);
  if (filters.record_id) add('record_id = ?', filters.record_id);
  if (filters.event_type) add('event_type = ?', filters.event_type);
  if (filters.organisation_id) add('organisation_id = ?::uuid', filters.organisation_id);
  if (filters.occurred_after) add('occurred_at >= ?::timestamptz', filters.occurred_after);
  if (filters.occurred_before) add('occurred_at < ?::timestamptz', filters.occurred_before);
  return where;
}

const SELECT = `SELECT event_id AS id, occurred_at, actor_id, actor_name, actor_role, record_type, record_id, organisation_id, event_type, summary, api_key_id, api_key_name FROM read.audit_log`;
const toLine = (row: Omit<AuditLine, 'occurred_at'> & { occurred_at: Date }): AuditLine => ({ ...row, occurred_at: row.occurred_at.toISOString() });

/**
 * One page of the log in time order (newest first unless `ascending`), after `cursor` when given,
 * else skipping `offset` lines. Every filter is an equality with its own (column, time, id) index,
 * so both walk an index from the start of the page.
 */
export async function auditPage(
  db: Queryable,
  filters: AuditFilters,
  page: { limit: number; offset?: number; cursor?: AuditCursor; ascending?: boolean },
): Promise<AuditLine[]> {
  const values: unknown[] = [];
  const where = whereOf(filters, values);
  const direction = page.ascending ? 'ASC' : 'DESC';
  if (page.cursor) {
    values.push(page.cursor.occurredAt, page.cursor.eventId);
    where.push(`(occurred_at, event_id) ${page.ascending ? '>' : '<'} ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  values.push(page.limit, page.cursor ? 0 : (page.offset ?? 0));
  const { rows } = await db.query<Omit<AuditLine, 'occurred_at'> & { occurred_at: Date }>(
    `${SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
     ORDER BY occurred_at ${direction}, event_id ${direction} LIMIT $${values.length - 1} OFFSET $${values.length}`,
    values,
  );
  return rows.map(toLine);
}

/** Counting a million lines is not free: the count stops at `cap` (the screen then says "more than"). */
export async function auditCount(db: Queryable, filters: AuditFilters, cap: number): Promise<number> {
  const values: unknown[] = [];
  const where = whereOf(filters, values);
  values.push(cap);
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM read.audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} LIMIT $${values.length}) capped`,
    values,
  );
  return rows[0].n;
}

/** Every matching line, newest first, fetched a keyset page at a time (for the CSV export). */
export async function* auditLines(db: Queryable, filters: AuditFilters, pageSize = 1000): AsyncGenerator<AuditLine> {
  let cursor: AuditCursor | undefined;
  for (;;) {
    const page = await auditPage(db, filters, { limit: pageSize, cursor });
    yield* page;
    if (page.length < pageSize) return;
    const last = page[page.length - 1];
    cursor = { occurredAt: last.occurred_at, eventId: last.id };
  }
}
