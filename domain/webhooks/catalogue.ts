/**
 * The public event catalogue of outbound webhooks: the names, versions and payloads the portal
 * promises to the systems that subscribe, independent of the internal event shapes (which may change
 * with any release). Each public type lists the internal events it is made from and builds its
 * payload from them field by field: an internal field is public only when a builder copies it.
 *
 * What is never sent: internal ticket notes, reviewers' notes and rejection reasons (the activity feed
 * leaves them out too), personal contact data (shipping addresses, a lead's contact), another
 * organisation's id.
 *
 * Versioning: a public type's payload only gains fields within a version; a change that removes or
 * renames a field makes a new version, delivered beside the old one to endpoints that ask for it.
 */

import { activityLineOf } from '../audit/activity';

export const CATALOGUE_VERSION = '2026-11-27';

export type PublicResource = 'orders' | 'projects' | 'tickets' | 'rebates' | 'leads' | 'funds' | 'partners';

export interface PublicEventType {
  /** Dotted lower case: `<record>.<what happened>`. */
  type: string;
  version: number;
  resource: PublicResource;
  description: string;
  /** The internal events this public type is made from. */
  sources: readonly string[];
  /** Whether an organisation's endpoint may subscribe: false for the vendor's own business (applications, new unassigned leads). */
  organisationScoped: boolean;
  /** An example `data`, as documented. */
  example: Record<string, unknown>;
}

type Data = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' ? value : null);
const num = (value: unknown) => (typeof value === 'number' ? value : null);

interface Mapping {
  type: string;
  build(data: Data): Data;
  /** The organisation the event belongs to, or null when it is the vendor's alone. Defaults to the activity feed's rule. */
  organisationOf?: (event: { id: string; streamId: string; type: string; data: unknown }) => string | null;
}

const byDataOrganisation = (event: { data: unknown }) => str((event.data as Data | null)?.organisationId) || null;
const vendorOnly = () => null;

