/**
 * The audit trail's own facts and how any event reads in the admins' audit log.
 *
 * Most audit entries are the modules' events themselves. What no module records (sign-ins, failed
 * sign-ins, downloads of exports, use of an API key) is appended as an audit event of its own, so the
 * log is rebuilt from the event log like every read model. Summaries name only chosen fields: event
 * data can hold password hashes and private notes, which never reach the log.
 */

import { formatDollars } from '../money';

export type AuditEvent =
  | { type: 'SignInSucceeded.v1'; data: { userId: string; email: string; ip: string | null } }
  /** `userId` is null when no account has the address. The typed password is never kept. */
  | { type: 'SignInFailed.v1'; data: { userId: string | null; email: string; reason: SignInFailure; ip: string | null } }
  | { type: 'ExportDownloaded.v1'; data: { userId: string; export: string; filters: Record<string, string> } }
  /** `organisationId`: the organisation an organisation key acts for (none for the vendor's keys). */
  | { type: 'ApiKeyUsed.v1'; data: { apiKeyId: string; name: string; method: string; path: string; organisationId?: string } };

export type AuditEventType = AuditEvent['type'];
export type SignInFailure = 'invalid_credentials' | 'account_inactive' | 'organisation_inactive' | 'second_factor_failed' | 'sso_required' | 'sso_refused';

/** What an audit event is about, for the caller that records it (the time and actor come from the request). */
export type AuditEntry = { [E in AuditEvent as E['type']]: { type: E['type']; data: E['data'] } }[AuditEventType];

/**
 * One stream per day and subject: appends of different people never contend for a revision, and a
 * day's entries about one account stay together.
 */
export const auditStreamId = (occurredAt: string, subject: string | null) => `audit-${occurredAt.slice(0, 10)}-${subject ?? 'anonymous'}`;

const SIGN_IN_FAILURES: Readonly<Record<SignInFailure, string>> = {
  invalid_credentials: 'wrong e-mail address or password',
  account_inactive: 'the account is not active',
  organisation_inactive: "the organisation's account is not active",
  second_factor_failed: 'wrong second factor',
  sso_required: 'the organisation signs in through single sign-on only',
  sso_refused: 'single sign-on refused',
};

// ---- how an event reads in the log ----

export interface LoggedEvent {
  id: string;
  streamId: string;
  type: string;
  data: unknown;
}

export interface AuditRecordRef {
  recordType: string;
  recordId: string;
}

type Data = Record<string, unknown>;
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const record = (data: unknown): Data => (typeof data === 'object' && data !== null ? (data as Data) : {});

