import { pageOf } from './paging';
import type { WebhookDeliveryView, WebhookEndpointView } from '../contracts/webhooks';
import type { WebhookEvent } from '../domain/webhooks/webhooks';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';

/**
 * read.webhook_endpoints: the webhook endpoints as their events leave them. The signing secret is not
 * copied: the row names the event under whose id the store keeps it (signing_event_id).
 *
 * The delivery log (webhook_deliveries) is the delivery worker's, not a read model; its queries are here
 * beside the endpoints' because the screens read both together.
 */
export const webhooksProjection: Projection = {
  name: 'webhooks',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    if (!recorded.type.startsWith('Webhook')) return;
    const event = asDomainEvent<WebhookEvent & { metadata: RecordedEvent['metadata'] }>(recorded);
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'WebhookEndpointRegistered.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO webhook_endpoints (id, organisation_id, url, event_types, status, status_reason, signing_event_id, created_by, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, NULL, $6, $7, $8, $8) ON CONFLICT (id) DO NOTHING`,
          [d.endpointId, d.organisationId, d.url, d.eventTypes, d.status, recorded.id, d.createdBy, at],
        );
        return;
      }
      case 'WebhookEndpointUpdated.v1':
        await db.query('UPDATE webhook_endpoints SET url = $2, event_types = $3, updated_at = $4 WHERE id = $1', [
          event.data.endpointId,
          event.data.url,
          event.data.eventTypes,
          at,
        ]);
        return;
      case 'WebhookEndpointStatusChanged.v1':
        await db.query('UPDATE webhook_endpoints SET status = $2, status_reason = $3, updated_at = $4 WHERE id = $1', [
          event.data.endpointId,
          event.data.status,
          event.data.reason,
          at,
        ]);
        return;
      case 'WebhookEndpointDeleted.v1':
        await db.query('DELETE FROM webhook_endpoints WHERE id = $1', [event.data.endpointId]);
        return;
      case 'WebhookReplayRequested.v1':
      case 'WebhookRedeliveryRequested.v1':
        return;
    }
  },
};

// ---- queries ----

/** undefined: every endpoint (admins); null: the vendor's own; a uuid: that organisation's. */
export interface WebhookScope {
  organisationId: string | null | undefined;
}

export const WEBHOOK_SORT_FIELDS = ['url', 'status', 'created_at', 'updated_at', 'organisation_name'] as const;
export type WebhookSortField = (typeof WEBHOOK_SORT_FIELDS)[number] | 'id';

const ENDPOINT_COLUMNS = `e.id, e.organisation_id, coalesce(u.company_name, u.full_name) AS organisation_name, e.url, e.event_types, e.status = 'active' AS active, e.status, e.status_reason,
  e.created_at, e.updated_at,
  (SELECT max(d.last_attempt_at) FROM webhook_deliveries d WHERE d.endpoint_id = e.id) AS last_delivery_at,
  (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending_deliveries,
  (SELECT count(*)::int FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'failed') AS failed_deliveries`;

type EndpointRow = Omit<WebhookEndpointView, 'created_at' | 'updated_at' | 'last_delivery_at'> & {
  created_at: Date;
  updated_at: Date;
  last_delivery_at: Date | null;
};
const endpointView = (r: EndpointRow): WebhookEndpointView => ({
  ...r,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
  last_delivery_at: r.last_delivery_at?.toISOString() ?? null,
});

