// What each role reads in the portal: its dashboard, the lists of its menu (each with its own sort fields
// and filters), the records it opens from them with one of their tabs, and the figures and settings it
// looks at. read-mix.js opens one screen per iteration; discover() (its setup) finds the records each
// role may see, how long its lists are, and the values worth filtering by.
//
// Every request is tagged with its route (`GET /api/orders/:id`), never its address, so a run's results
// group by route however many addresses it requested.
import { check } from 'k6';
import { json, pick, read } from './portal.js';
import { bounds, daysAgo, listQuery, oneOf, period, randomInt } from './listQueries.js';

const YES_NO = ['true', 'false'];
const PRODUCT_CATEGORIES = [
  'Managed Switches',
  'Unmanaged Switches',
  'Helix Xtreme Switches',
  'Industrial Managed Switches',
  'Industrial Unmanaged Switches',
  'Helix Accessories',
  'Helix Power Supply',
];
const ROLES_OF_USERS = ['admin', 'partner', 'distributor', 'manufacturer', 'support', 'partner_user', 'distributor_user'];
/** Roles that see every organisation's records (and so filter by organisation). */
const SEES_EVERYONE = ['admin', 'manufacturer', 'support'];

// ---- the lists: route, sort fields besides id, filter choices (from the facets discover() found) and search words ----

