import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  evaluateBody,
  evaluationRunAnswer,
  evaluationRunListAnswer,
  evaluationRunSchema,
  overrideBody,
  standingAnswer,
  standingListAnswer,
  standingHistoryAnswer,
  tierAnswer,
  tierBody,
  tierListAnswer,
  tierSchema,
  tierUpdateBody,
  versionsAnswer,
} from '../../contracts/programme';
import { createdAnswers } from '../../contracts/answers';
import { seesAllOrganisations } from '../../domain/access';
import { programme, programmeRuns, programmeTiers, standingVersionType, tierVersionType, type TierFields } from '../../domain/programme/programme';
import { findRun, findTier, listRuns, listStandings, listTiers, standingHistoryOf, standingOf, tierWithRank } from '../../projections/programme';
import { metadataFromRequest, runCommand, waitForReadModels } from '../../platform/commands/dispatch';
import { evaluateProgramme } from '../../commands/programme';
import { HttpError } from '../plugins/errors';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { booleanFilter, listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { recordAnswer } from './records';
import { uuidParam } from './validation';
import { versionsAnswer as versionsAnswerOf } from './versions';

const tags = ['programme'];
const NOT_FOUND = 'Organisation not found.';
const TIER_NOT_FOUND = 'Tier not found.';

const tierListQuery = listQuerySchema({}, ['rank']);
const runListQuery = listQuerySchema({}, ['evaluated_at']);
const standingListQuery = listQuerySchema({ tier: z.string().max(100).optional(), at_risk: booleanFilter.optional() }, ['tier']);
const endOverrideBody = z
  .object({ reason: z.string().trim().min(3, { error: 'reason must say why (3 characters or more).' }).max(500).optional() })
  .strict()
  .meta({ example: { reason: 'The launch is over.' } });

/** The organisation a caller may read the standing of: its own, or any for those who see all organisations. */
function visibleOrganisation(request: FastifyRequest, id: string): string {
  if (seesAllOrganisations(request.principal.role) || request.principal.organisationId === id) return id;
  throw new HttpError(404, 'NOT_FOUND', NOT_FOUND);
}

export async function programmeRoutes(parent: FastifyInstance, services: Services) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;

  const standingFor = async (organisationId: string, db: Queryable = pool) => {
    const standing = await standingOf(db, organisationId, new Date());
    if (!standing) throw new HttpError(404, 'NOT_FOUND', NOT_FOUND);
    return standing;
  };

  // ---- tiers ----

  app.get(
    '/programme/tiers',
    {
      schema: {
        tags,
        summary: 'The programme’s tiers, lowest first: requirements (over a trailing window) and benefits',
        querystring: tierListQuery,
        response: { 200: tierListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const all = await listTiers(reads, q.ids);
      const sorted = q.sort?.order === 'DESC' ? [...all].reverse() : all;
      return sendList(reply, 'tiers', q, sorted.slice(q.offset, q.offset + q.limit), all.length) as z.infer<typeof tierListAnswer>;
    },
  );

  app.get('/programme/tiers/:id', { schema: { tags, summary: 'One tier', params: uuidParam, response: { 200: tierAnswer } } }, async (request) => {
    const tier = await findTier(reads, request.params.id);
    if (!tier) throw new HttpError(404, 'NOT_FOUND', TIER_NOT_FOUND);
    return recordAnswer(tier);
  });

  app.post(
    '/programme/tiers',
    { schema: { tags, summary: 'Add a tier (admins)', body: tierBody, response: createdAnswers(tierSchema) } },
    async (request, reply) => {
      const tierId = newRecordId(request, 'programme-tier');
      const created = { id: tierId, location: `/api/programme/tiers/${tierId}` };
      const read = async () => recordAnswer((await findTier(pool, tierId))!, 'Tier added.');
      const earlier = await earlierCreation(services, request, programmeTiers.streamId(tierId), tierId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      const fields: TierFields = { ...request.body, description: request.body.description ?? '' };
      await runCommand(
        services,
        programmeTiers,
        tierId,
        { type: 'CreateTier', tierId, fields, rankTaken: await tierWithRank(pool, fields.rank, null) },
        metadataFromRequest(request),
      );
      return answerCreated(services, reply, created, read);
    },
  );

  app.put(
    '/programme/tiers/:id',
    {
      schema: {
        tags,
        summary: 'Change a tier’s name, rank, requirements or benefits (admins)',
        params: uuidParam,
        body: tierUpdateBody,
        response: { 200: tierAnswer },
      },
    },
    async (request) => {
      const id = request.params.id;
      if (!(await findTier(pool, id))) throw new HttpError(404, 'NOT_FOUND', TIER_NOT_FOUND);
      const changes = Object.fromEntries(Object.entries(request.body).filter(([, value]) => value !== undefined)) as Partial<TierFields>;
      const rankTaken = changes.rank === undefined ? false : await tierWithRank(pool, changes.rank, id);
      await runCommand(services, programmeTiers, id, { type: 'UpdateTier', tierId: id, changes, rankTaken }, metadataFromRequest(request));
      return recordAnswer((await findTier(pool, id))!, 'Tier saved.');
    },
  );

  app.get(
    '/programme/tiers/:id/versions',
    { schema: { tags: ['versions'], summary: 'The versions of a tier: who changed what and when', params: uuidParam, response: { 200: versionsAnswer } } },
    async (request) => {
      const id = request.params.id;
      if (!(await findTier(reads, id))) throw new HttpError(404, 'NOT_FOUND', TIER_NOT_FOUND);
      return { success: true as const, data: await versionsAnswerOf(services, tierVersionType, id, request.principal, TIER_NOT_FOUND) };
    },
  );

  // ---- standings ----

  app.get(
    '/programme/standing',
    {
      schema: {
        tags,
        summary: 'The caller’s organisation: its tier, since when, progress to the next tier and what is missing, at risk or not, the next evaluation',
        response: { 200: standingAnswer },
      },
    },
    async (request) => {
      const organisationId = request.principal.organisationId;
      if (!organisationId) throw new HttpError(404, 'NOT_FOUND', NOT_FOUND);
      return recordAnswer(await standingFor(organisationId, reads));
    },
  );

  app.get(
    '/programme/organisations',
    {
      schema: {
        tags,
        summary: 'Each evaluated organisation’s tier in force, highest first (a partner: its own)',
        querystring: standingListQuery,
        response: { 200: standingListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const organisationId = seesAllOrganisations(request.principal.role) ? null : (request.principal.organisationId ?? '00000000-0000-0000-0000-000000000000');
      const { rows, total } = await listStandings(
        reads,
        { organisationId, ids: q.ids, tier: q.filters.tier, atRisk: q.filters.at_risk, q: q.search },
        { limit: q.limit, offset: q.offset },
      );
      return sendList(reply, 'standings', q, rows, total) as z.infer<typeof standingListAnswer>;
    },
  );

  app.get(
    '/programme/organisations/:id/standing',
    { schema: { tags, summary: 'An organisation’s standing (a partner: its own)', params: uuidParam, response: { 200: standingAnswer } } },
    async (request) => recordAnswer(await standingFor(visibleOrganisation(request, request.params.id), reads)),
  );

  app.get(
    '/programme/organisations/:id/history',
    {
      schema: {
        tags,
        summary: 'An organisation’s promotions, demotions, warnings and overrides, newest first',
        params: uuidParam,
        response: { 200: standingHistoryAnswer },
      },
    },
    async (request) => {
      const id = visibleOrganisation(request, request.params.id);
      await standingFor(id, reads);
      return { success: true as const, data: { history: await standingHistoryOf(reads, id) } };
    },
  );

  app.get(
    '/programme/organisations/:id/versions',
    {
      schema: {
        tags: ['versions'],
        summary: 'The versions of an organisation’s standing: evaluations, tier changes, overrides',
        params: uuidParam,
        response: { 200: versionsAnswer },
      },
    },
    async (request) => {
      const id = visibleOrganisation(request, request.params.id);
      return { success: true as const, data: await versionsAnswerOf(services, standingVersionType, id, request.principal, NOT_FOUND) };
    },
  );

  app.post(
    '/programme/organisations/:id/override',
    {
      schema: {
        tags,
        summary: 'Hold an organisation in a tier until an end date, with a reason (admins)',
        params: uuidParam,
        body: overrideBody,
        response: { 200: standingAnswer },
      },
    },
    async (request) => {
      const id = request.params.id;
      const standing = await standingFor(id);
      const tier = await findTier(pool, request.body.tier_id);
      if (!tier) throw new HttpError(400, 'VALIDATION_ERROR', 'tier_id names no tier.');
      const tiers = await listTiers(pool);
      await runCommand(
        services,
        programme,
        id,
        {
          type: 'OverrideTier',
          organisationId: id,
          tier: { id: tier.id, name: tier.name, rank: tier.rank },
          reason: request.body.reason,
          endsOn: request.body.ends_on,
          entryTier: tiers[0],
        },
        metadataFromRequest(request),
      );
      void standing;
      return recordAnswer(await standingFor(id), `${standing.organisation_name} holds ${tier.name} until ${request.body.ends_on}.`);
    },
  );

  app.delete(
    '/programme/organisations/:id/override',
    { schema: { tags, summary: 'End an override now (admins)', params: uuidParam, response: { 200: standingAnswer } } },
    async (request) => {
      const id = request.params.id;
      await standingFor(id);
      const body = endOverrideBody.safeParse(request.body ?? {});
      const reason = body.success && body.data.reason ? body.data.reason : 'Ended by an administrator.';
      await runCommand(services, programme, id, { type: 'EndOverride', organisationId: id, reason }, metadataFromRequest(request));
      return recordAnswer(await standingFor(id), 'The override has ended.');
    },
  );

  // ---- evaluation runs ----

  app.post(
    '/programme/evaluate',
    {
      schema: {
        tags,
        summary: 'Evaluate organisations now (admins): the quarter’s first evaluation may warn and demote, later ones only promote or clear warnings',
        body: evaluateBody,
        response: createdAnswers(evaluationRunSchema),
      },
    },
    async (request, reply) => {
      const runId = newRecordId(request, 'programme-run');
      const created = { id: runId, location: `/api/programme/evaluations/${runId}` };
      const read = async () => recordAnswer((await findRun(pool, runId))!, 'Evaluated.');
      const earlier = await earlierCreation(services, request, programmeRuns.streamId(runId), runId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      await evaluateProgramme(services, { runId, trigger: 'admin', organisationIds: request.body.organisation_ids }, metadataFromRequest(request));
      return answerCreated(services, reply, created, read);
    },
  );

  app.get(
    '/programme/evaluations',
    { schema: { tags, summary: 'Evaluation runs, newest first', querystring: runListQuery, response: { 200: evaluationRunListAnswer } } },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listRuns(reads, { limit: q.limit, offset: q.offset, ids: q.ids });
      return sendList(
        reply,
        'evaluations',
        q,
        rows.map(({ results: _results, ...run }) => run),
        total,
      ) as z.infer<typeof evaluationRunListAnswer>;
    },
  );

  app.get(
    '/programme/evaluations/:id',
    { schema: { tags, summary: 'One evaluation run with the result for every organisation', params: uuidParam, response: { 200: evaluationRunAnswer } } },
    async (request) => {
      const run = await findRun(reads, request.params.id);
      if (!run) throw new HttpError(404, 'NOT_FOUND', 'Evaluation run not found.');
      return recordAnswer(run);
    },
  );

  void waitForReadModels;
}
