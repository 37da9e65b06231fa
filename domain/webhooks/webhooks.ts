import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { ORGANISATION_TYPE_NAMES, PUBLIC_TYPE_NAMES } from './catalogue';

/**
 * Webhook endpoints: a URL that receives the portal's public events, signed per Standard Webhooks.
 * The vendor's endpoints (registered by admins, organisationId null) receive every event of the types
 * they ask for; an organisation's endpoint (registered by its owner) only that organisation's events.
 *
 * An endpoint is active, inactive (its owner paused it) or disabled (deliveries kept failing for a
 * day; its owner is told and may activate it again). The signing secret comes in with the command
 * and leaves the log on the way into the store (SECRET_FIELDS): the delivery worker reads it from
 * there. Replays and manual redeliveries are requests recorded here and carried out by the worker.
 */

export const ENDPOINT_STATUSES = ['active', 'inactive', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

export const MAX_EVENT_TYPES = PUBLIC_TYPE_NAMES.length;
export const MAX_URL_LENGTH = 2000;

export const WEBHOOK_MESSAGES = {
  notFound: 'Webhook endpoint not found',
  created: 'Webhook endpoint created. Copy the signing secret now: it is not shown again.',
  updated: 'Webhook endpoint updated',
  deleted: 'Webhook endpoint deleted',
  urlInvalid: 'URL must be a full http(s) address.',
  httpsRequired: 'URL must use https (http is allowed only for localhost outside production).',
  urlCredentials: 'URL must not carry a user name or password.',
  eventTypesRequired: 'Choose at least one event type.',
  eventTypeUnknown: (type: string) => `Unknown event type: ${type}.`,
  eventTypeVendorOnly: (type: string) => `The event type ${type} is for the vendor's endpoints only.`,
  deletedAlready: 'This webhook endpoint was deleted.',
  notActive: 'Activate the endpoint first.',
  replayFuture: 'Replay must start at a moment in the past.',
  replayTooOld: (days: number) => `Replay can reach back at most ${days} days.`,
  exists: 'This webhook endpoint already exists.',
  redeliveryQueued: 'Redelivery queued',
  replayQueued: 'Replay queued',
} as const;

/** How far back a replay may reach. */
export const MAX_REPLAY_DAYS = 366;

export interface EndpointSettings {
  url: string;
  eventTypes: string[];
}

type Live = EndpointSettings & { id: string; status: EndpointStatus; organisationId: string | null };
export type WebhookState = { status: 'none' } | { status: 'deleted'; id: string } | Live;

export type WebhookEvent =
  | {
      type: 'WebhookEndpointRegistered.v1';
      data: EndpointSettings & {
        endpointId: string;
        organisationId: string | null;
        createdBy: string | null;
        /** Only on the way into the store, which keeps it in secret.event_secrets. */
        secret?: string;
        status: 'active' | 'inactive';
        previousStatus: null;
      };
    }
  | { type: 'WebhookEndpointUpdated.v1'; data: EndpointSettings & { endpointId: string; organisationId: string | null } }
  | {
      type: 'WebhookEndpointStatusChanged.v1';
      data: { endpointId: string; organisationId: string | null; status: EndpointStatus; previousStatus: EndpointStatus; reason: string | null };
    }
  | { type: 'WebhookEndpointDeleted.v1'; data: { endpointId: string; organisationId: string | null } }
  | { type: 'WebhookReplayRequested.v1'; data: { endpointId: string; organisationId: string | null; from: string; requestedBy: string | null } }
  | { type: 'WebhookRedeliveryRequested.v1'; data: { endpointId: string; organisationId: string | null; deliveryId: string; requestedBy: string | null } };

export type WebhookCommand =
  | {
      type: 'RegisterWebhookEndpoint';
      endpointId: string;
      organisationId: string | null;
      url: string;
      eventTypes: string[];
      active: boolean;
      secret: string;
      /** Outside production, http is allowed for localhost. */
      production: boolean;
    }
  | { type: 'UpdateWebhookEndpoint'; url?: string; eventTypes?: string[]; active?: boolean; production: boolean }
  /** The delivery worker's, after a delivery kept failing for the whole retry period. */
  | { type: 'DisableWebhookEndpoint'; reason: string }
  | { type: 'DeleteWebhookEndpoint' }
  | { type: 'RequestWebhookReplay'; from: string }
  | { type: 'RequestWebhookRedelivery'; deliveryId: string };

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The endpoint's URL as stored, or a refusal: https, or http to localhost outside production; never credentials. */
export function checkEndpointUrl(url: string, production: boolean): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new DomainError('invalid', 'WEBHOOK_URL_INVALID', WEBHOOK_MESSAGES.urlInvalid);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new DomainError('invalid', 'WEBHOOK_URL_INVALID', WEBHOOK_MESSAGES.urlInvalid);
  if (parsed.username || parsed.password) throw new DomainError('invalid', 'WEBHOOK_URL_INVALID', WEBHOOK_MESSAGES.urlCredentials);
  if (parsed.protocol === 'http:' && (production || !LOCAL_HOSTS.has(parsed.hostname)))
    throw new DomainError('invalid', 'WEBHOOK_HTTPS_REQUIRED', WEBHOOK_MESSAGES.httpsRequired);
  return parsed.toString();
}

