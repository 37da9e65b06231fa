/**
 * An organisation's own activity feed: the events of its records, told to its users in plain words.
 *
 * A line is written only for what the organisation may know: never an internal ticket note, a
 * reviewer's note or an administrator's remark (no line quotes free text from the vendor's side).
 * Each line names the resource whose read permission a user needs to see it; the feed filters by it
 * when it is read, so a change of permissions applies at once.
 */

import { RESOURCE_RULES, roleIs, OPEN, type Requirement } from '../access/rules';
import { formatDollars } from '../money';
import type { LoggedEvent } from './audit';

export const ACTIVITY_RESOURCES = ['orders', 'rebates', 'projects', 'tickets', 'team', 'organisation'] as const;
export type ActivityResource = (typeof ACTIVITY_RESOURCES)[number];

/** What a user needs to see a line about each kind of record: the same rule as reading that record. */
export const ACTIVITY_REQUIREMENTS: Readonly<Record<ActivityResource, Requirement>> = {
  orders: RESOURCE_RULES.orders.show,
  rebates: RESOURCE_RULES.rebates.show,
  projects: RESOURCE_RULES.projects.show,
  tickets: RESOURCE_RULES.tickets.show,
  // Team management belongs to the organisation's owner account.
  team: roleIs('partner', 'distributor'),
  organisation: OPEN,
};

export interface ActivityLine {
  organisationId: string;
  resource: ActivityResource;
  recordId: string;
  message: string;
  link: string | null;
}

/** What the projection knows beyond the event: names it keeps, looked up by id. */
export interface ActivityContext {
  projectTitle(projectId: string): string | null;
  person(userId: string): { fullName: string; role: string; organisationId: string | null } | null;
}

type Data = Record<string, unknown>;
const str = (value: unknown) => (typeof value === 'string' ? value : '');

const ORDER_STATUS_LINES: Readonly<Record<string, (n: string) => string>> = {
  approved: (n) => `Your order ${n} was approved by the vendor`,
  processing: (n) => `Your order ${n} is being processed by the vendor`,
  shipped: (n) => `Your order ${n} was shipped by the vendor`,
  delivered: (n) => `Your order ${n} was delivered`,
  cancelled: (n) => `Your order ${n} was cancelled`,
};

const PROJECT_STATUS_LINES = (title: string, status: string) => `Project “${title}” moved to ${status}`;

