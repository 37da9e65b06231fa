import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { seesAllOrganisations } from '../../domain/access';
import { asListEntries, MAX_REBATE_DOCUMENT_BYTES, MAX_REBATE_DOCUMENTS, REBATE_PRODUCT_CATEGORIES, REBATE_TYPES } from '../../domain/rebates/lists';
import { REBATE_MESSAGES, REJECTION_REASON_MAX, rebates } from '../../domain/rebates/rebates';
import { statusHistoryAnswer } from '../../contracts/orders';
import {
  listEntriesAnswer,
  rebateAttachmentAnswer,
  rebateBulkReviewAnswer,
  rebateDeletedAnswer,
  rebateExportAnswer,
  rebateFormFields,
  rebateListAnswer,
  rebateOverviewAnswer,
  rebateReadAnswer,
  rebateStatsAnswer,
  rebateStatusAnswer,
  rebateStatusBody,
  rebateSubmittedAnswers,
  type RebateView,
  rebateAdminListQuery,
  rebateListQuery,
} from '../../contracts/rebates';
import {
  allRebates,
  findRebate,
  findRebateDocument,
  listRebates,
  overviewProgramme,
  rebateFigures,
  toOverview,
  toStats,
  type RebateScope,
} from '../../projections/rebates';
import { statusHistoryOf } from '../../projections/statusHistory';
import { findUser } from '../../projections/users';
import { deleteRebate, rebateIdFor, reviewRebate, submitRebate } from '../../commands/rebates';
import { metadataFromRequest } from '../../platform/commands/dispatch';
import { HttpError } from '../plugins/errors';
import { bulkMessage, bulkReviewBody, eachRecord } from './bulk';
import { answerCreated, earlierCommand, idempotentCommand } from './created';
import { DOCUMENT_TYPES, readMultipart, sendUpload, uploadNameParam, type FileRule } from '../plugins/uploads';
import { csvLines, sendCsv } from './csv';
import { auditActorOf, exportFilters, recordAuditEntry, recordedWhenDone } from '../plugins/auditTrail';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { sendList } from './lists';
import { uuidParam, validationError } from './validation';
import { recordAnswer, statusErrorHandler } from './records';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { readBatch } from '../../platform/readBatch';

const DOCUMENT_RULE: FileRule = { label: 'Supporting documents', types: DOCUMENT_TYPES, maxBytes: MAX_REBATE_DOCUMENT_BYTES, maxCount: MAX_REBATE_DOCUMENTS };

/** POST /rebates/bulk-review: approval gives each claim its suggested rebate (purchase × the organisation's rate), as the Approve dialog starts with. */
const bulkBody = bulkReviewBody('rebate', REJECTION_REASON_MAX, { decision: 'rejected', reason: 'The invoices are older than the claim window.' });

