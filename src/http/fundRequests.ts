import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fileAnswer,
  fundRequestAnswer,
  fundRequestCreatedAnswers,
  fundRequestListAnswer,
  fundRequestRecordAnswer,
  requestFields,
  requestReviewBody,
  resubmitFields,
  statusHistoryAnswer,
  type FundRequest,
} from '../../contracts/funds';
import { FUND_REQUEST_MESSAGES, FUND_REQUEST_STATUSES, fundRequests } from '../../domain/funds/requests';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { listFundRequests, REQUEST_SORT_FIELDS } from '../../projections/funds';
import { statusHistoryOf } from '../../projections/statusHistory';
import { metadataFromRequest } from '../../platform/commands/dispatch';
import { resubmitFundRequest, reviewFundRequest, submitFundRequest } from '../../commands/funds';
import { readMultipart, type FileRule } from '../plugins/uploads';
import type { Services } from '../../platform/services';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { fileParams, formFields, fundAccess, MAX_FILE_BYTES, organisationFilter } from './fundAccess';
import { listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { statusErrorHandler } from './records';
import { recordAnswer } from './records';
import { uuidParam } from './validation';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';

const tags = ['funds'];

/** Plans and quotes. */
const ATTACHMENT_RULE: FileRule = { label: 'Attachments', types: ['pdf', 'doc', 'docx', 'xlsx', 'csv', 'jpg', 'png'], maxBytes: MAX_FILE_BYTES, maxCount: 5 };

const requestListQuery = listQuerySchema(
  { status: z.enum(FUND_REQUEST_STATUSES).optional(), fund_id: z.uuid().optional(), ...organisationFilter },
  REQUEST_SORT_FIELDS,
);

const REQUEST_CSV: Array<[string, (r: FundRequest) => string | number | null]> = [
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

/** Activity requests: an organisation asks for money from a fund for an activity; admins review them. */
export async function fundRequestRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { reads, config } = services;
  const { companyOf, loadRequest, withStoredFiles, listed, exported, sendFile } = fundAccess(services);

  app.post(
    '/fund-requests',
    {
      schema: {
        tags,
        summary:
          'Request funds for an activity (multipart: fund_id, activity_type, title, description, start_date, end_date, planned_cost, requested_amount, expected_leads, up to 5 attachments)',
        consumes: ['multipart/form-data'],
        response: fundRequestCreatedAnswers,
      },
    },
    async (request, reply) => {
      const form = await readMultipart(request, { attachments: ATTACHMENT_RULE });
      const f = formFields(form, requestFields);
      const { principal } = request;
      const requestId = newRecordId(request, 'fund-request');
      const created = { id: requestId, location: `/api/fund-requests/${requestId}` };
      const read = async () => recordAnswer(await loadRequest(request, requestId), FUND_REQUEST_MESSAGES.submitted);
      const earlier = await earlierCreation(services, request, fundRequests.streamId(requestId), requestId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      const companyName = await companyOf(request);
      await withStoredFiles(form.files.attachments, (attachments) =>
        submitFundRequest(
          services,
          {
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
          },
          metadataFromRequest(request),
        ),
      );
      return answerCreated(services, reply, created, read);
    },
  );

  app.get(
    '/fund-requests',
    {
      schema: {
        tags,
        summary: "Activity requests (the caller's organisation's; every one for admins), oldest first",
        querystring: requestListQuery,
        response: { 200: fundRequestListAnswer },
      },
    },
    async (request, reply) => {
      const { rows, total } = await listed(request, listFundRequests, request.query);
      return sendList(reply, 'requests', request.query, rows, total) as z.infer<typeof fundRequestListAnswer>;
    },
  );

  app.get(
    '/fund-requests/export',
    {
      schema: {
        tags,
        summary: 'CSV of the activity requests the caller sees, with the list filters',
        querystring: requestListQuery,
        response: { 200: fileAnswer('text/csv: a header line, then one line per request') },
      },
    },
    async (request, reply) => exported(request, reply, 'fund-requests', REQUEST_CSV, listFundRequests, request.query),
  );

  app.get(
    '/fund-requests/:id',
    {
      schema: {
        tags,
        summary: 'One activity request (with asOf: as it was at that moment)',
        params: uuidParam,
        querystring: asOfQuery,
        response: { 200: fundRequestAnswer },
      },
    },
    async (request) => {
      const found = await loadRequest(request, request.params.id, reads);
      if (request.query.asOf)
        return recordAnswer(
          await asOfAnswer(services, VERSIONED_RECORDS.fundRequests, found.id, request.query.asOf, request.principal, FUND_REQUEST_MESSAGES.notFound),
        );
      return recordAnswer(found);
    },
  );

  app.put(
    '/fund-requests/:id',
    {
      errorHandler: statusErrorHandler,
      schema: {
        tags,
        summary: 'Edit and resubmit a request while changes are requested (multipart: the request fields without fund_id, more attachments)',
        params: uuidParam,
        consumes: ['multipart/form-data'],
        response: { 200: fundRequestRecordAnswer },
      },
    },
    async (request) => {
      const found = await loadRequest(request, request.params.id);
      const form = await readMultipart(request, { attachments: ATTACHMENT_RULE });
      const f = formFields(form, resubmitFields);
      await withStoredFiles(form.files.attachments, (attachments) =>
        resubmitFundRequest(
          services,
          { id: found.id, fundId: found.fund_id, organisationId: found.organisation_id },
          {
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
          },
          metadataFromRequest(request),
        ),
      );
      return recordAnswer(await loadRequest(request, found.id), FUND_REQUEST_MESSAGES.submitted);
    },
  );

  app.post(
    '/fund-requests/:id/review',
    {
      errorHandler: statusErrorHandler,
      schema: {
        tags,
        summary: 'Review a request (admins): approved with approved_amount (reserves it), rejected or changes_requested with a note',
        params: uuidParam,
        body: requestReviewBody,
        response: { 200: fundRequestRecordAnswer },
      },
    },
    async (request) => {
      const found = await loadRequest(request, request.params.id);
      const b = request.body;
      await reviewFundRequest(
        services,
        found.id,
        { decision: b.decision, approvedAmountCents: b.approved_amount ?? null, note: b.note ?? null, claimWindowDays: config.FUND_CLAIM_WINDOW_DAYS },
        metadataFromRequest(request),
      );
      return recordAnswer(await loadRequest(request, found.id), FUND_REQUEST_MESSAGES.reviewed(b.decision));
    },
  );

  app.get(
    '/fund-requests/:id/history',
    { schema: { tags, summary: "A request's status history", params: uuidParam, response: { 200: statusHistoryAnswer } } },
    async (request) => {
      const found = await loadRequest(request, request.params.id, reads);
      return { success: true as const, data: await statusHistoryOf(reads, 'fundRequests', found.id) };
    },
  );
  versionsRoute(app, services, {
    path: '/fund-requests',
    type: VERSIONED_RECORDS.fundRequests,
    params: uuidParam,
    notFound: FUND_REQUEST_MESSAGES.notFound,
    visible: async (request, id) => (await loadRequest(request, id, reads)).id,
  });

  app.get(
    '/fund-requests/:id/attachments/:name',
    {
      schema: {
        tags,
        summary: "A request's attachment, to those who may see the request",
        params: fileParams,
        response: { 200: fileAnswer('The stored file (PDF, Word, Excel, CSV, JPEG or PNG), as an attachment') },
      },
    },
    async (request, reply) => sendFile(request, request.params, reply, 'attachment'),
  );
}
