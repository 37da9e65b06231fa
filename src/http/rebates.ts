import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { seesAllOrganisations } from '../../domain/access';
import { centsToAmount, parsePriceCents } from '../../domain/catalogue/catalogue';
import { asListEntries, listEntryName, MAX_REBATE_DOCUMENT_BYTES, MAX_REBATE_DOCUMENTS, REBATE_PRODUCT_CATEGORIES, REBATE_TYPES } from '../../domain/rebates/lists';
import { REBATE_MESSAGES, REBATE_STATUSES, REJECTION_REASON_MAX, rebates, type RebateDocument } from '../../domain/rebates/rebates';
import { daysRemainingIn, quarterOf, REBATE_TIERS } from '../../domain/rebates/tiers';
import { allRebates, findRebate, findRebateDocument, listRebates, rebateFigures, REBATE_SORT_FIELDS, type RebateFigures, type RebateScope, type RebateView } from '../../projections/rebates';
import { statusHistoryOf } from '../../projections/statusHistory';
import { findUser } from '../../projections/users';
import { rebateIdFor } from '../commands/rebates';
import { metadataFromRequest, runCommand } from '../commands/dispatch';
import { HttpError } from '../plugins/errors';
import { bulkMessage, bulkReviewBody, eachRecord } from './bulk';
import { answerCreated, earlierCommand, idempotentCommand } from './created';
import { DOCUMENT_TYPES, readMultipart, removeUpload, sendUpload, storeUpload, uploadNameParam, type FileRule } from '../plugins/uploads';
import { csvLines } from './csv';
import { auditActorOf, exportFilters, recordAuditEntry, recordedWhenDone } from '../plugins/auditTrail';
import type { Services } from '../services';
import { booleanFilter, listQuerySchema, sendList } from './lists';
import { statusErrorHandler } from './orders';
import { uuidParam } from './validation';
import { recordAnswer } from './records';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';

const DOCUMENT_RULE: FileRule = { label: 'Supporting documents', types: DOCUMENT_TYPES, maxBytes: MAX_REBATE_DOCUMENT_BYTES, maxCount: MAX_REBATE_DOCUMENTS };

const amountText = (message: string) =>
  z
    .string()
    .max(40)
    .transform((text, ctx) => {
      if (!text.trim()) return null;
      const cents = parsePriceCents(text);
      if (cents === undefined) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return cents;
    });

/** The Submit Rebate form as multipart text. Presence and meaning are the decider's (spec 002 §5 messages); here only shapes and sizes. */
const submitFields = z
  .object({
    product_name: z.string().max(200).optional().default(''),
    product_category: z.string().max(100).optional().default(''),
    purchase_date: z.string().max(40).optional().default(''),
    invoice_number: z.string().max(60).optional().default(''),
    purchase_amount: amountText('Purchase amount must be a number with at most 2 decimals, for example 1250.00.').optional().default(null),
    rebate_type: z.string().max(100).optional().default(''),
    description: z.string().max(2000).optional().default(''),
  })
  .strict();

/** PATCH /rebates/admin/:id/status (spec 002 §7): status, notes, rebate_amount. */
const statusBody = z
  .object({
    status: z.enum(REBATE_STATUSES, { error: `Status must be one of: ${REBATE_STATUSES.join(', ')}.` }),
    notes: z.string().max(5000).nullable().optional(),
    rebate_amount: z
      .union([z.number({ error: 'The rebate amount must be a number.' }), z.string().max(40)])
      .nullable()
      .optional()
      .transform((value, ctx) => {
        if (value === null || value === undefined || value === '') return null;
        const cents = typeof value === 'number' ? (Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6 ? Math.round(value * 100) : undefined) : parsePriceCents(value.replace(/^-/, ''));
        if (cents === undefined) {
          ctx.addIssue({ code: 'custom', message: 'The rebate amount must be a number with at most 2 decimals.' });
          return z.NEVER;
        }
        return typeof value === 'string' && value.trim().startsWith('-') ? -cents : cents;
      }),
  })
  .strict()
  .meta({ example: { status: 'approved', notes: 'Approved after review', rebate_amount: 250 } });