const LISTS = {
  users: {
    path: '/api/users',
    sorts: ['full_name', 'email', 'role', 'created_at', 'is_active', 'company_name'],
    filters: () => [oneOf('role', ROLES_OF_USERS), oneOf('is_active', YES_NO)],
    searches: ['partner', 'alex', 'helix', 'north', 'support', 'partnerhub.test'],
  },
  notifications: { path: '/api/notifications', sorts: ['created_at'], filters: () => [oneOf('unread', YES_NO)] },
  products: {
    path: '/api/products',
    sorts: ['name', 'moq', 'stock_quantity', 'price', 'created_at', 'category'],
    filters: () => [
      oneOf('category', PRODUCT_CATEGORIES),
      oneOf('stock', ['in_stock', 'low_stock', 'out_of_stock']),
      oneOf('delivery', ['fast', 'medium', 'slow', 'unavailable']),
    ],
    searches: ['switch', 'port', 'gigabit', 'industrial', 'HX', 'PoE', 'power'],
  },
  orders: {
    path: '/api/orders',
    sorts: ['created_at', 'total_amount', 'status', 'order_number', 'company_name', 'estimated_delivery', 'item_count'],
    filters: (f) => [
      oneOf('status', ['pending', 'approved', 'shipped', 'delivered', 'cancelled', 'processing']),
      f.everyone && oneOf('organisation_id', f.organisations),
      period('date_gte', 'date_lte'),
      bounds('total_gte', 'total_lte', [100, 500, 1000, 2500, 5000, 10000, 50000]),
      oneOf('awaiting_shipment', YES_NO),
    ],
    searches: ['ORD', 'ORD-2026', 'north', 'atlas', 'switch'],
    // The status tabs' counts come with every page of the Orders screen, for the same filters.
    companions: [{ path: '/api/orders/counts', name: 'GET /api/orders/counts' }],
    nextPage: { cursor: (r) => json(r, 'data.nextCursor'), param: 'after' },
  },
  partners: {
    path: '/api/partner/partners',
    sorts: ['company_name', 'created_at', 'updated_at', 'status', 'region', 'tier', 'category', 'rating', 'projects_count'],
    filters: (f) => [
      f.role === 'admin' && oneOf('status', ['pending', 'approved', 'rejected']),
      oneOf('region', f.regions),
      oneOf('tier', f.partnerTiers),
      oneOf('category', f.partnerCategories),
    ],
    searches: ['net', 'north', 'atlas', 'systems', 'load'],
  },
  tickets: {
    path: '/api/tickets',
    sorts: ['created_at', 'updated_at', 'due_at', 'priority', 'status', 'ticket_number', 'title', 'company_name'],
    filters: (f) => [
      oneOf('status', ['Open', 'In Progress', 'Resolved', 'Closed']),
      oneOf('priority', ['Low', 'Medium', 'High', 'Critical']),
      oneOf('category', ['General', 'Technical', 'Billing', 'Feature Request', 'Bug Report']),
      f.everyone && oneOf('assigned_to', [...f.assignees, 'unassigned']),
      f.everyone && oneOf('organisation_id', f.organisations),
      oneOf('overdue', YES_NO),
      oneOf('active', YES_NO),
      oneOf('urgent', YES_NO),
    ],
    searches: ['TCK', 'port', 'firmware', 'uplink', 'load case', 'licence'],
  },
  resources: {
    path: '/api/resources',
    sorts: ['title', 'category', 'created_at'],
    filters: () => [oneOf('category', ['Datasheet', 'Firmware Notes', 'Price List', 'Manual', 'Other'])],
    searches: ['datasheet', 'firmware', 'price', 'guide'],
  },
  projects: {
    path: '/api/projects',
    sorts: [
      'created_at',
      'updated_at',
      'title',
      'status',
      'value',
      'progress',
      'expires_at',
      'expected_closure_date',
      'company_name',
      'end_user_customer_name',
      'registration_status',
      'submitted_at',
      'review_priority',
    ],
    filters: (f) => [
      oneOf('status', ['Planning', 'In Progress', 'On Hold', 'Completed']),
      oneOf('registration_status', ['pending', 'conflict', 'approved', 'rejected', 'expired']),
      oneOf('active', YES_NO),
      oneOf('expiring_soon', YES_NO),
      oneOf('extension_status', ['none', 'requested', 'approved', 'declined']),
      f.everyone && oneOf('organisation_id', f.organisations),
    ],
    searches: ['campus', 'load deal', 'hospital', 'network', 'upgrade'],
  },
  rebates: {
    path: '/api/rebates/user',
    sorts: ['submitted_date', 'created_at', 'purchase_date', 'purchase_amount', 'rebate_amount', 'status', 'company_name', 'invoice_number', 'product_name'],
    filters: (f) => [
      oneOf('status', ['pending', 'processing', 'approved', 'rejected']),
      oneOf('product_category', f.rebateCategories),
      oneOf('rebate_type', f.rebateTypes),
      period('date_from', 'date_to'),
      oneOf('open', YES_NO),
    ],
    searches: ['INV', 'switch', 'volume'],
  },
  leads: {
    path: '/api/leads',
    sorts: ['created_at', 'updated_at', 'company', 'status', 'estimated_value', 'due_at', 'source', 'region', 'country'],
    filters: (f) => [
      oneOf('status', ['unassigned', 'assigned', 'accepted', 'contacted', 'qualified', 'converted', 'disqualified', 'lapsed', 'declined', 'reassigned']),
      oneOf('source', ['web_form', 'event', 'campaign', 'partner_referral', 'other']),
      oneOf('region', ['Americas', 'EMEA', 'APAC']),
      oneOf('product_interest', PRODUCT_CATEGORIES),
      oneOf('country', f.countries),
      bounds('min_age_days', 'max_age_days', [1, 7, 30, 60, 90, 365]),
      oneOf('duplicate', YES_NO),
      f.everyone && oneOf('organisation_id', f.organisations),
    ],
    searches: ['hospital', 'school', 'logistics', 'bank'],
  },
  leadRules: { path: '/api/lead-rules', sorts: ['position'] },
  funds: {
    path: '/api/funds',
    sorts: ['name', 'period_start', 'period_end', 'budget', 'status', 'created_at'],
    filters: () => [oneOf('status', ['open', 'closed'])],
  },
  fundRequests: {
    path: '/api/fund-requests',
    sorts: ['submitted_at', 'start_date', 'end_date', 'requested_amount', 'approved_amount', 'claim_deadline', 'status', 'title', 'company_name'],
    filters: (f) => [
      oneOf('status', ['pending', 'changes_requested', 'approved', 'rejected', 'claimed', 'released']),
      oneOf('fund_id', f.funds),
      f.role === 'admin' && oneOf('organisation_id', f.organisations),
    ],
    searches: ['event', 'webinar', 'campaign'],
  },
  fundClaims: {
    path: '/api/fund-claims',
    sorts: ['submitted_at', 'claimed_amount', 'approved_amount', 'paid_amount', 'status', 'company_name'],
    filters: (f) => [
      oneOf('status', ['pending', 'more_proof_requested', 'approved', 'rejected', 'paid']),
      oneOf('fund_id', f.funds),
      f.role === 'admin' && oneOf('organisation_id', f.organisations),
    ],
  },
  courses: {
    path: '/api/courses',
    sorts: ['title', 'level', 'estimated_minutes', 'updated_at', 'published_at', 'status'],
    filters: () => [
      oneOf('audience', ['partner', 'distributor', 'partner_user', 'distributor_user']),
      oneOf('product_category', PRODUCT_CATEGORIES),
      oneOf('level', ['beginner', 'intermediate', 'advanced']),
      oneOf('certifying', YES_NO),
      oneOf('media_type', ['video', 'pdf', 'image', 'resource']),
    ],
    searches: ['switch', 'basics', 'install', 'sales'],
  },
  enrolments: {
    path: '/api/learning/enrolments',
    sorts: ['enrolled_at', 'last_activity_at', 'course_title', 'user_name', 'status'],
    filters: (f) => [oneOf('status', ['enrolled', 'in_progress', 'completed', 'passed', 'failed']), oneOf('course_id', f.courses)],
  },
  certifications: {
    path: '/api/certifications',
    sorts: ['issued_at', 'expires_at', 'course_title', 'user_name', 'status'],
    filters: (f) => [oneOf('status', ['active', 'expired']), oneOf('course_id', f.courses), oneOf('expiring_within_days', ['30', '60', '90'])],
  },
  assignments: {
    path: '/api/learning/assignments',
    sorts: ['due_date', 'assigned_at', 'course_title', 'user_name', 'status'],
    filters: (f) => [oneOf('status', ['open', 'completed', 'cancelled']), oneOf('overdue', YES_NO), oneOf('course_id', f.courses)],
  },
  tiers: { path: '/api/programme/tiers', sorts: ['rank'] },
  standings: {
    path: '/api/programme/organisations',
    sorts: ['tier'],
    filters: (f) => [oneOf('tier', f.tierNames), oneOf('at_risk', YES_NO)],
  },
  evaluations: { path: '/api/programme/evaluations', sorts: ['evaluated_at'] },
  scorecards: {
    path: '/api/scorecards',
    sorts: [
      'rank',
      'score',
      'organisation_name',
      'revenue_cents',
      'growth_percent',
      'deals_won',
      'win_rate_percent',
      'lead_acceptance_percent',
      'overdue_tickets',
      'tier',
    ],
    filters: (f) => [oneOf('quarter', f.quarters), oneOf('tier', f.tierNames), oneOf('region', f.regions), oneOf('category', f.partnerCategories)],
  },
  webhooks: {
    path: '/api/webhooks',
    sorts: ['url', 'status', 'created_at', 'updated_at', 'organisation_name'],
    filters: (f) => [oneOf('status', ['active', 'inactive', 'disabled']), f.role === 'admin' && oneOf('organisation_id', f.organisations)],
  },
  apiKeys: {
    path: '/api/organisation/api-keys',
    sorts: ['name', 'created_at', 'expires_at', 'last_used_at', 'status'],
    filters: () => [oneOf('status', ['active', 'expired', 'revoked'])],
  },
  partnerTeam: {
    path: '/api/partner/management/sub-users',
    sorts: ['full_name', 'email', 'is_active', 'created_at'],
    filters: () => [oneOf('is_active', YES_NO)],
  },
  distributorTeam: {
    path: '/api/distributor/management/sub-users',
    sorts: ['full_name', 'email', 'is_active', 'created_at'],
    filters: () => [oneOf('is_active', YES_NO)],
  },
  audit: {
    path: '/api/audit',
    sorts: ['occurred_at'],
    filters: (f) => [
      oneOf('event_type', f.eventTypes),
      oneOf('record_type', f.recordTypes),
      oneOf('actor_id', f.actors),
      oneOf('organisation_id', f.organisations),
      oneOf('record_id', f.auditRecords),
      period('from', 'to', { maxDaysAgo: 90 }),
    ],
    searches: ['order', 'ticket', 'approved', 'partner'],
    // "Older entries": the audit log pages on by cursor.
    nextPage: { cursor: (r) => r.headers['X-Next-Cursor'], param: 'cursor' },
  },
  activity: { path: '/api/activity', sorts: ['occurred_at'] },
};
LISTS.adminRebates = {
  ...LISTS.rebates,
  path: '/api/rebates/admin/all',
  filters: (f) => [...LISTS.rebates.filters(f), oneOf('organisation_id', f.organisations)],
};

