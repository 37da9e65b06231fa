import type { Queryable } from '../platform/db';
import type { ActivityItem, RecentActivity } from '../contracts/dashboards';
import { isUuid } from '../domain/ids';

/**
 * Recent activity: status changes from read.status_history (orders, projects, tickets, rebates, and
 * for those who see every organisation, partner applications), each named by its record's read model,
 * with who did it and a link to the record. Newest first. The one function dashboards call for it.
 */

export type { ActivityItem };

interface HistoryRow {
  event_id: string;
  record_type: string;
  record_id: string;
  from_status: string | null;
  to_status: string;
  actor_id: string | null;
  actor_name: string | null;
  occurred_at: Date;
}

interface RecordKind {
  /** What a line calls the record when its read-model row is gone (a deleted record). */
  noun: string;
  /** Title and link per id, from the module's read model. */
  lookup: (db: Queryable, ids: string[]) => Promise<Map<string, { title: string; link: string }>>;
  /** The organisation's most recently changed records: a change is always on one of them. */
  recentOf: string;
}

const lookupQuery =
  (sql: string, link: (id: string) => string) =>
  async (db: Queryable, ids: string[]): Promise<Map<string, { title: string; link: string }>> => {
    if (ids.length === 0) return new Map();
    const { rows } = await db.query<{ id: string; title: string }>(sql, [ids]);
    return new Map(rows.map((r) => [r.id, { title: r.title, link: link(r.id) }]));
  };

const KINDS: Readonly<Record<string, RecordKind>> = {
  orders: {
    noun: 'Order',
    lookup: lookupQuery(`SELECT id::text, 'Order ' || order_number AS title FROM read.orders WHERE id = ANY($1::uuid[])`, (id) => `/order/track/${id}`),
    recentOf: 'read.orders',
  },
  projects: {
    noun: 'Project',
    lookup: lookupQuery('SELECT id::text, title FROM read.projects WHERE id = ANY($1::uuid[])', (id) => `/project/details?id=${id}`),
    recentOf: 'read.projects',
  },
  tickets: {
    noun: 'Ticket',
    lookup: lookupQuery(
      `SELECT id::text, ticket_number || ': ' || title AS title FROM read.tickets WHERE id = ANY($1::uuid[])`,
      (id) => `/supportcenter?tab=cases&ticket=${id}`,
    ),
    recentOf: 'read.tickets',
  },
  rebates: {
    noun: 'Rebate claim',
    lookup: lookupQuery(
      `SELECT id::text, 'Rebate claim ' || invoice_number AS title FROM read.rebates WHERE id = ANY($1::uuid[])`,
      () => '/rebates?tab=history',
    ),
    recentOf: 'read.rebates',
  },
};

/** Partner applications: only in the feed of those who see every organisation and may read partners. */
const PARTNERS: RecordKind = {
  noun: 'Partner application',
  lookup: lookupQuery(`SELECT id::text, 'Partner application of ' || company_name AS title FROM read.partners WHERE id = ANY($1::uuid[])`, () => '/adminpanel'),
  recentOf: 'read.partners',
};

const HISTORY_COLUMNS = `h.event_id::text, h.record_type, h.record_id, h.from_status, h.to_status, h.actor_id, u.full_name AS actor_name, h.occurred_at`;