/** POST /rebates/bulk-review: approval gives each claim its suggested rebate (purchase × the organisation's rate), as the Approve dialog starts with. */
const bulkBody = bulkReviewBody('rebate', REJECTION_REASON_MAX, { decision: 'rejected', reason: 'The invoices are older than the claim window.' });

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayFilter = z.string().regex(DAY, 'Dates are written YYYY-MM-DD.').optional();
const filterFields = {
  status: z.enum(REBATE_STATUSES).optional(),
  product_category: z.string().max(100).optional(),
  rebate_type: z.string().max(100).optional(),
  date_from: dayFilter,
  date_to: dayFilter,
  open: booleanFilter.optional(),
};
const userListQuery = listQuerySchema(filterFields, REBATE_SORT_FIELDS);
const adminListQuery = listQuerySchema({ ...filterFields, organisation_id: z.uuid({ error: 'Organisation id is not valid.' }).optional() }, REBATE_SORT_FIELDS);
/** The total GET /rebates/admin/all answers under a react-admin `filter` (the dashboards' cards count with it). */
export async function rebateListTotal(db: Services['pool'], scope: RebateScope, filter: Readonly<Record<string, unknown>>): Promise<number> {
  const q = adminListQuery.parse({ filter: JSON.stringify(filter), range: '[0,0]' });
  return (await listRebates(db, scope, { ...q.filters, ids: q.ids, search: q.search }, { offset: 0, limit: 1 })).total;
}

const attachmentParams = z.object({ id: z.uuid({ error: 'The id in the address is not valid.' }), name: uploadNameParam.shape.name }).strict();

/** A field error in the shared envelope's shape. */
function validationError(issues: z.core.$ZodIssue[]): HttpError {
  const details = issues.map((issue) => ({ field: issue.code === 'unrecognized_keys' ? issue.keys.join(',') : String(issue.path[0] ?? 'request'), message: issue.message }));
  return new HttpError(400, 'VALIDATION_ERROR', details[0]?.message ?? 'The request is not valid.', details);
}

// ---- figures ----

const amount = centsToAmount;
const MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' });

/** The Overview tab (spec 002 §3, Rebate dashboard overview), computed for the quarter holding `now`. */
export function toOverview(figures: RebateFigures, now: Date) {
  const p = figures.progress;
  const quarter = quarterOf(now);
  return {
    scope: p ? 'organisation' : 'all',
    quarterly_progress: { percentage: p?.percentage ?? null, current: amount(figures.quarter.purchasesCents), target: p ? amount(p.targetCents) : null },
    quarterly_target: { target: p ? amount(p.targetCents) : null, current: amount(figures.quarter.purchasesCents) },
    current_tier: { tier: p?.currentTier.name ?? null, next: p?.nextTier?.name ?? null },
    pending_rebates: { count: figures.awaiting.count, total: amount(figures.awaiting.purchaseCents) },
    summary_counts: figures.counts,
    financial_summary: {
      total_purchase: amount(figures.allTime.purchasesCents),
      total_rebate: amount(figures.allTime.rebatesCents),
      quarterly_purchase: amount(figures.quarter.purchasesCents),
      quarterly_rebate: amount(figures.quarter.rebatesCents),
    },
    quarter: { label: quarter.label, progress_label: `${quarter.label} Progress`, start: quarter.start, end: quarter.end, days_remaining: daysRemainingIn(quarter, now) },
    rate: p?.ratePercent ?? null,
    remaining_to_next_tier: p ? amount(p.remainingToNextTierCents) : null,
    monthly: figures.months.map((m) => ({ month: m.month, label: MONTH.format(new Date(`${m.month}-01T00:00:00.000Z`)), purchases: amount(m.purchasesCents), rebates: amount(m.rebatesCents) })),
    tiers: REBATE_TIERS.map((t) => ({ name: t.name, threshold: amount(t.quarterlyPurchasesCents), rate: t.ratePercent })),
  };
}