const attachmentParams = z.object({ id: z.uuid({ error: 'The id in the address is not valid.' }), name: uploadNameParam.shape.name }).strict();

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
  const { pool, reads, config } = services;
  const scopeOf = (request: FastifyRequest): RebateScope => ({
    organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId,
  });
  /** A claim the caller may not see is answered exactly like one that does not exist. */
  const load = async (request: FastifyRequest, id: string, db: Queryable = pool) => {
    const rebate = await findRebate(db, id, scopeOf(request));
    if (!rebate) throw new HttpError(404, 'NOT_FOUND', REBATE_MESSAGES.notFound);
    return rebate;
  };

  app.post(
    '/rebates/submit',
    {
      schema: {
        tags: ['rebates'],
        summary:
          'Submit a rebate claim (multipart: product_name, product_category, purchase_date, invoice_number, purchase_amount, rebate_type, description, up to 5 attachments)',
        consumes: ['multipart/form-data'],
        response: rebateSubmittedAnswers,
      },
    },
    async (request, reply) => {
      const form = await readMultipart(request, { attachments: DOCUMENT_RULE });
      const single: Record<string, string> = {};
      for (const [name, value] of Object.entries(form.fields)) {
        if (Array.isArray(value)) throw new HttpError(400, 'VALIDATION_ERROR', `Send ${name} once.`, [{ field: name, message: `Send ${name} once.` }]);
        single[name] = value;
      }
      const parsed = rebateFormFields.safeParse(single);
      if (!parsed.success) throw validationError(parsed.error.issues);
      const fields = parsed.data;
      const { principal } = request;
      const organisation = principal.organisationId === principal.id ? undefined : await findUser(pool, principal.organisationId);
      const rebateId = rebateIdFor(principal.organisationId, fields.invoice_number);
      const created = { id: rebateId, location: `/api/rebates/${rebateId}` };
      const read = async () => ({ success: true as const, message: REBATE_MESSAGES.submitted, data: await load(request, rebateId) });
      // The id comes from the invoice (a second claim of it is refused): a repeated Idempotency-Key is told by the events' ids.
      const earlier = await earlierCommand(services, request, 'rebate', rebates.streamId(rebateId));
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);

      await submitRebate(
        services,
        {
          rebateId,
          organisationId: principal.organisationId,
          companyName: organisation ? organisation.company_name : principal.companyName,
          submittedBy: principal.id,
          fields,
          files: form.files.attachments ?? [],
        },
        metadataFromRequest(request),
        idempotentCommand(request, 'rebate'),
      );
      return answerCreated(services, reply, created, read);
    },
  );

  for (const url of ['/rebates', '/rebates/user']) {
    app.get(
      url,
      {
        schema: {
          tags: ['rebates'],
          summary: "The caller's organisation's rebates (all for admins)",
          querystring: rebateListQuery,
          response: { 200: rebateListAnswer },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const { rows, total } = await listRebates(
          reads,
          scopeOf(request),
          { ...q.filters, ids: q.ids, search: q.search },
          { offset: q.offset, limit: q.limit, sort: q.sort },
        );
        return sendList(reply, 'rebates', q, rows, total);
      },
    );
  }

  app.get(
    '/rebates/admin/all',
    {
      schema: {
        tags: ['rebates'],
        summary: 'Every rebate, for review (admins): filter by status, organisation, category, type, submission date',
        querystring: rebateAdminListQuery,
        response: { 200: rebateListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listRebates(
        reads,
        { organisationId: undefined },
        { ...q.filters, ids: q.ids, search: q.search },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      return sendList(reply, 'rebates', q, rows, total);
    },
  );

  app.get(
    '/rebates/export',
    {
      schema: {
        tags: ['rebates'],
        summary: 'CSV of the rebates the caller sees, with the same filters as the lists',
        querystring: rebateAdminListQuery,
        response: { 200: rebateExportAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const scope = scopeOf(request);
      // organisation_id narrows what the caller sees; it never widens it.
      const filters = { ...q.filters, ids: q.ids, search: q.search };
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="rebates-${new Date().toISOString().slice(0, 10)}.csv"`);
      reply.header('cache-control', 'private, no-store');
      const recorded = () =>
        recordAuditEntry(
          services.store,
          { type: 'ExportDownloaded.v1', data: { userId: request.principal.id, export: 'rebates', filters: exportFilters(request) } },
          auditActorOf(request),
        );
      // A stream is sent as it is (no serializer); the schema's string describes the file.
      return sendCsv(reply, recordedWhenDone(csvLines(CSV_COLUMNS, allRebates(reads, scope, filters, q.sort)), recorded));
    },
  );

  app.get(
    '/rebates/stats/user',
    { schema: { tags: ['rebates'], summary: "Rebate statistics of the caller's organisation for the current quarter", response: { 200: rebateStatsAnswer } } },
    async (request) => {
      const now = new Date();
      return { success: true as const, data: toStats(await rebateFigures(reads, scopeOf(request), now), now) };
    },
  );

  app.get(
    '/rebates/dashboard/overview',
    {
      schema: { tags: ['rebates'], summary: "The Overview tab: the caller's organisation's quarter, tier and totals", response: { 200: rebateOverviewAnswer } },
    },
    async (request) => {
      const now = new Date();
      const scope = scopeOf(request);
      // The figures and the programme's tier leave together (readBatch): one round trip.
      const db = readBatch(reads);
      const [figures, programme] = await Promise.all([rebateFigures(db, scope, now), overviewProgramme(db, scope.organisationId ?? null, now)]);
      return { success: true as const, data: toOverview(figures, now, programme) };
    },
  );

  app.get(
    '/rebates/categories/list',
    { schema: { tags: ['rebates'], summary: 'Product categories a claim can name', response: { 200: listEntriesAnswer } } },
    async () => ({ success: true as const, data: asListEntries(REBATE_PRODUCT_CATEGORIES) }),
  );
  app.get(
    '/rebates/types/list',
    { schema: { tags: ['rebates'], summary: 'Rebate types a claim can name', response: { 200: listEntriesAnswer } } },
    async () => ({ success: true as const, data: asListEntries(REBATE_TYPES) }),
  );

  app.get(
    '/rebates/:id',
    {
      schema: {
        tags: ['rebates'],
        summary: 'One rebate (with asOf: as it was at that moment)',
        params: uuidParam,
        querystring: asOfQuery,
        response: { 200: rebateReadAnswer },
      },
    },
    async (request) => {
      const rebate = await load(request, request.params.id, reads);
      if (request.query.asOf)
        return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.rebates, rebate.id, request.query.asOf, request.principal, REBATE_MESSAGES.notFound));
      return { success: true as const, data: rebate };
    },
  );

  versionsRoute(app, services, {
    path: '/rebates',
    type: VERSIONED_RECORDS.rebates,
    params: uuidParam,
    notFound: REBATE_MESSAGES.notFound,
    visible: async (request, id) => (await load(request, id, reads)).id,
  });

  app.get(
    '/rebates/:id/history',
    { schema: { tags: ['rebates'], summary: "A rebate's status history", params: uuidParam, response: { 200: statusHistoryAnswer } } },
    async (request) => {
      const rebate = await load(request, request.params.id, reads);
      return { success: true as const, data: await statusHistoryOf(reads, 'rebates', rebate.id) };
    },
  );

  app.get(
    '/rebates/:id/attachments/:name',
    {
      schema: {
        tags: ['rebates'],
        summary: 'A supporting document, to those who may see the rebate',
        params: attachmentParams,
        response: { 200: rebateAttachmentAnswer },
      },
    },
    async (request, reply) => {
      const document = await findRebateDocument(reads, request.params.id, request.params.name, scopeOf(request));
      if (!document) throw new HttpError(404, 'NOT_FOUND', 'There is no such file.');
      return sendUpload(reply, config.UPLOAD_DIR, document.file, 'private', document.name);
    },
  );

  app.patch(
    '/rebates/admin/:id/status',
    {
      errorHandler: statusErrorHandler,
      schema: {
        tags: ['rebates'],
        summary: 'Review a rebate (admins): processing, approved with rebate_amount, or rejected with the reason in notes',
        params: uuidParam,
        body: rebateStatusBody,
        response: { 200: rebateStatusAnswer },
      },
    },
    async (request) => {
      const rebate = await load(request, request.params.id);
      const { status, notes, rebate_amount } = request.body;
      await reviewRebate(services, rebate.id, { status, notes: notes ?? null, rebateAmountCents: rebate_amount }, metadataFromRequest(request));
      const updated = await load(request, rebate.id);
      return {
        success: true as const,
        message: REBATE_MESSAGES.statusUpdated(updated.status),
        details: `Status changed from ${rebate.status} to ${updated.status}`,
        data: updated,
      };
    },
  );

  app.post(
    '/rebates/bulk-review',
    {
      schema: {
        tags: ['rebates'],
        summary:
          'Approve (each at its suggested amount) or reject several claims with one reason (admins); the answer lists which were done and which were refused and why',
        body: bulkBody,
        response: { 200: rebateBulkReviewAnswer },
      },
    },
    async (request) => {
      const { ids, decision, reason } = request.body;
      const metadata = metadataFromRequest(request);
      const outcome = await eachRecord(ids, request.log, async (id) => {
        const rebate = await load(request, id);
        const rebateAmountCents = decision === 'approved' ? Math.round(rebate.suggested_rebate_amount * 100) : null;
        await reviewRebate(services, rebate.id, { status: decision, notes: reason ?? null, rebateAmountCents }, metadata);
      });
      return { success: true as const, message: bulkMessage(outcome, ['rebate', 'rebates'], decision), data: outcome };
    },
  );

  app.delete(
    '/rebates/:id',
    {
      schema: {
        tags: ['rebates'],
        summary: "Delete a rebate: the organisation's own while pending or rejected; admins any not approved",
        params: uuidParam,
        response: { 200: rebateDeletedAnswer },
      },
    },
    async (request) => {
      const rebate = await load(request, request.params.id);
      await deleteRebate(services, rebate.id, request.principal.organisationId, metadataFromRequest(request));
      return { success: true as const, message: REBATE_MESSAGES.deleted, data: { id: rebate.id } };
    },
  );
}