export async function listWebhookEndpoints(
  db: Queryable,
  scope: WebhookScope,
  filters: { status?: string; organisation_id?: string; search?: string; ids?: string[] },
  page: { offset: number; limit: number; sort?: { field: WebhookSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: WebhookEndpointView[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (scope.organisationId === null) where.push('e.organisation_id IS NULL');
  else if (scope.organisationId !== undefined) add((n) => `e.organisation_id = ${n}::uuid`, scope.organisationId);
  if (filters.status) add((n) => `e.status = ${n}`, filters.status);
  if (filters.organisation_id) add((n) => `e.organisation_id = ${n}::uuid`, filters.organisation_id);
  if (filters.search)
    add(
      (n) => `e.url ILIKE '%' || ${n} || '%'`,
      filters.search.replace(/[\\%_]/g, (c) => `\\${c}`),
    );
  if (filters.ids) add((n) => `e.id = ANY(${n}::uuid[])`, filters.ids);
  const sortField = page.sort?.field ?? 'created_at';
  const order = page.sort?.order ?? 'DESC';
  const sortColumn = sortField === 'organisation_name' ? 'organisation_name' : `e.${sortField}`;
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const { rows, total } = await pageOf<EndpointRow>(db, {
    columns: ENDPOINT_COLUMNS,
    from: 'read.webhook_endpoints e LEFT JOIN read.users u ON u.id = e.organisation_id',
    countFrom: 'read.webhook_endpoints e',
    where: whereSql,
    order: `${sortColumn} ${order} NULLS LAST, e.id ${order}`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map(endpointView), total };
}

/** One endpoint, when the scope lets the caller see it. */
export async function findWebhookEndpoint(db: Queryable, id: string, scope: WebhookScope): Promise<WebhookEndpointView | null> {
  const { rows } = await listWebhookEndpoints(db, scope, { ids: [id] }, { offset: 0, limit: 1 });
  return rows[0] ?? null;
}

/** What the delivery worker needs of an endpoint: where, whose, and the key it signs with. */
export interface EndpointTarget {
  id: string;
  organisationId: string | null;
  url: string;
  eventTypes: string[];
  status: string;
  createdAt: Date;
}

export async function endpointTarget(db: Queryable, id: string): Promise<EndpointTarget | null> {
  const { rows } = await db.query<{ id: string; organisation_id: string | null; url: string; event_types: string[]; status: string; created_at: Date }>(
    'SELECT id, organisation_id, url, event_types, status, created_at FROM read.webhook_endpoints WHERE id = $1',
    [id],
  );
  const r = rows[0];
  return r ? { id: r.id, organisationId: r.organisation_id, url: r.url, eventTypes: r.event_types, status: r.status, createdAt: r.created_at } : null;
}

/** The active endpoints subscribed to a public type. */
export async function activeEndpointsFor(db: Queryable, publicType: string): Promise<EndpointTarget[]> {
  const { rows } = await db.query<{ id: string; organisation_id: string | null; url: string; event_types: string[]; status: string; created_at: Date }>(
    `SELECT id, organisation_id, url, event_types, status, created_at FROM read.webhook_endpoints WHERE status = 'active' AND $1 = ANY(event_types) ORDER BY id`,
    [publicType],
  );
  return rows.map((r) => ({ id: r.id, organisationId: r.organisation_id, url: r.url, eventTypes: r.event_types, status: r.status, createdAt: r.created_at }));
}

/** The endpoint's signing secret (`whsec_…`), from where the event store keeps it. */
export async function signingSecretOf(db: Queryable, endpointId: string): Promise<string | null> {
  const { rows } = await db.query<{ value: string }>(
    `SELECT s.value FROM read.webhook_endpoints e JOIN secret.event_secrets s ON s.event_id = e.signing_event_id AND s.name = 'secret' WHERE e.id = $1`,
    [endpointId],
  );
  return rows[0]?.value ?? null;
}

type DeliveryRow = Omit<WebhookDeliveryView, 'occurred_at' | 'created_at' | 'last_attempt_at' | 'next_attempt_at' | 'delivered_at'> & {
  occurred_at: Date;
  created_at: Date;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  delivered_at: Date | null;
};
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** One page of an endpoint's delivery log, newest first. */
export async function deliveriesPage(
  db: Queryable,
  endpointId: string,
  filters: { status?: string; event_type?: string },
  page: { offset: number; limit: number },
): Promise<{ rows: WebhookDeliveryView[]; total: number }> {
  const { rows, total } = await pageOf<DeliveryRow>(db, {
    columns:
      'id, endpoint_id, event_id, event_type, kind, status, attempts, status_code, duration_ms, response_excerpt, error, occurred_at, created_at, last_attempt_at, next_attempt_at, delivered_at',
    from: 'webhook_deliveries',
    where: 'WHERE endpoint_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR event_type = $3)',
    order: 'created_at DESC, seq DESC',
    params: [endpointId, filters.status ?? null, filters.event_type ?? null],
    offset: page.offset,
    limit: page.limit,
  });
  return {
    total,
    rows: rows.map((r) => ({
      ...r,
      occurred_at: r.occurred_at.toISOString(),
      created_at: r.created_at.toISOString(),
      last_attempt_at: iso(r.last_attempt_at),
      next_attempt_at: iso(r.next_attempt_at),
      delivered_at: iso(r.delivered_at),
    })),
  };
}

export async function deliveryExists(db: Queryable, endpointId: string, deliveryId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2', [deliveryId, endpointId]);
  return rows.length > 0;
}

// ---- the delivery worker's statements on the delivery log ----

/** A delivery row as the worker writes it: the message for one endpoint, and why it is sent (the event, a replay, a redelivery). */
export interface StoredDelivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  record_key: string;
  occurred_at: string;
  body: unknown;
  kind: 'live' | 'replay' | 'redelivery';
}

/** Writes the rows (in the order given: seq follows it); an existing row id is left as it is, so a replayed reaction adds nothing. */
export async function insertDeliveries(db: Queryable, rows: StoredDelivery[]): Promise<void> {
  if (!rows.length) return;
  await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, record_key, occurred_at, body, kind)
     SELECT id, endpoint_id, event_id, event_type, record_key, occurred_at, body, kind
     FROM ROWS FROM (json_to_recordset($1::json) AS (id uuid, endpoint_id uuid, event_id uuid, event_type text, record_key text, occurred_at timestamptz, body jsonb, kind text))
       WITH ORDINALITY AS t(id, endpoint_id, event_id, event_type, record_key, occurred_at, body, kind, n)
     ORDER BY n
     ON CONFLICT (id) DO NOTHING`,
    [JSON.stringify(rows)],
  );
}

/** The records with deliveries pending to the endpoint. */
export async function recordsWithPendingDeliveries(db: Queryable, endpointId: string): Promise<string[]> {
  const { rows } = await db.query<{ record_key: string }>(`SELECT DISTINCT record_key FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'`, [
    endpointId,
  ]);
  return rows.map((row) => row.record_key);
}