/** GET /rebates/stats/user (spec 002 §3, Rebate stats), and the dashboards' rebateProgress. */
export function toStats(figures: RebateFigures, now: Date) {
  const p = figures.progress;
  const quarter = quarterOf(now);
  return {
    totalRebateAmount: amount(figures.allTime.rebatesCents),
    quarterlyTarget: p ? amount(p.targetCents) : null,
    currentTier: p?.currentTier.name ?? null,
    nextTier: p?.nextTier?.name ?? null,
    nextTierTarget: p?.nextTier ? amount(p.nextTier.quarterlyPurchasesCents) : null,
    quarterlyPurchases: amount(figures.quarter.purchasesCents),
    quarterlyRebates: amount(figures.quarter.rebatesCents),
    progressPercentage: p?.percentage ?? null,
    remainingToNextTier: p ? amount(p.remainingToNextTierCents) : null,
    rebateRate: p?.ratePercent ?? null,
    quarterLabel: quarter.label,
    daysRemaining: daysRemainingIn(quarter, now),
    pendingCount: figures.awaiting.count,
  };
}

// ---- CSV ----

const CSV_COLUMNS: Array<[header: string, value: (r: RebateView) => string | number | null]> = [
  ['id', (r) => r.id],
  ['submitted_date', (r) => r.submitted_date],
  ['company_name', (r) => r.company_name],
  ['invoice_number', (r) => r.invoice_number],
  ['product_name', (r) => r.product_name],
  ['product_category', (r) => r.product_category],
  ['purchase_date', (r) => r.purchase_date],
  ['purchase_amount', (r) => r.purchase_amount.toFixed(2)],
  ['rebate_type', (r) => r.rebate_type],
  ['status', (r) => r.status],
  ['rebate_amount', (r) => (r.rebate_amount === null ? '' : r.rebate_amount.toFixed(2))],
  ['notes', (r) => r.notes],
  ['matched_order', (r) => r.matched_order?.order_number ?? ''],
  ['documents', (r) => r.document_count],
  ['description', (r) => r.description],
];

// ---- routes ----