const orderPlaced = (d: Data) => ({
  order_id: str(d.orderId),
  order_number: str(d.orderNumber),
  organisation_id: str(d.organisationId),
  status: 'pending',
  total_cents: num(d.totalCents),
  estimated_delivery: str(d.estimatedDelivery),
  items: Array.isArray(d.items)
    ? (d.items as Data[]).map((i) => ({
        product_id: str(i.productId),
        product_name: str(i.productName),
        quantity: num(i.quantity),
        unit_price_cents: num(i.unitPriceCents),
        line_total_cents: num(i.lineTotalCents),
      }))
    : [],
});
const orderStatus = (d: Data) => ({
  order_id: str(d.orderId),
  order_number: str(d.orderNumber),
  organisation_id: str(d.organisationId),
  status: str(d.status),
  previous_status: str(d.previousStatus),
  ...(typeof d.carrier === 'string' ? { carrier: d.carrier } : {}),
  ...(typeof d.trackingNumber === 'string' ? { tracking_number: d.trackingNumber } : {}),
});
const projectRegistered = (d: Data) => ({
  project_id: str(d.projectId),
  organisation_id: str(d.organisationId),
  title: str((d.details as Data | undefined)?.title),
  registration_status: str(d.registrationStatus),
  submitted_at: str(d.submittedAt),
  expires_at: str(d.expiresAt),
});
const registration = (status: string) => (d: Data) => ({
  project_id: str(d.projectId),
  organisation_id: str(d.organisationId),
  registration_status: status,
  ...(typeof d.expiresAt === 'string' ? { expires_at: d.expiresAt } : {}),
});
const projectStatus = (d: Data) => ({ project_id: str(d.projectId), status: str(d.status), previous_status: str(d.previousStatus), progress: num(d.progress) });
const ticketOpened = (d: Data) => ({
  ticket_id: str(d.ticketId),
  ticket_number: str(d.ticketNumber),
  organisation_id: str(d.organisationId),
  title: str(d.title),
  priority: str(d.priority),
  category: str(d.category),
  status: 'Open',
  due_at: str(d.dueAt),
});
const ticketStatus = (d: Data) => ({
  ticket_id: str(d.ticketId),
  ticket_number: str(d.ticketNumber),
  organisation_id: str(d.organisationId),
  status: str(d.status),
  previous_status: str(d.previousStatus),
});
const ticketReplied = (d: Data) => ({ ticket_id: str(d.ticketId), ticket_number: str(d.ticketNumber), organisation_id: str(d.organisationId) });
const rebateSubmitted = (d: Data) => ({
  rebate_id: str(d.rebateId),
  organisation_id: str(d.organisationId),
  invoice_number: str(d.invoiceNumber),
  status: 'pending',
});
const rebateStatus = (d: Data) => ({
  rebate_id: str(d.rebateId),
  organisation_id: str(d.organisationId),
  invoice_number: str(d.invoiceNumber),
  status: str(d.status),
  previous_status: str(d.previousStatus),
  ...(typeof d.rebateAmountCents === 'number' ? { rebate_amount_cents: d.rebateAmountCents } : {}),
});
const leadCreated = (d: Data) => ({
  lead_id: str(d.leadId),
  company: str(d.company),
  country: str(d.country),
  region: str(d.region),
  product_interest: str(d.productInterest),
  estimated_value: num(d.estimatedValue),
  source: str(d.source),
  status: 'unassigned',
});
const leadAssigned = (d: Data) => ({ lead_id: str(d.leadId), organisation_id: str(d.organisationId), status: 'assigned', due_at: str(d.dueAt) });
const leadStatus = (status?: string) => (d: Data) => ({
  lead_id: str(d.leadId),
  organisation_id: str(d.organisationId),
  // A declined or lapsed lead is back in the vendor's queue; the organisation's own standing is what it is told.
  status: status ?? str(d.status),
  previous_status: str(d.previousStatus),
  ...(typeof d.projectId === 'string' ? { project_id: d.projectId } : {}),
});
const fundRequest = (d: Data) => ({
  request_id: str(d.requestId),
  fund_id: str(d.fundId),
  organisation_id: str(d.organisationId),
  status: str(d.status),
  previous_status: str(d.previousStatus),
  ...(typeof d.requestedAmountCents === 'number' ? { requested_amount_cents: d.requestedAmountCents } : {}),
  ...(typeof d.approvedAmountCents === 'number' ? { approved_amount_cents: d.approvedAmountCents } : {}),
  ...(typeof d.claimDeadline === 'string' ? { claim_deadline: d.claimDeadline } : {}),
});
const fundClaim = (d: Data) => ({
  claim_id: str(d.claimId),
  request_id: str(d.requestId),
  fund_id: str(d.fundId),
  organisation_id: str(d.organisationId),
  status: str(d.status),
  previous_status: str(d.previousStatus),
  ...(typeof d.claimedAmountCents === 'number' ? { claimed_amount_cents: d.claimedAmountCents } : {}),
  ...(typeof d.paidAmountCents === 'number' ? { paid_amount_cents: d.paidAmountCents } : {}),
  ...(typeof d.amountCents === 'number' ? { amount_cents: d.amountCents } : {}),
});
const partnerApplication = (d: Data) => ({ partner_id: str(d.partnerId), company_name: str(d.companyName), status: str(d.status) });
const partnerApproved = (d: Data) => ({
  partner_id: str(d.partnerId),
  company_name: str(d.companyName),
  category: str(d.category),
  tier: str(d.tier),
  status: 'approved',
});

