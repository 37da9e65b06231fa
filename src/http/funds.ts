import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  allocationBody,
  balanceAnswer,
  closeBody,
  createFundBody,
  fundAnswer,
  fundCreatedAnswers,
  fundListAnswer,
  fundRecordAnswer,
  ruleBody,
  rulePreviewAnswer,
  ruleQuery,
  statusHistoryAnswer,
  updateFundBody,
} from '../../contracts/funds';
import { isAdminRole } from '../../domain/access';
import { FUND_MESSAGES, FUND_STATUSES, funds } from '../../domain/funds/funds';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { balances, FUND_SORT_FIELDS, listFunds } from '../../projections/funds';
import { statusHistoryOf } from '../../projections/statusHistory';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { closeFundPeriod, previewAllocationRule, setAllocationsByRule } from '../../commands/funds';
import { HttpError } from '../plugins/errors';
import type { Services } from '../../platform/services';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { fundClaimRoutes } from './fundClaims';
import { fundAccess } from './fundAccess';
import { fundRequestRoutes } from './fundRequests';
import { listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { recordAnswer } from './records';
import { uuidParam } from './validation';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';

const tags = ['funds'];

const fundListQuery = listQuerySchema({ status: z.enum(FUND_STATUSES).optional() }, FUND_SORT_FIELDS);
const organisationParams = z.object({ id: z.uuid({ error: 'The id in the address is not valid.' }) }).strict();

/**
 * Market development funds (contracts/funds.ts): the fund periods and their allocations here, the
 * activity requests in fundRequests.ts and the claims in fundClaims.ts.
 */
export async function fundRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { reads } = services;
  const { scopeOf, loadFund, listed } = fundAccess(services);

  // ---- funds ----

  app.get(
    '/funds',
    {
      schema: {
        tags,
        summary: 'Fund periods with their allocations (an organisation sees the funds that allocate to it, with its own figures)',
        querystring: fundListQuery,
        response: { 200: fundListAnswer },
      },
    },
    async (request, reply) => {
      const { rows, total } = await listed(request, listFunds, request.query);
      return sendList(reply, 'funds', request.query, rows, total) as z.infer<typeof fundListAnswer>;
    },
  );

  app.get(
    '/funds/balance',
    {
      schema: {
        tags,
        summary:
          "The caller's organisation's balance per fund and in total: allocated, accrued, reserved, claimed, paid, available (every organisation's, for admins)",
        response: { 200: balanceAnswer },
      },
    },
    async (request) => ({
      success: true as const,
      data: await balances(reads, scopeOf(request)),
    }),
  );

  app.post(
    '/funds',
    { schema: { tags, summary: 'Create a fund period with its allocations (admins)', body: createFundBody, response: fundCreatedAnswers } },
    async (request, reply) => {
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
    },
  );

  app.get(
    '/funds/:id',
    { schema: { tags, summary: 'One fund (with asOf: as it was at that moment)', params: uuidParam, querystring: asOfQuery, response: { 200: fundAnswer } } },
    async (request) => {
      const fund = await loadFund(request, request.params.id, reads);
      if (request.query.asOf)
        return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.funds, fund.id, request.query.asOf, request.principal, FUND_MESSAGES.notFound));
      return recordAnswer(fund);
    },
  );

  app.put(
    '/funds/:id',
    {
      schema: {
        tags,
        summary: "Change a fund's name, period, budget or co-op share (admins)",
        params: uuidParam,
        body: updateFundBody,
        response: { 200: fundRecordAnswer },
      },
    },
    async (request) => {
      const fund = await loadFund(request, request.params.id);
      const b = request.body;
      await runCommand(
        services,
        funds,
        fund.id,
        {
          type: 'UpdateFund',
          name: b.name,
          periodStart: b.period_start,
          periodEnd: b.period_end,
          budgetCents: b.budget,
          coopShareBasisPoints: Math.round(b.coop_share_percent * 100),
        },
        metadataFromRequest(request),
      );
      return recordAnswer(await loadFund(request, fund.id), 'Fund updated.');
    },
  );

  app.post(
    '/funds/:id/allocations',
    {
      schema: {
        tags,
        summary: "Set one organisation's allocation in a fund (admins)",
        params: organisationParams,
        body: allocationBody,
        response: { 200: fundRecordAnswer },
      },
    },
    async (request) => {
      const fund = await loadFund(request, request.params.id);
      await runCommand(
        services,
        funds,
        fund.id,
        { type: 'SetAllocation', organisationId: request.body.organisation_id, amountCents: request.body.amount },
        metadataFromRequest(request),
      );
      return recordAnswer(await loadFund(request, fund.id), 'Allocation saved.');
    },
  );

  app.post(
    '/funds/:id/close',
    {
      schema: {
        tags,
        summary: "Close a fund period early (admins): each organisation's available balance expires; approved reservations stay claimable until their deadline",
        params: uuidParam,
        body: closeBody.optional(),
        response: { 200: fundRecordAnswer },
      },
    },
    async (request) => {
      const fund = await loadFund(request, request.params.id);
      await closeFundPeriod(services, fund.id, 'manual', metadataFromRequest(request));
      return recordAnswer(await loadFund(request, fund.id), 'Fund period closed.');
    },
  );

  /** The preview names every organisation's purchases: administrators only. */
  const adminsOnly = (request: FastifyRequest) => {
    if (!isAdminRole(request.principal.role)) throw new HttpError(403, 'INSUFFICIENT_PERMISSIONS', FUND_MESSAGES.onlyAdmins);
  };

  app.get(
    '/funds/:id/allocation-rule',
    {
      schema: {
        tags,
        summary: 'Preview allocations by a rule (admins): percent of each organisation’s delivered purchases in the previous period of the fund’s length',
        params: uuidParam,
        querystring: ruleQuery,
        response: { 200: rulePreviewAnswer },
      },
    },
    async (request) => {
      adminsOnly(request);
      const fund = await loadFund(request, request.params.id, reads);
      return { success: true as const, data: await previewAllocationRule(services, fund, request.query.percent, new Date().toISOString()) };
    },
  );

  app.post(
    '/funds/:id/allocation-rule',
    {
      schema: {
        tags,
        summary: 'Set allocations by a rule (admins), measured as the preview shows; organisations without purchases keep their allocation',
        params: uuidParam,
        body: ruleBody,
        response: { 200: fundRecordAnswer },
      },
    },
    async (request) => {
      adminsOnly(request);
      const fund = await loadFund(request, request.params.id);
      await setAllocationsByRule(services, fund.id, Math.round(request.body.percent * 100), metadataFromRequest(request));
      return recordAnswer(await loadFund(request, fund.id), 'Allocations set by the rule.');
    },
  );

  app.get(
    '/funds/:id/history',
    { schema: { tags, summary: "A fund's status history", params: uuidParam, response: { 200: statusHistoryAnswer } } },
    async (request) => {
      const fund = await loadFund(request, request.params.id, reads);
      return { success: true as const, data: await statusHistoryOf(reads, 'funds', fund.id) };
    },
  );
  versionsRoute(app, services, {
    path: '/funds',
    type: VERSIONED_RECORDS.funds,
    params: uuidParam,
    notFound: FUND_MESSAGES.notFound,
    visible: async (request, id) => (await loadFund(request, id, reads)).id,
  });

  await fundRequestRoutes(parent, services);
  await fundClaimRoutes(parent, services);
}
