import { startSweep, type Sweep } from './sweeps';
import { createHash } from 'node:crypto';
import type { Job, Processor, Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { DomainError, type CommandMetadata } from '../domain/decider';
import { endpointReceives, publicEventOf, SOURCE_EVENT_TYPES, webhookBody, type PublicEvent } from '../domain/webhooks/catalogue';
import { webhooks, type WebhookEvent } from '../domain/webhooks/webhooks';
import { activeAdminIds } from '../projections/users';
import {
  activeEndpointsFor,
  endpointTarget,
  failDeliveriesToDeletedEndpoint,
  insertDeliveries,
  nextPendingDelivery,
  pendingDeliveriesDue,
  recordDeliveryAttempt,
  recordsWithPendingDeliveries,
  signingSecretOf,
  storedDelivery,
  tryLockRecordDeliveries,
  unlockRecordDeliveries,
  type EndpointTarget,
  type PendingDelivery,
  type StoredDelivery,
} from '../projections/webhooks';
import { deterministicUuid, handleCommand } from '../platform/commands/commandHandler';
import { asDomainEvent, comparePositions } from '../platform/eventstore';
import type { Services } from '../platform/services';
import { notificationJob } from './notifications';
import { QUEUES, type JobRequest, type Queues } from '../platform/queues';
import type { Reaction, ReactionTable } from './reactor';
import { postWebhook } from './webhookHttp';

/**
 * Outbound webhooks. The reactor follows the log: for each event of the public catalogue it writes one
 * delivery row per endpoint that receives it (webhook_deliveries, the outbox and delivery log) and asks
 * for a drain job of that endpoint and record.
 *
 * Order per record: the messages of one record (one stream) to one endpoint go out one after another,
 * oldest first. A drain holds a Postgres advisory lock on (endpoint, record) and sends that record's
 * pending rows in seq order; a failure stops the drain at that row, which waits for its retry (a
 * delayed drain job at next_attempt_at) with the rows behind it. Records do not wait for one another.
 *
 * At least once: a row is pending until a consumer answered 2xx; jobs are only the wake-ups, and a
 * sweep wakes any pending row whose job was lost. A delivery that keeps failing for
 * WEBHOOK_RETRY_PERIOD_MS (24 h) fails for good and disables its endpoint; the owner is told.
 */

export type WebhookJobData = { kind: 'drain'; endpointId: string; recordKey: string } | { kind: 'replay'; endpointId: string; from: string; replayId: string };

const keyHash = (recordKey: string) => createHash('sha256').update(recordKey).digest('hex').slice(0, 16);

export const drainJob = (endpointId: string, recordKey: string, reason: string): JobRequest => ({
  queue: QUEUES.webhooks,
  name: 'drain',
  id: `wh-drain.${endpointId}.${keyHash(recordKey)}.${reason}`,
  data: { kind: 'drain', endpointId, recordKey } satisfies WebhookJobData,
});

const deliveryId = (endpointId: string, eventId: string, kind: string) => deterministicUuid(`webhook-delivery:${endpointId}:${eventId}:${kind}`);

const rowFor = (
  endpointId: string,
  event: PublicEvent,
  recorded: { id: string; metadata: { occurredAt: string } },
  kind: StoredDelivery['kind'],
  id: string,
): StoredDelivery => ({
  id,
  endpoint_id: endpointId,
  event_id: recorded.id,
  event_type: event.type,
  record_key: event.recordKey,
  occurred_at: recorded.metadata.occurredAt,
  body: webhookBody(event, recorded.id, recorded.metadata.occurredAt),
  kind,
});

// ---- reactions ----

/** An event of the catalogue: a delivery row for each active endpoint registered before it that receives it. */
const publish: Reaction = async (event, context) => {
  const published = publicEventOf(event);
  if (!published) return [];
  await context.readModelsInclude(event);
  const occurredAt = Date.parse(event.metadata.occurredAt);
  const endpoints = (await activeEndpointsFor(context.pool, published.type)).filter(
    (e) => e.createdAt.getTime() <= occurredAt && endpointReceives(e, published),
  );
  if (!endpoints.length) return [];
  await insertDeliveries(
    context.pool,
    endpoints.map((e) => rowFor(e.id, published, event, 'live', deliveryId(e.id, event.id, 'live'))),
  );
  return endpoints.map((e) => drainJob(e.id, published.recordKey, event.id));
};

/** Activated again: the rows that waited go out. Disabled: its owner (the organisation, or the admins for the vendor's) hears of it. */
const statusChanged: Reaction = async (recorded, context) => {
  const event = asDomainEvent<Extract<WebhookEvent, { type: 'WebhookEndpointStatusChanged.v1' }>>(recorded);
  const d = event.data;
  if (d.status === 'active') {
    const recordKeys = await recordsWithPendingDeliveries(context.pool, d.endpointId);
    return recordKeys.map((recordKey) => drainJob(d.endpointId, recordKey, `resume-${event.id}`));
  }
  if (d.status !== 'disabled') return [];
  await context.readModelsInclude(event);
  const target = await endpointTarget(context.pool, d.endpointId);
  const recipients = d.organisationId ? [d.organisationId] : await activeAdminIds(context.pool);
  return recipients.map((recipient) =>
    notificationJob(event, recipient, {
      kind: 'webhook-disabled',
      title: 'A webhook endpoint was disabled',
      body: `Deliveries to ${target?.url ?? 'a webhook endpoint'} kept failing, so it was disabled. Fix the receiving system, then activate the endpoint again: the deliveries that waited go out then.`,
      link: '/webhooks',
    }),
  );
};

const replayRequested: Reaction = async (recorded) => {
  const d = recorded.data as Extract<WebhookEvent, { type: 'WebhookReplayRequested.v1' }>['data'];
  return [
    {
      queue: QUEUES.webhooks,
      name: 'replay',
      id: `wh-replay.${recorded.id}`,
      data: { kind: 'replay', endpointId: d.endpointId, from: d.from, replayId: recorded.id } satisfies WebhookJobData,
    },
  ];
};

/** A copy of the logged delivery, sent again behind whatever the record has pending. */
const redeliveryRequested: Reaction = async (recorded, context) => {
  const d = recorded.data as Extract<WebhookEvent, { type: 'WebhookRedeliveryRequested.v1' }>['data'];
  const original = await storedDelivery(context.pool, d.endpointId, d.deliveryId);
  if (!original) return [];
  await insertDeliveries(context.pool, [{ ...original, id: deterministicUuid(`webhook-redelivery:${recorded.id}`), kind: 'redelivery' }]);
  return [drainJob(d.endpointId, original.record_key, recorded.id)];
};

export const webhookReactions: ReactionTable = {
  ...Object.fromEntries(SOURCE_EVENT_TYPES.map((type) => [type, [publish]])),
  'WebhookEndpointStatusChanged.v1': [statusChanged],
  'WebhookReplayRequested.v1': [replayRequested],
  'WebhookRedeliveryRequested.v1': [redeliveryRequested],
};

// ---- delivery ----

type WebhookServices = Pick<Services, 'store' | 'pool' | 'config' | 'watcher'>;

/** A new signing secret in Standard Webhooks' form: `whsec_` and 32 random bytes in base64. */
export function newSigningSecret(random: (size: number) => Buffer): string {
  return `whsec_${random(32).toString('base64')}`;
}

/** The retry delay after the n-th failed attempt: doubling from the base, capped. */
export const retryDelayMs = (config: Pick<Services['config'], 'WEBHOOK_RETRY_BASE_MS' | 'WEBHOOK_RETRY_MAX_DELAY_MS'>, attempts: number) =>
  Math.min(config.WEBHOOK_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), config.WEBHOOK_RETRY_MAX_DELAY_MS);

