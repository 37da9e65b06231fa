import type { Notification } from '../contracts/notifications';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { NotificationEvent } from '../domain/notifications/notifications';
import type { Projection } from './projection';

export const notificationsProjection: Projection = {
  name: 'notifications',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<NotificationEvent>(recorded);
    if (event.type === 'NotificationSent.v1') {
      const d = event.data;
      await db.query(
        `INSERT INTO notifications (id, user_id, kind, title, body, link, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
        [d.notificationId, d.userId, d.kind, d.title, d.body, d.link, recorded.metadata.occurredAt],
      );
    } else if (event.type === 'NotificationRead.v1') {
      await db.query('UPDATE notifications SET read_at = $2 WHERE id = $1 AND read_at IS NULL', [event.data.notificationId, recorded.metadata.occurredAt]);
    }
  },
};

// ---- queries ----

export type NotificationView = Notification;

/**
 * The user's notifications, newest first; `ids` (react-admin's getMany) narrows the page and its total, never the unread count.
 * One statement: the counts always come back as one row, joined to the page's rows when there are any.
 */
export async function listNotifications(db: Queryable, userId: string, page: { offset: number; limit: number; unreadOnly?: boolean; ids?: readonly string[] }) {
  const { rows } = await db.query<{
    total: string;
    unread: string;
    id: string | null;
    kind: string;
    title: string;
    body: string;
    link: string | null;
    read_at: Date | null;
    created_at: Date;
  }>(
    `WITH counts AS (
       SELECT count(*) FILTER (WHERE ($2::boolean IS NOT TRUE OR read_at IS NULL) AND ($5::uuid[] IS NULL OR id = ANY($5::uuid[]))) AS total,
              count(*) FILTER (WHERE read_at IS NULL) AS unread
       FROM read.notifications WHERE user_id = $1)
     SELECT counts.total, counts.unread, n.id, n.kind, n.title, n.body, n.link, n.read_at, n.created_at
     FROM counts LEFT JOIN LATERAL (
       SELECT id, kind, title, body, link, read_at, created_at FROM read.notifications
       WHERE user_id = $1 AND ($2::boolean IS NOT TRUE OR read_at IS NULL) AND ($5::uuid[] IS NULL OR id = ANY($5::uuid[]))
       ORDER BY created_at DESC, id OFFSET $3 LIMIT $4) n ON true
     ORDER BY n.created_at DESC, n.id`,
    [userId, page.unreadOnly ?? false, page.offset, page.limit, page.ids ?? null],
  );
  const views: NotificationView[] = rows
    .filter((r) => r.id !== null)
    .map((r) => ({
      id: r.id!,
      kind: r.kind,
      title: r.title,
      body: r.body,
      link: r.link,
      read_at: r.read_at?.toISOString() ?? null,
      created_at: r.created_at.toISOString(),
    }));
  return { rows: views, total: Number(rows[0].total), unread: Number(rows[0].unread) };
}

export async function unreadNotificationIds(db: Queryable, userId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM read.notifications WHERE user_id = $1 AND read_at IS NULL', [userId]);
  return rows.map((r) => r.id);
}
