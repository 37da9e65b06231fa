/**
 * The dashboards' headline figures (KPI cards), each defined once: what it counts is the total of one
 * list filtered in one way. The server counts a card by running that list's own query with that
 * filter, the web links the card to the same list with the same filter, and a test checks, card by
 * card, that the number on the dashboard is the list's total. A figure that no list can show (a
 * percentage, an amount of money, a queue length kept outside the read models) is not a KPI card.
 *
 * Periods ("today", "this month") are whole UTC days, the portal's one time-zone rule (see
 * `periods.ts` and docs/decisions.md, "Figures that agree").
 */

import { API_ROUTES, mayCallApi } from '../access/api';
import type { Principal } from '../access/rules';
import { lengthInDays, monthToDate, previousPeriod, todayPeriod, isoDay, type Period } from './periods';
import type { DashboardKind } from './quickActions';

/** The lists a card can count, with the API route the server counts with and the screen the card opens. */
export const KPI_LISTS = {
  projects: { api: 'GET /projects', path: '/api/projects', screen: '/projects' },
  orders: { api: 'GET /orders', path: '/api/orders', screen: '/orders' },
  tickets: { api: 'GET /tickets', path: '/api/tickets', screen: '/supportcenter' },
  rebates: { api: 'GET /rebates/admin/all', path: '/api/rebates/admin/all', screen: '/adminpanel?tab=rebates' },
  partners: { api: 'GET /partner/partners', path: '/api/partner/partners', screen: '/adminpanel' },
  directory: { api: 'GET /partner/partners', path: '/api/partner/partners', screen: '/partnerdirectory' },
} as const;
export type KpiList = keyof typeof KPI_LISTS;

/** A list filter as the list route takes it in react-admin's `filter` JSON. */
export type KpiFilter = Readonly<Record<string, string | boolean>>;

export interface KpiContext {
  /** The period the dashboard looks at (the month so far unless the viewer chose a range). */
  readonly range: Period;
  readonly now: Date;
}

export interface KpiDefinition {
  readonly id: string;
  readonly dashboard: DashboardKind;
  readonly label: string;
  /** What the card counts, in words (shown as the card's tooltip and in the docs). */
  readonly definition: string;
  readonly list: KpiList;
  readonly filter: (ctx: KpiContext) => KpiFilter;
  /** Whether the card follows the dashboard's date range (its filter then holds the range). */
  readonly followsRange?: true;
}

/** The last day of a period, for the lists' inclusive `…_lte` / `…_to` date filters. */
export const lastDayOf = (period: Period): string => isoDay(new Date(Date.parse(period.end) - 86_400_000));

const ordersIn = (period: Period): KpiFilter => ({ date_gte: period.start, date_lte: lastDayOf(period) });