/** The line an event adds to its organisation's feed, or null when the organisation is not told about it. */
export function activityLineOf(event: LoggedEvent, context: ActivityContext): ActivityLine | null {
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Data;
  const organisationId = str(data.organisationId);
  switch (event.type) {
    // ---- orders ----
    case 'OrderPlaced.v1':
      return line(
        organisationId,
        'orders',
        str(data.orderId),
        `Order ${str(data.orderNumber)} was placed${typeof data.totalCents === 'number' ? `: ${formatDollars(data.totalCents)}` : ''}`,
        `/order/track/${str(data.orderId)}`,
      );
    case 'OrderStatusChanged.v1': {
      const say = ORDER_STATUS_LINES[str(data.status)] ?? ((n: string) => `Your order ${n} is now ${str(data.status)}`);
      return line(organisationId, 'orders', str(data.orderId), say(str(data.orderNumber)), `/order/track/${str(data.orderId)}`);
    }

    // ---- rebates (reviewers' notes and reasons stay out) ----
    case 'RebateSubmitted.v1':
      return line(organisationId, 'rebates', str(data.rebateId), `Rebate claim for invoice ${str(data.invoiceNumber)} was submitted`, '/rebates');
    case 'RebateProcessingStarted.v1':
      return line(organisationId, 'rebates', str(data.rebateId), `Your rebate claim for invoice ${str(data.invoiceNumber)} is being reviewed`, '/rebates');
    case 'RebateApproved.v1':
      return line(
        organisationId,
        'rebates',
        str(data.rebateId),
        `Your rebate claim was approved: ${formatDollars(Number(data.rebateAmountCents) || 0)}`,
        '/rebates',
      );
    case 'RebateRejected.v1':
      return line(organisationId, 'rebates', str(data.rebateId), `Your rebate claim for invoice ${str(data.invoiceNumber)} was rejected`, '/rebates');
    case 'RebateDeleted.v1':
      return line(organisationId, 'rebates', str(data.rebateId), `Rebate claim for invoice ${str(data.invoiceNumber)} was withdrawn`, null);

    // ---- projects (deal registrations) ----
    case 'ProjectRegistered.v1': {
      const title = str((data.details as Data | undefined)?.title) || 'Untitled';
      return line(organisationId, 'projects', str(data.projectId), `Deal registration “${title}” was submitted`, projectLink(data));
    }
    case 'ProjectRegistrationApproved.v1':
      return projectLine(data, context, (t) => `Your deal registration “${t}” was approved`);
    case 'ProjectRegistrationRejected.v1':
      return projectLine(data, context, (t) => `Your deal registration “${t}” was rejected`);
    case 'ProjectRegistrationExpired.v1':
      return projectLine(data, context, (t) => `Your deal registration “${t}” expired`);
    case 'ProjectExtensionApproved.v1':
      return projectLine(data, context, (t) => `The registration of “${t}” was extended to ${str(data.expiresAt).slice(0, 10)}`);
    case 'ProjectExtensionDeclined.v1':
      return projectLine(data, context, (t) => `The extension of “${t}” was declined`);
    case 'ProjectStatusChanged.v1':
      return projectLine(data, context, (t) => PROJECT_STATUS_LINES(t, str(data.status)));
    case 'ProjectDeleted.v1':
      return line(organisationId, 'projects', str(data.projectId), 'A project was deleted', null);

    // ---- support tickets: internal notes never, not even that one was written ----
    case 'TicketOpened.v1':
      return line(organisationId, 'tickets', str(data.ticketId), `Support ticket ${str(data.ticketNumber)} was opened: ${str(data.title)}`, ticketLink(data));
    case 'TicketStatusChanged.v1':
      return line(organisationId, 'tickets', str(data.ticketId), `Support ticket ${str(data.ticketNumber)} is now ${str(data.status)}`, ticketLink(data));
    case 'TicketCommented.v1':
      if (data.isInternal !== false) return null;
      return line(organisationId, 'tickets', str(data.ticketId), `New reply on support ticket ${str(data.ticketNumber)}`, ticketLink(data));

    // ---- the organisation's own account and team ----
    case 'PartnerApproved.v1':
      return line(str(data.userId), 'organisation', str(data.partnerId), 'Your partner application was approved: welcome aboard', null);
    // An invitation comes with the member's registration, which already says the member was added.
    case 'UserRegistered.v1':
    case 'UserActivated.v1':
    case 'UserDeactivated.v1':
    case 'UserDeleted.v1':
    case 'UserPermissionsChanged.v1':
      return teamLine(event.type, data, context);
  }
  return null;
}

function line(organisationId: string, resource: ActivityResource, recordId: string, message: string, link: string | null): ActivityLine | null {
  return organisationId ? { organisationId, resource, recordId, message, link } : null;
}

const projectLink = (data: Data) => `/project/details?id=${encodeURIComponent(str(data.projectId))}`;
const ticketLink = (data: Data) => `/supportcenter?ticket=${encodeURIComponent(str(data.ticketId))}`;

function projectLine(data: Data, context: ActivityContext, say: (title: string) => string): ActivityLine | null {
  const projectId = str(data.projectId);
  const title = context.projectTitle(projectId) ?? 'a project';
  return line(str(data.organisationId), 'projects', projectId, say(title), projectLink(data));
}

/** Lines about team members (sub-users) only; an owner's own account changes are the vendor's business. */
/** The message of a team line about `name`, or undefined for an event that makes none. */
export function teamMessage(type: string, name: string): string | undefined {
  const messages: Record<string, string> = {
    'UserRegistered.v1': `Team member added: ${name}`,
    'UserActivated.v1': `Team member ${name} was activated`,
    'UserDeactivated.v1': `Team member ${name} was deactivated`,
    'UserDeleted.v1': `Team member ${name} was removed`,
    'UserPermissionsChanged.v1': `Permissions of team member ${name} were changed`,
  };
  return messages[type];
}

function teamLine(type: string, data: Data, context: ActivityContext): ActivityLine | null {
  const userId = str(data.userId);
  const member = context.person(userId);
  const parent = type === 'UserRegistered.v1' ? str(data.parentUserId) : member && member.organisationId !== userId ? member.organisationId : '';
  if (!parent) return null;
  const owner = context.person(parent);
  const link = owner?.role === 'distributor' ? '/distributor/team-management' : '/partner/team-management';
  const name = str(data.fullName) || member?.fullName || str(data.email) || 'A team member';
  return line(parent, 'team', userId, teamMessage(type, name)!, link);
}
