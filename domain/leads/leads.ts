import { isAdminRole } from '../access';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { PRODUCT_CATEGORIES } from '../products/products';
import { REJECTION_REASON_MAX } from '../partners/application';
import type { RoutingRule } from './routing';
import { pick } from '../records';

/**
 * Leads: demand the vendor generates (web forms, events, campaigns) handed to a partner
 * organisation that can close it. A lead is created unassigned, routed to one organisation at a time
 * (by the routing rules or an admin), which accepts or declines it within the acceptance window; an
 * unanswered or declined lead passes on to the next eligible organisation, and after the last one it
 * waits in the admins' unassigned queue. An accepted lead is worked (contacted → qualified) and
 * converted into a deal registration, or disqualified with a reason.
 *
 * No clock and no look-ups here: the next organisation (from `routing.ts`), the due time of the
 * window, duplicates and the project id of a conversion come in with the command.
 */

export const LEAD_STATUSES = ['unassigned', 'assigned', 'accepted', 'contacted', 'qualified', 'converted', 'disqualified'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** The statuses an organisation works through itself once it accepted the lead. */
export const WORKING_STATUSES = ['accepted', 'contacted', 'qualified'] as const satisfies readonly LeadStatus[];
/** A lead an organisation holds: awaiting its answer or being worked. Capacity limits count these. */
export const OPEN_STATUSES: readonly LeadStatus[] = ['assigned', 'accepted', 'contacted', 'qualified'];
/** Where a worked lead may go next by `ChangeLeadStatus` (conversion is its own command). */
export const LEAD_STATUS_TRANSITIONS: Readonly<Record<LeadStatus, readonly LeadStatus[]>> = {
  unassigned: [],
  assigned: [],
  accepted: ['contacted', 'qualified', 'disqualified'],
  contacted: ['qualified', 'disqualified'],
  qualified: ['disqualified'],
  converted: [],
  disqualified: [],
};

export const LEAD_STATUS_LABELS: Readonly<Record<LeadStatus, string>> = {
  unassigned: 'Unassigned',
  assigned: 'Awaiting acceptance',
  accepted: 'Accepted',
  contacted: 'Contacted',
  qualified: 'Qualified',
  converted: 'Converted',
  disqualified: 'Disqualified',
};

export const LEAD_SOURCES = ['web_form', 'event', 'campaign', 'partner_referral', 'other'] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];
export const LEAD_SOURCE_LABELS: Readonly<Record<LeadSource, string>> = {
  web_form: 'Web form',
  event: 'Event',
  campaign: 'Campaign',
  partner_referral: 'Partner referral',
  other: 'Other',
};

export const LEAD_REGIONS = ['Americas', 'EMEA', 'APAC'] as const;
export type LeadRegion = (typeof LEAD_REGIONS)[number];

/** Product interest names a catalogue category. */
export const LEAD_PRODUCT_INTERESTS = PRODUCT_CATEGORIES;

export const isLeadStatus = (value: unknown): value is LeadStatus => typeof value === 'string' && (LEAD_STATUSES as readonly string[]).includes(value);
export const leadStatusLabel = (status: string) => (isLeadStatus(status) ? LEAD_STATUS_LABELS[status] : status);

export const NOTES_MAX = 2000;
export const MAX_ESTIMATED_VALUE = 100_000_000;

