import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { checkEndpointUrl, WEBHOOK_MESSAGES, webhooks, type WebhookEvent } from './webhooks';
import { endpointReceives, publicEventOf, PUBLIC_EVENT_TYPES, SOURCE_EVENT_TYPES } from './catalogue';

const spec = deciderSpec(webhooks);
const id = 'wh-1';
const org = 'org-1';
const register = (over: Record<string, unknown> = {}) => ({
  type: 'RegisterWebhookEndpoint' as const,
  endpointId: id,
  organisationId: org,
  url: 'https://crm.example/hooks',
  eventTypes: ['order.status_changed', 'order.placed'],
  active: true,
  secret: 'whsec_c2VjcmV0',
  production: true,
  ...over,
});
const registered: WebhookEvent = {
  type: 'WebhookEndpointRegistered.v1',
  data: {
    endpointId: id,
    organisationId: org,
    url: 'https://crm.example/hooks',
    eventTypes: ['order.placed', 'order.status_changed'],
    createdBy: 'actor-1',
    secret: 'whsec_c2VjcmV0',
    status: 'active',
    previousStatus: null,
  },
};
const disabled: WebhookEvent = {
  type: 'WebhookEndpointStatusChanged.v1',
  data: { endpointId: id, organisationId: org, status: 'disabled', previousStatus: 'active', reason: 'failing' },
};

describe('registering an endpoint', () => {
  it('records the settings, the secret (for the store to keep apart) and the active flag; event types in catalogue order', () =>
    spec.given([]).when(register()).then([registered]));
  it('refuses http in production, and http to another host anywhere', () => {
    spec
      .given([])
      .when(register({ url: 'http://localhost:9000/h' }))
      .thenThrows(WEBHOOK_MESSAGES.httpsRequired, 'WEBHOOK_HTTPS_REQUIRED');
    spec
      .given([])
      .when(register({ url: 'http://crm.example/h', production: false }))
      .thenThrows(WEBHOOK_MESSAGES.httpsRequired);
  });
  it('allows http to localhost outside production', () => expect(checkEndpointUrl('http://127.0.0.1:9000/h', false)).toBe('http://127.0.0.1:9000/h'));
  it('refuses a URL that is not one, or carries credentials', () => {
    spec
      .given([])
      .when(register({ url: 'crm.example' }))
      .thenThrows(WEBHOOK_MESSAGES.urlInvalid, 'WEBHOOK_URL_INVALID');
    spec
      .given([])
      .when(register({ url: 'ftp://crm.example' }))
      .thenThrows(WEBHOOK_MESSAGES.urlInvalid);
    spec
      .given([])
      .when(register({ url: 'https://u:p@crm.example' }))
      .thenThrows(WEBHOOK_MESSAGES.urlCredentials);
  });
  it('refuses no event types, unknown ones, and vendor-only ones for an organisation', () => {
    spec
      .given([])
      .when(register({ eventTypes: [] }))
      .thenThrows(WEBHOOK_MESSAGES.eventTypesRequired);
    spec
      .given([])
      .when(register({ eventTypes: ['order.exploded'] }))
      .thenThrows(WEBHOOK_MESSAGES.eventTypeUnknown('order.exploded'));
    spec
      .given([])
      .when(register({ eventTypes: ['lead.created'] }))
      .thenThrows(WEBHOOK_MESSAGES.eventTypeVendorOnly('lead.created'), 'WEBHOOK_EVENT_TYPE_VENDOR_ONLY');
  });
  it("lets the vendor's endpoint take vendor-only types", () =>
    spec
      .given([])
      .when(register({ organisationId: null, eventTypes: ['lead.created'], active: false }))
      .then([
        {
          type: 'WebhookEndpointRegistered.v1',
          data: { ...registered.data, organisationId: null, eventTypes: ['lead.created'], status: 'inactive' },
        } as WebhookEvent,
      ]));
  it('refuses a second registration of the same id', () => spec.given([registered]).when(register()).thenThrows(WEBHOOK_MESSAGES.exists, 'WEBHOOK_EXISTS'));
});

describe('changing an endpoint', () => {
  const update = (over: Record<string, unknown>) => ({ type: 'UpdateWebhookEndpoint' as const, production: true, ...over });
  it('records new settings and a pause as separate facts', () =>
    spec
      .given([registered])
      .when(update({ url: 'https://crm.example/v2', active: false }))
      .then([
        {
          type: 'WebhookEndpointUpdated.v1',
          data: { endpointId: id, organisationId: org, url: 'https://crm.example/v2', eventTypes: ['order.placed', 'order.status_changed'] },
        },
        { type: 'WebhookEndpointStatusChanged.v1', data: { endpointId: id, organisationId: org, status: 'inactive', previousStatus: 'active', reason: null } },
      ]));
  it('records nothing when nothing changes', () =>
    spec
      .given([registered])
      .when(update({ url: 'https://crm.example/hooks', eventTypes: ['order.status_changed', 'order.placed'], active: true }))
      .then([]));
  it('activates a disabled endpoint, and a pause leaves it disabled', () => {
    spec
      .given([registered, disabled])
      .when(update({ active: true }))
      .then([
        { type: 'WebhookEndpointStatusChanged.v1', data: { endpointId: id, organisationId: org, status: 'active', previousStatus: 'disabled', reason: null } },
      ]);
    spec
      .given([registered, disabled])
      .when(update({ active: false }))
      .then([]);
  });
  it('refuses an unknown endpoint', () =>
    spec
      .given([])
      .when(update({ active: false }))
      .thenThrows(WEBHOOK_MESSAGES.notFound, 'NOT_FOUND'));
});

