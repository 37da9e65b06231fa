/** The audit log's calls and how its lines link to their records. */

import { API_URL } from '../providers/httpClient';
import { PAGED_ROWS_LIMIT } from '../lists/listControls';
import { download } from '../providers/download';

export type { AuditLine } from '@contracts/audit';
import type { AuditLine } from '@contracts/audit';

export interface AuditFilters {
  actor_id?: string;
  record_type?: string;
  event_type?: string;
  organisation_id?: string;
  /** YYYY-MM-DD, inclusive */
  from?: string;
  /** YYYY-MM-DD, inclusive */
  to?: string;
}

/** Past this many lines the server asks for narrower filters (its count stops there too). */
export const AUDIT_PAGE_LIMIT = PAGED_ROWS_LIMIT;

export const RECORD_TYPES: ReadonlyArray<{ id: string; name: string }> = [
  { id: 'users', name: 'Users and sign-ins' },
  { id: 'partners', name: 'Partners' },
  { id: 'orders', name: 'Orders' },
  { id: 'products', name: 'Products' },
  { id: 'projects', name: 'Projects' },
  { id: 'rebates', name: 'Rebates' },
  { id: 'tickets', name: 'Tickets' },
  { id: 'resources', name: 'Downloads' },
  { id: 'settings', name: 'Settings' },
  { id: 'notifications', name: 'Notifications' },
  { id: 'warrantychecks', name: 'Warranty checks' },
  { id: 'exports', name: 'Exports' },
  { id: 'api_keys', name: 'API keys' },
];

/** The event types an admin is most likely to look for; any other can be typed. */
export const COMMON_EVENT_TYPES = [
  'SignInSucceeded.v1',
  'SignInFailed.v1',
  'UserPasswordChanged.v1',
  'UserPermissionsChanged.v1',
  'UserRegistered.v1',
  'UserActivated.v1',
  'UserDeactivated.v1',
  'UserDeleted.v1',
  'ExportDownloaded.v1',
  'ApiKeyUsed.v1',
  'PartnerApproved.v1',
  'PartnerRejected.v1',
  'OrderPlaced.v1',
  'OrderStatusChanged.v1',
  'ProjectRegistered.v1',
  'ProjectRegistrationApproved.v1',
  'ProjectRegistrationRejected.v1',
  'RebateSubmitted.v1',
  'RebateApproved.v1',
  'RebateRejected.v1',
  'TicketOpened.v1',
  'TicketStatusChanged.v1',
  'TicketCommented.v1',
  'ProductAdded.v1',
  'ProductUpdated.v1',
] as const;

/** Where an admin opens the record a line is about, when it has a screen. */
export function recordLink(line: Pick<AuditLine, 'record_type' | 'record_id'>): string | null {
  const id = encodeURIComponent(line.record_id);
  switch (line.record_type) {
    case 'orders':
      return `/order/track/${id}`;
    case 'projects':
      return `/project/details?id=${id}`;
    case 'tickets':
      return `/supportcenter?ticket=${id}`;
    case 'rebates':
      return '/adminpanel?tab=rebates';
    case 'users':
      return '/adminpanel?tab=users';
    case 'partners':
      return '/adminpanel';
    case 'products':
      return '/adminpanel?tab=products';
    default:
      return null;
  }
}

const filterQuery = (filters: AuditFilters) => {
  const present = Object.fromEntries(Object.entries(filters).filter(([, value]) => value));
  return Object.keys(present).length ? `?filter=${encodeURIComponent(JSON.stringify(present))}` : '';
};

/** GET /audit/export.csv with the filters the screen shows: every matching line, not only the page. */
export const exportAuditLog = (filters: AuditFilters) => download(`${API_URL}/audit/export.csv${filterQuery(filters)}`, 'audit-log.csv');
