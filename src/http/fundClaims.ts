import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  claimFields,
  claimReviewBody,
  fileAnswer,
  fundClaimAnswer,
  fundClaimCreatedAnswers,
  fundClaimListAnswer,
  fundClaimRecordAnswer,
  payoutBody,
  proofFields,
  statusHistoryAnswer,
  type FundClaim,
} from '../../contracts/funds';
import { FUND_CLAIM_MESSAGES, FUND_CLAIM_STATUSES, fundClaims, MAX_PROOF_FILES } from '../../domain/funds/claims';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { CLAIM_SORT_FIELDS, listFundClaims } from '../../projections/funds';
import { statusHistoryOf } from '../../projections/statusHistory';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { claimFundRequest, recordFundPayout, reviewFundClaim } from '../../commands/funds';
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

/** Invoices, photos, attendee lists: recognised by content, never by name. */
const PROOF_RULE: FileRule = {
  label: 'Proof of performance',
  types: ['pdf', 'jpg', 'png', 'csv', 'xlsx'],
  maxBytes: MAX_FILE_BYTES,
  maxCount: MAX_PROOF_FILES,
};

const claimListQuery = listQuerySchema(
  { status: z.enum(FUND_CLAIM_STATUSES).optional(), fund_id: z.uuid().optional(), ...organisationFilter },
  CLAIM_SORT_FIELDS,
);

const CLAIM_CSV: Array<[string, (c: FundClaim) => string | number | null]> = [
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

/** Claims: an organisation claims an approved activity with proof of performance; admins review them and record the payout. */
export async function fundClaimRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { reads } = services;
  const { companyOf, loadRequest, loadClaim, withStoredFiles, listed, exported, sendFile } = fundAccess(services);

  app.post(
    '/fund-claims',
    {
      schema: {
        tags,
        summary:
          'Claim an approved activity with proof of performance (multipart: request_id, actual_cost, claimed_amount, leads_generated, up to 10 proof files: pdf, images, csv, xlsx)',
        consumes: ['multipart/form-data'],
        response: fundClaimCreatedAnswers,
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
      const companyName = await companyOf(request);
      await withStoredFiles(form.files.proof, (proof) =>
        claimFundRequest(
          services,
          {
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
          },
          metadataFromRequest(request),
        ),
      );
      return answerCreated(services, reply, created, read);
    },
  );

  app.get(
    '/fund-claims',
    {
      schema: {
        tags,
        summary: "Claims (the caller's organisation's; every one for admins), oldest first",
        querystring: claimListQuery,
        response: { 200: fundClaimListAnswer },
      },
    },
    async (request, reply) => {
      const { rows, total } = await listed(request, listFundClaims, request.query);
      return sendList(reply, 'claims', request.query, rows, total) as z.infer<typeof fundClaimListAnswer>;
    },
  );

  app.get(
    '/fund-claims/export',
    {
      schema: {
        tags,
        summary: 'CSV of the claims the caller sees, with the list filters',
        querystring: claimListQuery,
        response: { 200: fileAnswer('text/csv: a header line, then one line per claim') },
      },
    },
    async (request, reply) => exported(request, reply, 'fund-claims', CLAIM_CSV, listFundClaims, request.query),
  );

  app.get(
    '/fund-claims/:id',
    {
      schema: {
        tags,
        summary: 'One claim (with asOf: as it was at that moment)',
        params: uuidParam,
        querystring: asOfQuery,
        response: { 200: fundClaimAnswer },
      },
    },
    async (request) => {
      const found = await loadClaim(request, request.params.id, reads);
      if (request.query.asOf)
        return recordAnswer(
          await asOfAnswer(services, VERSIONED_RECORDS.fundClaims, found.id, request.query.asOf, request.principal, FUND_CLAIM_MESSAGES.notFound),
        );
      return recordAnswer(found);
    },
  );

  app.post(
    '/fund-claims/:id/proof',
    {
      errorHandler: statusErrorHandler,
      schema: {
        tags,
        summary: 'Add proof while more is requested (multipart: proof files); the claim goes back to review',
        params: uuidParam,
        consumes: ['multipart/form-data'],
        response: { 200: fundClaimRecordAnswer },
      },
    },
    async (request) => {
      const found = await loadClaim(request, request.params.id);
      const form = await readMultipart(request, { proof: PROOF_RULE });
      formFields(form, proofFields);
      await withStoredFiles(form.files.proof, async (proof) => {
        await runCommand(
          services,
          fundClaims,
          found.id,
          { type: 'AddFundClaimProof', actorOrganisationId: request.principal.organisationId, proof },
          metadataFromRequest(request),
        );
      });
      return recordAnswer(await loadClaim(request, found.id), FUND_CLAIM_MESSAGES.submitted);
    },
  );

  app.post(
    '/fund-claims/:id/review',
    {
      errorHandler: statusErrorHandler,
      schema: {
        tags,
        summary: 'Review a claim (admins): approved with paid_amount, rejected or more_proof_requested with a reason',
        params: uuidParam,
        body: claimReviewBody,
        response: { 200: fundClaimRecordAnswer },
      },
    },
    async (request) => {
      const found = await loadClaim(request, request.params.id);
      const b = request.body;
      await reviewFundClaim(
        services,
        found.id,
        { decision: b.decision, paidAmountCents: b.paid_amount ?? null, reason: b.reason ?? null },
        metadataFromRequest(request),
      );
      return recordAnswer(await loadClaim(request, found.id), FUND_CLAIM_MESSAGES.reviewed(b.decision));
    },
  );

  app.post(
    '/fund-claims/:id/payout',
    {
      schema: {
        tags,
        summary: "Record an approved claim's payout (admins): reference, paid_at, method",
        params: uuidParam,
        body: payoutBody,
        response: { 200: fundClaimRecordAnswer },
      },
    },
    async (request) => {
      const found = await loadClaim(request, request.params.id);
      await recordFundPayout(
        services,
        found.id,
        { reference: request.body.reference, paidAt: request.body.paid_at, method: request.body.method },
        metadataFromRequest(request),
      );
      return recordAnswer(await loadClaim(request, found.id), FUND_CLAIM_MESSAGES.paid);
    },
  );

  app.get(
    '/fund-claims/:id/history',
    { schema: { tags, summary: "A claim's status history", params: uuidParam, response: { 200: statusHistoryAnswer } } },
    async (request) => {
      const found = await loadClaim(request, request.params.id, reads);
      return { success: true as const, data: await statusHistoryOf(reads, 'fundClaims', found.id) };
    },
  );
  versionsRoute(app, services, {
    path: '/fund-claims',
    type: VERSIONED_RECORDS.fundClaims,
    params: uuidParam,
    notFound: FUND_CLAIM_MESSAGES.notFound,
    visible: async (request, id) => (await loadClaim(request, id, reads)).id,
  });

  app.get(
    '/fund-claims/:id/proof/:name',
    {
      schema: {
        tags,
        summary: "A claim's proof file, to those who may see the claim",
        params: fileParams,
        response: { 200: fileAnswer('The stored file (PDF, JPEG, PNG, CSV or Excel), as an attachment') },
      },
    },
    async (request, reply) => sendFile(request, request.params, reply, 'proof'),
  );
}
