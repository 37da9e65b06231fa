// One function per PartnerHub user journey, shared by the scenario files (each VU runs its own copy).
// The API shapes are the portal's own: see src/http/*.ts and docs/api.md.
import http from 'k6/http';
import { check, fail, group } from 'k6';
import { command, inDays, json, pick, read, session, think, unique, upload } from './portal.js';

// Files sent in multipart bodies, read by the entry script with open() in the init context (see useFiles).
let files = {};
export function useFiles(given) {
  files = given;
}
const pdf = (name = 'document.pdf') => http.file(files.pdf, name, 'application/pdf');

const ADDRESS = {
  firstName: 'Load',
  lastName: 'Tester',
  email: 'load.tester@example.test',
  phone: '+1 206 555 0100',
  addressLine1: '1 Load Street',
  city: 'Seattle',
  state: 'WA',
  zipCode: '98101',
  country: 'United States',
};
const PRODUCT_PREFIX = 'K6 Load Switch';
const ok = (status) => (r) => r.status === status;

// ---- setup ----

/**
 * The products the order journeys buy: six with ample stock, added once by the demo admin and found
 * again by name on later runs, so orders never run the demo catalogue out of stock.
 */
export function prepareCatalogue() {
  const admin = session('admin');
  const found = json(read(admin, `/api/products?search=${encodeURIComponent(PRODUCT_PREFIX)}&limit=100`, 'GET /api/products?search')) || {};
  const existing = (found.data || []).filter((p) => p.name.startsWith(PRODUCT_PREFIX) && p.stock_quantity >= 1000000);
  for (let i = existing.length; i < 6; i++) {
    const created = upload(admin, 'POST', '/api/products', {
      name: `${PRODUCT_PREFIX} ${i + 1}`,
      price: (99 + i * 50).toFixed(2),
      category: 'Managed Switches',
      stock_quantity: '10000000',
      moq: '1',
      description: 'A product for load tests: ample stock, minimum order of one.',
      image: http.file(files.png, 'switch.png', 'image/png'),
    });
    if (!check(created, { 'setup: product added': ok(201) })) fail(`Adding a load-test product answered ${created.status}: ${created.body}`);
    existing.push(created.json('data'));
  }
  return { products: existing.map((p) => p.id) };
}

// ---- partner: the catalogue and an order ----

export function placeOrder(buyer, products) {
  const chosen = [...new Set([pick(products), pick(products), pick(products)].slice(0, 1 + Math.floor(Math.random() * 3)))];
  const placed = command(buyer, 'POST', '/api/orders', {
    estimated_delivery: inDays(14),
    notes: 'Placed by the load test.',
    items: chosen.map((id) => ({ product_id: id, quantity: 1 + Math.floor(Math.random() * 5) })),
    shipping_address: ADDRESS,
  });
  check(placed, { 'order placed: 201 pending': (r) => r.status === 201 && json(r, 'data.status') === 'pending' });
  return json(placed, 'data');
}

export function browseAndOrder(data) {
  const buyer = session(__VU % 2 === 0 ? 'partner' : 'distributor');
  group('browse the catalogue', () => {
    const page = read(buyer, '/api/products?page=1&limit=12', 'GET /api/products');
    check(page, { 'catalogue: a page of products': (r) => r.status === 200 && Array.isArray(json(r, 'data')) });
    think();
    check(read(buyer, `/api/products?category=${encodeURIComponent('Managed Switches')}&stock=in_stock&page=1&limit=12`, 'GET /api/products?category'), {
      'catalogue: filtered': ok(200),
    });
    check(read(buyer, '/api/products?search=switch&limit=12', 'GET /api/products?search'), { 'catalogue: searched': ok(200) });
    const one = pick(json(page, 'data') || [{ id: pick(data.products) }]);
    check(read(buyer, `/api/products/${one.id}`, 'GET /api/products/:id'), { 'catalogue: one product': ok(200) });
    think();
  });
  group('place an order', () => {
    const order = placeOrder(buyer, data.products);
    if (!order) return;
    check(read(buyer, '/api/orders?page=1&limit=10', 'GET /api/orders'), {
      'orders: own list': (r) => r.status === 200 && Array.isArray(json(r, 'data.orders')),
    });
    check(read(buyer, `/api/orders/${order.id}/track`, 'GET /api/orders/:id/track'), {
      'orders: tracked': (r) => r.status === 200 && json(r, 'data.order.id') === order.id,
    });
  });
}