/** Internal event type → the public event it becomes. */
const MAPPINGS: Readonly<Record<string, Mapping>> = {
  'OrderPlaced.v1': { type: 'order.placed', build: orderPlaced },
  'OrderStatusChanged.v1': { type: 'order.status_changed', build: orderStatus },
  'ProjectRegistered.v1': { type: 'project.registered', build: projectRegistered },
  'ProjectRegistrationApproved.v1': { type: 'project.registration_changed', build: registration('approved') },
  'ProjectRegistrationRejected.v1': { type: 'project.registration_changed', build: registration('rejected') },
  'ProjectRegistrationExpired.v1': { type: 'project.registration_changed', build: registration('expired') },
  'ProjectExtensionApproved.v1': { type: 'project.registration_changed', build: registration('extended') },
  // The status event names no organisation: as in the activity feed, only the vendor hears of it.
  'ProjectStatusChanged.v1': { type: 'project.status_changed', build: projectStatus, organisationOf: vendorOnly },
  'TicketOpened.v1': { type: 'ticket.opened', build: ticketOpened },
  'TicketStatusChanged.v1': { type: 'ticket.status_changed', build: ticketStatus },
  // Public replies only (the feed's rule drops internal notes); the text stays in the portal.
  'TicketCommented.v1': { type: 'ticket.replied', build: ticketReplied },
  'RebateSubmitted.v1': { type: 'rebate.submitted', build: rebateSubmitted },
  'RebateProcessingStarted.v1': { type: 'rebate.status_changed', build: rebateStatus },
  'RebateApproved.v1': { type: 'rebate.status_changed', build: rebateStatus },
  'RebateRejected.v1': { type: 'rebate.status_changed', build: rebateStatus },
  'LeadCreated.v1': { type: 'lead.created', build: leadCreated, organisationOf: vendorOnly },
  'LeadAssigned.v1': { type: 'lead.assigned', build: leadAssigned, organisationOf: byDataOrganisation },
  'LeadAccepted.v1': { type: 'lead.status_changed', build: leadStatus(), organisationOf: byDataOrganisation },
  'LeadDeclined.v1': { type: 'lead.status_changed', build: leadStatus('declined'), organisationOf: byDataOrganisation },
  'LeadLapsed.v1': { type: 'lead.status_changed', build: leadStatus('lapsed'), organisationOf: byDataOrganisation },
  'LeadStatusChanged.v1': { type: 'lead.status_changed', build: leadStatus(), organisationOf: byDataOrganisation },
  'LeadConverted.v1': { type: 'lead.status_changed', build: leadStatus(), organisationOf: byDataOrganisation },
  'FundRequestSubmitted.v1': { type: 'fund_request.submitted', build: fundRequest, organisationOf: byDataOrganisation },
  'FundRequestResubmitted.v1': { type: 'fund_request.status_changed', build: fundRequest, organisationOf: byDataOrganisation },
  'FundRequestApproved.v1': { type: 'fund_request.status_changed', build: fundRequest, organisationOf: byDataOrganisation },
  'FundRequestRejected.v1': { type: 'fund_request.status_changed', build: fundRequest, organisationOf: byDataOrganisation },
  'FundRequestChangesRequested.v1': { type: 'fund_request.status_changed', build: fundRequest, organisationOf: byDataOrganisation },
  'FundClaimSubmitted.v1': { type: 'fund_claim.submitted', build: fundClaim, organisationOf: byDataOrganisation },
  'FundClaimApproved.v1': { type: 'fund_claim.status_changed', build: fundClaim, organisationOf: byDataOrganisation },
  'FundClaimRejected.v1': { type: 'fund_claim.status_changed', build: fundClaim, organisationOf: byDataOrganisation },
  'FundClaimPaid.v1': { type: 'fund_claim.status_changed', build: fundClaim, organisationOf: byDataOrganisation },
  'PartnerApplicationSubmitted.v1': { type: 'partner.application_submitted', build: partnerApplication, organisationOf: vendorOnly },
  'PartnerApproved.v1': { type: 'partner.approved', build: partnerApproved },
  'PartnerRejected.v1': { type: 'partner.rejected', build: partnerApplication, organisationOf: vendorOnly },
};

const ID = '0193a5b2-7c1e-7a40-9d2f-3c4b5a6d7e8f';
const ORG = '0193a5b2-0000-7000-8000-00000000a001';

