import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAdminRole } from '../../domain/access';
import { CATALOGUE_VERSION, PUBLIC_EVENT_TYPES } from '../../domain/webhooks/catalogue';
import { ENDPOINT_STATUSES, WEBHOOK_MESSAGES, webhooks } from '../../domain/webhooks/webhooks';
import {
  webhookCatalogueAnswer,
  webhookCommandAnswer,
  webhookCreateBody,
  webhookCreatedAnswers,
  webhookDeliveriesAnswer,
  webhookDeliveriesQuery,
  webhookEndpoint,
  webhookListAnswer,
  webhookRecordAnswer,
  webhookReplayBody,
} from '../../contracts/webhooks';
import { deliveriesPage, deliveryExists, findWebhookEndpoint, listWebhookEndpoints, WEBHOOK_SORT_FIELDS, type WebhookScope } from '../../projections/webhooks';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { HttpError } from '../plugins/errors';
import type { Services } from '../../platform/services';
import { newSigningSecret } from '../../workers/webhooks';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { recordAnswer, updateBody } from './records';
import { uuidParam } from './validation';

const READ_ONLY_FIELDS = [
  'id',
  'organisation_id',
  'organisation_name',
  'status',
  'status_reason',
  'created_at',
  'updated_at',
  'last_delivery_at',
  'pending_deliveries',
  'failed_deliveries',
  'secret',
] as const;
const updateShape = {
  url: webhookCreateBody.shape.url.optional(),
  event_types: webhookCreateBody.shape.event_types.optional(),
  active: z.boolean({ error: 'Active must be true or false.' }).optional(),
};
const webhookUpdateBody = updateBody(updateShape, READ_ONLY_FIELDS).meta({
  example: { url: 'https://crm.example.com/hooks/v2', event_types: ['order.status_changed'], active: false },
});

const listQuery = listQuerySchema(
  {
    status: z.enum(ENDPOINT_STATUSES, { error: 'Status must be active, inactive or disabled.' }).optional(),
    organisation_id: z.uuid({ error: 'Organisation id is not valid.' }).optional(),
  },
  WEBHOOK_SORT_FIELDS,
);
const deliveryParams = z
  .object({ id: z.uuid({ error: 'The id in the address is not valid.' }), deliveryId: z.uuid({ error: 'The delivery id in the address is not valid.' }) })
  .strict();

