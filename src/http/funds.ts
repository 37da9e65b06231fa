import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAdminRole, seesAllOrganisations } from '../../domain/access';
import { ALLOCATION_RULE_KINDS } from '../../domain/funds/allocationRule';
import { parsePriceCents } from '../../domain/catalogue/catalogue';
import { FUND_CLAIM_DECISIONS, FUND_CLAIM_MESSAGES, FUND_CLAIM_STATUSES, fundClaims, MAX_PROOF_FILES, PAYOUT_METHODS } from '../../domain/funds/claims';
import { FUND_MESSAGES, FUND_STATUSES, funds } from '../../domain/funds/funds';
import { FUND_REQUEST_DECISIONS, FUND_REQUEST_MESSAGES, FUND_REQUEST_STATUSES, fundRequests, type FundAttachment } from '../../domain/funds/requests';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import {
  balances,
  CLAIM_SORT_FIELDS,
  companyNames,
  findFund,
  findFundClaim,
  findFundFile,
  findFundRequest,
  FUND_SORT_FIELDS,
  listFundClaims,
  listFundRequests,
  listFunds,
  REQUEST_SORT_FIELDS,
  type FundClaimView,
  type FundRequestView,
  type FundScope,
} from '../../projections/funds';
import { statusHistoryOf } from '../../projections/statusHistory';
import { findUser } from '../../projections/users';
import { metadataFromRequest, runCommand } from '../commands/dispatch';
import { allocationRuleMeasure, claimState, closeFundPeriod, fundContext, fundState, recordFundPayout, setAllocationsByRule, requestState, reviewFundClaim, reviewFundRequest, submitFundClaim } from '../commands/funds';
import { auditActorOf, exportFilters, recordAuditEntry, recordedWhenDone } from '../plugins/auditTrail';
import { HttpError } from '../plugins/errors';
import { readMultipart, removeUpload, sendUpload, storeUpload, uploadNameParam, type FileRule, type MultipartForm } from '../plugins/uploads';
import type { Services } from '../services';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { csvLines } from './csv';
import { listQuerySchema, sendList } from './lists';
import { statusErrorHandler } from './orders';
import { recordAnswer } from './records';
import { uuidParam } from './validation';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';

const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Plans and quotes. */
const ATTACHMENT_RULE: FileRule = { label: 'Attachments', types: ['pdf', 'doc', 'docx', 'xlsx', 'csv', 'jpg', 'png'], maxBytes: MAX_FILE_BYTES, maxCount: 5 };
/** Invoices, photos, attendee lists: recognised by content, never by name. */
const PROOF_RULE: FileRule = { label: 'Proof of performance', types: ['pdf', 'jpg', 'png', 'csv', 'xlsx'], maxBytes: MAX_FILE_BYTES, maxCount: MAX_PROOF_FILES };

const AMOUNT_MESSAGE = 'Amounts are numbers with at most 2 decimals, for example 1250.00.';

/** Dollars as text (multipart) → cents; empty → NaN, which the decider refuses with its own message. */
const amountText = z
  .string()
  .max(40)
  .transform((text, ctx) => {
    if (!text.trim()) return Number.NaN;
    const cents = parsePriceCents(text);
    if (cents === undefined) {
      ctx.addIssue({ code: 'custom', message: AMOUNT_MESSAGE });
      return z.NEVER;
    }
    return cents;
  });