/** The catalogue as documented (docs/integrations.md and GET /api/webhooks/catalogue). */
const TYPES: ReadonlyArray<Omit<PublicEventType, 'sources'>> = [
  {
    type: 'order.placed',
    version: 1,
    resource: 'orders',
    organisationScoped: true,
    description: 'An order was placed.',
    example: {
      order_id: ID,
      order_number: 'ORD-2026-0042',
      organisation_id: ORG,
      status: 'pending',
      total_cents: 129900,
      estimated_delivery: '2026-12-04',
      items: [{ product_id: ID, product_name: '24-port switch', quantity: 1, unit_price_cents: 129900, line_total_cents: 129900 }],
    },
  },
  {
    type: 'order.status_changed',
    version: 1,
    resource: 'orders',
    organisationScoped: true,
    description: 'An order moved to another status (approved, processing, shipped, delivered, cancelled); shipped carries the carrier and tracking number.',
    example: {
      order_id: ID,
      order_number: 'ORD-2026-0042',
      organisation_id: ORG,
      status: 'shipped',
      previous_status: 'processing',
      carrier: 'DHL',
      tracking_number: '1Z999',
    },
  },
  {
    type: 'project.registered',
    version: 1,
    resource: 'projects',
    organisationScoped: true,
    description: 'A deal was registered.',
    example: {
      project_id: ID,
      organisation_id: ORG,
      title: 'Campus refresh',
      registration_status: 'pending',
      submitted_at: '2026-11-27T09:00:00.000Z',
      expires_at: '2027-01-26T09:00:00.000Z',
    },
  },
  {
    type: 'project.registration_changed',
    version: 1,
    resource: 'projects',
    organisationScoped: true,
    description: 'A deal registration was approved, rejected, extended or expired.',
    example: { project_id: ID, organisation_id: ORG, registration_status: 'approved' },
  },
  {
    type: 'project.status_changed',
    version: 1,
    resource: 'projects',
    organisationScoped: false,
    description: "A project's delivery status changed (vendor endpoints).",
    example: { project_id: ID, status: 'In Progress', previous_status: 'Planning', progress: 40 },
  },
  {
    type: 'ticket.opened',
    version: 1,
    resource: 'tickets',
    organisationScoped: true,
    description: 'A support ticket was opened.',
    example: {
      ticket_id: ID,
      ticket_number: 'TKT-1042',
      organisation_id: ORG,
      title: 'Switch reboots',
      priority: 'High',
      category: 'Technical',
      status: 'Open',
      due_at: '2026-11-28T09:00:00.000Z',
    },
  },
  {
    type: 'ticket.status_changed',
    version: 1,
    resource: 'tickets',
    organisationScoped: true,
    description: 'A support ticket moved to another status.',
    example: { ticket_id: ID, ticket_number: 'TKT-1042', organisation_id: ORG, status: 'Resolved', previous_status: 'In Progress' },
  },
  {
    type: 'ticket.replied',
    version: 1,
    resource: 'tickets',
    organisationScoped: true,
    description: 'A public reply was added to a ticket (internal notes are never sent; the text stays in the portal).',
    example: { ticket_id: ID, ticket_number: 'TKT-1042', organisation_id: ORG },
  },
  {
    type: 'rebate.submitted',
    version: 1,
    resource: 'rebates',
    organisationScoped: true,
    description: 'A rebate claim was submitted.',
    example: { rebate_id: ID, organisation_id: ORG, invoice_number: 'INV-881', status: 'pending' },
  },
  {
    type: 'rebate.status_changed',
    version: 1,
    resource: 'rebates',
    organisationScoped: true,
    description: "A rebate claim is being reviewed, was approved (with its amount) or rejected (reviewers' notes are not sent).",
    example: { rebate_id: ID, organisation_id: ORG, invoice_number: 'INV-881', status: 'approved', previous_status: 'processing', rebate_amount_cents: 45000 },
  },
  {
    type: 'lead.created',
    version: 1,
    resource: 'leads',
    organisationScoped: false,
    description: 'A lead was created (vendor endpoints; contact details are not sent).',
    example: {
      lead_id: ID,
      company: 'Contoso Ltd',
      country: 'GB',
      region: 'EMEA',
      product_interest: 'Managed Switches',
      estimated_value: 120000,
      source: 'web_form',
      status: 'unassigned',
    },
  },
  {
    type: 'lead.assigned',
    version: 1,
    resource: 'leads',
    organisationScoped: true,
    description: 'A lead was offered to an organisation, to accept or decline before due_at.',
    example: { lead_id: ID, organisation_id: ORG, status: 'assigned', due_at: '2026-11-29T09:00:00.000Z' },
  },
  {
    type: 'lead.status_changed',
    version: 1,
    resource: 'leads',
    organisationScoped: true,
    description: 'An organisation accepted, declined, worked or converted a lead, or its acceptance window lapsed.',
    example: { lead_id: ID, organisation_id: ORG, status: 'accepted', previous_status: 'assigned' },
  },
  {
    type: 'fund_request.submitted',
    version: 1,
    resource: 'funds',
    organisationScoped: true,
    description: 'A market development fund request was submitted.',
    example: { request_id: ID, fund_id: ID, organisation_id: ORG, status: 'pending', previous_status: null, requested_amount_cents: 200000 },
  },
  {
    type: 'fund_request.status_changed',
    version: 1,
    resource: 'funds',
    organisationScoped: true,
    description: 'A fund request was approved, rejected, sent back for changes or resubmitted.',
    example: {
      request_id: ID,
      fund_id: ID,
      organisation_id: ORG,
      status: 'approved',
      previous_status: 'pending',
      approved_amount_cents: 200000,
      claim_deadline: '2027-01-31',
    },
  },
  {
    type: 'fund_claim.submitted',
    version: 1,
    resource: 'funds',
    organisationScoped: true,
    description: 'A claim against an approved fund request was submitted.',
    example: { claim_id: ID, request_id: ID, fund_id: ID, organisation_id: ORG, status: 'pending', previous_status: null, claimed_amount_cents: 190000 },
  },
  {
    type: 'fund_claim.status_changed',
    version: 1,
    resource: 'funds',
    organisationScoped: true,
    description: 'A fund claim was approved, rejected or paid.',
    example: { claim_id: ID, request_id: ID, fund_id: ID, organisation_id: ORG, status: 'paid', previous_status: 'approved', amount_cents: 190000 },
  },
  {
    type: 'partner.application_submitted',
    version: 1,
    resource: 'partners',
    organisationScoped: false,
    description: 'A partner applied (vendor endpoints).',
    example: { partner_id: ID, company_name: 'Northwind Networks', status: 'pending' },
  },
  {
    type: 'partner.approved',
    version: 1,
    resource: 'partners',
    organisationScoped: true,
    description: 'A partner application was approved.',
    example: { partner_id: ID, company_name: 'Northwind Networks', category: 'reseller', tier: 'gold', status: 'approved' },
  },
  {
    type: 'partner.rejected',
    version: 1,
    resource: 'partners',
    organisationScoped: false,
    description: 'A partner application was rejected (vendor endpoints; the reason is not sent).',
    example: { partner_id: ID, company_name: 'Northwind Networks', status: 'rejected' },
  },
];