// ---- the records opened from a list, and their tabs ----

/** `list` is where discover() finds a role's records; `idOf` the record's id in that list's rows. */
const RECORDS = {
  orders: { list: 'orders', path: '/api/orders/:id' },
  products: { list: 'products', path: '/api/products/:id' },
  partners: { list: 'partners', path: '/api/partner/partners/:id' },
  tickets: { list: 'tickets', path: '/api/tickets/:id' },
  projects: { list: 'projects', path: '/api/projects/:id' },
  rebates: { list: 'rebates', path: '/api/rebates/:id' },
  adminRebates: { list: 'adminRebates', path: '/api/rebates/:id' },
  leads: { list: 'leads', path: '/api/leads/:id' },
  users: { list: 'users', path: '/api/users/:id' },
  funds: { list: 'funds', path: '/api/funds/:id' },
  fundRequests: { list: 'fundRequests', path: '/api/fund-requests/:id' },
  fundClaims: { list: 'fundClaims', path: '/api/fund-claims/:id' },
  courses: { list: 'courses', path: '/api/courses/:id' },
  certifications: { list: 'certifications', path: '/api/certifications/:id' },
  assignments: { list: 'assignments', path: '/api/learning/assignments/:id' },
  tiers: { list: 'tiers', path: '/api/programme/tiers/:id' },
  standings: { list: 'standings', path: '/api/programme/organisations/:id', idOf: (row) => row.organisation_id },
  evaluations: { list: 'evaluations', path: '/api/programme/evaluations/:id' },
  scorecards: { list: 'scorecards', path: '/api/scorecards/:id', idOf: (row) => row.organisation_id },
  webhooks: { list: 'webhooks', path: '/api/webhooks/:id' },
  leadRules: { list: 'leadRules', path: '/api/lead-rules/:id' },
};