const systemMetadata = (correlationId: string): CommandMetadata => ({
  now: new Date().toISOString(),
  actorId: null,
  actorRole: 'system',
  correlationId,
  causationId: null,
});

export type DrainOutcome = { delivered: number; waiting: 'nothing' | 'retry' | 'inactive' | 'failed' };

/** Sends one record's pending messages to one endpoint, in order, until one fails or none is left. */
export async function drainRecord(services: WebhookServices, queue: Pick<Queue, 'add'>, endpointId: string, recordKey: string): Promise<DrainOutcome> {
  const { pool, config } = services;
  const client = await pool.connect();
  try {
    if (!(await tryLockRecordDeliveries(client, endpointId, recordKey)))
      throw new Error('Another drain of this record to this endpoint is running; this one will try again.');
    try {
      let delivered = 0;
      for (;;) {
        const row = await nextPendingDelivery(client, endpointId, recordKey);
        if (!row) return { delivered, waiting: 'nothing' };
        const endpoint = await endpointTarget(client, endpointId);
        if (!endpoint) {
          await failDeliveriesToDeletedEndpoint(client, endpointId);
          return { delivered, waiting: 'failed' };
        }
        if (endpoint.status !== 'active') return { delivered, waiting: 'inactive' };
        if (row.next_attempt_at && row.next_attempt_at.getTime() > Date.now()) return { delivered, waiting: 'retry' };
        const secret = await signingSecretOf(client, endpointId);
        if (!secret) throw new Error(`The signing secret of webhook endpoint ${endpointId} is missing.`);
        const result = await send(endpoint, secret, row, config);
        const now = new Date();
        const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
        const firstAttempt = row.first_attempt_at ?? now;
        const attempts = row.attempts + 1;
        const gaveUp = !ok && now.getTime() - firstAttempt.getTime() >= config.WEBHOOK_RETRY_PERIOD_MS;
        const nextAttempt = ok || gaveUp ? null : new Date(now.getTime() + retryDelayMs(config, attempts));
        await recordDeliveryAttempt(client, row.id, {
          status: ok ? 'delivered' : gaveUp ? 'failed' : 'pending',
          attempts,
          firstAttemptAt: firstAttempt,
          lastAttemptAt: now,
          nextAttemptAt: nextAttempt,
          statusCode: result.statusCode,
          durationMs: result.durationMs,
          responseExcerpt: result.excerpt,
          error: result.error ?? (ok ? null : `The consumer answered ${result.statusCode}.`),
          deliveredAt: ok ? now : null,
        });
        if (ok) {
          delivered++;
          continue;
        }
        if (gaveUp) {
          await disable(services, endpointId, row.id, config.WEBHOOK_RETRY_PERIOD_MS);
          return { delivered, waiting: 'failed' };
        }
        await queue.add('drain', { kind: 'drain', endpointId, recordKey } satisfies WebhookJobData, {
          jobId: `wh-retry.${row.id}.${attempts}`,
          delay: nextAttempt!.getTime() - Date.now(),
        });
        return { delivered, waiting: 'retry' };
      }
    } finally {
      await unlockRecordDeliveries(client, endpointId, recordKey);
    }
  } finally {
    client.release();
  }
}