// ---- administrator: the order queue ----

const NEXT = { pending: 'approved', approved: 'shipped', shipped: 'delivered' };
// Several administrators work one queue: an order another one moved meanwhile answers 409, which is not a failure.
const CONCURRENT = { responseCallback: http.expectedStatuses({ min: 200, max: 399 }, 409) };

export function workOrderQueue() {
  const admin = session('admin');
  group('order queue', () => {
    check(read(admin, '/api/orders/stats', 'GET /api/orders/stats'), { 'queue: statistics': ok(200) });
    // The react-admin list: sort, range and filter as the Orders screen sends them.
    const status = pick(['pending', 'pending', 'approved', 'shipped']);
    const query = `sort=${encodeURIComponent('["created_at","DESC"]')}&range=${encodeURIComponent('[0,24]')}&filter=${encodeURIComponent(JSON.stringify({ status }))}`;
    const page = read(admin, `/api/orders?${query}`, 'GET /api/orders?filter');
    check(page, { 'queue: a filtered page': (r) => r.status === 200 && Array.isArray(json(r)) && typeof r.headers['Content-Range'] === 'string' });
    check(read(admin, '/api/orders?search=ORD&page=1&limit=25', 'GET /api/orders?search'), { 'queue: searched': ok(200) });
    const orders = json(page) || [];
    think();
    if (!orders.length) return;
    const order = pick(orders);
    check(read(admin, `/api/orders/${order.id}`, 'GET /api/orders/:id'), { 'queue: one order': ok(200) });
    const changed = command(
      admin,
      'PUT',
      `/api/orders/admin/${order.id}/status`,
      {
        status: NEXT[order.status],
        notes: 'Worked by the load test.',
        ...(NEXT[order.status] === 'shipped' ? { carrier: 'UPS', tracking_number: `LOAD-${order.order_number || order.id}` } : {}),
      },
      'PUT /api/orders/admin/:id/status',
      CONCURRENT,
    );
    check(changed, { 'queue: status changed (or already changed by another admin)': (r) => r.status === 200 || r.status === 409 });
  });
}

export function ordersArrive(data) {
  placeOrder(session(__VU % 2 === 0 ? 'partner' : 'distributor'), data.products);
}

// ---- registration → questionnaire → approval ----

const QUESTIONNAIRE = {
  contact_name: 'Ingrid Berg',
  phone_number: '+47 22 00 00 00',
  job_title: 'CEO',
  country: 'Norway',
  city: 'Oslo',
  location: 'Karl Johans gate 1',
  business_type: 'Private Limited',
  years_in_operation: '12',
  employees_range: '11–50',
  business_description: 'Technology & Software',
  target_markets: ['Europe'],
  business_registration_number: 'NO-998877',
  country_of_incorporation: 'Netherlands',
  annual_turnover: '$1M – $10M',
  turnover_currency: 'EUR',
  fiscal_year_end_month: 'December',
  are_financials_audited: 'Yes',
  agreed_to_terms: true,
};

export function partnerOnboarding() {
  const company = unique('Load Networks');
  const email = `${company.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.test`;
  let applicant;
  group('register', () => {
    const registered = command(
      null,
      'POST',
      '/api/user/register/',
      { email, password: 'Welcome2026', full_name: `${company} Owner`, company_name: company },
      'POST /api/user/register',
      { tags: { type: 'auth' } },
    );
    if (!check(registered, { 'register: 201 with an onboarding token': (r) => r.status === 201 && typeof json(r, 'onboardingToken') === 'string' })) return;
    applicant = { id: json(registered, 'data.id'), token: json(registered, 'onboardingToken') };
    think();
  });
  if (!applicant) return;
  group('questionnaire', () => {
    const answered = command(applicant.token, 'POST', '/api/partner/onboarding/questionnaire', {
      ...QUESTIONNAIRE,
      company_name: company,
      contact_email: email,
      user_id: applicant.id,
    });
    check(answered, { 'questionnaire: 201 pending': (r) => r.status === 201 && json(r, 'data.status') === 'pending' });
  });
  group('approval', () => {
    const admin = session('admin');
    check(read(admin, '/api/partner/partners?status=pending&page=1&limit=25', 'GET /api/partner/partners?status'), {
      'applications: pending list': (r) => r.status === 200 && Array.isArray(json(r, 'data.partners')),
    });
    check(read(admin, `/api/partner/partners/${applicant.id}`, 'GET /api/partner/partners/:id'), { 'applications: one': ok(200) });
    think();
    const approved = command(
      admin,
      'PATCH',
      `/api/partner/partners/${applicant.id}`,
      { status: 'approved', category: 'Helix Authorized Distributor', permissions: ['Projects.Read', 'Orders.Browse'] },
      'PATCH /api/partner/partners/:id',
    );
    check(approved, { 'applications: approved': (r) => r.status === 200 && json(r, 'data.partner.status') === 'approved' });
  });
}