describe('disabling after failures', () => {
  it('disables an active endpoint with the reason', () =>
    spec.given([registered]).when({ type: 'DisableWebhookEndpoint', reason: 'failing' }).then([disabled]));
  it('leaves an endpoint its owner paused or that is disabled already', () => {
    spec.given([registered, disabled]).when({ type: 'DisableWebhookEndpoint', reason: 'failing' }).then([]);
  });
});

describe('deleting', () => {
  const deleted: WebhookEvent = { type: 'WebhookEndpointDeleted.v1', data: { endpointId: id, organisationId: org } };
  it('deletes once; a repeated delete changes nothing', () => {
    spec.given([registered]).when({ type: 'DeleteWebhookEndpoint' }).then([deleted]);
    spec.given([registered, deleted]).when({ type: 'DeleteWebhookEndpoint' }).then([]);
  });
  it('a deleted endpoint cannot be changed', () =>
    spec.given([registered, deleted]).when({ type: 'UpdateWebhookEndpoint', active: true, production: true }).thenThrows(WEBHOOK_MESSAGES.deletedAlready));
});

describe('replay and redelivery', () => {
  it('records a replay from a past moment', () =>
    spec
      .given([registered])
      .when({ type: 'RequestWebhookReplay', from: '2026-11-01T00:00:00Z' })
      .then([{ type: 'WebhookReplayRequested.v1', data: { endpointId: id, organisationId: org, from: '2026-11-01T00:00:00.000Z', requestedBy: 'actor-1' } }]));
  it('refuses a replay from the future, from too long ago, or to an endpoint that is not active', () => {
    spec.given([registered]).when({ type: 'RequestWebhookReplay', from: '2026-11-22T00:00:00Z' }).thenThrows(WEBHOOK_MESSAGES.replayFuture);
    spec
      .given([registered])
      .when({ type: 'RequestWebhookReplay', from: '2024-01-01T00:00:00Z' })
      .thenThrows(/at most/);
    spec
      .given([registered, disabled])
      .when({ type: 'RequestWebhookReplay', from: '2026-11-01T00:00:00Z' })
      .thenThrows(WEBHOOK_MESSAGES.notActive, 'WEBHOOK_NOT_ACTIVE');
  });
  it('records a redelivery of an active endpoint', () =>
    spec
      .given([registered])
      .when({ type: 'RequestWebhookRedelivery', deliveryId: 'd-1' })
      .then([{ type: 'WebhookRedeliveryRequested.v1', data: { endpointId: id, organisationId: org, deliveryId: 'd-1', requestedBy: 'actor-1' } }]));
});

describe('the public catalogue', () => {
  const event = (type: string, data: Record<string, unknown>) => ({ id: 'e-1', streamId: 'x-1', type, data });
  it('has dotted lower-case names, each made from at least one internal event', () => {
    for (const t of PUBLIC_EVENT_TYPES) expect(t.type).toMatch(/^[a-z_]+\.[a-z_]+$/);
    const made = new Set(SOURCE_EVENT_TYPES.map((type) => publicEventOf(event(type, { isInternal: false, organisationId: 'o' }))?.type));
    for (const t of PUBLIC_EVENT_TYPES) expect(made.has(t.type), t.type).toBe(true);
  });
  it('never publishes an internal ticket note, and leaves reasons and reviewer notes out', () => {
    expect(publicEventOf(event('TicketCommented.v1', { ticketId: 't', organisationId: org, isInternal: true, comment: 'secret' }))).toBeNull();
    const rejected = publicEventOf(
      event('RebateRejected.v1', {
        rebateId: 'r',
        organisationId: org,
        invoiceNumber: 'I',
        status: 'rejected',
        previousStatus: 'pending',
        reason: 'Forged invoice',
      }),
    )!;
    expect(JSON.stringify(rejected)).not.toContain('Forged');
    const changed = publicEventOf(
      event('TicketStatusChanged.v1', {
        ticketId: 't',
        ticketNumber: 'T-1',
        organisationId: org,
        status: 'Resolved',
        previousStatus: 'Open',
        reason: 'internal',
        resolutionNotes: 'internal',
        comment: { body: 'internal' },
      }),
    )!;
    expect(JSON.stringify(changed)).not.toContain('internal');
  });
  it("leaves a placed order's shipping address out", () => {
    const placed = publicEventOf(
      event('OrderPlaced.v1', {
        orderId: 'o',
        orderNumber: 'N',
        organisationId: org,
        items: [],
        totalCents: 1,
        shippingAddress: { firstName: 'Ada', email: 'ada@x.example' },
      }),
    )!;
    expect(JSON.stringify(placed)).not.toContain('Ada');
    expect(placed.organisationId).toBe(org);
  });
  it("sends an organisation's endpoint only its own events, and the vendor's all it asked for", () => {
    const placed = publicEventOf(event('OrderPlaced.v1', { orderId: 'o', organisationId: 'org-2', items: [] }))!;
    expect(endpointReceives({ eventTypes: ['order.placed'], organisationId: org }, placed)).toBe(false);
    expect(endpointReceives({ eventTypes: ['order.placed'], organisationId: 'org-2' }, placed)).toBe(true);
    expect(endpointReceives({ eventTypes: ['order.placed'], organisationId: null }, placed)).toBe(true);
    expect(endpointReceives({ eventTypes: ['order.status_changed'], organisationId: null }, placed)).toBe(false);
    const lead = publicEventOf(event('LeadCreated.v1', { leadId: 'l', organisationId: org }))!;
    expect(lead.organisationId).toBeNull();
    expect(endpointReceives({ eventTypes: ['lead.created'], organisationId: org }, lead)).toBe(false);
  });
});