export const PUBLIC_EVENT_TYPES: readonly PublicEventType[] = TYPES.map((t) => ({
  ...t,
  sources: Object.keys(MAPPINGS).filter((internal) => MAPPINGS[internal].type === t.type),
}));

export const PUBLIC_TYPE_NAMES: readonly string[] = PUBLIC_EVENT_TYPES.map((t) => t.type);
export const ORGANISATION_TYPE_NAMES: readonly string[] = PUBLIC_EVENT_TYPES.filter((t) => t.organisationScoped).map((t) => t.type);
const TYPES_BY_NAME = new Map(PUBLIC_EVENT_TYPES.map((t) => [t.type, t]));
export const publicEventType = (name: string) => TYPES_BY_NAME.get(name);

/** The internal event types that feed the catalogue, for the reactor's table and a replay's filter. */
export const SOURCE_EVENT_TYPES: readonly string[] = Object.keys(MAPPINGS);

export interface PublicEvent {
  type: string;
  version: number;
  /** The record the event is about (its stream): deliveries of one record to one endpoint keep this order. */
  recordKey: string;
  /** The organisation the event belongs to; null when only vendor endpoints receive it. */
  organisationId: string | null;
  data: Data;
}

const NO_NAMES = { projectTitle: () => null, person: () => null };

/**
 * The public event an internal one becomes, or null when it is not published at all (an internal
 * ticket note, a type outside the catalogue).
 */
export function publicEventOf(event: { id: string; streamId: string; type: string; data: unknown }): PublicEvent | null {
  const mapping = MAPPINGS[event.type];
  if (!mapping) return null;
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Data;
  // A ticket note is published only when it is a public reply, whoever subscribes.
  if (event.type === 'TicketCommented.v1' && data.isInternal !== false) return null;
  const organisationId = mapping.organisationOf ? mapping.organisationOf(event) : (activityLineOf(event, NO_NAMES)?.organisationId ?? null);
  const kind = publicEventType(mapping.type)!;
  return {
    type: kind.type,
    version: kind.version,
    recordKey: event.streamId,
    organisationId: kind.organisationScoped ? organisationId || null : null,
    data: mapping.build(data),
  };
}

/**
 * Whether an endpoint receives the event: it asked for the type and, for an organisation's endpoint,
 * the event belongs to that organisation.
 */
export function endpointReceives(endpoint: { eventTypes: readonly string[]; organisationId: string | null }, event: PublicEvent): boolean {
  if (!endpoint.eventTypes.includes(event.type)) return false;
  return endpoint.organisationId === null || event.organisationId === endpoint.organisationId;
}

/** The body a consumer receives (Standard Webhooks' suggested shape: type, timestamp, data). */
export function webhookBody(event: PublicEvent, eventId: string, occurredAt: string) {
  return { type: event.type, version: event.version, event_id: eventId, timestamp: occurredAt, data: event.data };
}