// ---- deal registration with milestones ----

export function dealRegistration() {
  const partner = session('partner');
  const title = unique('Load deal');
  let id;
  group('register a deal', () => {
    const created = upload(partner, 'POST', '/api/projects', {
      title,
      end_user_customer_name: unique('Load customer'),
      expected_closure_date: inDays(90),
      value: '125000',
      progress: '10',
      boq_file: pdf('boq.pdf'),
    });
    if (check(created, { 'deal: registered 201': ok(201) })) id = json(created, 'data.id');
    check(read(partner, '/api/projects?page=1&limit=10', 'GET /api/projects'), { 'deals: own list': ok(200) });
    think();
  });
  if (!id) return;
  group('work the deal', () => {
    check(read(partner, `/api/projects/${id}`, 'GET /api/projects/:id'), { 'deal: read': ok(200) });
    check(command(partner, 'PUT', `/api/projects/${id}`, { progress: 35, status: 'In Progress', project_stage: 'Proposal' }, 'PUT /api/projects/:id'), {
      'deal: in progress': ok(200),
    });
    let milestone;
    for (const [name, day] of [
      ['Site survey', 5],
      ['Pilot', 20],
    ]) {
      const added = command(partner, 'POST', '/api/projects/milestones', { project_id: id, name, date: inDays(day), status: 'pending' });
      if (check(added, { 'milestone: added 201': ok(201) })) milestone = milestone || json(added, 'data.id');
    }
    think();
    if (milestone)
      check(command(partner, 'PUT', `/api/projects/milestones/${milestone}`, { status: 'completed' }, 'PUT /api/projects/milestones/:id'), {
        'milestone: completed': ok(200),
      });
    check(read(session('manufacturer'), `/api/projects?search=${encodeURIComponent(title)}`, 'GET /api/projects?search'), {
      'deals: the manufacturer finds it': (r) => r.status === 200 && (json(r, 'data.projects') || []).some((p) => p.id === id),
    });
  });
}

// ---- rebate submission and review ----

export function rebateClaim() {
  const partner = session('partner');
  let rebate;
  group('submit a claim', () => {
    const submitted = upload(partner, 'POST', '/api/rebates/submit', {
      product_name: 'HX-M2424 24-Port Gigabit Managed Switch',
      product_category: 'Managed Switches',
      purchase_date: inDays(-3),
      invoice_number: unique('INV'),
      purchase_amount: (100 + Math.random() * 5000).toFixed(2),
      rebate_type: 'Volume Rebate',
      description: 'Claimed by the load test.',
      attachments: pdf('invoice.pdf'),
    });
    if (check(submitted, { 'rebate: submitted 201': ok(201) })) rebate = json(submitted, 'data');
    check(read(partner, '/api/rebates/user?page=1&limit=10', 'GET /api/rebates/user'), { 'rebates: own history': ok(200) });
    check(read(partner, '/api/rebates/dashboard/overview', 'GET /api/rebates/dashboard/overview'), { 'rebates: overview': ok(200) });
    think();
  });
  if (!rebate) return;
  group('review the claim', () => {
    const admin = session('admin');
    check(read(admin, '/api/rebates/admin/all?status=pending&page=1&limit=25', 'GET /api/rebates/admin/all'), { 'rebates: review queue': ok(200) });
    check(read(admin, `/api/rebates/${rebate.id}`, 'GET /api/rebates/:id'), { 'rebate: read': ok(200) });
    const path = `/api/rebates/admin/${rebate.id}/status`;
    const name = 'PATCH /api/rebates/admin/:id/status';
    if (Math.random() < 0.5) {
      check(command(admin, 'PATCH', path, { status: 'approved', rebate_amount: rebate.suggested_rebate_amount, notes: 'Approved after review' }, name), {
        'rebate: approved': ok(200),
      });
    } else {
      check(command(admin, 'PATCH', path, { status: 'processing' }, name), { 'rebate: processing': ok(200) });
      think();
      const step =
        Math.random() < 0.6
          ? { status: 'approved', rebate_amount: rebate.suggested_rebate_amount }
          : { status: 'rejected', notes: 'Not eligible under the programme.' };
      check(command(admin, 'PATCH', path, step, name), { 'rebate: decided': ok(200) });
    }
  });
}

