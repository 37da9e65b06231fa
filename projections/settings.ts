import type { SettingEvent, SupportContact } from '../domain/settings/settings';
import { SUPPORT_CONTACT_SETTING } from '../domain/settings/settings';
import type { PoolClient } from '../src/db';
import type { RecordedEvent } from '../src/eventstore';
import type { Projection } from './projection';

/** read.settings: the current value of each setting. */
export const settingsProjection: Projection = {
  name: 'settings',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = recorded as unknown as SettingEvent;
    if (event.type !== 'SupportContactChanged.v1') return;
    await db.query(
      `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
      [SUPPORT_CONTACT_SETTING, JSON.stringify(event.data), recorded.metadata.occurredAt],
    );
  },
};

export async function supportContact(db: { query: PoolClient['query'] }): Promise<SupportContact | null> {
  const { rows } = await db.query<{ value: SupportContact }>('SELECT value FROM read.settings WHERE key = $1', [SUPPORT_CONTACT_SETTING]);
  return rows[0]?.value ?? null;
}
