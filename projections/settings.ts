import { LEGACY_READ_SCOPES } from '../domain/access/apiKeyScopes';
import type { ApiKeyEvent, ApiKeyScope } from '../domain/settings/apiKeys';
import type { ApiKeyView } from '../contracts/apiKeys';
import type { EventLogSummary, SupportContactView } from '../contracts/settings';
import { DEFAULT_EMAIL_TEMPLATE, type EmailTemplate, type NotificationSettings } from '../domain/settings/notifications';
import type { SettingEvent, SupportContact } from '../domain/settings/settings';
import {
  DEFAULT_SECURITY_POLICY,
  emailTemplateSetting,
  NOTIFICATION_SETTINGS_SETTING,
  SECURITY_POLICY_SETTING,
  SUPPORT_CONTACT_SETTING,
  type SecurityPolicy,
} from '../domain/settings/settings';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';
import { pageOf } from './paging';

/** The read.settings key of a setting event. */
function settingKey(event: SettingEvent): string {
  switch (event.type) {
    case 'SupportContactChanged.v1':
      return SUPPORT_CONTACT_SETTING;
    case 'NotificationSettingsChanged.v1':
      return NOTIFICATION_SETTINGS_SETTING;
    case 'EmailTemplateChanged.v1':
    case 'EmailTemplateReset.v1':
      return emailTemplateSetting(event.data.kind);
    case 'SecurityPolicyChanged.v1':
      return SECURITY_POLICY_SETTING;
  }
}

const SETTING_EVENTS = new Set([
  'SecurityPolicyChanged.v1',
  'SupportContactChanged.v1',
  'NotificationSettingsChanged.v1',
  'EmailTemplateChanged.v1',
  'EmailTemplateReset.v1',
]);

