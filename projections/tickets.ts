import { countOf, pageOf } from './paging';
import { ACTIVE_TICKET_STATUSES, type TicketAttachment, type TicketCommentData, type TicketEvent } from '../domain/tickets/tickets';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';
import {
  ticketListQuery,
  type SupportDashboardFigures,
  type Ticket,
  type TicketAssignee,
  type TicketComment,
  type TicketStatistics,
} from '../contracts/tickets';

const STATUS_TIME_COLUMN: Readonly<Record<string, string>> = { Resolved: 'resolved_at', Closed: 'closed_at' };

async function addComment(
  db: PoolClient,
  ticketId: string,
  authorId: string | null,
  comment: TicketCommentData,
  kind: string,
  at: string,
  statusTo: string | null = null,
) {
  const inserted = await db.query(
    `INSERT INTO ticket_comments (id, ticket_id, author_id, comment, is_internal, kind, status_to, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
    [comment.commentId, ticketId, authorId, comment.comment, comment.isInternal, kind, statusTo, at],
  );
  if (inserted.rowCount) {
    await db.query(
      `UPDATE tickets SET comment_count = comment_count + 1, public_comment_count = public_comment_count + $2::int, updated_at = $3 WHERE id = $1`,
      [ticketId, comment.isInternal ? 0 : 1, at],
    );
  }
}

/** read.tickets and read.ticket_comments. */
export const ticketsProjection: Projection = {
  name: 'tickets',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<TicketEvent>(recorded);
    const at = recorded.metadata.occurredAt;
    const actor = recorded.metadata.actorId ?? null;
    switch (event.type) {
      case 'TicketOpened.v1': {
        const d = event.data;
        const inserted = await db.query(
          `INSERT INTO tickets (id, ticket_number, organisation_id, company_name, created_by, title, description, priority, category, status, tags, due_at, due_date_given, assigned_to, attachments, created_at, updated_at,
             rma_serial_number, rma_order_id, rma_order_number, rma_product_name)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16, $17, $18, $19, $20) ON CONFLICT (id) DO NOTHING`,
          [
            d.ticketId,
            d.ticketNumber,
            d.organisationId,
            d.companyName,
            d.createdBy,
            d.title,
            d.description,
            d.priority,
            d.category,
            d.status,
            d.tags,
            d.dueAt,
            d.dueDateGiven,
            d.assignedTo,
            JSON.stringify(d.attachments),
            at,
            d.rma?.serialNumber ?? null,
            d.rma?.orderId ?? null,
            d.rma?.orderNumber ?? null,
            d.rma?.productName ?? null,
          ],
        );
        if (!inserted.rowCount) return;
        if (d.initialComment) await addComment(db, d.ticketId, d.createdBy, d.initialComment, 'initial', at);
        if (d.attachments.length) {
          await db.query(
            `INSERT INTO ticket_attachments (name, ticket_id, original_name, type) SELECT name, $1, original_name, type FROM unnest($2::text[], $3::text[], $4::text[]) AS t(name, original_name, type) ON CONFLICT (name) DO NOTHING`,
            [d.ticketId, d.attachments.map((a) => a.name), d.attachments.map((a) => a.originalName), d.attachments.map((a) => a.type)],
          );
        }
        return;
      }
      case 'TicketUpdated.v1': {
        const { ticketId, ticketNumber: _n, organisationId: _o, ...changes } = event.data;
        const sets: string[] = [];
        const params: unknown[] = [ticketId, at];
        for (const [field, column] of [
          ['title', 'title'],
          ['description', 'description'],
          ['priority', 'priority'],
          ['category', 'category'],
          ['tags', 'tags'],
          ['dueAt', 'due_at'],
        ] as const) {
          if (changes[field] !== undefined) sets.push(`${column} = $${params.push(changes[field])}`);
        }
        if (changes.dueAt !== undefined) sets.push('overdue_at = NULL', 'due_date_given = true');
        await db.query(`UPDATE tickets SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1`, params);
        return;
      }
      case 'TicketStatusChanged.v1': {
        const d = event.data;
        const column = STATUS_TIME_COLUMN[d.status];
        await db.query(
          `UPDATE tickets SET status = $2, updated_at = $3${column ? `, ${column} = $3` : ''}${d.status === 'Resolved' ? ', resolution_notes = coalesce($4, resolution_notes)' : ''} WHERE id = $1`,
          d.status === 'Resolved' ? [d.ticketId, d.status, at, d.resolutionNotes] : [d.ticketId, d.status, at],
        );
        if (d.comment) await addComment(db, d.ticketId, actor, d.comment, 'status', at, d.status);
        return;
      }
      case 'TicketCommented.v1': {
        const d = event.data;
        await addComment(db, d.ticketId, d.authorId || actor, d, 'comment', at);
        return;
      }
      case 'TicketAssigned.v1': {
        const d = event.data;
        await db.query('UPDATE tickets SET assigned_to = $2, updated_at = $3 WHERE id = $1', [d.ticketId, d.assignedTo, at]);
        if (d.comment) await addComment(db, d.ticketId, actor, d.comment, 'assignment', at);
        return;
      }
      case 'TicketOverdue.v1':
        await db.query('UPDATE tickets SET overdue_at = $2 WHERE id = $1 AND due_at = $3', [event.data.ticketId, at, event.data.dueAt]);
        return;
      case 'TicketDeleted.v1':
        await db.query('DELETE FROM ticket_comments WHERE ticket_id = $1', [event.data.ticketId]);
        await db.query('DELETE FROM ticket_attachments WHERE ticket_id = $1', [event.data.ticketId]);
        await db.query('DELETE FROM tickets WHERE id = $1', [event.data.ticketId]);
        return;
    }
  },
};

// ---- queries ----

/**
 * Whose tickets a caller sees and what of them: one organisation's (partners, distributors and
 * their teams) without internal notes, or (support staff and admins) everyone's with them.
 */
export interface TicketScope {
  organisationId: string | undefined;
  seesInternal: boolean;
}

interface TicketRow {
  id: string;
  ticket_number: string;
  organisation_id: string;
  company_name: string | null;
  created_by: string;
  creator_name: string | null;
  title: string;
  description: string;
  priority: string;
  category: string;
  status: string;
  tags: string[];
  due_at: Date;
  due_date_given: boolean;
  assigned_to: string | null;
  assignee_name: string | null;
  resolution_notes: string | null;
  overdue_at: Date | null;
  attachments: TicketAttachment[];
  public_comment_count: number;
  comment_count: number;
  initial_comment: string | null;
  created_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
  closed_at: Date | null;
  rma_serial_number: string | null;
  rma_order_id: string | null;
  rma_order_number: string | null;
  rma_product_name: string | null;
}

const TICKET_COLUMNS = `t.id, t.ticket_number, t.organisation_id, t.company_name, t.created_by, c.full_name AS creator_name, t.title, t.description,
  t.priority, t.category, t.status, t.tags, t.due_at, t.due_date_given, t.assigned_to, a.full_name AS assignee_name, t.resolution_notes,
  t.overdue_at, t.attachments, t.public_comment_count, t.comment_count,
  (SELECT comment FROM read.ticket_comments ic WHERE ic.ticket_id = t.id AND ic.kind = 'initial') AS initial_comment,
  t.created_at, t.updated_at, t.resolved_at, t.closed_at, t.rma_serial_number, t.rma_order_id, t.rma_order_number, t.rma_product_name`;
const TICKET_FROM = 'read.tickets t LEFT JOIN read.users c ON c.id = t.created_by LEFT JOIN read.users a ON a.id = t.assigned_to';
/** The table the list's conditions read (the joins add the people's names only). */
const TICKET_COUNT_FROM = 'read.tickets t';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The Ticket entity of spec 002 §3 (ticket_id is the ticket number), plus what the queue and detail views show. */
export function toTicketView(row: TicketRow, scope: TicketScope): Ticket {
  return {
    id: row.id,
    ticket_id: row.ticket_number,
    ticket_number: row.ticket_number,
    title: row.title,
    description: row.description,
    priority: row.priority,
    category: row.category,
    status: row.status,
    assigned_to: row.assigned_to,
    assignee: row.assigned_to ? { id: row.assigned_to, full_name: row.assignee_name } : null,
    created_by: row.created_by,
    creator: { id: row.created_by, full_name: row.creator_name },
    organisation_id: row.organisation_id,
    company_name: row.company_name,
    tags: row.tags,
    due_date: row.due_at.toISOString(),
    due_date_given: row.due_date_given,
    is_overdue: row.overdue_at !== null && (ACTIVE_TICKET_STATUSES as readonly string[]).includes(row.status),
    overdue_at: iso(row.overdue_at),
    resolution_notes: row.resolution_notes,
    initial_comment: row.initial_comment,
    attachments: row.attachments.map((file) => ({
      name: file.name,
      original_name: file.originalName,
      type: file.type,
      url: `/api/tickets/attachments/${file.name}`,
    })),
    comment_count: scope.seesInternal ? row.comment_count : row.public_comment_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    resolved_at: iso(row.resolved_at),
    closed_at: iso(row.closed_at),
    rma: row.rma_serial_number
      ? { serial_number: row.rma_serial_number, order_id: row.rma_order_id, order_number: row.rma_order_number, product_name: row.rma_product_name }
      : null,
  };
}
export type TicketView = Ticket;

export type TicketCommentView = TicketComment;

/** The conversation in order; internal notes only for those who see them. */
export async function ticketComments(db: Queryable, ticketId: string, scope: TicketScope): Promise<TicketCommentView[]> {
  const { rows } = await db.query<{
    id: string;
    ticket_id: string;
    comment: string;
    is_internal: boolean;
    kind: string;
    status_to: string | null;
    author_id: string | null;
    full_name: string | null;
    role: string | null;
    created_at: Date;
  }>(
    `SELECT m.*, u.full_name, u.role FROM read.ticket_comments m LEFT JOIN read.users u ON u.id = m.author_id
     WHERE m.ticket_id = $1 ${scope.seesInternal ? '' : 'AND NOT m.is_internal'} ORDER BY m.created_at, m.id`,
    [ticketId],
  );
  return rows.map((r) => ({
    id: r.id,
    ticket_id: r.ticket_id,
    comment: r.comment,
    is_internal: r.is_internal,
    kind: r.kind,
    status_to: r.status_to,
    author_id: r.author_id,
    author: { id: r.author_id, full_name: r.full_name, role: r.role },
    created_at: r.created_at.toISOString(),
  }));
}

/** One ticket by id or number within the caller's scope; undefined when it does not exist or is not theirs. */
export async function findTicket(db: Queryable, idOrNumber: string, scope: TicketScope): Promise<TicketView | undefined> {
  const byId = /^[0-9a-f-]{36}$/i.test(idOrNumber);
  const params: unknown[] = [byId ? idOrNumber : idOrNumber.toUpperCase()];
  let where = byId ? 't.id = $1' : 't.ticket_number = $1';
  if (scope.organisationId) where += ` AND t.organisation_id = $${params.push(scope.organisationId)}`;
  const { rows } = await db.query<TicketRow>(`SELECT ${TICKET_COLUMNS} FROM ${TICKET_FROM} WHERE ${where}`, params);
  return rows[0] && toTicketView(rows[0], scope);
}

/** The ticket holding an attachment, within the caller's scope. */
/** The ticket an attachment belongs to and the attachment's original name, if the caller sees that ticket. */
export async function ticketWithAttachment(db: Queryable, name: string, scope: TicketScope): Promise<{ ticketId: string; originalName: string } | undefined> {
  const params: unknown[] = [name];
  const scoped = scope.organisationId ? ` AND t.organisation_id = $${params.push(scope.organisationId)}` : '';
  const { rows } = await db.query<{ id: string; original_name: string }>(
    `SELECT t.id, a.original_name FROM read.ticket_attachments a JOIN read.tickets t ON t.id = a.ticket_id WHERE a.name = $1${scoped}`,
    params,
  );
  return rows[0] && { ticketId: rows[0].id, originalName: rows[0].original_name };
}

export interface TicketFilters {
  ids?: string[];
  status?: string;
  priority?: string;
  category?: string;
  assigned_to?: string;
  organisation_id?: string;
  overdue?: boolean;
  /** Open or In Progress. */
  active?: boolean;
  /** High or Critical priority. */
  urgent?: boolean;
  search?: string;
}

export type TicketSortField = 'id' | 'created_at' | 'updated_at' | 'due_at' | 'priority' | 'status' | 'ticket_number' | 'title' | 'company_name';

const PRIORITY_RANK = `CASE t.priority WHEN 'Critical' THEN 4 WHEN 'High' THEN 3 WHEN 'Medium' THEN 2 ELSE 1 END`;

function ticketWhere(scope: TicketScope, filters: TicketFilters, params: unknown[]): string {
  const where: string[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (scope.organisationId) where.push(`t.organisation_id = ${param(scope.organisationId)}`);
  if (filters.ids) where.push(`t.id = ANY(${param(filters.ids)}::uuid[])`);
  if (filters.status) where.push(`t.status = ${param(filters.status)}`);
  if (filters.priority) where.push(`t.priority = ${param(filters.priority)}`);
  if (filters.category) where.push(`t.category = ${param(filters.category)}`);
  if (filters.assigned_to === 'unassigned') where.push('t.assigned_to IS NULL');
  else if (filters.assigned_to) where.push(`t.assigned_to = ${param(filters.assigned_to)}::uuid`);
  if (filters.organisation_id) where.push(`t.organisation_id = ${param(filters.organisation_id)}::uuid`);
  if (filters.active !== undefined) where.push(`${filters.active ? '' : 'NOT '}(t.status = ANY(${param([...ACTIVE_TICKET_STATUSES])}::text[]))`);
  if (filters.urgent !== undefined) where.push(`${filters.urgent ? '' : 'NOT '}(t.priority IN ('High', 'Critical'))`);
  if (filters.overdue !== undefined)
    where.push(`${filters.overdue ? '' : 'NOT '}(t.overdue_at IS NOT NULL AND t.status = ANY(${param([...ACTIVE_TICKET_STATUSES])}::text[]))`);
  if (filters.search) {
    const pattern = param(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(t.ticket_number ILIKE ${pattern} OR t.title ILIKE ${pattern} OR t.company_name ILIKE ${pattern})`);
  }
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