/** The event types, deduplicated in catalogue order; an organisation's endpoint only its own kinds. */
export function checkEventTypes(eventTypes: readonly string[], organisationId: string | null): string[] {
  if (eventTypes.length === 0) throw new DomainError('invalid', 'WEBHOOK_EVENT_TYPES_REQUIRED', WEBHOOK_MESSAGES.eventTypesRequired);
  for (const type of eventTypes) {
    if (!PUBLIC_TYPE_NAMES.includes(type)) throw new DomainError('invalid', 'WEBHOOK_EVENT_TYPE_UNKNOWN', WEBHOOK_MESSAGES.eventTypeUnknown(type));
    if (organisationId !== null && !ORGANISATION_TYPE_NAMES.includes(type))
      throw new DomainError('invalid', 'WEBHOOK_EVENT_TYPE_VENDOR_ONLY', WEBHOOK_MESSAGES.eventTypeVendorOnly(type));
  }
  return PUBLIC_TYPE_NAMES.filter((type) => eventTypes.includes(type));
}

function live(state: WebhookState): Live {
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', WEBHOOK_MESSAGES.notFound);
  if (state.status === 'deleted') throw new DomainError('not_found', 'NOT_FOUND', WEBHOOK_MESSAGES.deletedAlready);
  return state;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

export function decide(command: WebhookCommand, state: WebhookState, metadata: CommandMetadata): WebhookEvent[] {
  switch (command.type) {
    case 'RegisterWebhookEndpoint': {
      if (state.status !== 'none') throw new DomainError('conflict', 'WEBHOOK_EXISTS', WEBHOOK_MESSAGES.exists);
      const url = checkEndpointUrl(command.url, command.production);
      const eventTypes = checkEventTypes(command.eventTypes, command.organisationId);
      return [
        {
          type: 'WebhookEndpointRegistered.v1',
          data: {
            endpointId: command.endpointId,
            organisationId: command.organisationId,
            url,
            eventTypes,
            createdBy: metadata.actorId,
            secret: command.secret,
            status: command.active ? 'active' : 'inactive',
            previousStatus: null,
          },
        },
      ];
    }
    case 'UpdateWebhookEndpoint': {
      const endpoint = live(state);
      const url = command.url === undefined ? endpoint.url : checkEndpointUrl(command.url, command.production);
      const eventTypes = command.eventTypes === undefined ? endpoint.eventTypes : checkEventTypes(command.eventTypes, endpoint.organisationId);
      const events: WebhookEvent[] = [];
      if (url !== endpoint.url || !sameList(eventTypes, endpoint.eventTypes))
        events.push({ type: 'WebhookEndpointUpdated.v1', data: { endpointId: endpoint.id, organisationId: endpoint.organisationId, url, eventTypes } });
      const status: EndpointStatus | undefined = command.active === undefined ? undefined : command.active ? 'active' : 'inactive';
      // A disabled endpoint stays disabled until someone activates it; pausing it changes nothing.
      const changes = status !== undefined && status !== endpoint.status && !(status === 'inactive' && endpoint.status === 'disabled');
      if (changes)
        events.push({
          type: 'WebhookEndpointStatusChanged.v1',
          data: { endpointId: endpoint.id, organisationId: endpoint.organisationId, status: status!, previousStatus: endpoint.status, reason: null },
        });
      return events;
    }
    case 'DisableWebhookEndpoint': {
      const endpoint = live(state);
      // Only an active endpoint is disabled: a late failure after its owner paused or fixed it changes nothing.
      if (endpoint.status !== 'active') return [];
      return [
        {
          type: 'WebhookEndpointStatusChanged.v1',
          data: { endpointId: endpoint.id, organisationId: endpoint.organisationId, status: 'disabled', previousStatus: 'active', reason: command.reason },
        },
      ];
    }
    case 'DeleteWebhookEndpoint': {
      if (state.status === 'deleted') return [];
      const endpoint = live(state);
      return [{ type: 'WebhookEndpointDeleted.v1', data: { endpointId: endpoint.id, organisationId: endpoint.organisationId } }];
    }
    case 'RequestWebhookReplay': {
      const endpoint = live(state);
      if (endpoint.status !== 'active') throw new DomainError('conflict', 'WEBHOOK_NOT_ACTIVE', WEBHOOK_MESSAGES.notActive);
      const from = Date.parse(command.from);
      if (from > Date.parse(metadata.now)) throw new DomainError('invalid', 'WEBHOOK_REPLAY_FUTURE', WEBHOOK_MESSAGES.replayFuture);
      if (from < Date.parse(metadata.now) - MAX_REPLAY_DAYS * 86_400_000)
        throw new DomainError('invalid', 'WEBHOOK_REPLAY_TOO_OLD', WEBHOOK_MESSAGES.replayTooOld(MAX_REPLAY_DAYS));
      return [
        {
          type: 'WebhookReplayRequested.v1',
          data: { endpointId: endpoint.id, organisationId: endpoint.organisationId, from: new Date(from).toISOString(), requestedBy: metadata.actorId },
        },
      ];
    }
    case 'RequestWebhookRedelivery': {
      const endpoint = live(state);
      if (endpoint.status !== 'active') throw new DomainError('conflict', 'WEBHOOK_NOT_ACTIVE', WEBHOOK_MESSAGES.notActive);
      return [
        {
          type: 'WebhookRedeliveryRequested.v1',
          data: { endpointId: endpoint.id, organisationId: endpoint.organisationId, deliveryId: command.deliveryId, requestedBy: metadata.actorId },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: WebhookState, event: WebhookEvent): WebhookState {
  switch (event.type) {
    case 'WebhookEndpointRegistered.v1':
      return {
        status: event.data.status,
        id: event.data.endpointId,
        organisationId: event.data.organisationId,
        url: event.data.url,
        eventTypes: event.data.eventTypes,
      };
    case 'WebhookEndpointUpdated.v1':
      return state.status === 'none' || state.status === 'deleted' ? state : { ...state, url: event.data.url, eventTypes: event.data.eventTypes };
    case 'WebhookEndpointStatusChanged.v1':
      return state.status === 'none' || state.status === 'deleted' ? state : { ...state, status: event.data.status };
    case 'WebhookEndpointDeleted.v1':
      return { status: 'deleted', id: event.data.endpointId };
    case 'WebhookReplayRequested.v1':
    case 'WebhookRedeliveryRequested.v1':
      return state;
    default:
      return assertNever(event);
  }
}

export const webhooks: Decider<WebhookState, WebhookCommand, WebhookEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `webhooks-${id}`,
};