// ---- the dashboards ----

const DASHBOARDS = {
  admin: '/api/dashboard/admin/stats',
  partner: '/api/dashboard/stats',
  distributor: '/api/dashboard/distributor/stats',
  manufacturer: '/api/dashboard/manufacturer/stats',
  support: '/api/dashboard/support/stats',
};
const DATE_RANGES = ['7d', '30d', '90d', 'month', 'quarter', 'year'];

function dateRange() {
  const choice = Math.random();
  if (choice < 0.2) return {};
  if (choice < 0.7) return { range: pick(DATE_RANGES) };
  const from = randomInt(30, 400);
  return { range: 'custom', from: daysAgo(from), to: daysAgo(randomInt(0, from - 1)) };
}

const query = (params) => {
  const text = Object.entries(params)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');
  return text ? `?${text}` : '';
};

/** A dashboard as the web app loads it: its figures, quick actions and recent activity at once, plus the role's own cards. */
function dashboardOf(kind, userId, extras = []) {
  return [
    { path: `${DASHBOARDS[kind]}${query({ ...dateRange(), user_id: userId })}`, name: `GET ${DASHBOARDS[kind]}` },
    { path: `/api/dashboard/quick-actions${query({ dashboard: kind, user_id: userId })}`, name: 'GET /api/dashboard/quick-actions' },
    { path: `/api/dashboard/recent-activity${query({ limit: pick([5, 8, 10, 20]), user_id: userId })}`, name: 'GET /api/dashboard/recent-activity' },
    ...extras,
  ];
}

const fixed = (path) => () => ({ path, name: `GET ${path}` });

// ---- the roles ----

/**
 * Per role: its share of the screens opened, its dashboard, the lists of its menu, the records it opens
 * with the tabs it may see ('' is the record alone), and the other figures and settings it reads.
 */