export const LEAD_MESSAGES = {
  created: 'Lead created',
  updated: 'Lead updated',
  notFound: 'Lead not found.',
  companyRequired: 'Company is required.',
  contactRequired: 'Contact name is required.',
  emailRequired: 'E-mail is required.',
  emailInvalid: 'E-mail is not a valid address.',
  countryInvalid: 'Country must be a two-letter ISO code, for example DE.',
  regionInvalid: `Region must be one of: ${LEAD_REGIONS.join(', ')}.`,
  productInterestInvalid: `Product interest must be one of: ${PRODUCT_CATEGORIES.join(', ')}.`,
  valueInvalid: `Estimated value must be a number from 0 to ${MAX_ESTIMATED_VALUE}.`,
  sourceInvalid: `Source must be one of: ${LEAD_SOURCES.join(', ')}.`,
  notesTooLong: `Notes must be at most ${NOTES_MAX} characters.`,
  reasonRequired: 'Please give a reason.',
  reasonTooLong: `The reason must be at most ${REJECTION_REASON_MAX} characters.`,
  onlyAdminsAssign: 'Only administrators can assign leads.',
  notYours: 'This lead is not assigned to your organisation.',
  notAwaiting: (status: string) => `This lead is ${leadStatusLabel(status).toLowerCase()}, not awaiting acceptance.`,
  windowClosed: 'The acceptance window for this lead has closed.',
  notAccepted: 'Accept the lead before working it.',
  alreadyConverted: 'This lead has already been converted into a deal registration.',
  closed: (status: string) => `This lead is ${leadStatusLabel(status).toLowerCase()}; it can no longer change.`,
  invalidTransition: 'Invalid status transition',
  transitionDetails: (from: string, to: string) => `Cannot change status from ${from} to ${to}`,
  lapseNotDue: 'The acceptance window of this lead has not closed yet.',
  sameOrganisation: 'The lead is already assigned to this organisation.',
  accepted: 'Lead accepted',
  declined: 'Lead declined',
  converted: 'Lead converted into a deal registration',
  assigned: 'Lead assigned',
  statusChanged: 'Lead status changed',
} as const;

// ---- the lead's fields ----

/** The fields the vendor fills in (names as the API's, in camel case). */
export interface LeadDetails {
  company: string;
  contactName: string;
  email: string;
  phone: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
  region: LeadRegion | null;
  productInterest: string | null;
  /** Dollars, two decimals. */
  estimatedValue: number | null;
  source: LeadSource;
  notes: string | null;
}

export const LEAD_DETAIL_FIELDS = [
  'company',
  'contactName',
  'email',
  'phone',
  'country',
  'region',
  'productInterest',
  'estimatedValue',
  'source',
  'notes',
] as const satisfies readonly (keyof LeadDetails)[];