/** Newest first unless asked otherwise (the support queue sorts by due time). */
export async function listTickets(
  db: Queryable,
  scope: TicketScope,
  filters: TicketFilters,
  page: { offset: number; limit: number; sort?: { field: TicketSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: TicketView[]; total: number }> {
  const params: unknown[] = [];
  const clause = ticketWhere(scope, filters, params);
  const whereParams = params.length;
  const sortColumn = (field: TicketSortField) => (field === 'priority' ? PRIORITY_RANK : `t.${field}`);
  // By due time, the tickets still being worked come first: the support queue.
  const activeFirst = page.sort?.field === 'due_at' ? `(t.status = ANY($${params.push([...ACTIVE_TICKET_STATUSES])}::text[])) DESC, ` : '';
  const order = page.sort ? `${activeFirst}${sortColumn(page.sort.field)} ${page.sort.order}, t.created_at DESC` : 't.created_at DESC';
  const { rows, total } = await pageOf<TicketRow>(db, {
    columns: TICKET_COLUMNS,
    from: TICKET_FROM,
    countFrom: TICKET_COUNT_FROM,
    where: clause,
    order: `${order}, t.id`,
    params,
    whereParams,
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map((row) => toTicketView(row, scope)), total };
}

/** The My Cases cards (spec 002 §3: total, open, in_progress, resolved, closed) plus overdue, of the tickets the caller sees. */
export async function ticketStatistics(db: Queryable, scope: TicketScope): Promise<TicketStatistics> {
  const params: unknown[] = [[...ACTIVE_TICKET_STATUSES]];
  const where = scope.organisationId ? `WHERE organisation_id = $${params.push(scope.organisationId)}` : '';
  const { rows } = await db.query<Record<string, string>>(
    `SELECT count(*) AS total,
            count(*) FILTER (WHERE status = 'Open') AS open,
            count(*) FILTER (WHERE status = 'In Progress') AS in_progress,
            count(*) FILTER (WHERE status = 'Resolved') AS resolved,
            count(*) FILTER (WHERE status = 'Closed') AS closed,
            count(*) FILTER (WHERE overdue_at IS NOT NULL AND status = ANY($1::text[])) AS overdue
     FROM read.tickets ${where}`,
    params,
  );
  const r = rows[0];
  return {
    total: Number(r.total),
    open: Number(r.open),
    in_progress: Number(r.in_progress),
    resolved: Number(r.resolved),
    closed: Number(r.closed),
    overdue: Number(r.overdue),
  };
}
export type { TicketStatistics };

/**
 * The support dashboard's ticket figures (spec 001 §5): totalTickets.count and active,
 * statusBreakdown.open and in_progress, urgentTickets.highPriority (active High or Critical) and
 * overdue (marked by the overdue job), todayStats.resolved, created and netChange (created minus
 * resolved, UTC day), weeklyStats.created (since Monday, UTC).
 */
export async function supportDashboardFigures(db: Queryable, now: Date = new Date()): Promise<SupportDashboardFigures> {
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const weekStart = new Date(dayStart.getTime() - ((dayStart.getUTCDay() + 6) % 7) * 86_400_000);
  const { rows } = await db.query<Record<string, string>>(
    `SELECT count(*) AS total,
            count(*) FILTER (WHERE status = ANY($1::text[])) AS active,
            count(*) FILTER (WHERE status = 'Open') AS open,
            count(*) FILTER (WHERE status = 'In Progress') AS in_progress,
            count(*) FILTER (WHERE status = ANY($1::text[]) AND priority IN ('High', 'Critical')) AS high_priority,
            count(*) FILTER (WHERE status = ANY($1::text[]) AND overdue_at IS NOT NULL) AS overdue,
            count(*) FILTER (WHERE status = 'Resolved' AND resolved_at >= $2) AS resolved_today,
            count(*) FILTER (WHERE created_at >= $2) AS created_today,
            count(*) FILTER (WHERE created_at >= $3) AS created_this_week
     FROM read.tickets`,
    [[...ACTIVE_TICKET_STATUSES], dayStart, weekStart],
  );
  const r = Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
  return {
    totalTickets: { count: r.total, active: r.active },
    statusBreakdown: { open: r.open, in_progress: r.in_progress },
    urgentTickets: { highPriority: r.high_priority, overdue: r.overdue },
    todayStats: { resolved: r.resolved_today, created: r.created_today, netChange: r.created_today - r.resolved_today },
    weeklyStats: { created: r.created_this_week },
  };
}
export type { SupportDashboardFigures };

/** Active tickets not yet marked overdue, with their due times: what the overdue sweep schedules. */
export async function ticketsAwaitingDueTime(db: Queryable): Promise<Array<{ id: string; due_at: Date }>> {
  const { rows } = await db.query<{ id: string; due_at: Date }>(
    'SELECT id, due_at FROM read.tickets WHERE overdue_at IS NULL AND status = ANY($1::text[]) ORDER BY due_at',
    [[...ACTIVE_TICKET_STATUSES]],
  );
  return rows;
}

/** Who may be assigned a ticket: active support staff and administrators. */
export async function ticketAssignees(db: Queryable): Promise<TicketAssignee[]> {
  const { rows } = await db.query<TicketAssignee>(
    `SELECT id, full_name, role FROM read.users WHERE is_active AND role IN ('support', 'admin', 'administrator') ORDER BY role = 'support' DESC, full_name`,
  );
  return rows;
}

/** A ticket's due time and status. */
export async function ticketDueTime(db: Queryable, ticketId: string): Promise<{ due_at: Date; status: string } | undefined> {
  const { rows } = await db.query<{ due_at: Date; status: string }>('SELECT due_at, status FROM read.tickets WHERE id = $1', [ticketId]);
  return rows[0];
}

/** The account a ticket is assigned to, or null (also when there is no such ticket). */
export async function ticketAssignee(db: Queryable, ticketId: string): Promise<string | null> {
  const { rows } = await db.query<{ assigned_to: string | null }>('SELECT assigned_to FROM read.tickets WHERE id = $1', [ticketId]);
  return rows[0]?.assigned_to ?? null;
}

/** The total GET /tickets answers under a react-admin `filter`, for the same scope (the dashboards' cards count with it). */
export async function ticketListTotal(db: Queryable, scope: TicketScope, filter: Readonly<Record<string, unknown>>): Promise<number> {
  const q = ticketListQuery.parse({ filter: JSON.stringify(filter), range: '[0,0]' });
  const params: unknown[] = [];
  const clause = ticketWhere(scope, { ids: q.ids, search: q.search, ...q.filters }, params);
  return countOf(db, { from: TICKET_COUNT_FROM, where: clause, params });
}