function send(endpoint: EndpointTarget, secret: string, row: PendingDelivery, config: Services['config']) {
  const body = JSON.stringify(row.body);
  // One message id per event: a retry, a redelivery and a replay carry the same id, so a consumer can drop what it already has.
  const messageId = `msg_${row.event_id}`;
  const timestamp = new Date();
  const signature = new Webhook(secret).sign(messageId, timestamp, body);
  const headers = { 'webhook-id': messageId, 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signature };
  return postWebhook(endpoint.url, body, headers, {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    maxResponseBytes: config.WEBHOOK_MAX_RESPONSE_BYTES,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
  });
}

async function disable(services: WebhookServices, endpointId: string, deliveryId: string, periodMs: number): Promise<void> {
  const hours = Math.round(periodMs / 36e5);
  const reason = `A delivery kept failing for ${hours >= 1 ? `${hours} hour${hours === 1 ? '' : 's'}` : `${Math.round(periodMs / 1000)} seconds`}.`;
  try {
    await handleCommand(services.store, webhooks, endpointId, { type: 'DisableWebhookEndpoint', reason }, systemMetadata(`webhook-delivery-${deliveryId}`), {
      idempotencyKey: `webhook-disable:${deliveryId}`,
    });
  } catch (error) {
    if (!(error instanceof DomainError && error.kind === 'not_found')) throw error;
  }
}