const invalid = (field: string, message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Trimmed, empty text as null, e-mail lower case, country upper case; the first problem in the form's order. */
export function normalizeLeadDetails(details: LeadDetails): LeadDetails {
  const text = (value: string | null | undefined) => value?.trim() || null;
  const company = details.company.trim();
  if (!company) throw invalid('company', LEAD_MESSAGES.companyRequired);
  const contactName = details.contactName.trim();
  if (!contactName) throw invalid('contact_name', LEAD_MESSAGES.contactRequired);
  const email = details.email.trim().toLowerCase();
  if (!email) throw invalid('email', LEAD_MESSAGES.emailRequired);
  if (!EMAIL.test(email)) throw invalid('email', LEAD_MESSAGES.emailInvalid);
  const country = text(details.country)?.toUpperCase() ?? null;
  if (country !== null && !/^[A-Z]{2}$/.test(country)) throw invalid('country', LEAD_MESSAGES.countryInvalid);
  const region = text(details.region);
  if (region !== null && !(LEAD_REGIONS as readonly string[]).includes(region)) throw invalid('region', LEAD_MESSAGES.regionInvalid);
  const productInterest = text(details.productInterest);
  if (productInterest !== null && !(PRODUCT_CATEGORIES as readonly string[]).includes(productInterest))
    throw invalid('product_interest', LEAD_MESSAGES.productInterestInvalid);
  const value = details.estimatedValue;
  if (value !== null && (!Number.isFinite(value) || value < 0 || value > MAX_ESTIMATED_VALUE)) throw invalid('estimated_value', LEAD_MESSAGES.valueInvalid);
  if (!(LEAD_SOURCES as readonly string[]).includes(details.source)) throw invalid('source', LEAD_MESSAGES.sourceInvalid);
  const notes = text(details.notes);
  if (notes !== null && notes.length > NOTES_MAX) throw invalid('notes', LEAD_MESSAGES.notesTooLong);
  return {
    company,
    contactName,
    email,
    phone: text(details.phone),
    country,
    region: region as LeadRegion | null,
    productInterest,
    estimatedValue: value === null ? null : Math.round(value * 100) / 100,
    source: details.source,
    notes,
  };
}

// ---- state ----

/** What a lead duplicates: an open lead or a protected deal registration of the same customer. */
export interface DuplicateFinding {
  type: 'lead' | 'project';
  id: string;
}

/** How the lead came to its organisation: the rule and method, or an admin's override, and why. */
export interface Assignment {
  organisationId: string;
  ruleId: string | null;
  method: 'named' | 'round_robin' | 'fewest_open' | 'manual';
  reason: string;
}

export interface LiveLead {
  status: LeadStatus;
  id: string;
  details: LeadDetails;
  duplicateOf: DuplicateFinding | null;
  /** The rules that matched when the lead was created: a pass-on follows these, so a later rule change applies to new leads only. */
  routing: RoutingRule[];
  /** The organisation the lead is assigned to or worked by; null while unassigned. */
  organisationId: string | null;
  /** When the assigned organisation's acceptance window closes (status `assigned` only). */
  dueAt: string | null;
  /** Organisations that declined it or let it lapse: never offered it again by the rules. */
  passedBy: string[];
  projectId: string | null;
}

export type LeadState = { status: 'none' } | LiveLead;

// ---- events ----

type Common = { leadId: string };

export type LeadEvent =
  | {
      type: 'LeadCreated.v1';
      data: Common &
        LeadDetails & { createdBy: string | null; duplicateOf: DuplicateFinding | null; routing: RoutingRule[]; status: 'unassigned'; previousStatus: null };
    }
  | { type: 'LeadUpdated.v1'; data: Common & { details: LeadDetails } }
  | {
      type: 'LeadAssigned.v1';
      data: Common & Assignment & { dueAt: string; previousOrganisationId: string | null; status: 'assigned'; previousStatus: LeadStatus };
    }
  | { type: 'LeadAccepted.v1'; data: Common & { organisationId: string; status: 'accepted'; previousStatus: 'assigned' } }
  /** `passedTo`: the organisation the lead passes on to in the same step; null when it returns to the unassigned queue. */
  | {
      type: 'LeadDeclined.v1';
      data: Common & { organisationId: string; reason: string; passedTo: string | null; status: 'unassigned'; previousStatus: 'assigned' };
    }
  | {
      type: 'LeadLapsed.v1';
      data: Common & { organisationId: string; dueAt: string; reason: string; passedTo: string | null; status: 'unassigned'; previousStatus: 'assigned' };
    }
  | {
      type: 'LeadStatusChanged.v1';
      data: Common & { organisationId: string; status: 'contacted' | 'qualified' | 'disqualified'; previousStatus: LeadStatus; reason: string | null };
    }
  | { type: 'LeadConverted.v1'; data: Common & { organisationId: string; projectId: string; status: 'converted'; previousStatus: LeadStatus } };

export const LAPSE_REASON = 'No answer within the acceptance window';

// ---- commands ----

/** The next organisation to offer the lead to, chosen outside (routing.ts) with the window's due time. */
export type NextAssignment = (Assignment & { dueAt: string }) | null;

export type LeadCommand =
  | {
      type: 'CreateLead';
      leadId: string;
      details: LeadDetails;
      createdBy: string | null;
      duplicateOf: DuplicateFinding | null;
      routing: RoutingRule[];
      assignment: NextAssignment;
    }
  | { type: 'UpdateLead'; details: LeadDetails }
  /** An admin's override: to any organisation, at any open stage before conversion. */
  | { type: 'AssignLead'; assignment: Assignment & { dueAt: string } }
  | { type: 'AcceptLead'; actorOrganisationId: string | null }
  | { type: 'DeclineLead'; actorOrganisationId: string | null; reason: string | null; next: NextAssignment }
  /** The worker, when the window closed: refuses to act early, changes nothing when the lead was answered or moved on. */
  | { type: 'LapseLead'; dueAt: string; next: NextAssignment }
  | { type: 'ChangeLeadStatus'; actorOrganisationId: string | null; status: string; reason: string | null }
  | { type: 'ConvertLead'; actorOrganisationId: string | null; projectId: string };

// ---- helpers ----

function existing(state: LeadState): LiveLead {
  if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', LEAD_MESSAGES.notFound);
  return state;
}

function reasonOf(raw: string | null, required: boolean): string | null {
  const reason = raw?.trim() ?? '';
  if (!reason) {
    if (required) throw invalid('reason', LEAD_MESSAGES.reasonRequired);
    return null;
  }
  if (reason.length > REJECTION_REASON_MAX) throw invalid('reason', LEAD_MESSAGES.reasonTooLong);
  return reason;
}

/** The caller acts for the lead's organisation (admins act for any). */
function requireHolder(lead: LiveLead, actorOrganisationId: string | null, metadata: CommandMetadata) {
  if (isAdminRole(metadata.actorRole)) return;
  if (!actorOrganisationId || lead.organisationId !== actorOrganisationId) throw new DomainError('forbidden', 'LEAD_NOT_YOURS', LEAD_MESSAGES.notYours);
}

const sameDetails = (a: LeadDetails, b: LeadDetails) => LEAD_DETAIL_FIELDS.every((field) => a[field] === b[field]);

function assigned(lead: LiveLead, next: NextAssignment, previousStatus: LeadStatus, previousOrganisationId: string | null): LeadEvent[] {
  if (!next) return [];
  return [{ type: 'LeadAssigned.v1', data: { leadId: lead.id, ...next, previousOrganisationId, status: 'assigned', previousStatus } }];
}

/** Refuses anything but an answer to the organisation the lead awaits. */
function awaitingAnswer(lead: LiveLead, actorOrganisationId: string | null, metadata: CommandMetadata): string {
  if (lead.status === 'converted') throw new DomainError('conflict', 'LEAD_CONVERTED', LEAD_MESSAGES.alreadyConverted);
  if (!isAdminRole(metadata.actorRole) && (!actorOrganisationId || lead.organisationId !== actorOrganisationId)) {
    throw new DomainError('forbidden', 'LEAD_NOT_YOURS', LEAD_MESSAGES.notYours);
  }
  if (lead.status !== 'assigned' || !lead.organisationId || !lead.dueAt)
    throw new DomainError('conflict', 'LEAD_NOT_AWAITING', LEAD_MESSAGES.notAwaiting(lead.status));
  if (Date.parse(metadata.now) >= Date.parse(lead.dueAt)) throw new DomainError('conflict', 'ACCEPTANCE_WINDOW_CLOSED', LEAD_MESSAGES.windowClosed);
  return lead.organisationId;
}

// ---- decide ----

export function decide(command: LeadCommand, state: LeadState, metadata: CommandMetadata): LeadEvent[] {
  switch (command.type) {
    case 'CreateLead': {
      // A retried creation (an import sent twice) changes nothing.
      if (state.status !== 'none') return [];
      const details = normalizeLeadDetails(command.details);
      const created: LeadEvent = {
        type: 'LeadCreated.v1',
        data: {
          leadId: command.leadId,
          ...details,
          createdBy: command.createdBy,
          duplicateOf: command.duplicateOf,
          routing: command.routing,
          status: 'unassigned',
          previousStatus: null,
        },
      };
      // A duplicate is flagged for the admins, never routed by the rules.
      const lead = evolve(state, created) as LiveLead;
      return [created, ...(command.duplicateOf ? [] : assigned(lead, command.assignment, 'unassigned', null))];
    }
    case 'UpdateLead': {
      const lead = existing(state);
      if (lead.status === 'converted' || lead.status === 'disqualified') throw new DomainError('conflict', 'LEAD_CLOSED', LEAD_MESSAGES.closed(lead.status));
      const details = normalizeLeadDetails(command.details);
      return sameDetails(details, lead.details) ? [] : [{ type: 'LeadUpdated.v1', data: { leadId: lead.id, details } }];
    }
    case 'AssignLead': {
      if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', LEAD_MESSAGES.onlyAdminsAssign);
      const lead = existing(state);
      if (lead.status === 'converted' || lead.status === 'disqualified') throw new DomainError('conflict', 'LEAD_CLOSED', LEAD_MESSAGES.closed(lead.status));
      if (lead.organisationId === command.assignment.organisationId) throw new DomainError('conflict', 'LEAD_ALREADY_ASSIGNED', LEAD_MESSAGES.sameOrganisation);
      return assigned(lead, command.assignment, lead.status, lead.organisationId);
    }
    case 'AcceptLead': {
      const lead = existing(state);
      const organisationId = awaitingAnswer(lead, command.actorOrganisationId, metadata);
      return [{ type: 'LeadAccepted.v1', data: { leadId: lead.id, organisationId, status: 'accepted', previousStatus: 'assigned' } }];
    }
    case 'DeclineLead': {
      const lead = existing(state);
      const organisationId = awaitingAnswer(lead, command.actorOrganisationId, metadata);
      const reason = reasonOf(command.reason, true)!;
      const declined: LeadEvent = {
        type: 'LeadDeclined.v1',
        data: { leadId: lead.id, organisationId, reason, passedTo: command.next?.organisationId ?? null, status: 'unassigned', previousStatus: 'assigned' },
      };
      return [declined, ...assigned(evolve(lead, declined) as LiveLead, command.next, 'unassigned', organisationId)];
    }
    case 'LapseLead': {
      const lead = existing(state);
      // Answered, reassigned or already passed on: the job (or the sweep) came for a window that is gone.
      if (lead.status !== 'assigned' || lead.dueAt !== command.dueAt || !lead.organisationId) return [];
      if (Date.parse(metadata.now) < Date.parse(lead.dueAt)) throw new DomainError('conflict', 'LAPSE_NOT_DUE', LEAD_MESSAGES.lapseNotDue);
      const organisationId = lead.organisationId;
      const lapsed: LeadEvent = {
        type: 'LeadLapsed.v1',
        data: {
          leadId: lead.id,
          organisationId,
          dueAt: lead.dueAt,
          reason: LAPSE_REASON,
          passedTo: command.next?.organisationId ?? null,
          status: 'unassigned',
          previousStatus: 'assigned',
        },
      };
      return [lapsed, ...assigned(evolve(lead, lapsed) as LiveLead, command.next, 'unassigned', organisationId)];
    }
    case 'ChangeLeadStatus': {
      const lead = existing(state);
      requireHolder(lead, command.actorOrganisationId, metadata);
      if (lead.status === 'converted') throw new DomainError('conflict', 'LEAD_CONVERTED', LEAD_MESSAGES.alreadyConverted);
      if (lead.status === 'unassigned' || lead.status === 'assigned') throw new DomainError('conflict', 'LEAD_NOT_ACCEPTED', LEAD_MESSAGES.notAccepted);
      const to = command.status;
      if (to === lead.status) return [];
      if (!LEAD_STATUS_TRANSITIONS[lead.status].includes(to as LeadStatus)) {
        throw new DomainError('conflict', 'INVALID_STATUS_TRANSITION', LEAD_MESSAGES.invalidTransition, LEAD_MESSAGES.transitionDetails(lead.status, to));
      }
      const reason = reasonOf(command.reason, to === 'disqualified');
      return [
        {
          type: 'LeadStatusChanged.v1',
          data: {
            leadId: lead.id,
            organisationId: lead.organisationId!,
            status: to as 'contacted' | 'qualified' | 'disqualified',
            previousStatus: lead.status,
            reason,
          },
        },
      ];
    }
    case 'ConvertLead': {
      const lead = existing(state);
      assertConvertible(lead, command.actorOrganisationId, metadata);
      return [
        {
          type: 'LeadConverted.v1',
          data: { leadId: lead.id, organisationId: lead.organisationId!, projectId: command.projectId, status: 'converted', previousStatus: lead.status },
        },
      ];
    }
    default:
      return assertNever(command);
  }
}

/** Whether the lead may become a deal now: checked before the deal registration is made, and again by ConvertLead. */
export function assertConvertible(
  state: LeadState,
  actorOrganisationId: string | null,
  metadata: Pick<CommandMetadata, 'actorRole'>,
): asserts state is LiveLead {
  const lead = existing(state);
  if (lead.status === 'converted') throw new DomainError('conflict', 'LEAD_CONVERTED', LEAD_MESSAGES.alreadyConverted);
  requireHolder(lead, actorOrganisationId, { ...metadata, now: '', actorId: null, correlationId: '', causationId: null });
  if (lead.status === 'disqualified') throw new DomainError('conflict', 'LEAD_CLOSED', LEAD_MESSAGES.closed(lead.status));
  if (!(WORKING_STATUSES as readonly string[]).includes(lead.status)) throw new DomainError('conflict', 'LEAD_NOT_ACCEPTED', LEAD_MESSAGES.notAccepted);
}

// ---- evolve ----

export function evolve(state: LeadState, event: LeadEvent): LeadState {
  if (event.type === 'LeadCreated.v1') {
    const { leadId, duplicateOf, routing, status } = event.data;
    return {
      status,
      id: leadId,
      details: pick(event.data, LEAD_DETAIL_FIELDS),
      duplicateOf,
      routing,
      organisationId: null,
      dueAt: null,
      passedBy: [],
      projectId: null,
    };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'LeadUpdated.v1':
      return { ...state, details: event.data.details };
    case 'LeadAssigned.v1':
      return { ...state, status: 'assigned', organisationId: event.data.organisationId, dueAt: event.data.dueAt };
    case 'LeadAccepted.v1':
      return { ...state, status: 'accepted', dueAt: null };
    case 'LeadDeclined.v1':
    case 'LeadLapsed.v1':
      return { ...state, status: 'unassigned', organisationId: null, dueAt: null, passedBy: [...state.passedBy, event.data.organisationId] };
    case 'LeadStatusChanged.v1':
      return { ...state, status: event.data.status };
    case 'LeadConverted.v1':
      return { ...state, status: 'converted', projectId: event.data.projectId };
    default:
      return assertNever(event);
  }
}

export const leads: Decider<LeadState, LeadCommand, LeadEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `leads-${id}`,
};

// ---- privacy ----

export interface LeadViewer {
  /** Admins, manufacturers and support staff see every lead whole. */
  seesAll: boolean;
  organisationId: string | null;
}

/** How one organisation relates to a lead it was offered: the lead's status for its holder, `lapsed` or `declined` for the ones it passed by. */
export type LeadStanding = LeadStatus | 'lapsed' | 'declined';

/**
 * Contact details (contact name, e-mail, phone) are shown to the organisation that holds the lead
 * once it accepted it, and to those who see all leads. An organisation awaiting its answer, or one
 * that declined the lead or let it lapse, sees the company and the opportunity but not whom to call.
 */
export function contactVisibleTo(lead: { status: string; organisationId: string | null }, viewer: LeadViewer): boolean {
  if (viewer.seesAll) return true;
  if (!viewer.organisationId || lead.organisationId !== viewer.organisationId) return false;
  return lead.status !== 'unassigned' && lead.status !== 'assigned';
}