export async function rebateRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, config } = services;
  const scopeOf = (request: FastifyRequest): RebateScope => ({
    organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId,
  });
  /** A claim the caller may not see is answered exactly like one that does not exist. */
  const load = async (request: FastifyRequest, id: string) => {
    const rebate = await findRebate(pool, id, scopeOf(request));
    if (!rebate) throw new HttpError(404, 'NOT_FOUND', REBATE_MESSAGES.notFound);
    return rebate;
  };

  app.post(
    '/rebates/submit',
    {
      schema: {
        tags: ['rebates'],
        summary: 'Submit a rebate claim (multipart: product_name, product_category, purchase_date, invoice_number, purchase_amount, rebate_type, description, up to 5 attachments)',
        consumes: ['multipart/form-data'],
      },
    },
    async (request, reply) => {
      const form = await readMultipart(request, { attachments: DOCUMENT_RULE });
      const single: Record<string, string> = {};
      for (const [name, value] of Object.entries(form.fields)) {
        if (Array.isArray(value)) throw new HttpError(400, 'VALIDATION_ERROR', `Send ${name} once.`, [{ field: name, message: `Send ${name} once.` }]);
        single[name] = value;
      }
      const parsed = submitFields.safeParse(single);
      if (!parsed.success) throw validationError(parsed.error.issues);
      const fields = parsed.data;
      const { principal } = request;
      const organisation = principal.organisationId === principal.id ? undefined : await findUser(pool, principal.organisationId);
      const rebateId = rebateIdFor(principal.organisationId, fields.invoice_number);
      const created = { id: rebateId, location: `/api/rebates/${rebateId}` };
      const read = async () => ({ success: true, message: REBATE_MESSAGES.submitted, data: await load(request, rebateId) });
      // The id comes from the invoice (a second claim of it is refused): a repeated Idempotency-Key is told by the events' ids.
      const earlier = await earlierCommand(services, request, 'rebate', rebates.streamId(rebateId));
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);

      // Files are stored only once the form is valid, and removed again when the claim is refused.
      const files = form.files.attachments ?? [];
      const documents: RebateDocument[] = [];
      try {
        for (const file of files) {
          documents.push({ file: await storeUpload(config.UPLOAD_DIR, file, 'private'), name: file.originalName.slice(0, 200) || `document.${file.type}`, type: file.type, size: file.bytes.length });
        }
        await runCommand(
          services,
          rebates,
          rebateId,
          {
            type: 'SubmitRebate',
            rebateId,
            organisationId: principal.organisationId,
            companyName: organisation ? organisation.company_name : principal.companyName,
            submittedBy: principal.id,
            productName: fields.product_name,
            productCategory: listEntryName(REBATE_PRODUCT_CATEGORIES, fields.product_category),
            purchaseDate: fields.purchase_date,
            invoiceNumber: fields.invoice_number,
            purchaseAmountCents: fields.purchase_amount ?? Number.NaN,
            rebateType: listEntryName(REBATE_TYPES, fields.rebate_type),
            description: fields.description,
            documents,
          },
          metadataFromRequest(request),
          idempotentCommand(request, 'rebate'),
        );
      } catch (error) {
        await Promise.all(documents.map((d) => removeUpload(config.UPLOAD_DIR, d.file, 'private')));
        throw error;
      }
      return answerCreated(services, reply, created, read);
    },
  );

  for (const url of ['/rebates', '/rebates/user']) {
    app.get(url, { schema: { tags: ['rebates'], summary: "The caller's organisation's rebates (all for admins)", querystring: userListQuery } }, async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listRebates(pool, scopeOf(request), { ...q.filters, ids: q.ids, search: q.search }, { offset: q.offset, limit: q.limit, sort: q.sort });
      return sendList(reply, 'rebates', q, rows, total);
    });
  }

  app.get('/rebates/admin/all', { schema: { tags: ['rebates'], summary: 'Every rebate, for review (admins): filter by status, organisation, category, type, submission date', querystring: adminListQuery } }, async (request, reply) => {
    const q = request.query;
    const { rows, total } = await listRebates(pool, { organisationId: undefined }, { ...q.filters, ids: q.ids, search: q.search }, { offset: q.offset, limit: q.limit, sort: q.sort });
    return sendList(reply, 'rebates', q, rows, total);
  });

  app.get(
    '/rebates/export',
    { schema: { tags: ['rebates'], summary: 'CSV of the rebates the caller sees, with the same filters as the lists', querystring: adminListQuery } },
    async (request, reply) => {
      const q = request.query;
      const scope = scopeOf(request);
      // organisation_id narrows what the caller sees; it never widens it.
      const filters = { ...q.filters, ids: q.ids, search: q.search };
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="rebates-${new Date().toISOString().slice(0, 10)}.csv"`);
      reply.header('cache-control', 'private, no-store');
      const recorded = () => recordAuditEntry(services.store, { type: 'ExportDownloaded.v1', data: { userId: request.principal.id, export: 'rebates', filters: exportFilters(request) } }, auditActorOf(request));
      return reply.send(Readable.from(recordedWhenDone(csvLines(CSV_COLUMNS, allRebates(pool, scope, filters, q.sort)), recorded)));
    },
  );

  app.get('/rebates/stats/user', { schema: { tags: ['rebates'], summary: "Rebate statistics of the caller's organisation for the current quarter" } }, async (request) => {
    const now = new Date();
    return { success: true, data: toStats(await rebateFigures(pool, scopeOf(request), now), now) };
  });

  app.get('/rebates/dashboard/overview', { schema: { tags: ['rebates'], summary: "The Overview tab: the caller's organisation's quarter, tier and totals" } }, async (request) => {
    const now = new Date();
    return { success: true, data: toOverview(await rebateFigures(pool, scopeOf(request), now), now) };
  });

  app.get('/rebates/categories/list', { schema: { tags: ['rebates'], summary: 'Product categories a claim can name' } }, async () => ({ success: true, data: asListEntries(REBATE_PRODUCT_CATEGORIES) }));
  app.get('/rebates/types/list', { schema: { tags: ['rebates'], summary: 'Rebate types a claim can name' } }, async () => ({ success: true, data: asListEntries(REBATE_TYPES) }));

  app.get('/rebates/:id', { schema: { tags: ['rebates'], summary: 'One rebate (with asOf: as it was at that moment)', params: uuidParam, querystring: asOfQuery } }, async (request) => {
    const rebate = await load(request, request.params.id);
    if (request.query.asOf) return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.rebates, rebate.id, request.query.asOf, request.principal, REBATE_MESSAGES.notFound));
    return { success: true, data: rebate };
  });

  versionsRoute(app, services, { path: '/rebates', type: VERSIONED_RECORDS.rebates, params: uuidParam, notFound: REBATE_MESSAGES.notFound, visible: async (request, id) => (await load(request, id)).id });

  app.get('/rebates/:id/history', { schema: { tags: ['rebates'], summary: "A rebate's status history", params: uuidParam } }, async (request) => {
    const rebate = await load(request, request.params.id);
    return { success: true, data: await statusHistoryOf(pool, 'rebates', rebate.id) };
  });

  app.get(
    '/rebates/:id/attachments/:name',
    { schema: { tags: ['rebates'], summary: "A supporting document, to those who may see the rebate", params: attachmentParams } },
    async (request, reply) => {
      const document = await findRebateDocument(pool, request.params.id, request.params.name, scopeOf(request));
      if (!document) throw new HttpError(404, 'NOT_FOUND', 'There is no such file.');
      return sendUpload(reply, config.UPLOAD_DIR, document.file, 'private', document.name);
    },
  );

  app.patch(
    '/rebates/admin/:id/status',
    {
      errorHandler: statusErrorHandler,
      schema: { tags: ['rebates'], summary: 'Review a rebate (admins): processing, approved with rebate_amount, or rejected with the reason in notes', params: uuidParam, body: statusBody },
    },
    async (request) => {
      const rebate = await load(request, request.params.id);
      const { status, notes, rebate_amount } = request.body;
      await runCommand(services, rebates, rebate.id, { type: 'ReviewRebate', status, notes: notes ?? null, rebateAmountCents: rebate_amount }, metadataFromRequest(request));
      const updated = await load(request, rebate.id);
      return { success: true, message: REBATE_MESSAGES.statusUpdated(updated.status), details: `Status changed from ${rebate.status} to ${updated.status}`, data: updated };
    },
  );

  app.post(
    '/rebates/bulk-review',
    {
      schema: {
        tags: ['rebates'],
        summary: "Approve (each at its suggested amount) or reject several claims with one reason (admins); the answer lists which were done and which were refused and why",
        body: bulkBody,
      },
    },
    async (request) => {
      const { ids, decision, reason } = request.body;
      const metadata = metadataFromRequest(request);
      const outcome = await eachRecord(ids, request.log, async (id) => {
        const rebate = await load(request, id);
        const rebateAmountCents = decision === 'approved' ? Math.round(rebate.suggested_rebate_amount * 100) : null;
        await runCommand(services, rebates, rebate.id, { type: 'ReviewRebate', status: decision, notes: reason ?? null, rebateAmountCents }, metadata);
      });
      return { success: true, message: bulkMessage(outcome, ['rebate', 'rebates'], decision), data: outcome };
    },
  );

  app.delete('/rebates/:id', { schema: { tags: ['rebates'], summary: "Delete a rebate: the organisation's own while pending or rejected; admins any not approved", params: uuidParam } }, async (request) => {
    const rebate = await load(request, request.params.id);
    await runCommand(services, rebates, rebate.id, { type: 'DeleteRebate', actorOrganisationId: request.principal.organisationId, reason: null }, metadataFromRequest(request));
    return { success: true, message: REBATE_MESSAGES.deleted, data: { id: rebate.id } };
  });
}
