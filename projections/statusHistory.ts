import type { StatusChange as StatusChangeAnswer } from '../contracts/answers';
import type { PoolClient, Queryable } from '../platform/db';
import type { RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';

/**
 * Every module marks a status change the same way: the event's data carries `status` (the new one)
 * and `previousStatus` (null when the record is created), plus `reason` when one was given.
 * The record type is the stream's category (`orders-42` → `orders`), so new modules need no change here.
 */
interface StatusChange {
  status: string;
  previousStatus: string | null;
  reason?: string | null;
}

const isStatusChange = (data: unknown): data is StatusChange =>
  typeof data === 'object' && data !== null && typeof (data as StatusChange).status === 'string' && 'previousStatus' in data;

export function streamCategory(streamId: string): { recordType: string; recordId: string } {
  const dash = streamId.indexOf('-');
  return dash < 0 ? { recordType: streamId, recordId: '' } : { recordType: streamId.slice(0, dash), recordId: streamId.slice(dash + 1) };
}

const COLUMNS = 'event_id, record_type, record_id, from_status, to_status, actor_id, actor_role, reason, occurred_at, event_type';

export const statusHistoryProjection: Projection = {
  name: 'status_history',
  stage: 'history',
  apply(event: RecordedEvent, db: PoolClient) {
    return this.applyBatch!([event], db);
  },
  /** One INSERT for all the status changes of a batch. */
  async applyBatch(events: readonly RecordedEvent[], db: PoolClient) {
    const rows = events.flatMap((event) => {
      if (!isStatusChange(event.data)) return [];
      const { recordType, recordId } = streamCategory(event.streamId);
      const m = event.metadata;
      return [
        {
          event_id: event.id,
          record_type: recordType,
          record_id: recordId,
          from_status: event.data.previousStatus,
          to_status: event.data.status,
          actor_id: m.actorId,
          actor_role: m.actorRole,
          reason: event.data.reason ?? null,
          occurred_at: m.occurredAt,
          event_type: event.type,
        },
      ];
    });
    if (rows.length === 0) return;
    // The rows travel as one JSON document: JSON.stringify is native, escaping an array literal per column is not.
    await db.query(
      `INSERT INTO status_history (${COLUMNS})
       SELECT ${COLUMNS} FROM json_to_recordset($1::json)
         AS t(event_id uuid, record_type text, record_id text, from_status text, to_status text, actor_id text, actor_role text, reason text, occurred_at timestamptz, event_type text)
       ON CONFLICT (event_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  },
};

// ---- queries ----

/** One change as a history answers it: the contract's shape. */
export type StatusHistoryView = StatusChangeAnswer;

/** One record's status changes, oldest first, with the actor's current name. */
export async function statusHistoryOf(db: Queryable, recordType: string, recordId: string): Promise<StatusHistoryView[]> {
  const { rows } = await db.query<Omit<StatusHistoryView, 'occurred_at'> & { occurred_at: Date }>(
    `SELECT h.event_id AS id, h.record_type, h.record_id, h.from_status, h.to_status, h.actor_id, u.full_name AS actor_name,
            h.actor_role, h.reason, h.event_type, h.occurred_at
     FROM read.status_history h LEFT JOIN read.users u ON u.id::text = h.actor_id
     WHERE h.record_type = $1 AND h.record_id = $2
     ORDER BY h.occurred_at, h.event_id`,
    [recordType, recordId],
  );
  return rows.map((row) => ({ ...row, occurred_at: row.occurred_at.toISOString() }));
}
