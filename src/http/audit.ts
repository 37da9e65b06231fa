import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditCsv, auditListAnswer } from '../../contracts/audit';
import { auditCount, auditLines, auditPage, decodeAuditCursor, encodeAuditCursor, type AuditFilters, type AuditLine } from '../../projections/audit';
import { auditActorOf, exportFilters, recordAuditEntry, recordedWhenDone } from '../plugins/auditTrail';
import { HttpError } from '../plugins/errors';
import type { Services } from '../../platform/services';
import { csvLines, sendCsv } from './csv';
import { listQuerySchema, MAX_PAGE_OFFSET } from '../../contracts/lists';
import { exposeHeaders, sendList } from './lists';
import { readBatch } from '../../platform/readBatch';

/** Page numbers reach this far into a filtered log; past it, the screen asks for narrower filters and API clients follow `next_cursor`. */
export const AUDIT_MAX_OFFSET = MAX_PAGE_OFFSET;

/**
 * A page's total counts at most this many lines past the page's end. Counting every match is not free
 * (a filter can match millions of lines); past the window the answer says the count stopped
 * (`total_capped`, header `X-Total-Capped`), and the window moves on with the pages.
 */
export const AUDIT_COUNT_AHEAD = 1_000;

/** How far a page's total counts: a window past the page, never past the last line pages reach. */
export const auditCountWindow = (offset: number, limit: number) => Math.min(offset + limit + AUDIT_COUNT_AHEAD, AUDIT_MAX_OFFSET + limit);

export const AUDIT_MESSAGES = {
  tooDeep: `Pages stop after the first ${AUDIT_MAX_OFFSET.toLocaleString('en-US')} lines: narrow the filters (actor, record, event type, organisation or time range), or follow next_cursor.`,
  badCursor: 'This cursor is not valid: use the next_cursor of the previous page.',
} as const;

const day = z.iso.date();
const moment = z.union([day, z.iso.datetime({ offset: true })], { error: 'Use a date (YYYY-MM-DD) or an ISO date-time.' });

const auditFilterFields = {
  actor_id: z.uuid().optional(),
  record_type: z
    .string()
    .trim()
    .max(50)
    .regex(/^[A-Za-z_]+$/, 'A record type is a plural word such as orders, users or fundClaims.')
    .optional(),
  record_id: z.string().trim().max(200).optional(),
  event_type: z
    .string()
    .trim()
    .max(100)
    .regex(/^[A-Za-z]+\.v\d+$/, 'An event type looks like OrderStatusChanged.v1.')
    .optional(),
  organisation_id: z.uuid().optional(),
  /** From this moment (a date: from its start), inclusive. */
  from: moment.optional(),
  /** Up to this moment (a date: to its end), inclusive. */
  to: moment.optional(),
  /** The next_cursor of the previous page. */
  cursor: z.string().max(300).optional(),
};
const listQuery = listQuerySchema(auditFilterFields, ['occurred_at']);
type Filters = Partial<{ [K in keyof typeof auditFilterFields]: z.infer<(typeof auditFilterFields)[K]> }>;

const endOfDay = (value: string) =>
  day.safeParse(value).success ? new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000).toISOString() : new Date(Date.parse(value) + 1).toISOString();

function toAuditFilters(filters: Filters): AuditFilters {
  if (filters.from && filters.to && Date.parse(filters.from) > Date.parse(filters.to))
    throw new HttpError(400, 'VALIDATION_ERROR', 'The start of the time range must not be after its end.');
  return {
    actor_id: filters.actor_id,
    record_type: filters.record_type,
    record_id: filters.record_id,
    event_type: filters.event_type,
    organisation_id: filters.organisation_id,
    occurred_after: filters.from ? new Date(Date.parse(filters.from)).toISOString() : undefined,
    occurred_before: filters.to ? endOfDay(filters.to) : undefined,
  };
}

const CSV_COLUMNS: ReadonlyArray<readonly [string, (line: AuditLine) => string | null]> = [
  ['time', (l) => l.occurred_at],
  ['actor_id', (l) => l.actor_id],
  ['actor_name', (l) => l.actor_name],
  ['actor_role', (l) => l.actor_role],
  ['record_type', (l) => l.record_type],
  ['record_id', (l) => l.record_id],
  ['organisation_id', (l) => l.organisation_id],
  ['event_type', (l) => l.event_type],
  ['summary', (l) => l.summary],
  ['event_id', (l) => l.id],
  // Added later, at the end, so consumers reading columns by position keep working.
  ['api_key_id', (l) => l.api_key_id],
  ['api_key_name', (l) => l.api_key_name],
];

export async function auditRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { reads } = services;

  app.get(
    '/audit',
    {
      schema: {
        tags: ['audit'],
        summary: 'The audit log (admins): every event, newest first; filter by actor, record, event type, organisation and time range',
        querystring: listQuery,
        response: { 200: auditListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { cursor: token, ...rest } = q.filters as Filters;
      const filters = { ...toAuditFilters(rest), ids: q.ids };
      const cursor = token ? decodeAuditCursor(token) : undefined;
      if (token && !cursor) throw new HttpError(400, 'VALIDATION_ERROR', AUDIT_MESSAGES.badCursor);
      if (!cursor && q.offset >= AUDIT_MAX_OFFSET) throw new HttpError(400, 'VALIDATION_ERROR', AUDIT_MESSAGES.tooDeep);
      const ascending = q.sort?.order === 'ASC';
      const window = auditCountWindow(q.offset, q.limit);
      // The page and its count leave together (readBatch): one round trip.
      const db = readBatch(reads);
      const [rows, counted] = await Promise.all([
        auditPage(db, filters, { limit: q.limit, offset: q.offset, cursor, ascending }),
        // One line past the window tells whether the count stopped short.
        auditCount(db, filters, window + 1),
      ]);
      const capped = counted > window;
      const total = Math.min(counted, window);
      const last = rows[rows.length - 1];
      const next = rows.length === q.limit && last ? encodeAuditCursor({ occurredAt: last.occurred_at, eventId: last.id }) : null;
      if (next) reply.header('x-next-cursor', next);
      if (capped) reply.header('x-total-capped', 'true');
      exposeHeaders(reply, 'X-Next-Cursor', 'X-Total-Capped');
      const answer = sendList(reply, 'audit', q, rows, total);
      return (Array.isArray(answer) ? answer : { ...answer, data: { ...answer.data, next_cursor: next, total_capped: capped } }) as z.infer<
        typeof auditListAnswer
      >;
    },
  );

  app.get(
    '/audit/export.csv',
    {
      schema: {
        tags: ['audit'],
        summary: 'CSV of the audit log lines the filters select (admins), newest first',
        querystring: listQuery,
        response: { 200: auditCsv },
      },
    },
    async (request, reply) => {
      const { cursor: _ignored, ...rest } = request.query.filters as Filters;
      const filters = { ...toAuditFilters(rest), ids: request.query.ids };
      // The export is itself an entry of the log it exports, once it has been sent whole.
      const recorded = () =>
        recordAuditEntry(
          services.store,
          { type: 'ExportDownloaded.v1', data: { userId: request.principal.id, export: 'audit log', filters: exportFilters(request) } },
          auditActorOf(request),
        );
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`);
      reply.header('cache-control', 'private, no-store');
      // A stream is sent as it is (Fastify never serializes one); the response schema documents the file it carries.
      return sendCsv(reply, recordedWhenDone(csvLines(CSV_COLUMNS, auditLines(reads, filters)), recorded));
    },
  );
}