export const ROLES = {
  partner: {
    share: 0.3,
    dashboard: () =>
      dashboardOf('partner', undefined, [
        { path: '/api/programme/standing', name: 'GET /api/programme/standing' },
        { path: '/api/rebates/dashboard/overview', name: 'GET /api/rebates/dashboard/overview' },
      ]),
    lists: [
      'orders',
      'orders',
      'products',
      'products',
      'tickets',
      'projects',
      'projects',
      'rebates',
      'leads',
      'resources',
      'funds',
      'fundRequests',
      'fundClaims',
      'courses',
      'enrolments',
      'certifications',
      'assignments',
      'tiers',
      'standings',
      'scorecards',
      'webhooks',
      'apiKeys',
      'partnerTeam',
      'activity',
      'notifications',
    ],
    records: {
      orders: ['', '/track', '/history', '/versions'],
      products: ['', '/versions'],
      tickets: ['', '/comments', '/history'],
      projects: ['', '/milestones', '/team', '/orders', '/versions'],
      rebates: ['', '/history'],
      leads: ['', '/history'],
      funds: [''],
      fundRequests: ['', '/history'],
      fundClaims: [''],
      courses: ['', '/attempts'],
      certifications: [''],
      scorecards: [''],
      standings: ['/standing', '/history'],
    },
    figures: [
      fixed('/api/orders/stats'),
      fixed('/api/projects/stats'),
      fixed('/api/tickets/statistics'),
      fixed('/api/rebates/stats/user'),
      fixed('/api/leads/reports'),
      fixed('/api/funds/balance'),
      fixed('/api/learning/matrix'),
      fixed('/api/governance'),
      fixed('/api/orders/shipping-profile'),
      fixed('/api/rebates/types/list'),
      fixed('/api/settings/support-contact'),
      () => ({ path: `/api/permissions/groups?role=partner_user`, name: 'GET /api/permissions/groups' }),
    ],
  },
  distributor: {
    share: 0.2,
    dashboard: () => dashboardOf('distributor'),
    lists: [
      'orders',
      'orders',
      'products',
      'products',
      'partners',
      'tickets',
      'resources',
      'funds',
      'fundRequests',
      'fundClaims',
      'courses',
      'enrolments',
      'certifications',
      'assignments',
      'tiers',
      'webhooks',
      'apiKeys',
      'distributorTeam',
      'activity',
      'notifications',
    ],
    records: {
      orders: ['', '/track', '/history'],
      products: [''],
      partners: [''],
      tickets: ['', '/comments'],
      funds: [''],
      fundRequests: [''],
      courses: [''],
      certifications: [''],
    },
    figures: [
      fixed('/api/orders/stats'),
      fixed('/api/tickets/statistics'),
      fixed('/api/funds/balance'),
      fixed('/api/learning/matrix'),
      fixed('/api/governance'),
      fixed('/api/orders/shipping-profile'),
      fixed('/api/webhooks/catalogue'),
      fixed('/api/settings/support-contact'),
    ],
  },
  admin: {
    share: 0.2,
    // Administrators look at their own dashboard, or at a user's through the dashboard's user selector.
    dashboard: (f) => {
      const kind = pick(['admin', 'admin', 'partner', 'distributor', 'manufacturer', 'support']);
      const users = f.users[kind] || [];
      return kind === 'admin' || !users.length ? dashboardOf('admin') : dashboardOf(kind, pick(users));
    },
    lists: [
      'audit',
      'audit',
      'audit',
      'orders',
      'orders',
      'users',
      'partners',
      'tickets',
      'projects',
      'adminRebates',
      'leads',
      'leadRules',
      'products',
      'funds',
      'fundRequests',
      'fundClaims',
      'courses',
      'enrolments',
      'certifications',
      'assignments',
      'tiers',
      'standings',
      'evaluations',
      'scorecards',
      'webhooks',
      'apiKeys',
      'partnerTeam',
      'distributorTeam',
      'resources',
      'notifications',
    ],
    records: {
      orders: ['', '/history', '/versions'],
      users: ['', '/history', '/versions'],
      partners: ['', '/history', '/versions'],
      tickets: ['', '/comments', '/history', '/versions'],
      projects: ['', '/milestones', '/team', '/orders', '/history', '/versions'],
      adminRebates: ['', '/history', '/versions'],
      leads: ['', '/history', '/versions'],
      products: ['', '/versions'],
      funds: ['', '/history'],
      fundRequests: ['', '/history'],
      fundClaims: ['', '/history'],
      courses: ['', '/history'],
      tiers: ['', '/versions'],
      evaluations: [''],
      webhooks: ['', '/deliveries'],
      leadRules: [''],
      certifications: [''],
      assignments: [''],
    },
    figures: [
      fixed('/api/orders/stats'),
      fixed('/api/projects/stats'),
      fixed('/api/tickets/statistics'),
      fixed('/api/tickets/dashboard'),
      fixed('/api/leads/reports'),
      fixed('/api/funds/balance'),
      fixed('/api/learning/reports'),
      fixed('/api/orders/organisations'),
      fixed('/api/settings/security'),
      fixed('/api/settings/notifications'),
      fixed('/api/settings/email-templates'),
      fixed('/api/settings/access-control'),
      fixed('/api/settings/backup'),
      fixed('/api/settings/api-keys'),
      fixed('/api/identity-providers'),
      () => ({
        path: `/api/settings/history?setting=${pick(['support-contact', 'notification-settings', 'security-policy', 'email-template.ticket-reply', 'email-template.partner-approved'])}`,
        name: 'GET /api/settings/history',
      }),
      () => ({ path: `/api/jobs/failed?limit=${pick([10, 25, 50])}`, name: 'GET /api/jobs/failed' }),
    ],
  },
  manufacturer: {
    share: 0.15,
    dashboard: () => dashboardOf('manufacturer'),
    lists: [
      'orders',
      'partners',
      'partners',
      'projects',
      'projects',
      'leads',
      'resources',
      'courses',
      'enrolments',
      'certifications',
      'tiers',
      'standings',
      'evaluations',
      'scorecards',
      'scorecards',
      'notifications',
    ],
    records: {
      orders: ['', '/history'],
      partners: [''],
      projects: ['', '/milestones', '/team', '/versions'],
      leads: ['', '/history'],
      courses: [''],
      scorecards: [''],
      standings: ['/standing', '/history'],
      evaluations: [''],
    },
    figures: [
      fixed('/api/orders/stats'),
      fixed('/api/projects/stats'),
      fixed('/api/leads/reports'),
      fixed('/api/leads/organisations'),
      fixed('/api/programme/tiers'),
    ],
  },
  support: {
    share: 0.15,
    dashboard: () => dashboardOf('support', undefined, [{ path: '/api/tickets/dashboard', name: 'GET /api/tickets/dashboard' }]),
    lists: [
      'tickets',
      'tickets',
      'tickets',
      'tickets',
      'orders',
      'orders',
      'resources',
      'courses',
      'enrolments',
      'certifications',
      'assignments',
      'notifications',
    ],
    records: {
      tickets: ['', '/comments', '/history', '/versions'],
      orders: ['', '/history'],
      courses: [''],
    },
    figures: [fixed('/api/tickets/statistics'), fixed('/api/tickets/assignees'), fixed('/api/orders/stats'), fixed('/api/settings/support-contact')],
  },
};