/** Every event since `from` that the endpoint receives, from the event store, queued behind what is pending. */
export async function replayEvents(
  services: WebhookServices,
  queue: Pick<Queue, 'addBulk'>,
  data: Extract<WebhookJobData, { kind: 'replay' }>,
): Promise<number> {
  const endpoint = await endpointTarget(services.pool, data.endpointId);
  if (!endpoint || endpoint.status !== 'active') return 0;
  const head = await services.store.headPosition();
  if (!head) return 0;
  const from = Date.parse(data.from);
  const keys = new Set<string>();
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    const subscription = services.store.subscribeToAll({ batchSize: 1000 }, async (batch) => {
      const rows: StoredDelivery[] = [];
      let reached = false;
      for (const event of batch) {
        if (comparePositions(event.position, head) > 0) {
          reached = true;
          break;
        }
        if (Date.parse(event.metadata.occurredAt) >= from) {
          const published = publicEventOf(event);
          if (published && endpointReceives(endpoint, published)) {
            rows.push(rowFor(endpoint.id, published, event, 'replay', deliveryId(endpoint.id, event.id, `replay:${data.replayId}`)));
            keys.add(published.recordKey);
          }
        }
        if (comparePositions(event.position, head) === 0) reached = true;
      }
      await insertDeliveries(services.pool, rows);
      count += rows.length;
      if (reached) void subscription.stop();
    });
    void subscription.done.then((error) => (error ? reject(error) : resolve()));
  });
  if (keys.size)
    await queue.addBulk(
      [...keys].map((key) => drainJob(endpoint.id, key, `replay-${data.replayId}`)).map((job) => ({ name: job.name, data: job.data, opts: { jobId: job.id } })),
    );
  return count;
}

export function webhookProcessor(services: WebhookServices, queues: () => Pick<Queues, 'webhooks'>): Processor<WebhookJobData> {
  return async (job: Job<WebhookJobData>) => {
    const data = job.data;
    if (data.kind === 'replay') return { replayed: await replayEvents(services, queues().webhooks, data) };
    return drainRecord(services, queues().webhooks, data.endpointId, data.recordKey);
  };
}

/** Wakes pending deliveries whose job was lost (Redis is not the record of truth): at worker start and every WEBHOOK_SWEEP_MS. */
export async function sweepWebhookDeliveries(services: WebhookServices, queue: Pick<Queue, 'addBulk'>, now = Date.now()): Promise<number> {
  const rows = await pendingDeliveriesDue(services.pool, new Date(now - services.config.WEBHOOK_SWEEP_MS));
  const bucket = Math.floor(now / services.config.WEBHOOK_SWEEP_MS);
  if (rows.length)
    await queue.addBulk(
      rows.map((r) => drainJob(r.endpoint_id, r.record_key, `sweep-${bucket}`)).map((job) => ({ name: job.name, data: job.data, opts: { jobId: job.id } })),
    );
  return rows.length;
}

export function startWebhookSweep(services: WebhookServices, queues: Queues, log: (line: string) => void): Sweep {
  return startSweep('webhook sweep', services.config.WEBHOOK_SWEEP_MS, () => sweepWebhookDeliveries(services, queues.webhooks), log);
}
