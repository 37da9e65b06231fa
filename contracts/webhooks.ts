import { z } from 'zod';
import { ENDPOINT_STATUSES, MAX_URL_LENGTH } from '../domain/webhooks/webhooks';
import { PUBLIC_TYPE_NAMES } from '../domain/webhooks/catalogue';
import { commandAnswer, createdAnswers, listAnswer, recordAnswer } from './answers';

const EXAMPLE_URL = 'https://crm.example.com/hooks/partnerhub';

const eventTypes = z
  .array(z.string().max(100), { error: 'Choose at least one event type.' })
  .min(1, 'Choose at least one event type.')
  .max(PUBLIC_TYPE_NAMES.length, 'Too many event types.');
const url = z.string({ error: 'URL is required.' }).min(1, 'URL is required.').max(MAX_URL_LENGTH, `URL must be at most ${MAX_URL_LENGTH} characters.`);

/** POST /api/webhooks */
export const webhookCreateBody = z
  .object({ url, event_types: eventTypes, active: z.boolean({ error: 'Active must be true or false.' }).optional() })
  .strict()
  .meta({ example: { url: EXAMPLE_URL, event_types: ['order.status_changed', 'lead.assigned'], active: true } });

export const webhookEndpoint = z.object({
  id: z.string(),
  /** null: the vendor's endpoint (admins'). */
  organisation_id: z.string().nullable(),
  organisation_name: z.string().nullable(),
  url: z.string(),
  event_types: z.array(z.string()),
  active: z.boolean(),
  status: z.enum(ENDPOINT_STATUSES),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  last_delivery_at: z.string().nullable(),
  pending_deliveries: z.number().int(),
  failed_deliveries: z.number().int(),
});
export type WebhookEndpointView = z.infer<typeof webhookEndpoint>;

/** The creation's answer: the endpoint and, in this answer only, its signing secret (`whsec_…`). */
export const webhookCreated = webhookEndpoint.extend({ secret: z.string().optional() });
export const webhookCreatedAnswers = createdAnswers(webhookCreated);

export const webhookRecordAnswer = recordAnswer(webhookEndpoint);
export const webhookListAnswer = listAnswer('webhooks', webhookEndpoint);

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const DELIVERY_KINDS = ['live', 'replay', 'redelivery'] as const;

export const webhookDelivery = z.object({
  id: z.string(),
  endpoint_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  kind: z.enum(DELIVERY_KINDS),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  response_excerpt: z.string().nullable(),
  error: z.string().nullable(),
  occurred_at: z.string(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDelivery>;

/** GET /api/webhooks/:id/deliveries */
export const webhookDeliveriesAnswer = z.object({
  success: z.literal(true),
  data: z.object({
    deliveries: z.array(webhookDelivery),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  }),
});

export const webhookDeliveriesQuery = z
  .object({
    status: z.enum(DELIVERY_STATUSES, { error: 'Status must be pending, delivered or failed.' }).optional(),
    event_type: z.string().max(100).optional(),
    page: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
  })
  .strict();

/** POST /api/webhooks/:id/replay */
export const webhookReplayBody = z
  .object({ from: z.iso.datetime({ offset: true, error: 'From must be a date and time (ISO 8601).' }) })
  .strict()
  .meta({ example: { from: '2026-11-01T00:00:00.000Z' } });

export const webhookCommandAnswer = commandAnswer(z.object({ endpoint_id: z.string() }).loose());

export const webhookEventType = z.object({
  type: z.string(),
  version: z.number().int(),
  resource: z.string(),
  description: z.string(),
  organisation_scoped: z.boolean(),
  example: z.record(z.string(), z.unknown()),
});
export const webhookCatalogueAnswer = z.object({ success: z.literal(true), data: z.object({ version: z.string(), event_types: z.array(webhookEventType) }) });
export type WebhookEventTypeView = z.infer<typeof webhookEventType>;