// ---- discovery (setup) ----

/** Ids kept per role and list: enough for variety, little enough to hand every iteration. */
const IDS_KEPT = 40;
const FIRST_ROWS = `?range=${encodeURIComponent('[0,99]')}&sort=${encodeURIComponent('["id","ASC"]')}`;

const distinct = (values) => [...new Set(values.filter((v) => v !== null && v !== undefined && v !== ''))];
const sample = (values, count) => {
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, count);
};

/** The first hundred rows of a list as the role sees it, and how many there are (react-admin's Content-Range). */
function firstRows(token, path, name) {
  const response = read(token, `${path}${FIRST_ROWS}`, name);
  const ok = check(response, { [`setup: ${name} answers 200`]: (r) => r.status === 200 && Array.isArray(json(r)) });
  if (!ok) throw new Error(`Reading ${path} for setup answered ${response.status}: ${String(response.body).slice(0, 200)}`);
  const range = /\/(\d+)$/.exec(response.headers['Content-Range'] || '');
  return { rows: json(response), total: range ? Number(range[1]) : 0 };
}

const data = (response, selector) => (response.status === 200 ? json(response, selector) || [] : []);

/**
 * What the screens need to know, found with each role's own session (`tokens`: role → access token): per
 * role, how many records each of its lists holds and some of the ids it may open; and the values worth
 * filtering by (organisations, users, tiers, event types and so on), as administrators see them.
 */