export async function webhookRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, config } = services;
  const tags = ['webhooks'];
  const production = config.NODE_ENV === 'production';

  /** Admins see every endpoint; an organisation's owner only its organisation's. */
  const scopeOf = (request: FastifyRequest): WebhookScope => ({
    organisationId: isAdminRole(request.principal.role) ? undefined : request.principal.organisationId,
  });
  /** An endpoint of another organisation is answered exactly like one that does not exist. */
  const load = async (request: FastifyRequest, id: string) => {
    const endpoint = await findWebhookEndpoint(pool, id, scopeOf(request));
    if (!endpoint) throw new HttpError(404, 'NOT_FOUND', WEBHOOK_MESSAGES.notFound);
    return endpoint;
  };
  const command = (request: FastifyRequest, id: string, cmd: Parameters<typeof webhooks.decide>[0]) =>
    runCommand(services, webhooks, id, cmd, metadataFromRequest(request));

  app.get(
    '/webhooks/catalogue',
    {
      schema: {
        tags,
        summary: 'The public event catalogue: each type, its version, what it means and an example payload',
        response: { 200: webhookCatalogueAnswer },
      },
    },
    async (request) => {
      const vendor = isAdminRole(request.principal.role);
      return {
        success: true as const,
        data: {
          version: CATALOGUE_VERSION,
          event_types: PUBLIC_EVENT_TYPES.filter((t) => vendor || t.organisationScoped).map((t) => ({
            type: t.type,
            version: t.version,
            resource: t.resource,
            description: t.description,
            organisation_scoped: t.organisationScoped,
            example: t.example,
          })),
        },
      };
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        summary: "Webhook endpoints: every endpoint for admins (organisation_id null: the vendor's), an organisation's own for its owner",
        querystring: listQuery,
        response: { 200: webhookListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listWebhookEndpoints(
        pool,
        scopeOf(request),
        { ...q.filters, search: q.search, ids: q.ids },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      return sendList(reply, 'webhooks', q, rows, total) as z.infer<typeof webhookListAnswer>;
    },
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: "Register an endpoint (an admin: the vendor's; an owner: the organisation's). The answer holds the signing secret (whsec_…), once",
        body: webhookCreateBody,
        response: webhookCreatedAnswers,
      },
    },
    async (request, reply) => {
      const endpointId = newRecordId(request, 'webhook');
      const created = { id: endpointId, location: `/api/webhooks/${endpointId}` };
      const read = async () => webhookEndpoint.parse(await load(request, endpointId));
      const earlier = await earlierCreation(services, request, webhooks.streamId(endpointId), endpointId);
      // The secret is shown once: a repeated request gets the endpoint without it.
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, async () => recordAnswer(await read(), WEBHOOK_MESSAGES.created));
      const secret = newSigningSecret(randomBytes);
      const organisationId = isAdminRole(request.principal.role) ? null : request.principal.organisationId;
      await command(request, endpointId, {
        type: 'RegisterWebhookEndpoint',
        endpointId,
        organisationId,
        url: request.body.url,
        eventTypes: request.body.event_types,
        active: request.body.active ?? true,
        secret,
        production,
      });
      return answerCreated(services, reply, created, async () => recordAnswer({ ...(await read()), secret }, WEBHOOK_MESSAGES.created), { secret });
    },
  );

  app.get(
    '/webhooks/:id',
    { schema: { tags, summary: 'One webhook endpoint (never its secret)', params: uuidParam, response: { 200: webhookRecordAnswer } } },
    async (request) => recordAnswer(await load(request, request.params.id)),
  );

  app.put(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Change the URL, the event types or the active flag (activating a disabled endpoint sends what waited)',
        params: uuidParam,
        body: webhookUpdateBody,
        response: { 200: webhookRecordAnswer },
      },
    },
    async (request) => {
      await load(request, request.params.id);
      const body = request.body;
      await command(request, request.params.id, {
        type: 'UpdateWebhookEndpoint',
        url: body.url,
        eventTypes: body.event_types,
        active: body.active,
        production,
      });
      return recordAnswer(await load(request, request.params.id), WEBHOOK_MESSAGES.updated);
    },
  );

  app.delete(
    '/webhooks/:id',
    { schema: { tags, summary: 'Delete an endpoint: nothing more is sent to it', params: uuidParam, response: { 200: webhookRecordAnswer } } },
    async (request) => {
      const endpoint = await load(request, request.params.id);
      await command(request, request.params.id, { type: 'DeleteWebhookEndpoint' });
      return recordAnswer(endpoint, WEBHOOK_MESSAGES.deleted);
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: "The endpoint's delivery log, newest first: event, status, status code, duration, response excerpt, attempts",
        params: uuidParam,
        querystring: webhookDeliveriesQuery,
        response: { 200: webhookDeliveriesAnswer },
      },
    },
    async (request) => {
      await load(request, request.params.id);
      const q = request.query;
      const limit = q.limit ?? 25;
      const page = q.page ?? 1;
      const { rows, total } = await deliveriesPage(
        pool,
        request.params.id,
        { status: q.status, event_type: q.event_type },
        { offset: (page - 1) * limit, limit },
      );
      return { success: true as const, data: { deliveries: rows, total, page, limit, totalPages: Math.max(1, Math.ceil(total / limit)) } };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        summary: 'Send a logged delivery again (behind what the record has pending)',
        params: deliveryParams,
        response: { 200: webhookCommandAnswer },
      },
    },
    async (request) => {
      const endpoint = await load(request, request.params.id);
      // Whether the endpoint can take a delivery at all is told before which delivery is meant.
      if (endpoint.status !== 'active') throw new HttpError(409, 'WEBHOOK_NOT_ACTIVE', WEBHOOK_MESSAGES.notActive);
      if (!(await deliveryExists(pool, request.params.id, request.params.deliveryId))) throw new HttpError(404, 'NOT_FOUND', 'Delivery not found');
      await command(request, request.params.id, { type: 'RequestWebhookRedelivery', deliveryId: request.params.deliveryId });
      return {
        success: true as const,
        message: WEBHOOK_MESSAGES.redeliveryQueued,
        data: { endpoint_id: request.params.id, delivery_id: request.params.deliveryId },
      };
    },
  );

  app.post(
    '/webhooks/:id/replay',
    {
      schema: {
        tags,
        summary: 'Re-send every event the endpoint receives that happened since `from`, read from the event log',
        params: uuidParam,
        body: webhookReplayBody,
        response: { 200: webhookCommandAnswer },
      },
    },
    async (request) => {
      await load(request, request.params.id);
      await command(request, request.params.id, { type: 'RequestWebhookReplay', from: request.body.from });
      return {
        success: true as const,
        message: WEBHOOK_MESSAGES.replayQueued,
        data: { endpoint_id: request.params.id, from: new Date(request.body.from).toISOString() },
      };
    },
  );
}