/** A logged delivery of the endpoint as it was written, to send a copy of it. */
export async function storedDelivery(db: Queryable, endpointId: string, deliveryId: string): Promise<StoredDelivery | undefined> {
  const { rows } = await db.query<StoredDelivery>(
    'SELECT id, endpoint_id, event_id, event_type, record_key, occurred_at, body, kind FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2',
    [deliveryId, endpointId],
  );
  return rows[0];
}

/**
 * Takes the session-level lock on one record's deliveries to one endpoint, on this connection: false when another drain
 * holds it. `unlockRecordDeliveries` on the same connection releases it.
 */
export async function tryLockRecordDeliveries(client: Queryable, endpointId: string, recordKey: string): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS ok', [endpointId, recordKey]);
  return rows[0].ok;
}

export async function unlockRecordDeliveries(client: Queryable, endpointId: string, recordKey: string): Promise<void> {
  await client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [endpointId, recordKey]);
}

/** A pending delivery and its attempts so far. */
export interface PendingDelivery {
  id: string;
  event_id: string;
  body: unknown;
  attempts: number;
  first_attempt_at: Date | null;
  next_attempt_at: Date | null;
}

/** The record's oldest pending delivery to the endpoint. */
export async function nextPendingDelivery(db: Queryable, endpointId: string, recordKey: string): Promise<PendingDelivery | undefined> {
  const { rows } = await db.query<PendingDelivery>(
    `SELECT id, event_id, body, attempts, first_attempt_at, next_attempt_at FROM webhook_deliveries
     WHERE endpoint_id = $1 AND record_key = $2 AND status = 'pending' ORDER BY seq LIMIT 1`,
    [endpointId, recordKey],
  );
  return rows[0];
}

/** Fails every pending delivery to an endpoint that was deleted. */
export async function failDeliveriesToDeletedEndpoint(db: Queryable, endpointId: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'failed', error = 'The endpoint was deleted.', next_attempt_at = NULL WHERE endpoint_id = $1 AND status = 'pending'`,
    [endpointId],
  );
}

/** The outcome of one attempt at a delivery. */
export interface DeliveryAttempt {
  status: 'delivered' | 'failed' | 'pending';
  attempts: number;
  firstAttemptAt: Date;
  lastAttemptAt: Date;
  nextAttemptAt: Date | null;
  statusCode: number | null;
  durationMs: number;
  responseExcerpt: string | null;
  error: string | null;
  deliveredAt: Date | null;
}

export async function recordDeliveryAttempt(db: Queryable, deliveryId: string, attempt: DeliveryAttempt): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = $2, attempts = $3, first_attempt_at = $4, last_attempt_at = $5, next_attempt_at = $6,
       status_code = $7, duration_ms = $8, response_excerpt = $9, error = $10, delivered_at = $11 WHERE id = $1`,
    [
      deliveryId,
      attempt.status,
      attempt.attempts,
      attempt.firstAttemptAt,
      attempt.lastAttemptAt,
      attempt.nextAttemptAt,
      attempt.statusCode,
      attempt.durationMs,
      attempt.responseExcerpt,
      attempt.error,
      attempt.deliveredAt,
    ],
  );
}

/** The (endpoint, record) pairs of active endpoints with a delivery pending since before `dueBefore` (at most 5000). */
export async function pendingDeliveriesDue(db: Queryable, dueBefore: Date): Promise<Array<{ endpoint_id: string; record_key: string }>> {
  const { rows } = await db.query<{ endpoint_id: string; record_key: string }>(
    `SELECT DISTINCT d.endpoint_id, d.record_key FROM webhook_deliveries d JOIN read.webhook_endpoints e ON e.id = d.endpoint_id AND e.status = 'active'
     WHERE d.status = 'pending' AND coalesce(d.next_attempt_at, d.created_at) <= $1 LIMIT 5000`,
    [dueBefore],
  );
  return rows;
}
