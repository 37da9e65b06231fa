import type { ApiKeyEvent, ApiKeyScope } from '../domain/settings/apiKeys';
import { DEFAULT_EMAIL_TEMPLATE, type EmailTemplate, type NotificationSettings } from '../domain/settings/notifications';
import type { SettingEvent, SupportContact } from '../domain/settings/settings';
import { emailTemplateSetting, NOTIFICATION_SETTINGS_SETTING, SUPPORT_CONTACT_SETTING } from '../domain/settings/settings';
import type { PoolClient } from '../src/db';
import type { RecordedEvent } from '../src/eventstore';
import type { Projection } from './projection';

type Queryable = { query: PoolClient['query'] };

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
  }
}

const SETTING_EVENTS = new Set(['SupportContactChanged.v1', 'NotificationSettingsChanged.v1', 'EmailTemplateChanged.v1', 'EmailTemplateReset.v1']);

/** read.settings: the current value of each setting; secret.api_keys: the API keys, hashed (out of the analysts' reach). */
export const settingsProjection: Projection = {
  name: 'settings',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    if (SETTING_EVENTS.has(recorded.type)) {
      const event = recorded as unknown as SettingEvent;
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
    const event = recorded as unknown as ApiKeyEvent;
    if (event.type === 'ApiKeyCreated.v1') {
      // The hash is where the event store keeps it, never in the event (`secret` named in full: a rebuild writes api_keys elsewhere).
      await db.query(
        `INSERT INTO api_keys (id, name, prefix, key_hash, scopes, created_at, created_by)
         SELECT $1::uuid, $2::text, $3::text, s.value, $7::text[], $5::timestamptz, $6::uuid FROM secret.event_secrets s WHERE s.event_id = $4::uuid AND s.name = 'keyHash'
         ON CONFLICT (id) DO NOTHING`,
        [event.data.keyId, event.data.name, event.data.prefix, recorded.id, recorded.metadata.occurredAt, recorded.metadata.actorId, event.data.scopes ?? []],
      );
    } else if (event.type === 'ApiKeyRevoked.v1') {
      await db.query('UPDATE api_keys SET revoked_at = $2, revoked_by = $3 WHERE id = $1', [event.data.keyId, recorded.metadata.occurredAt, recorded.metadata.actorId]);
    }
  },
};

async function settingValue<T>(db: Queryable, key: string): Promise<T | null> {
  const { rows } = await db.query<{ value: T }>('SELECT value FROM read.settings WHERE key = $1', [key]);
  return rows[0]?.value ?? null;
}

export const supportContact = (db: Queryable) => settingValue<SupportContact>(db, SUPPORT_CONTACT_SETTING);

export const notificationSettings = (db: Queryable) => settingValue<NotificationSettings>(db, NOTIFICATION_SETTINGS_SETTING);

/** Every event kind's template as written by an administrator; kinds not listed use the standard wording. */
export async function emailTemplates(db: Queryable): Promise<Record<string, EmailTemplate & { updated_at: string }>> {
  const { rows } = await db.query<{ key: string; value: EmailTemplate; updated_at: Date }>(`SELECT key, value, updated_at FROM read.settings WHERE key LIKE 'email-template.%'`);
  return Object.fromEntries(rows.map((row) => [row.key.slice('email-template.'.length), { ...row.value, updated_at: row.updated_at.toISOString() }]));
}

/** The template an e-mail of this kind is written with. */
export async function emailTemplateFor(db: Queryable, kind: string): Promise<EmailTemplate> {
  return (await settingValue<EmailTemplate>(db, emailTemplateSetting(kind))) ?? DEFAULT_EMAIL_TEMPLATE;
}

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  /** The writes the key may make besides reading (none: read-only). */
  scopes: ApiKeyScope[];
  created_at: string;
  created_by_name: string | null;
  revoked_at: string | null;
  status: 'active' | 'revoked';
}

export async function listApiKeys(db: Queryable): Promise<ApiKeyView[]> {
  const { rows } = await db.query<{ id: string; name: string; prefix: string; scopes: ApiKeyScope[]; created_at: Date; created_by_name: string | null; revoked_at: Date | null }>(
    `SELECT k.id, k.name, k.prefix, k.scopes, k.created_at, u.full_name AS created_by_name, k.revoked_at
     FROM secret.api_keys k LEFT JOIN read.users u ON u.id = k.created_by
     ORDER BY k.revoked_at IS NOT NULL, k.created_at DESC, k.id`,
  );
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString(), revoked_at: row.revoked_at?.toISOString() ?? null, status: row.revoked_at ? 'revoked' : 'active' }));
}

/** The live key with this hash: read on every request, so a revoked key is refused at once in every process. */
export async function activeApiKeyByHash(db: Queryable, keyHash: string): Promise<{ id: string; name: string; scopes: ApiKeyScope[] } | undefined> {
  const { rows } = await db.query<{ id: string; name: string; scopes: ApiKeyScope[] }>('SELECT id, name, scopes FROM secret.api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [keyHash]);
  return rows[0];
}