export const KPI_DEFINITIONS: readonly KpiDefinition[] = [
  // partner: its own organisation's records
  {
    id: 'partner.activeProjects',
    dashboard: 'partner',
    label: 'Active Projects',
    definition: 'Projects not Completed.',
    list: 'projects',
    filter: () => ({ active: true }),
  },
  {
    id: 'partner.expiringRegistrations',
    dashboard: 'partner',
    label: 'Registrations Expiring Soon',
    definition: 'Registrations pending or approved that expire within 14 days.',
    list: 'projects',
    filter: () => ({ expiring_soon: true }),
  },
  {
    id: 'partner.orders',
    dashboard: 'partner',
    label: 'Orders',
    definition: 'Orders placed in the chosen period (UTC days).',
    list: 'orders',
    filter: (c) => ordersIn(c.range),
    followsRange: true,
  },
  {
    id: 'partner.openTickets',
    dashboard: 'partner',
    label: 'Open Tickets',
    definition: 'Tickets Open or In Progress.',
    list: 'tickets',
    filter: () => ({ active: true }),
  },

  // distributor
  {
    id: 'distributor.ordersToday',
    dashboard: 'distributor',
    label: 'Orders Today',
    definition: 'Orders placed today (UTC).',
    list: 'orders',
    filter: (c) => ordersIn(todayPeriod(c.now)),
  },
  {
    id: 'distributor.pendingShipments',
    dashboard: 'distributor',
    label: 'Pending Shipments',
    definition: 'Orders pending, processing or approved: not yet shipped or cancelled.',
    list: 'orders',
    filter: () => ({ awaiting_shipment: true }),
  },
  {
    id: 'distributor.orders',
    dashboard: 'distributor',
    label: 'Orders',
    definition: 'Orders placed in the chosen period (UTC days).',
    list: 'orders',
    filter: (c) => ordersIn(c.range),
    followsRange: true,
  },

  // manufacturer: the whole channel
  {
    id: 'manufacturer.managedPartners',
    dashboard: 'manufacturer',
    label: 'Managed Partners',
    definition: 'Approved partners.',
    list: 'directory',
    filter: () => ({ status: 'approved' }),
  },
  {
    id: 'manufacturer.orders',
    dashboard: 'manufacturer',
    label: 'Orders',
    definition: 'Orders placed in the chosen period (UTC days).',
    list: 'orders',
    filter: (c) => ordersIn(c.range),
    followsRange: true,
  },
  {
    id: 'manufacturer.activeProjects',
    dashboard: 'manufacturer',
    label: 'Active Projects',
    definition: 'Projects not Completed.',
    list: 'projects',
    filter: () => ({ active: true }),
  },

  // support: tickets of every organisation
  { id: 'support.openTickets', dashboard: 'support', label: 'Open Tickets', definition: 'Tickets Open.', list: 'tickets', filter: () => ({ status: 'Open' }) },
  {
    id: 'support.inProgress',
    dashboard: 'support',
    label: 'In Progress',
    definition: 'Tickets In Progress.',
    list: 'tickets',
    filter: () => ({ status: 'In Progress' }),
  },
  {
    id: 'support.urgent',
    dashboard: 'support',
    label: 'Urgent Tickets',
    definition: 'Tickets Open or In Progress of High or Critical priority.',
    list: 'tickets',
    filter: () => ({ active: true, urgent: true }),
  },
  {
    id: 'support.overdue',
    dashboard: 'support',
    label: 'Overdue Tickets',
    definition: 'Tickets Open or In Progress past their due time.',
    list: 'tickets',
    filter: () => ({ overdue: true }),
  },

  // admin: what awaits a decision
  {
    id: 'admin.pendingApprovals',
    dashboard: 'admin',
    label: 'Pending Approvals',
    definition: 'Partner applications awaiting a decision.',
    list: 'partners',
    filter: () => ({ status: 'pending' }),
  },
  {
    id: 'admin.conflicts',
    dashboard: 'admin',
    label: 'Registration Conflicts',
    definition: 'Registrations under conflict review.',
    list: 'projects',
    filter: () => ({ registration_status: 'conflict' }),
  },
  {
    id: 'admin.extensionRequests',
    dashboard: 'admin',
    label: 'Extension Requests',
    definition: 'Registration extensions awaiting a decision.',
    list: 'projects',
    filter: () => ({ extension_status: 'requested' }),
  },
  {
    id: 'admin.openRebates',
    dashboard: 'admin',
    label: 'Open Rebates',
    definition: 'Rebate claims pending or processing.',
    list: 'rebates',
    filter: () => ({ open: true }),
  },
  {
    id: 'admin.overdueTickets',
    dashboard: 'admin',
    label: 'Overdue Tickets',
    definition: 'Tickets Open or In Progress past their due time.',
    list: 'tickets',
    filter: () => ({ overdue: true }),
  },
  {
    id: 'admin.orders',
    dashboard: 'admin',
    label: 'Orders',
    definition: 'Orders placed in the chosen period (UTC days).',
    list: 'orders',
    filter: (c) => ordersIn(c.range),
    followsRange: true,
  },
];

export const kpisOf = (dashboard: DashboardKind): readonly KpiDefinition[] => KPI_DEFINITIONS.filter((k) => k.dashboard === dashboard);

/** Whether the viewer may open the card's list (a card of a list they cannot read is left out, not shown as an error). */
export const mayReadKpi = (principal: Principal & { readonly id?: string }, kpi: KpiDefinition): boolean =>
  mayCallApi(principal, API_ROUTES[KPI_LISTS[kpi.list].api]);

/** The screen a card opens: the list with exactly the card's filter, in react-admin's `filter` parameter. */
export function kpiScreenLink(list: KpiList, filter: KpiFilter): string {
  const screen: string = KPI_LISTS[list].screen;
  return `${screen}${screen.includes('?') ? '&' : '?'}filter=${encodeURIComponent(JSON.stringify(filter))}`;
}

// ---- the dashboards' date range ----

export const DATE_RANGES = ['7d', '30d', '90d', 'month', 'quarter', 'year', 'custom'] as const;
export type DateRangeKey = (typeof DATE_RANGES)[number];
export const DATE_RANGE_LABELS: Readonly<Record<DateRangeKey, string>> = {
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  month: 'This month',
  quarter: 'This quarter',
  year: 'This year',
  custom: 'Custom',
};

const DAY_MS = 86_400_000;
const addDays = (day: string, days: number) => isoDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));

/**
 * The period a range key stands for on `now`'s UTC day, today included. `custom` takes `from` and `to`
 * (inclusive days). Throws on a custom range that is not a range.
 */
export function periodOf(key: DateRangeKey, now: Date, custom?: { from: string; to: string }): Period {
  const today = todayPeriod(now);
  switch (key) {
    case '7d':
      return { start: addDays(today.end, -7), end: today.end };
    case '30d':
      return { start: addDays(today.end, -30), end: today.end };
    case '90d':
      return { start: addDays(today.end, -90), end: today.end };
    case 'month':
      return monthToDate(now);
    case 'quarter': {
      const q = Math.floor(now.getUTCMonth() / 3) * 3;
      return { start: isoDay(new Date(Date.UTC(now.getUTCFullYear(), q, 1))), end: today.end };
    }
    case 'year':
      return { start: `${now.getUTCFullYear()}-01-01`, end: today.end };
    case 'custom': {
      if (!custom || custom.from > custom.to) throw new RangeError('A custom range needs a first day on or before its last day.');
      return { start: custom.from, end: addDays(custom.to, 1) };
    }
  }
}

/** The period of the same length just before (for growth figures). */
export const periodBefore = (period: Period): Period => previousPeriod(period);
export { lengthInDays };