// ---- a support ticket conversation ----

let assignees;

/**
 * A customer (partner or distributor) opens a ticket with a diagnostics PDF; answers the ticket (with
 * `queuedIsFine`, a 202's `{ id, location }` while the read models catch up), or undefined.
 */
export function openTicket(customer, { queuedIsFine = false } = {}) {
  const opened = upload(customer, 'POST', '/api/tickets', {
    title: unique('Load case'),
    description: 'A support case opened by the load test: the uplink port flaps under load.',
    priority: pick(['Low', 'Medium', 'High', 'Critical']),
    tags: 'load, uplink',
    attachments: pdf('diagnostics.pdf'),
  });
  const done = queuedIsFine
    ? check(opened, { 'ticket: opened 201 (or 202 while the read models catch up)': (r) => r.status === 201 || r.status === 202 })
    : check(opened, { 'ticket: opened 201': ok(201) });
  return done ? json(opened, 'data') : undefined;
}

export function ticketConversation() {
  const customer = session(__VU % 2 === 0 ? 'partner' : 'distributor');
  const support = session('support');
  let ticket;
  group('open a ticket', () => {
    ticket = openTicket(customer);
  });
  if (!ticket) return;
  group('support works it', () => {
    check(read(support, '/api/tickets?page=1&limit=25', 'GET /api/tickets'), { 'tickets: the queue': ok(200) });
    check(read(support, `/api/tickets/${ticket.id}`, 'GET /api/tickets/:id'), { 'ticket: read by support': ok(200) });
    if (!assignees) assignees = json(read(support, '/api/tickets/assignees', 'GET /api/tickets/assignees'), 'data') || [];
    if (assignees.length)
      check(command(support, 'PATCH', `/api/tickets/${ticket.id}/assign`, { assigned_to: pick(assignees).id }, 'PATCH /api/tickets/:id/assign'), {
        'ticket: assigned': ok(200),
      });
    check(
      command(
        support,
        'POST',
        `/api/tickets/${ticket.id}/comments`,
        { comment: 'Internal: checking the firmware version.', is_internal: true },
        'POST /api/tickets/:id/comments',
      ),
      { 'ticket: internal note': ok(201) },
    );
    check(
      command(
        support,
        'POST',
        `/api/tickets/${ticket.id}/comments`,
        { comment: 'Which firmware does the switch run?', is_internal: false },
        'POST /api/tickets/:id/comments',
      ),
      { 'ticket: reply': ok(201) },
    );
    think();
  });
  group('the customer answers', () => {
    const conversation = read(customer, `/api/tickets/${ticket.id}`, 'GET /api/tickets/:id');
    check(conversation, {
      'ticket: the customer sees the reply, not the note': (r) =>
        r.status === 200 && !r.body.includes('Internal: checking') && r.body.includes('Which firmware'),
    });
    check(command(customer, 'POST', `/api/tickets/${ticket.id}/comments`, { comment: 'Firmware 4.2.1.' }, 'POST /api/tickets/:id/comments'), {
      'ticket: customer reply': ok(201),
    });
  });
  group('resolve', () => {
    check(
      command(
        support,
        'PATCH',
        `/api/tickets/${ticket.id}/status`,
        { status: 'Resolved', comment: 'Fixed in firmware 4.3.', resolution_notes: 'Firmware upgrade' },
        'PATCH /api/tickets/:id/status',
      ),
      { 'ticket: resolved': ok(200) },
    );
  });
}