/** `OrderStatusChanged.v1` → `Order status changed`. */
export function humaniseEventType(type: string): string {
  const name = type.replace(/\.v\d+$/, '');
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The record an event belongs to: its stream's category and id, or for audit events the account or export concerned. */
export function auditRecordOf(event: LoggedEvent): AuditRecordRef {
  const data = record(event.data);
  switch (event.type) {
    case 'SignInSucceeded.v1':
    case 'SignInFailed.v1':
      return { recordType: 'users', recordId: text(data.userId) ?? text(data.email) ?? '' };
    case 'ExportDownloaded.v1':
      return { recordType: 'exports', recordId: text(data.export) ?? '' };
    case 'ApiKeyUsed.v1':
      return { recordType: 'api_keys', recordId: text(data.apiKeyId) ?? '' };
  }
  // E-mail claims (`user-emails-<address>`) belong to the account that claims the address.
  if (event.streamId.startsWith('user-emails-')) return { recordType: 'users', recordId: text(data.userId) ?? '' };
  const dash = event.streamId.indexOf('-');
  return dash < 0 ? { recordType: event.streamId, recordId: '' } : { recordType: event.streamId.slice(0, dash), recordId: event.streamId.slice(dash + 1) };
}

/** The organisation an event names itself, when it does. */
export function organisationNamedBy(event: LoggedEvent): string | null {
  const data = record(event.data);
  if (text(data.organisationId)) return data.organisationId as string;
  if (event.type.startsWith('Partner') && text(data.userId)) return data.userId as string;
  return null;
}

/** The account an event is about (its organisation is that account's). */
export function accountNamedBy(event: LoggedEvent): string | null {
  const data = record(event.data);
  return text(data.userId) ?? (event.type.startsWith('Partner') ? text(data.partnerId) : null);
}

const statusChange = (data: Data) =>
  typeof data.status === 'string' && 'previousStatus' in data ? (data.previousStatus ? `${String(data.previousStatus)} → ${data.status}` : data.status) : null;

/** One line for the audit log, built from chosen fields only. */
export function auditSummary(event: LoggedEvent, names: { subject?: string | null } = {}): string {
  const data = record(event.data);
  const who = names.subject ?? text(data.email) ?? text(data.fullName) ?? null;
  switch (event.type) {
    case 'SignInSucceeded.v1':
      return `Signed in as ${text(data.email) ?? 'an account'}${text(data.ip) ? ` from ${data.ip as string}` : ''}`;
    case 'SignInFailed.v1':
      return `Failed sign-in for ${text(data.email) ?? 'an unknown address'}: ${SIGN_IN_FAILURES[data.reason as SignInFailure] ?? 'refused'}${text(data.ip) ? ` (from ${data.ip as string})` : ''}`;
    case 'ExportDownloaded.v1': {
      const filters = Object.entries(record(data.filters)).map(([key, value]) => `${key}=${String(value)}`);
      return `Exported ${text(data.export) ?? 'a list'} as CSV${filters.length ? ` (${filters.join(', ')})` : ''}`;
    }
    case 'ApiKeyUsed.v1':
      return `API key “${text(data.name) ?? 'unnamed'}” called ${text(data.method) ?? ''} ${text(data.path) ?? ''}`.trim();
    case 'UserRegistered.v1':
      return `Account created for ${who ?? 'a user'} (${text(data.role) ?? 'no role'})`;
    case 'UserProfileUpdated.v1':
      return `Profile of ${who ?? 'a user'} updated`;
    case 'UserPermissionsChanged.v1': {
      const before = new Set(Array.isArray(data.previousPermissions) ? (data.previousPermissions as string[]) : []);
      const after = new Set(Array.isArray(data.permissions) ? (data.permissions as string[]) : []);
      const added = [...after].filter((p) => !before.has(p));
      const removed = [...before].filter((p) => !after.has(p));
      const parts = [added.length ? `added ${added.join(', ')}` : '', removed.length ? `removed ${removed.join(', ')}` : ''].filter(Boolean);
      return `Permissions of ${who ?? 'a user'} changed${parts.length ? `: ${parts.join('; ')}` : ''}`;
    }
    case 'UserActivated.v1':
      return `Account of ${who ?? 'a user'} activated`;
    case 'UserDeactivated.v1':
      return `Account of ${who ?? 'a user'} deactivated`;
    case 'UserDeleted.v1':
      return `Account of ${who ?? 'a user'} deleted`;
    case 'UserPasswordChanged.v1':
      return `Password of ${who ?? 'a user'} changed`;
    case 'UserInvited.v1':
      return `Invitation sent to ${text(data.email) ?? 'a team member'}`;
    case 'UserInvitationAccepted.v1':
      return `Invitation accepted by ${who ?? 'a team member'}`;
    case 'UserErased.v1':
      return `Personal data of the account erased: ${text(data.reason) ?? 'no reason given'}`;
    case 'OrderPlaced.v1':
      return `Order ${text(data.orderNumber) ?? ''} placed${typeof data.totalCents === 'number' ? ` (${formatDollars(data.totalCents)})` : ''}`;
    case 'OrderStatusChanged.v1':
      return `Order ${text(data.orderNumber) ?? ''} ${statusChange(data) ?? 'changed'}`;
    case 'RebateSubmitted.v1':
      return `Rebate claim for invoice ${text(data.invoiceNumber) ?? ''} submitted`;
    case 'RebateApproved.v1':
      return `Rebate claim for invoice ${text(data.invoiceNumber) ?? ''} approved${typeof data.rebateAmountCents === 'number' ? `: ${formatDollars(data.rebateAmountCents)}` : ''}`;
    case 'RebateRejected.v1':
      return `Rebate claim for invoice ${text(data.invoiceNumber) ?? ''} rejected`;
    case 'ProjectRegistered.v1':
      return `Deal registration “${text(record(data.details).title) ?? 'untitled'}” submitted`;
    case 'TicketOpened.v1':
      return `Ticket ${text(data.ticketNumber) ?? ''} opened: ${text(data.title) ?? ''}`.trim();
    case 'TicketCommented.v1':
      return `${data.isInternal ? 'Internal note' : 'Reply'} on ticket ${text(data.ticketNumber) ?? ''}`;
    case 'PartnerApproved.v1':
      return `Partner ${text(data.companyName) ?? ''} approved (${text(data.tier) ?? ''} ${text(data.category) ?? ''})`
        .replace(/\s+\)/, ')')
        .replace(' ()', '');
    case 'PartnerRejected.v1':
      return `Partner ${text(data.companyName) ?? ''} rejected`;
  }
  const change = statusChange(data);
  const label = text(data.orderNumber) ?? text(data.ticketNumber) ?? text(data.invoiceNumber) ?? text(data.companyName) ?? text(data.email);
  return `${humaniseEventType(event.type)}${label ? ` ${label}` : ''}${change ? `: ${change}` : ''}`;
}