/** Dollars as a JSON number or text → cents. */
const amount = z.union([z.number(), z.string().max(40)]).transform((value, ctx) => {
  const cents =
    typeof value === 'number' ? (Number.isFinite(value) && value >= 0 && value < 1e9 && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6 ? Math.round(value * 100) : undefined) : parsePriceCents(value);
  if (cents === undefined) {
    ctx.addIssue({ code: 'custom', message: AMOUNT_MESSAGE });
    return z.NEVER;
  }
  return cents;
});
const wholeText = (label: string) =>
  z
    .string()
    .max(12)
    .transform((text, ctx) => {
      if (!text.trim()) return 0;
      if (!/^\d{1,9}$/.test(text.trim())) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a whole number of at least 0.` });
        return z.NEVER;
      }
      return Number(text.trim());
    });
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dateField = (label: string) => z.string().regex(DAY, `${label} must be a date (YYYY-MM-DD).`);

// ---- bodies ----

const allocation = z.object({ organisation_id: z.uuid({ error: 'Organisation id is not valid.' }), amount }).strict();
const fundFields = {
  name: z.string().max(200),
  period_start: dateField('Period start'),
  period_end: dateField('Period end'),
  budget: amount,
  /** Co-op accrual: the percentage of each delivered order's value that accrues to the organisation (0 = none). */
  coop_share_percent: z.number().min(0).max(100).multipleOf(0.01).optional().default(0),
};
const createFundBody = z
  .object({ ...fundFields, allocations: z.array(allocation).max(500).optional().default([]) })
  .strict()
  .meta({ example: { name: 'FY27 H1 Marketing Fund', period_start: '2026-10-01', period_end: '2027-03-31', budget: 250000, coop_share_percent: 2, allocations: [] } });
const updateFundBody = z
  .object({ ...fundFields, id: z.unknown().optional(), allocations: z.unknown().optional(), totals: z.unknown().optional(), status: z.unknown().optional(), utilisation_percent: z.unknown().optional(), created_at: z.unknown().optional(), updated_at: z.unknown().optional(), success: z.unknown().optional(), data: z.unknown().optional(), message: z.unknown().optional() })
  .strict()
  .meta({ example: { name: 'FY27 H1 Marketing Fund', period_start: '2026-10-01', period_end: '2027-03-31', budget: 260000, coop_share_percent: 2 } });
const percentField = z.number({ error: 'The percentage must be a number.' }).gt(0, 'The percentage must be greater than 0 and at most 100.').max(100, 'The percentage must be greater than 0 and at most 100.').multipleOf(0.01, 'The percentage has at most 2 decimals.');
const ruleBody = z
  .object({ kind: z.enum(ALLOCATION_RULE_KINDS, { error: `The rule must be one of: ${ALLOCATION_RULE_KINDS.join(', ')}.` }).optional().default('percent_of_purchases'), percent: percentField })
  .strict()
  .meta({ example: { kind: 'percent_of_purchases', percent: 5 } });
const ruleQuery = z
  .object({
    kind: z.enum(ALLOCATION_RULE_KINDS, { error: `The rule must be one of: ${ALLOCATION_RULE_KINDS.join(', ')}.` }).optional().default('percent_of_purchases'),
    percent: z.coerce.number({ error: 'The percentage must be a number.' }).pipe(percentField),
  })
  .strict();
const closeBody = z.object({}).strict().meta({ example: {} });
const allocationBody = allocation.meta({ example: { organisation_id: '00000000-0000-4000-8000-000000000001', amount: 12000 } });

const requestFields = z
  .object({
    fund_id: z.uuid({ error: 'Fund id is not valid.' }),
    activity_type: z.string().max(60).optional().default(''),
    title: z.string().max(400).optional().default(''),
    description: z.string().max(8000).optional().default(''),
    start_date: z.string().max(40).optional().default(''),
    end_date: z.string().max(40).optional().default(''),
    planned_cost: amountText.optional().default(Number.NaN),
    requested_amount: amountText.optional().default(Number.NaN),
    expected_leads: wholeText('Expected leads').optional().default(0),
  })
  .strict();
const resubmitFields = requestFields.omit({ fund_id: true });

const requestReviewBody = z
  .object({
    decision: z.enum(FUND_REQUEST_DECISIONS, { error: `Decision must be one of: ${FUND_REQUEST_DECISIONS.join(', ')}.` }),
    approved_amount: amount.nullable().optional(),
    note: z.string().max(2000).nullable().optional(),
  })
  .strict()
  .meta({ example: { decision: 'approved', approved_amount: 2000, note: 'Approved without travel costs' } });

const claimFields = z
  .object({
    request_id: z.uuid({ error: 'Request id is not valid.' }),
    actual_cost: amountText.optional().default(Number.NaN),
    claimed_amount: amountText.optional().default(Number.NaN),
    leads_generated: wholeText('Leads generated').optional().default(0),
  })
  .strict();

const claimReviewBody = z
  .object({
    decision: z.enum(FUND_CLAIM_DECISIONS, { error: `Decision must be one of: ${FUND_CLAIM_DECISIONS.join(', ')}.` }),
    paid_amount: amount.nullable().optional(),
    reason: z.string().max(2000).nullable().optional(),
  })
  .strict()
  .meta({ example: { decision: 'approved', paid_amount: 1900, reason: null } });

const payoutBody = z
  .object({ reference: z.string().max(200), paid_at: dateField('Payout date'), method: z.enum(PAYOUT_METHODS, { error: `Payout method must be one of: ${PAYOUT_METHODS.join(', ')}.` }) })
  .strict()
  .meta({ example: { reference: 'PAY-2026-0042', paid_at: '2026-11-25', method: 'bank_transfer' } });

// ---- queries ----

const organisationFilter = { organisation_id: z.uuid({ error: 'Organisation id is not valid.' }).optional() };
const fundListQuery = listQuerySchema({ status: z.enum(FUND_STATUSES).optional() }, FUND_SORT_FIELDS);
const requestListQuery = listQuerySchema({ status: z.enum(FUND_REQUEST_STATUSES).optional(), fund_id: z.uuid().optional(), ...organisationFilter }, REQUEST_SORT_FIELDS);
const claimListQuery = listQuerySchema({ status: z.enum(FUND_CLAIM_STATUSES).optional(), fund_id: z.uuid().optional(), ...organisationFilter }, CLAIM_SORT_FIELDS);
const fileParams = z.object({ id: z.uuid({ error: 'The id in the address is not valid.' }), name: uploadNameParam.shape.name }).strict();
const organisationParams = z.object({ id: z.uuid({ error: 'The id in the address is not valid.' }) }).strict();

function validationError(issues: z.core.$ZodIssue[]): HttpError {
  const details = issues.map((issue) => ({ field: issue.code === 'unrecognized_keys' ? issue.keys.join(',') : String(issue.path[0] ?? 'request'), message: issue.message }));
  return new HttpError(400, 'VALIDATION_ERROR', details[0]?.message ?? 'The request is not valid.', details);
}

/** A multipart form's text fields, each sent once, checked by `schema`. */
function formFields<T extends z.ZodType>(form: MultipartForm, schema: T): z.infer<T> {
  const single: Record<string, string> = {};
  for (const [name, value] of Object.entries(form.fields)) {
    if (Array.isArray(value)) throw new HttpError(400, 'VALIDATION_ERROR', `Send ${name} once.`, [{ field: name, message: `Send ${name} once.` }]);
    single[name] = value;
  }
  const parsed = schema.safeParse(single);
  if (!parsed.success) throw validationError(parsed.error.issues);
  return parsed.data;
}

// ---- CSV ----

const REQUEST_CSV: Array<[string, (r: FundRequestView) => string | number | null]> = [
  ['id', (r) => r.id],
  ['fund', (r) => r.fund_name],
  ['company_name', (r) => r.company_name],
  ['activity_type', (r) => r.activity_type],
  ['title', (r) => r.title],
  ['start_date', (r) => r.start_date],
  ['end_date', (r) => r.end_date],
  ['planned_cost', (r) => r.planned_cost?.toFixed(2) ?? ''],
  ['requested_amount', (r) => r.requested_amount?.toFixed(2) ?? ''],
  ['approved_amount', (r) => r.approved_amount?.toFixed(2) ?? ''],
  ['expected_leads', (r) => r.expected_leads],
  ['status', (r) => r.status],
  ['claim_deadline', (r) => r.claim_deadline],
  ['submitted_at', (r) => r.submitted_at],
];
const CLAIM_CSV: Array<[string, (c: FundClaimView) => string | number | null]> = [
  ['id', (c) => c.id],
  ['request_id', (c) => c.request_id],
  ['activity', (c) => c.request_title],
  ['company_name', (c) => c.company_name],
  ['approved_amount', (c) => c.approved_amount?.toFixed(2) ?? ''],
  ['actual_cost', (c) => c.actual_cost?.toFixed(2) ?? ''],
  ['claimed_amount', (c) => c.claimed_amount?.toFixed(2) ?? ''],
  ['paid_amount', (c) => c.paid_amount?.toFixed(2) ?? ''],
  ['leads_generated', (c) => c.leads_generated],
  ['status', (c) => c.status],
  ['payout_reference', (c) => c.payout?.reference ?? ''],
  ['paid_at', (c) => c.payout?.paid_at ?? ''],
  ['submitted_at', (c) => c.submitted_at],
];

async function* pages<T>(read: (offset: number, limit: number) => Promise<{ rows: T[] }>): AsyncGenerator<T> {
  const size = 500;
  for (let offset = 0; ; offset += size) {
    const { rows } = await read(offset, size);
    yield* rows;
    if (rows.length < size) return;
  }
}

// ---- routes ----

export async function fundRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, config } = services;
  const scopeOf = (request: FastifyRequest): FundScope => ({ organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId });
  const companyOf = async (request: FastifyRequest) => {
    const { principal } = request;
    const organisation = principal.organisationId === principal.id ? undefined : await findUser(pool, principal.organisationId);
    return organisation ? organisation.company_name : principal.companyName;
  };
  const loadFund = async (request: FastifyRequest, id: string) => {
    const fund = await findFund(pool, id, scopeOf(request));
    if (!fund) throw new HttpError(404, 'NOT_FOUND', FUND_MESSAGES.notFound);
    return fund;
  };
  /** A record the caller may not see is answered exactly like one that does not exist. */
  const loadRequest = async (request: FastifyRequest, id: string) => {
    const found = await findFundRequest(pool, id, scopeOf(request));
    if (!found) throw new HttpError(404, 'NOT_FOUND', FUND_REQUEST_MESSAGES.notFound);
    return found;
  };
  const loadClaim = async (request: FastifyRequest, id: string) => {
    const found = await findFundClaim(pool, id, scopeOf(request));
    if (!found) throw new HttpError(404, 'NOT_FOUND', FUND_CLAIM_MESSAGES.notFound);
    return found;
  };
  /** Stores the checked files, runs `step`, and removes the files again when it is refused. */
  const withStoredFiles = async (files: MultipartForm['files'][string] | undefined, step: (stored: FundAttachment[]) => Promise<void>) => {
    const stored: FundAttachment[] = [];
    try {
      for (const file of files ?? []) stored.push({ file: await storeUpload(config.UPLOAD_DIR, file, 'private'), name: file.originalName.slice(0, 200) || `file.${file.type}`, type: file.type, size: file.bytes.length });
      await step(stored);
    } catch (error) {
      await Promise.all(stored.map((d) => removeUpload(config.UPLOAD_DIR, d.file, 'private')));
      throw error;
    }
  };
  const csv = <T>(request: FastifyRequest, reply: import('fastify').FastifyReply, name: string, columns: Array<[string, (row: T) => string | number | null]>, rows: AsyncIterable<T>) => {
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.csv"`);
    reply.header('cache-control', 'private, no-store');
    const recorded = () => recordAuditEntry(services.store, { type: 'ExportDownloaded.v1', data: { userId: request.principal.id, export: name, filters: exportFilters(request) } }, auditActorOf(request));
    return reply.send(Readable.from(recordedWhenDone(csvLines(columns, rows), recorded)));
  };

  // ---- funds ----

  app.get('/funds', { schema: { tags: ['funds'], summary: 'Fund periods with their allocations (an organisation sees the funds that allocate to it, with its own figures)', querystring: fundListQuery } }, async (request, reply) => {
    const q = request.query;
    const { rows, total } = await listFunds(pool, scopeOf(request), { ...q.filters, search: q.search, ids: q.ids }, { offset: q.offset, limit: q.limit, sort: q.sort });
    return sendList(reply, 'funds', q, rows, total);
  });

  app.get('/funds/balance', { schema: { tags: ['funds'], summary: "The caller's organisation's balance per fund and in total: allocated, accrued, reserved, claimed, paid, available (every organisation's, for admins)" } }, async (request) => ({
    success: true,
    data: await balances(pool, scopeOf(request)),
  }));

  app.post('/funds', { schema: { tags: ['funds'], summary: 'Create a fund period with its allocations (admins)', body: createFundBody } }, async (request, reply) => {
    const b = request.body;
    const fundId = newRecordId(request, 'fund');
    const created = { id: fundId, location: `/api/funds/${fundId}` };
    const read = async () => recordAnswer(await loadFund(request, fundId), 'Fund created.');
    const earlier = await earlierCreation(services, request, funds.streamId(fundId), fundId);
    if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
    await runCommand(
      services,
      funds,
      fundId,
      {
        type: 'CreateFund',
        fundId,
        name: b.name,
        periodStart: b.period_start,
        periodEnd: b.period_end,
        budgetCents: b.budget,
        coopShareBasisPoints: Math.round(b.coop_share_percent * 100),
        allocations: b.allocations.map((a) => ({ organisationId: a.organisation_id, amountCents: a.amount })),
      },
      metadataFromRequest(request),
    );
    return answerCreated(services, reply, created, read);
  });

  app.get('/funds/:id', { schema: { tags: ['funds'], summary: 'One fund (with asOf: as it was at that moment)', params: uuidParam, querystring: asOfQuery } }, async (request) => {
    const fund = await loadFund(request, request.params.id);
    if (request.query.asOf) return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.funds, fund.id, request.query.asOf, request.principal, FUND_MESSAGES.notFound));
    return recordAnswer(fund);
  });

  app.put('/funds/:id', { schema: { tags: ['funds'], summary: "Change a fund's name, period, budget or co-op share (admins)", params: uuidParam, body: updateFundBody } }, async (request) => {
    const fund = await loadFund(request, request.params.id);
    const b = request.body;
    await runCommand(
      services,
      funds,
      fund.id,
      { type: 'UpdateFund', name: b.name, periodStart: b.period_start, periodEnd: b.period_end, budgetCents: b.budget, coopShareBasisPoints: Math.round(b.coop_share_percent * 100) },
      metadataFromRequest(request),
    );
    return recordAnswer(await loadFund(request, fund.id), 'Fund updated.');
  });

  app.post('/funds/:id/allocations', { schema: { tags: ['funds'], summary: "Set one organisation's allocation in a fund (admins)", params: organisationParams, body: allocationBody } }, async (request) => {
    const fund = await loadFund(request, request.params.id);
    await runCommand(services, funds, fund.id, { type: 'SetAllocation', organisationId: request.body.organisation_id, amountCents: request.body.amount }, metadataFromRequest(request));
    return recordAnswer(await loadFund(request, fund.id), 'Allocation saved.');
  });

  app.post(
    '/funds/:id/close',
    { schema: { tags: ['funds'], summary: "Close a fund period early (admins): each organisation's available balance expires; approved reservations stay claimable until their deadline", params: uuidParam, body: closeBody.optional() } },
    async (request) => {
      const fund = await loadFund(request, request.params.id);
      await closeFundPeriod(services, fund.id, 'manual', metadataFromRequest(request));
      return recordAnswer(await loadFund(request, fund.id), 'Fund period closed.');
    },
  );

  /** The preview names every organisation's purchases: administrators only. */
  const rulePreview = async (request: FastifyRequest, fundId: string, percent: number) => {
    if (!isAdminRole(request.principal.role)) throw new HttpError(403, 'INSUFFICIENT_PERMISSIONS', FUND_MESSAGES.onlyAdmins);
    const fund = await loadFund(request, fundId);
    const basisPoints = Math.round(percent * 100);
    const measured = await allocationRuleMeasure(services, await fundState(services, fund.id), basisPoints);
    const names = await companyNames(pool, measured.allocations.map((a) => a.organisationId));
    const current = Object.fromEntries(fund.allocations.map((a) => [a.organisation_id, a]));
    const allocations = measured.allocations.map((a) => ({
      organisation_id: a.organisationId,
      company_name: names[a.organisationId] ?? null,
      purchases: a.purchasesCents / 100,
      current: current[a.organisationId]?.amount ?? 0,
      amount: a.amountCents / 100,
    }));
    const ruleIds = new Set(allocations.map((a) => a.organisation_id));
    const keptCents = fund.allocations.filter((a) => !ruleIds.has(a.organisation_id)).reduce((sum, a) => sum + Math.round(a.amount * 100), 0);
    const totalCents = keptCents + measured.allocations.reduce((sum, a) => sum + a.amountCents, 0);
    return {
      fund_id: fund.id,
      rule: { kind: 'percent_of_purchases' as const, percent },
      measured_from: measured.from,
      measured_to: measured.to,
      allocations,
      /** What the allocations add up to once the rule is applied (organisations without purchases keep theirs). */
      total_allocated: totalCents / 100,
      budget: fund.budget,
      within_budget: totalCents <= Math.round(fund.budget * 100),
    };
  };

  app.get(
    '/funds/:id/allocation-rule',
    { schema: { tags: ['funds'], summary: 'Preview allocations by a rule (admins): percent of each organisation’s delivered purchases in the previous period of the fund’s length', params: uuidParam, querystring: ruleQuery } },
    async (request) => ({ success: true, data: await rulePreview(request, request.params.id, request.query.percent) }),
  );

  app.post(
    '/funds/:id/allocation-rule',
    { schema: { tags: ['funds'], summary: 'Set allocations by a rule (admins), measured as the preview shows; organisations without purchases keep their allocation', params: uuidParam, body: ruleBody } },
    async (request) => {
      if (!isAdminRole(request.principal.role)) throw new HttpError(403, 'INSUFFICIENT_PERMISSIONS', FUND_MESSAGES.onlyAdmins);
      const fund = await loadFund(request, request.params.id);
      await setAllocationsByRule(services, fund.id, Math.round(request.body.percent * 100), metadataFromRequest(request));
      return recordAnswer(await loadFund(request, fund.id), 'Allocations set by the rule.');
    },
  );

  app.get('/funds/:id/history', { schema: { tags: ['funds'], summary: "A fund's status history", params: uuidParam } }, async (request) => {
    const fund = await loadFund(request, request.params.id);
    return { success: true, data: await statusHistoryOf(pool, 'funds', fund.id) };
  });
  versionsRoute(app, services, { path: '/funds', type: VERSIONED_RECORDS.funds, params: uuidParam, notFound: FUND_MESSAGES.notFound, visible: async (request, id) => (await loadFund(request, id)).id });

  // ---- requests ----

  app.post(
    '/fund-requests',
    {
      schema: {
        tags: ['funds'],
        summary: 'Request funds for an activity (multipart: fund_id, activity_type, title, description, start_date, end_date, planned_cost, requested_amount, expected_leads, up to 5 attachments)',
        consumes: ['multipart/form-data'],
      },
    },
    async (request, reply) => {
      const form = await readMultipart(request, { attachments: ATTACHMENT_RULE });
      const f = formFields(form, requestFields);
      const { principal } = request;
      const fund = await fundContext(services, f.fund_id, principal.organisationId);
      if (!fund) throw new HttpError(404, 'NOT_FOUND', FUND_MESSAGES.notFound);
      const requestId = newRecordId(request, 'fund-request');
      const created = { id: requestId, location: `/api/fund-requests/${requestId}` };
      const read = async () => recordAnswer(await loadRequest(request, requestId), FUND_REQUEST_MESSAGES.submitted);
      const earlier = await earlierCreation(services, request, fundRequests.streamId(requestId), requestId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      const companyName = await companyOf(request);
      await withStoredFiles(form.files.attachments, async (attachments) => {
        await runCommand(
          services,
          fundRequests,
          requestId,
          {
            type: 'SubmitFundRequest',
            requestId,
            fundId: f.fund_id,
            organisationId: principal.organisationId,
            companyName,
            submittedBy: principal.id,
            activityType: f.activity_type,
            title: f.title,
            description: f.description,
            startDate: f.start_date,
            endDate: f.end_date,
            plannedCostCents: f.planned_cost,
            requestedAmountCents: f.requested_amount,
            expectedLeads: f.expected_leads,
            attachments,
            fund,
          },
          metadataFromRequest(request),
        );
      });
      return answerCreated(services, reply, created, read);
    },
  );

  app.get('/fund-requests', { schema: { tags: ['funds'], summary: "Activity requests (the caller's organisation's; every one for admins), oldest first", querystring: requestListQuery } }, async (request, reply) => {
    const q = request.query;
    const { rows, total } = await listFundRequests(pool, scopeOf(request), { ...q.filters, search: q.search, ids: q.ids }, { offset: q.offset, limit: q.limit, sort: q.sort });
    return sendList(reply, 'requests', q, rows, total);
  });

  app.get('/fund-requests/export', { schema: { tags: ['funds'], summary: 'CSV of the activity requests the caller sees, with the list filters', querystring: requestListQuery } }, async (request, reply) => {
    const q = request.query;
    const scope = scopeOf(request);
    return csv(request, reply, 'fund-requests', REQUEST_CSV, pages((offset, limit) => listFundRequests(pool, scope, { ...q.filters, search: q.search }, { offset, limit, sort: q.sort })));
  });

  app.get('/fund-requests/:id', { schema: { tags: ['funds'], summary: 'One activity request (with asOf: as it was at that moment)', params: uuidParam, querystring: asOfQuery } }, async (request) => {
    const found = await loadRequest(request, request.params.id);
    if (request.query.asOf) return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.fundRequests, found.id, request.query.asOf, request.principal, FUND_REQUEST_MESSAGES.notFound));
    return recordAnswer(found);
  });

  app.put(
    '/fund-requests/:id',
    {
      errorHandler: statusErrorHandler,
      schema: { tags: ['funds'], summary: 'Edit and resubmit a request while changes are requested (multipart: the request fields without fund_id, more attachments)', params: uuidParam, consumes: ['multipart/form-data'] },
    },
    async (request) => {
      const found = await loadRequest(request, request.params.id);
      const form = await readMultipart(request, { attachments: ATTACHMENT_RULE });
      const f = formFields(form, resubmitFields);
      const fund = await fundContext(services, found.fund_id, found.organisation_id);
      if (!fund) throw new HttpError(404, 'NOT_FOUND', FUND_MESSAGES.notFound);
      await withStoredFiles(form.files.attachments, async (attachments) => {
        await runCommand(
          services,
          fundRequests,
          found.id,
          {
            type: 'ResubmitFundRequest',
            actorOrganisationId: request.principal.organisationId,
            activityType: f.activity_type,
            title: f.title,
            description: f.description,
            startDate: f.start_date,
            endDate: f.end_date,
            plannedCostCents: f.planned_cost,
            requestedAmountCents: f.requested_amount,
            expectedLeads: f.expected_leads,
            attachments,
            fund,
          },
          metadataFromRequest(request),
        );
      });
      return recordAnswer(await loadRequest(request, found.id), FUND_REQUEST_MESSAGES.submitted);
    },
  );

  app.post(
    '/fund-requests/:id/review',
    { errorHandler: statusErrorHandler, schema: { tags: ['funds'], summary: 'Review a request (admins): approved with approved_amount (reserves it), rejected or changes_requested with a note', params: uuidParam, body: requestReviewBody } },
    async (request) => {
      const found = await loadRequest(request, request.params.id);
      const b = request.body;
      await reviewFundRequest(services, found.id, { decision: b.decision, approvedAmountCents: b.approved_amount ?? null, note: b.note ?? null, claimWindowDays: config.FUND_CLAIM_WINDOW_DAYS }, metadataFromRequest(request));
      return recordAnswer(await loadRequest(request, found.id), FUND_REQUEST_MESSAGES.reviewed(b.decision));
    },
  );

  app.get('/fund-requests/:id/history', { schema: { tags: ['funds'], summary: "A request's status history", params: uuidParam } }, async (request) => {
    const found = await loadRequest(request, request.params.id);
    return { success: true, data: await statusHistoryOf(pool, 'fundRequests', found.id) };
  });
  versionsRoute(app, services, { path: '/fund-requests', type: VERSIONED_RECORDS.fundRequests, params: uuidParam, notFound: FUND_REQUEST_MESSAGES.notFound, visible: async (request, id) => (await loadRequest(request, id)).id });

  app.get('/fund-requests/:id/attachments/:name', { schema: { tags: ['funds'], summary: "A request's attachment, to those who may see the request", params: fileParams } }, async (request, reply) => {
    const file = await findFundFile(pool, request.params.id, 'attachment', request.params.name, scopeOf(request));
    if (!file) throw new HttpError(404, 'NOT_FOUND', 'There is no such file.');
    reply.header('content-disposition', `attachment; filename="${file.name.replace(/[^\w. -]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.name)}`);
    return sendUpload(reply, config.UPLOAD_DIR, file.file, 'private');
  });

  // ---- claims ----

  app.post(
    '/fund-claims',
    {
      schema: {
        tags: ['funds'],
        summary: 'Claim an approved activity with proof of performance (multipart: request_id, actual_cost, claimed_amount, leads_generated, up to 10 proof files: pdf, images, csv, xlsx)',
        consumes: ['multipart/form-data'],
      },
    },
    async (request, reply) => {
      const form = await readMultipart(request, { proof: PROOF_RULE });
      const f = formFields(form, claimFields);
      const claimId = newRecordId(request, 'fund-claim');
      const created = { id: claimId, location: `/api/fund-claims/${claimId}` };
      const read = async () => recordAnswer(await loadClaim(request, claimId), FUND_CLAIM_MESSAGES.submitted);
      const earlier = await earlierCreation(services, request, fundClaims.streamId(claimId), claimId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      const found = await loadRequest(request, f.request_id);
      const state = await requestState(services, found.id);
      if (state.status === 'none') throw new HttpError(404, 'NOT_FOUND', FUND_REQUEST_MESSAGES.notFound);
      const companyName = await companyOf(request);
      await withStoredFiles(form.files.proof, async (proof) => {
        await submitFundClaim(
          services,
          {
            type: 'SubmitFundClaim',
            claimId,
            requestId: found.id,
            fundId: found.fund_id,
            organisationId: found.organisation_id,
            companyName,
            submittedBy: request.principal.id,
            actualCostCents: f.actual_cost,
            claimedAmountCents: f.claimed_amount,
            leadsGenerated: f.leads_generated,
            proof,
            request: { status: state.status, approvedAmountCents: state.approvedAmountCents, endDate: state.endDate, claimDeadline: state.claimDeadline },
          },
          metadataFromRequest(request),
        );
      });
      return answerCreated(services, reply, created, read);
    },
  );

  app.get('/fund-claims', { schema: { tags: ['funds'], summary: "Claims (the caller's organisation's; every one for admins), oldest first", querystring: claimListQuery } }, async (request, reply) => {
    const q = request.query;
    const { rows, total } = await listFundClaims(pool, scopeOf(request), { ...q.filters, search: q.search, ids: q.ids }, { offset: q.offset, limit: q.limit, sort: q.sort });
    return sendList(reply, 'claims', q, rows, total);
  });

  app.get('/fund-claims/export', { schema: { tags: ['funds'], summary: 'CSV of the claims the caller sees, with the list filters', querystring: claimListQuery } }, async (request, reply) => {
    const q = request.query;
    const scope = scopeOf(request);
    return csv(request, reply, 'fund-claims', CLAIM_CSV, pages((offset, limit) => listFundClaims(pool, scope, { ...q.filters, search: q.search }, { offset, limit, sort: q.sort })));
  });

  app.get('/fund-claims/:id', { schema: { tags: ['funds'], summary: 'One claim (with asOf: as it was at that moment)', params: uuidParam, querystring: asOfQuery } }, async (request) => {
    const found = await loadClaim(request, request.params.id);
    if (request.query.asOf) return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.fundClaims, found.id, request.query.asOf, request.principal, FUND_CLAIM_MESSAGES.notFound));
    return recordAnswer(found);
  });

  app.post(
    '/fund-claims/:id/proof',
    { errorHandler: statusErrorHandler, schema: { tags: ['funds'], summary: 'Add proof while more is requested (multipart: proof files); the claim goes back to review', params: uuidParam, consumes: ['multipart/form-data'] } },
    async (request) => {
      const found = await loadClaim(request, request.params.id);
      const form = await readMultipart(request, { proof: PROOF_RULE });
      formFields(form, z.object({}).strict());
      await withStoredFiles(form.files.proof, async (proof) => {
        await runCommand(services, fundClaims, found.id, { type: 'AddFundClaimProof', actorOrganisationId: request.principal.organisationId, proof }, metadataFromRequest(request));
      });
      return recordAnswer(await loadClaim(request, found.id), FUND_CLAIM_MESSAGES.submitted);
    },
  );

  app.post(
    '/fund-claims/:id/review',
    { errorHandler: statusErrorHandler, schema: { tags: ['funds'], summary: 'Review a claim (admins): approved with paid_amount, rejected or more_proof_requested with a reason', params: uuidParam, body: claimReviewBody } },
    async (request) => {
      const found = await loadClaim(request, request.params.id);
      const b = request.body;
      await reviewFundClaim(services, found.id, { decision: b.decision, paidAmountCents: b.paid_amount ?? null, reason: b.reason ?? null }, metadataFromRequest(request));
      return recordAnswer(await loadClaim(request, found.id), FUND_CLAIM_MESSAGES.reviewed(b.decision));
    },
  );

  app.post('/fund-claims/:id/payout', { schema: { tags: ['funds'], summary: "Record an approved claim's payout (admins): reference, paid_at, method", params: uuidParam, body: payoutBody } }, async (request) => {
    const found = await loadClaim(request, request.params.id);
    const state = await claimState(services, found.id);
    if (state.status === 'none') throw new HttpError(404, 'NOT_FOUND', FUND_CLAIM_MESSAGES.notFound);
    await recordFundPayout(services, found.id, { reference: request.body.reference, paidAt: request.body.paid_at, method: request.body.method }, metadataFromRequest(request));
    return recordAnswer(await loadClaim(request, found.id), FUND_CLAIM_MESSAGES.paid);
  });

  app.get('/fund-claims/:id/history', { schema: { tags: ['funds'], summary: "A claim's status history", params: uuidParam } }, async (request) => {
    const found = await loadClaim(request, request.params.id);
    return { success: true, data: await statusHistoryOf(pool, 'fundClaims', found.id) };
  });
  versionsRoute(app, services, { path: '/fund-claims', type: VERSIONED_RECORDS.fundClaims, params: uuidParam, notFound: FUND_CLAIM_MESSAGES.notFound, visible: async (request, id) => (await loadClaim(request, id)).id });

  app.get('/fund-claims/:id/proof/:name', { schema: { tags: ['funds'], summary: "A claim's proof file, to those who may see the claim", params: fileParams } }, async (request, reply) => {
    const file = await findFundFile(pool, request.params.id, 'proof', request.params.name, scopeOf(request));
    if (!file) throw new HttpError(404, 'NOT_FOUND', 'There is no such file.');
    reply.header('content-disposition', `attachment; filename="${file.name.replace(/[^\w. -]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.name)}`);
    return sendUpload(reply, config.UPLOAD_DIR, file.file, 'private');
  });
}