async function historyRows(db: Queryable, organisationId: string | undefined, types: string[], limit: number): Promise<HistoryRow[]> {
  if (!organisationId) {
    const { rows } = await db.query<HistoryRow>(
      `SELECT ${HISTORY_COLUMNS} FROM read.status_history h LEFT JOIN read.users u ON u.id::text = h.actor_id
       WHERE h.record_type = ANY($1::text[]) ORDER BY h.occurred_at DESC, h.event_id LIMIT $2`,
      [types, limit],
    );
    return rows;
  }
  // The organisation's `limit` most recently changed records of each kind hold its `limit` latest changes.
  const recent = types
    .filter((type) => KINDS[type])
    .map(
      (type) =>
        `(SELECT '${type}'::text AS record_type, id::text AS record_id FROM ${KINDS[type].recentOf} WHERE organisation_id = $1 ORDER BY updated_at DESC LIMIT $2)`,
    )
    .join(' UNION ALL ');
  const { rows } = await db.query<HistoryRow>(
    `WITH recent AS (${recent})
     SELECT ${HISTORY_COLUMNS} FROM recent r
     JOIN LATERAL (SELECT * FROM read.status_history s WHERE s.record_type = r.record_type AND s.record_id = r.record_id ORDER BY s.occurred_at DESC LIMIT $2) h ON true
     LEFT JOIN read.users u ON u.id::text = h.actor_id
     ORDER BY h.occurred_at DESC, h.event_id LIMIT $2`,
    [organisationId, limit],
  );
  return rows;
}

const describe = (title: string, from: string | null, to: string) =>
  from === null ? `${title} was created (${to})` : to === 'deleted' ? `${title} was deleted` : `${title} moved from ${from} to ${to}`;

/** Whose records: one organisation's, or every organisation's (undefined); partner applications only for those who may read partners. */
export interface ActivityScope {
  organisationId?: string;
  partnerApplications?: boolean;
}

/** The latest `limit` changes of one organisation's records, or of every organisation's when `organisationId` is undefined. */
export async function recentActivity(db: Queryable, scope: ActivityScope, limit = 10): Promise<ActivityItem[]> {
  const kinds: Record<string, RecordKind> = !scope.organisationId && scope.partnerApplications ? { ...KINDS, partners: PARTNERS } : { ...KINDS };
  const rows = await historyRows(db, scope.organisationId, Object.keys(kinds), limit);
  const titles = new Map<string, Map<string, { title: string; link: string }>>();
  await Promise.all(
    Object.entries(kinds).map(async ([type, kind]) => {
      const ids = [...new Set(rows.filter((r) => r.record_type === type && isUuid(r.record_id)).map((r) => r.record_id))];
      titles.set(type, await kind.lookup(db, ids));
    }),
  );
  return rows.map((row) => {
    const kind = kinds[row.record_type];
    const found = titles.get(row.record_type)?.get(row.record_id);
    const title = found?.title ?? kind.noun;
    return {
      id: row.event_id,
      record_type: row.record_type,
      record_id: row.record_id,
      title,
      message: describe(title, row.from_status, row.to_status),
      status: row.to_status,
      previous_status: row.from_status,
      actor_id: row.actor_id,
      actor_name: row.actor_name,
      occurred_at: row.occurred_at.toISOString(),
      link: found?.link ?? null,
    };
  });
}

/** The spec's recent-activity lists: the newest partner applications (all organisations only) and projects. */
export async function recentRecords(db: Queryable, scope: ActivityScope, limit = 5): Promise<Omit<RecentActivity, 'activities'>> {
  const projects = await db.query<{ id: string; title: string; status: string; created_at: Date }>(
    `SELECT id::text, title, status, created_at FROM read.projects ${scope.organisationId ? 'WHERE organisation_id = $2' : ''} ORDER BY created_at DESC LIMIT $1`,
    scope.organisationId ? [limit, scope.organisationId] : [limit],
  );
  const partners =
    scope.organisationId || !scope.partnerApplications
      ? { rows: [] }
      : await db.query<{ id: string; name: string; status: string; created_at: Date }>(
          'SELECT id::text, company_name AS name, status, created_at FROM read.partners ORDER BY created_at DESC LIMIT $1',
          [limit],
        );
  return {
    recentPartners: partners.rows.map((p) => ({
      id: p.id,
      name: p.name,
      message: `${p.name} applied to become a partner (${p.status})`,
      createdAt: p.created_at.toISOString(),
      link: '/adminpanel',
    })),
    recentProjects: projects.rows.map((p) => ({
      id: p.id,
      title: p.title,
      message: `${p.title} was registered (${p.status})`,
      createdAt: p.created_at.toISOString(),
      link: `/project/details?id=${p.id}`,
    })),
  };
}