/** read.settings: the current value of each setting; secret.api_keys: the API keys, hashed (out of the analysts' reach). */
export const settingsProjection: Projection = {
  name: 'settings',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    if (SETTING_EVENTS.has(recorded.type)) {
      const event = asDomainEvent<SettingEvent>(recorded);
      const key = settingKey(event);
      if (event.type === 'EmailTemplateReset.v1') {
        await db.query('DELETE FROM settings WHERE key = $1', [key]);
        return;
      }
      const value = event.type === 'EmailTemplateChanged.v1' ? { subject: event.data.subject, body: event.data.body } : event.data;
      await db.query(
        `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
        [key, JSON.stringify(value), recorded.metadata.occurredAt],
      );
      return;
    }
    await applyApiKeyEvent(recorded, db);
  },
};

async function settingValue<T>(db: Queryable, key: string): Promise<T | null> {
  const { rows } = await db.query<{ value: T }>('SELECT value FROM read.settings WHERE key = $1', [key]);
  return rows[0]?.value ?? null;
}

export const supportContact = (db: Queryable): Promise<SupportContactView | null> => settingValue<SupportContact>(db, SUPPORT_CONTACT_SETTING);

export const securityPolicy = async (db: Queryable): Promise<SecurityPolicy> =>
  (await settingValue<SecurityPolicy>(db, SECURITY_POLICY_SETTING)) ?? DEFAULT_SECURITY_POLICY;

export const notificationSettings = (db: Queryable) => settingValue<NotificationSettings>(db, NOTIFICATION_SETTINGS_SETTING);

/** Every event kind's template as written by an administrator; kinds not listed use the standard wording. */
export async function emailTemplates(db: Queryable): Promise<Record<string, EmailTemplate & { updated_at: string }>> {
  const { rows } = await db.query<{ key: string; value: EmailTemplate; updated_at: Date }>(
    `SELECT key, value, updated_at FROM read.settings WHERE key LIKE 'email-template.%'`,
  );
  return Object.fromEntries(rows.map((row) => [row.key.slice('email-template.'.length), { ...row.value, updated_at: row.updated_at.toISOString() }]));
}

/** The template an e-mail of this kind is written with. */
export async function emailTemplateFor(db: Queryable, kind: string): Promise<EmailTemplate> {
  return (await settingValue<EmailTemplate>(db, emailTemplateSetting(kind))) ?? DEFAULT_EMAIL_TEMPLATE;
}

const API_KEY_COLUMNS = `k.id, k.name, k.prefix, k.scopes, k.owner_kind, k.organisation_id, o.company_name AS organisation_name, k.created_at, u.full_name AS created_by_name,
  k.expires_at, k.rate_limit_per_minute, k.rotated_at, k.previous_valid_until, k.last_used_at, k.revoked_at`;

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  owner_kind: 'vendor' | 'organisation';
  organisation_id: string | null;
  organisation_name: string | null;
  created_at: Date;
  created_by_name: string | null;
  expires_at: Date | null;
  rate_limit_per_minute: number | null;
  rotated_at: Date | null;
  previous_valid_until: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

function apiKeyView(row: ApiKeyRow, now: number): ApiKeyView {
  const status = row.revoked_at ? 'revoked' : row.expires_at && row.expires_at.getTime() <= now ? 'expired' : 'active';
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    owner_kind: row.owner_kind,
    organisation_id: row.organisation_id,
    organisation_name: row.organisation_name,
    created_at: row.created_at.toISOString(),
    created_by_name: row.created_by_name,
    expires_at: iso(row.expires_at),
    rate_limit_per_minute: row.rate_limit_per_minute,
    rotated_at: iso(row.rotated_at),
    // Only while the previous secret is still honoured.
    previous_valid_until: row.previous_valid_until && row.previous_valid_until.getTime() > now ? row.previous_valid_until.toISOString() : null,
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
    status,
  };
}

/** The vendor's keys (organisationId undefined) or one organisation's: live ones first, newest first. */
export async function listApiKeys(db: Queryable, organisationId?: string): Promise<ApiKeyView[]> {
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT ${API_KEY_COLUMNS}
     FROM secret.api_keys k LEFT JOIN read.users u ON u.id = k.created_by LEFT JOIN read.users o ON o.id = k.organisation_id
     WHERE ${organisationId === undefined ? "k.owner_kind = 'vendor'" : 'k.organisation_id = $1'}
     ORDER BY k.revoked_at IS NOT NULL, k.created_at DESC, k.id`,
    organisationId === undefined ? [] : [organisationId],
  );
  const now = Date.now();
  return rows.map((row) => apiKeyView(row, now));
}

export const ORGANISATION_API_KEY_SORT_FIELDS = ['name', 'created_at', 'expires_at', 'last_used_at', 'status'] as const;
export interface OrganisationApiKeyQuery {
  /** One organisation's keys; every organisation's when undefined (administrators). */
  organisationId?: string;
  ids?: string[];
  search?: string;
  status?: 'active' | 'expired' | 'revoked';
  sort?: { field: (typeof ORGANISATION_API_KEY_SORT_FIELDS)[number] | 'id'; order: 'ASC' | 'DESC' };
  offset: number;
  limit: number;
}

const STATUS_SQL = `CASE WHEN k.revoked_at IS NOT NULL THEN 'revoked' WHEN k.expires_at <= now() THEN 'expired' ELSE 'active' END`;

/** Organisations' keys, a page of them, and how many match. */
export async function listOrganisationApiKeys(db: Queryable, query: OrganisationApiKeyQuery): Promise<{ rows: ApiKeyView[]; total: number }> {
  const where = ["k.owner_kind = 'organisation'"];
  const values: unknown[] = [];
  const bind = (value: unknown) => `$${values.push(value)}`;
  if (query.organisationId !== undefined) where.push(`k.organisation_id = ${bind(query.organisationId)}::uuid`);
  if (query.ids) where.push(`k.id = ANY(${bind(query.ids)}::uuid[])`);
  if (query.search) where.push(`(k.name ILIKE ${bind(`%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)} OR k.prefix = ${bind(query.search)})`);
  if (query.status) where.push(`${STATUS_SQL} = ${bind(query.status)}`);
  const column = {
    id: 'k.id',
    name: 'lower(k.name)',
    created_at: 'k.created_at',
    expires_at: 'k.expires_at',
    last_used_at: 'k.last_used_at',
    status: STATUS_SQL,
  }[query.sort?.field ?? 'created_at'];
  const order = query.sort ? `${column} ${query.sort.order} NULLS LAST, k.id` : 'k.revoked_at IS NOT NULL, k.created_at DESC, k.id';
  const { rows, total } = await pageOf<ApiKeyRow>(db, {
    columns: API_KEY_COLUMNS,
    from: 'secret.api_keys k LEFT JOIN read.users u ON u.id = k.created_by LEFT JOIN read.users o ON o.id = k.organisation_id',
    // The joins only name people and organisations: the total is counted on the keys alone.
    countFrom: 'secret.api_keys k',
    where: `WHERE ${where.join(' AND ')}`,
    order,
    params: values,
    offset: query.offset,
    limit: query.limit,
  });
  const now = Date.now();
  return { rows: rows.map((row) => apiKeyView(row, now)), total };
}

/** One key, if it is the vendor's (organisationId undefined), that organisation's, or any organisation's (null). */
export async function apiKeyOf(db: Queryable, id: string, organisationId?: string | null): Promise<ApiKeyView | undefined> {
  const owner = organisationId === undefined ? "k.owner_kind = 'vendor'" : organisationId === null ? "k.owner_kind = 'organisation'" : 'k.organisation_id = $2';
  const { rows } = await db.query<ApiKeyRow>(
    `SELECT ${API_KEY_COLUMNS}
     FROM secret.api_keys k LEFT JOIN read.users u ON u.id = k.created_by LEFT JOIN read.users o ON o.id = k.organisation_id
     WHERE k.id = $1 AND ${owner}`,
    typeof organisationId === 'string' ? [id, organisationId] : [id],
  );
  return rows[0] && apiKeyView(rows[0], Date.now());
}

/** A key that may be used now, as a request finds it by its secret's hash (the current secret, or the previous one during a rotation's overlap). */
export interface UsableApiKey {
  id: string;
  name: string;
  scopes: ApiKeyScope[];
  owner_kind: 'vendor' | 'organisation';
  organisation_id: string | null;
  rate_limit_per_minute: number | null;
  /** The owner account of an organisation key, as it is now. */
  owner: { role: string; permissions: string[]; is_active: boolean; full_name: string; email: string; company_name: string | null } | null;
}

/**
 * The live key with this hash: read on every request (revocations, expiry and the end of a rotation's
 * overlap take effect at once in every process), with its owner account's current role and permissions.
 */
export async function usableApiKeyByHash(db: Queryable, keyHash: string): Promise<UsableApiKey | undefined> {
  const { rows } = await db.query<UsableApiKey>(
    `SELECT k.id, k.name, k.scopes, k.owner_kind, k.organisation_id, k.rate_limit_per_minute,
            CASE WHEN o.id IS NULL THEN NULL
                 ELSE json_build_object('role', o.role, 'permissions', o.permissions, 'is_active', o.is_active, 'full_name', o.full_name, 'email', o.email, 'company_name', o.company_name) END AS owner
     FROM secret.api_keys k LEFT JOIN read.users o ON o.id = k.organisation_id
     WHERE (k.key_hash = $1 OR (k.previous_key_hash = $1 AND k.previous_valid_until > now()))
       AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
     LIMIT 1`,
    [keyHash],
  );
  return rows[0];
}

/** What the API keys' table holds, from their events (the hashes from secret.event_secrets by event id). */
async function applyApiKeyEvent(recorded: RecordedEvent, db: PoolClient): Promise<void> {
  const event = asDomainEvent<ApiKeyEvent | { type: 'ApiKeyUsed.v1'; data: { apiKeyId: string } }>(recorded);
  const at = recorded.metadata.occurredAt;
  switch (event.type) {
    case 'ApiKeyCreated.v1':
    case 'ApiKeyCreated.v2': {
      const v2 = event.type === 'ApiKeyCreated.v2' ? event.data : undefined;
      // Keys made before read scopes existed read what they always could.
      const scopes = v2 ? v2.scopes : [...new Set([...LEGACY_READ_SCOPES, ...(event.data.scopes ?? [])])].sort();
      // The hash is where the event store keeps it, never in the event (`secret` named in full: a rebuild writes api_keys elsewhere).
      await db.query(
        `INSERT INTO api_keys (id, name, prefix, key_hash, scopes, created_at, created_by, owner_kind, organisation_id, expires_at, rate_limit_per_minute)
         SELECT $1::uuid, $2::text, $3::text, s.value, $7::text[], $5::timestamptz, $6::uuid, $8::text, $9::uuid, $10::timestamptz, $11::int FROM secret.event_secrets s WHERE s.event_id = $4::uuid AND s.name = 'keyHash'
         ON CONFLICT (id) DO NOTHING`,
        [
          event.data.keyId,
          event.data.name,
          event.data.prefix,
          recorded.id,
          at,
          recorded.metadata.actorId,
          scopes,
          v2?.ownerKind ?? 'vendor',
          v2?.organisationId ?? null,
          v2?.expiresAt ?? null,
          v2?.rateLimitPerMinute ?? null,
        ],
      );
      return;
    }
    case 'ApiKeyRotated.v1':
      await db.query(
        `UPDATE api_keys k SET previous_key_hash = k.key_hash, previous_valid_until = $3::timestamptz, key_hash = s.value, prefix = $4, rotated_at = $5
         FROM secret.event_secrets s WHERE k.id = $1 AND s.event_id = $2::uuid AND s.name = 'keyHash'`,
        [event.data.keyId, recorded.id, event.data.previousValidUntil, event.data.prefix, at],
      );
      return;
    case 'ApiKeyRevoked.v1':
      await db.query('UPDATE api_keys SET revoked_at = $2, revoked_by = $3 WHERE id = $1', [event.data.keyId, at, recorded.metadata.actorId]);
      return;
    case 'ApiKeyUsed.v1':
      await db.query('UPDATE api_keys SET last_used_at = greatest(last_used_at, $2::timestamptz) WHERE id = $1::uuid', [event.data.apiKeyId, at]);
      return;
  }
}

/** What the event log holds, for System Settings' backup section (an empty summary when the log cannot be read). */
export async function eventLogSummary(db: Queryable): Promise<EventLogSummary> {
  const { rows } = await db
    .query<{ events: string; streams: string; first: Date | null; last: Date | null }>(
      'SELECT count(*) AS events, count(DISTINCT stream_id) AS streams, min(recorded_at) AS first, max(recorded_at) AS last FROM events',
    )
    .catch(() => ({ rows: [{ events: '0', streams: '0', first: null, last: null }] }));
  const r = rows[0]!;
  return { events: Number(r.events), streams: Number(r.streams), first_event_at: r.first?.toISOString() ?? null, last_event_at: r.last?.toISOString() ?? null };
}