export function discover(tokens) {
  const roles = {};
  const rowsSeenByAdmin = {};
  for (const [role, screens] of Object.entries(ROLES)) {
    const token = tokens[role];
    const totals = {};
    const ids = {};
    for (const key of distinct(screens.lists)) {
      const { rows, total } = firstRows(token, LISTS[key].path, `GET ${LISTS[key].path}`);
      totals[key] = total;
      if (role === 'admin') rowsSeenByAdmin[key] = rows;
      for (const [recordKey, record] of Object.entries(RECORDS))
        if (record.list === key && screens.records[recordKey]) ids[recordKey] = sample(distinct(rows.map(record.idOf || ((row) => row.id))), IDS_KEPT);
    }
    roles[role] = { totals, ids };
  }
  const admin = tokens.admin;
  const rows = (key) => rowsSeenByAdmin[key] || [];
  const users = {};
  for (const user of rows('users')) (users[user.role] = users[user.role] || []).push(user.id);
  const facets = {
    organisations: distinct(data(read(admin, '/api/orders/organisations', 'GET /api/orders/organisations'), 'data').map((o) => o.id)),
    users,
    assignees: distinct(data(read(tokens.support, '/api/tickets/assignees', 'GET /api/tickets/assignees'), 'data').map((u) => u.id)),
    rebateCategories: distinct(data(read(admin, '/api/rebates/categories/list', 'GET /api/rebates/categories/list'), 'data').map((c) => c.name)),
    rebateTypes: distinct(data(read(admin, '/api/rebates/types/list', 'GET /api/rebates/types/list'), 'data').map((t) => t.name)),
    regions: distinct(rows('partners').map((p) => p.region)),
    partnerTiers: distinct(rows('partners').map((p) => p.tier)),
    partnerCategories: distinct(rows('partners').map((p) => p.category)),
    countries: distinct(rows('leads').map((l) => l.country)),
    funds: distinct(rows('funds').map((f) => f.id)),
    courses: distinct(rows('courses').map((c) => c.id)),
    tierNames: distinct(rows('tiers').map((t) => t.name)),
    quarters: distinct(rows('scorecards').map((s) => s.quarter)),
    eventTypes: distinct(rows('audit').map((a) => a.event_type)),
    // The audit filter takes record types in lower case (src/http/audit.ts); lines of some records carry
    // others (fundRequests, programmeTiers, …), which it refuses with 400.
    recordTypes: distinct(rows('audit').map((a) => a.record_type)).filter((type) => /^[a-z_]+$/.test(type)),
    actors: distinct(rows('audit').map((a) => a.actor_id)),
    auditRecords: sample(distinct(rows('audit').map((a) => a.record_id)), IDS_KEPT),
  };
  return { roles, facets };
}

// ---- opening a screen ----

const idPath = (template, id) => template.replace(':id', encodeURIComponent(id));

/** Picks a key of `weights` ({ key: share }) in proportion to its share. */
export function weighted(weights) {
  const entries = Object.entries(weights);
  let left = Math.random() * entries.reduce((sum, [, share]) => sum + share, 0);
  for (const [key, share] of entries) if ((left -= share) < 0) return key;
  return entries[entries.length - 1][0];
}

/** What a screen of `kind` fetches for `role`: [{ path, name }], requested together; the list screens may page on by cursor. */
export function screenRequests(role, kind, found) {
  const screens = ROLES[role];
  const facets = { ...found.facets, role, everyone: SEES_EVERYONE.includes(role) };
  const { totals, ids } = found.roles[role];
  if (kind === 'dashboard') return { requests: screens.dashboard(facets) };
  if (kind === 'figures') return { requests: [pick(screens.figures)()] };
  if (kind === 'record') {
    const openable = Object.keys(screens.records).filter((key) => ids[key] && ids[key].length);
    if (openable.length) {
      const key = pick(openable);
      const { path } = RECORDS[key];
      const id = pick(ids[key]);
      // The record's page shows the record (or, for an organisation, its standing) and often one of its tabs.
      const tabs = screens.records[key];
      const suffixes = [...new Set([tabs[0], pick(tabs)])];
      return { requests: suffixes.map((suffix) => ({ path: idPath(path, id) + suffix, name: `GET ${path}${suffix}` })) };
    }
  }
  const key = pick(screens.lists);
  const list = LISTS[key];
  const search = listQuery({ ...list, filters: list.filters ? list.filters(facets) : [] }, totals[key]);
  return {
    requests: [
      { path: `${list.path}?${search}`, name: `GET ${list.path}` },
      ...(list.companions || []).map((c) => ({ path: `${c.path}?${search}`, name: c.name })),
    ],
    nextPage: list.nextPage && { ...list.nextPage, path: list.path, search },
  };
}
