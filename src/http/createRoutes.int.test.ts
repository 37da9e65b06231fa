import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoOrderId } from '../seed/orders';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { completeQuestionnaire } from '../testing/questionnaire';
import { documentedRoutes } from '../testing/routes';

/**
 * Every route that creates a record: a repeated Idempotency-Key creates it once, and when the
 * projector is late the creation is answered 202 Accepted with the record's id, the event position
 * and a Location that shows the record once the projector catches up, never 404. Every POST route
 * must be listed here, as a creation or as not creating a record, so a new create route is tested too.
 */

let t: TestPortal;
let admin: Session;
let partner: Session;
let distributor: Session;

/** POST routes that create no record of their own (with why), so they need no Idempotency-Key. */
const NOT_CREATING: Record<string, string> = {
  'POST /api/auth/login': 'signs in',
  'POST /api/auth/refresh': 'rotates a token',
  'POST /api/user/token/refresh/': 'rotates a token',
  'POST /api/auth/logout': 'ends a session',
  'POST /api/permissions/validate': 'checks permission names, records nothing',
  'POST /api/auth/change-password': 'changes the caller',
  'POST /api/settings/api-keys/:id/rotate': 'gives an existing key a new secret',
  'POST /api/organisation/api-keys/:id/rotate': 'gives an existing key a new secret',
  'POST /api/users/bulk-status': 'changes existing users',
  'POST /api/projects/bulk-review': 'reviews existing registrations',
  'POST /api/rebates/bulk-review': 'reviews existing claims',
  'POST /api/users/:id/erase': 'erases an existing person’s personal data',
  'POST /api/notifications/:id/read': 'marks existing notifications',
  'POST /api/notifications/read-all': 'marks existing notifications',
  'POST /api/products/bulk-delete': 'removes products',
  'POST /api/projects/:id/review': 'decides on a project',
  'POST /api/programme/organisations/:id/override': 'holds an existing organisation in a tier until an end date',
  'POST /api/projects/:id/extension': 'asks for an extension of a project',
  'POST /api/projects/:id/extension/decision': 'decides on an extension',
  'POST /api/projects/:id/team': 'links an existing user (a second time changes nothing)',
  'POST /api/projects/:id/orders': 'links an existing order (a second time changes nothing)',
  'POST /api/partner/management/sub-users/:id/reset-password': 'changes a member',
  'POST /api/distributor/management/sub-users/:id/reset-password': 'changes a member',
  'POST /api/team/invitations/accept': 'sets an invited member’s password',
  'POST /api/leads/import': 'imports a file of leads, each with an id from its row: the same file again creates none',
  'POST /api/leads/:id/accept': 'answers an offered lead',
  'POST /api/leads/:id/decline': 'answers an offered lead',
  'POST /api/leads/:id/status': 'moves an accepted lead',
  'POST /api/leads/:id/assign': 'offers an existing lead to an organisation',
  'POST /api/leads/:id/convert': 'turns an accepted lead into its deal registration, once: a repeat is refused as already converted',
  'POST /api/lead-rules/:id/move': 'reorders the routing rules',
  'POST /api/warranty/checks': 'a look-up: its answer comes from the unit, not from what it records',
  'POST /api/funds/:id/allocations': 'sets an organisation’s allocation in an existing fund (the same amount again changes nothing)',
  'POST /api/funds/:id/close': 'closes an existing fund period, refused a second time',
  'POST /api/funds/:id/allocation-rule': 'sets allocations in an existing fund by a rule',
  'POST /api/fund-requests/:id/review': 'decides on a fund request',
  'POST /api/fund-claims/:id/proof': 'adds proof files to an existing claim',
  'POST /api/fund-claims/:id/review': 'decides on a claim',
  'POST /api/fund-claims/:id/payout': 'records the payout of an existing claim, refused twice',
  'POST /api/courses/:id/publish': 'publishes an existing course',
  'POST /api/courses/:id/archive': 'archives an existing course',
  'POST /api/courses/:id/enrol': 'enrols the caller in a course: one enrolment per person and course, a repeat changes nothing',
  'POST /api/courses/:id/progress': 'marks a lesson of the caller’s enrolment',
  'POST /api/courses/:id/attempts': 'grades answers into the caller’s enrolment of the course',
  'POST /api/learning/assignments/:id/cancel': 'withdraws an existing assignment, refused twice',
  'POST /api/learning/media': 'stores a file; the course that names it is the record',
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': 'sends a logged delivery again',
  'POST /api/webhooks/:id/replay': 'sends past events to an existing endpoint again',
  'POST /api/auth/mfa/totp/enrol': 'starts setting up an authenticator app: a short-lived secret in Redis, no record',
  'POST /api/auth/mfa/totp/confirm': 'sets up the caller’s authenticator app, refused a second time (already set up)',
  'POST /api/auth/mfa/passkeys/options': 'a WebAuthn challenge, no record',
  'POST /api/auth/mfa/passkeys': 'adds the caller’s passkey: its options’ challenge is spent and the same credential is refused twice',
  'POST /api/auth/mfa/passkey/options': 'a WebAuthn challenge for a sign-in, no record',
  'POST /api/auth/mfa/challenge': 'signs in (the challenge works once)',
  'POST /api/auth/oidc/complete': 'signs in (the ticket works once)',
  'POST /api/users/:id/mfa/reset': 'resets an existing person’s second factors, refused when there is nothing to reset',
};

type Caller = 'admin' | 'partner' | 'distributor' | 'public' | 'applicant';

interface CreateRoute {
  caller: Caller;
  /** The request (body, content type, path) that creates one record; called once per test, so unique values stay unique. */
  request: () => Promise<Omit<InjectOptions, 'method'>>;
}

const unique = () => randomUUID().slice(0, 8);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function multipart(fields: Record<string, string>, file?: { field: string; name: string; bytes: Buffer }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append(file.field, new Blob([new Uint8Array(file.bytes)]), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

let product: { id: string; moq: number };
let ticketId: string;
/** A fund open now that allocates to the partner, for requests and claims. */
let fundId: string;
let projectId: string;
/** Serial numbers of a delivered demo order of the partner, one per RMA. */
let serials: string[] = [];
const activity = () => ({
  fund_id: fundId,
  activity_type: 'webinar',
  title: `Webinar ${unique()}`,
  description: 'Created.',
  start_date: inDays(-10),
  end_date: inDays(-2),
  planned_cost: '200.00',
  requested_amount: '100.00',
});
async function newApplicant(): Promise<{ id: string; token: string; email: string; company: string }> {
  const email = `applicant.${unique()}@example.test`;
  const company = `Fjord ${unique()}`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/register/',
    payload: { email, password: 'Secret123', full_name: company, company_name: company },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json().data.id, token: response.json().onboardingToken, email, company };
}

/** Ranks above the demo ladder's, one per created tier (a rank belongs to one tier). */
let nextTierRank = 10;

const CREATE_ROUTES: Record<string, CreateRoute> = {
  'POST /api/users': {
    caller: 'admin',
    request: async () => ({
      url: '/api/users',
      payload: { full_name: 'Kai Created', email: `kai.${unique()}@example.test`, password: 'Secret123', role: 'support' },
    }),
  },
  'POST /api/products': {
    caller: 'admin',
    request: async () => ({
      url: '/api/products',
      ...(await multipart({
        name: `HX-${unique()} Switch`,
        price: '100.00',
        category: 'Managed Switches',
        stock_quantity: '5',
        moq: '1',
        description: 'Created.',
      })),
    }),
  },
  'POST /api/orders': {
    caller: 'partner',
    request: async () => ({
      url: '/api/orders',
      payload: {
        estimated_delivery: inDays(7),
        items: [{ product_id: product.id, quantity: product.moq }],
        shipping_address: {
          firstName: 'Priya',
          lastName: 'Shah',
          email: 'priya@northwind.test',
          phone: '+1 206 555 0142',
          addressLine1: '410 Harbour Steps',
          city: 'Seattle',
          state: 'WA',
          zipCode: '98101',
          country: 'United States',
        },
      },
    }),
  },
  'POST /api/projects': {
    caller: 'partner',
    request: async () => ({
      url: '/api/projects',
      ...(await multipart({ title: `Project ${unique()}`, expected_closure_date: inDays(90), value: '1000.50' })),
    }),
  },
  'POST /api/projects/milestones': {
    caller: 'partner',
    request: async () => ({ url: '/api/projects/milestones', payload: { project_id: projectId, name: `Milestone ${unique()}`, date: inDays(5) } }),
  },
  'POST /api/tickets': {
    caller: 'partner',
    request: async () => ({ url: '/api/tickets', ...(await multipart({ title: `Ticket ${unique()}`, description: 'Created.' })) }),
  },
  'POST /api/tickets/rma': {
    caller: 'partner',
    request: async () => ({ url: '/api/tickets/rma', payload: { serial_number: serials.shift()!, description: 'Dead on arrival.' } }),
  },
  'POST /api/tickets/:id/comments': {
    caller: 'partner',
    request: async () => ({ url: `/api/tickets/${ticketId}/comments`, payload: { comment: `Comment ${unique()}` } }),
  },
  'POST /api/resources': {
    caller: 'admin',
    request: async () => ({
      url: '/api/resources',
      ...(await multipart({ title: `Sheet ${unique()}`, category: 'Datasheet', roles: 'partner' }, { field: 'file', name: 'sheet.pdf', bytes: PDF })),
    }),
  },
  'POST /api/leads': {
    caller: 'admin',
    request: async () => {
      const company = `Contoso ${unique()}`;
      return {
        url: '/api/leads',
        payload: {
          company,
          contact_name: 'Ada Lovelace',
          email: `ada@${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`,
          country: 'US',
          region: 'Americas',
          estimated_value: 5000,
          source: 'web_form',
        },
      };
    },
  },
  'POST /api/lead-rules': {
    caller: 'admin',
    request: async () => ({
      url: '/api/lead-rules',
      payload: { name: `Rule ${unique()}`, countries: ['AQ'], method: 'round_robin', organisation_ids: [partner.user.id, distributor.user.id] },
    }),
  },
  'POST /api/funds': {
    caller: 'admin',
    request: async () => ({ url: '/api/funds', payload: { name: `Fund ${unique()}`, period_start: inDays(-30), period_end: inDays(60), budget: 1000 } }),
  },
  'POST /api/fund-requests': { caller: 'partner', request: async () => ({ url: '/api/fund-requests', ...(await multipart(activity())) }) },
  'POST /api/fund-claims': {
    caller: 'partner',
    request: async () => {
      const submitted = await as(t.app, partner)({ method: 'POST', url: '/api/fund-requests', ...(await multipart(activity())) });
      expect(submitted.statusCode, submitted.body).toBe(201);
      const requestId = submitted.json().data.id;
      const approved = await as(
        t.app,
        admin,
      )({ method: 'POST', url: `/api/fund-requests/${requestId}/review`, payload: { decision: 'approved', approved_amount: 100 } });
      expect(approved.statusCode, approved.body).toBe(200);
      return {
        url: '/api/fund-claims',
        ...(await multipart({ request_id: requestId, actual_cost: '120.00', claimed_amount: '100.00' }, { field: 'proof', name: 'invoice.pdf', bytes: PDF })),
      };
    },
  },
  'POST /api/courses': {
    caller: 'admin',
    request: async () => ({
      url: '/api/courses',
      payload: {
        title: `Course ${unique()}`,
        summary: 'Created.',
        audience: ['partner'],
        level: 'beginner',
        estimated_minutes: 10,
        certifying: false,
        pass_mark: 50,
        lessons: [{ title: 'Lesson', body: 'Text.' }],
        quiz: [],
        status: 'published',
      },
    }),
  },
  'POST /api/learning/assignments': {
    caller: 'partner',
    request: async () => {
      const course = await as(
        t.app,
        admin,
      )({
        method: 'POST',
        url: '/api/courses',
        payload: {
          title: `Assigned ${unique()}`,
          summary: 'For an assignment.',
          audience: ['partner'],
          level: 'beginner',
          estimated_minutes: 10,
          certifying: false,
          pass_mark: 50,
          lessons: [{ title: 'Lesson', body: 'Text.' }],
          quiz: [],
          status: 'published',
        },
      });
      expect(course.statusCode, course.body).toBe(201);
      return { url: '/api/learning/assignments', payload: { user_id: partner.user.id, course_id: course.json().data.id, due_date: inDays(14) } };
    },
  },
  'POST /api/programme/tiers': {
    caller: 'admin',
    request: async () => ({
      url: '/api/programme/tiers',
      payload: {
        name: `Tier ${unique()}`,
        rank: nextTierRank++,
        requirements: [],
        benefits: { rebate_rate_percent: 9, mdf_share_percent: 100, protection_days: 90, catalogue_discount_percent: 0, support_priority: 'standard' },
      },
    }),
  },
  'POST /api/programme/evaluate': { caller: 'admin', request: async () => ({ url: '/api/programme/evaluate', payload: {} }) },
  'POST /api/webhooks': {
    caller: 'partner',
    request: async () => ({
      url: '/api/webhooks',
      payload: { url: `https://erp.example.com/hooks/${unique()}`, event_types: ['order.placed'], active: false },
    }),
  },
  'POST /api/identity-providers': {
    caller: 'admin',
    request: async () => {
      const slug = `idp-${unique()}`;
      return {
        url: '/api/identity-providers',
        payload: {
          slug,
          name: `Identity ${slug}`,
          issuer: 'https://login.example.com',
          client_id: 'partnerhub',
          client_secret: 'secret',
          allowed_domains: ['example.com'],
          role: 'partner',
        },
      };
    },
  },
  'POST /api/settings/api-keys': { caller: 'admin', request: async () => ({ url: '/api/settings/api-keys', payload: { name: `Integration ${unique()}` } }) },
  'POST /api/organisation/api-keys': {
    caller: 'partner',
    request: async () => ({ url: '/api/organisation/api-keys', payload: { name: `CRM ${unique()}`, scopes: ['projects:write'] } }),
  },
  'POST /api/rebates/submit': {
    caller: 'partner',
    request: async () => ({
      url: '/api/rebates/submit',
      ...(await multipart({
        product_name: 'HX-M2424 Switch',
        product_category: 'Managed Switches',
        purchase_date: inDays(-3),
        invoice_number: `INV-${unique()}`,
        purchase_amount: '1250.00',
        rebate_type: 'Volume Rebate',
        description: 'Created.',
      })),
    }),
  },
  'POST /api/partner/management/sub-users': {
    caller: 'partner',
    request: async () => ({
      url: '/api/partner/management/sub-users',
      payload: { full_name: 'Mia Member', email: `mia.${unique()}@example.test`, password: 'Secret123', permissions: ['Projects.Read'] },
    }),
  },
  'POST /api/distributor/management/sub-users': {
    caller: 'distributor',
    request: async () => ({
      url: '/api/distributor/management/sub-users',
      payload: { full_name: 'Dan Member', email: `dan.${unique()}@example.test`, password: 'Secret123', permissions: ['Orders.Read'] },
    }),
  },
  'POST /api/user/register/': {
    caller: 'public',
    request: async () => ({
      url: '/api/user/register/',
      payload: { email: `reg.${unique()}@example.test`, password: 'Secret123', company_name: `Reg ${unique()}` },
    }),
  },
  'POST /api/partner/onboarding': {
    caller: 'applicant',
    request: async () => {
      const applicant = await newApplicant();
      const form = await multipart({ company_name: applicant.company, contact_email: applicant.email, region: 'Europe' });
      return { url: '/api/partner/onboarding', payload: form.payload, headers: { ...form.headers, authorization: `Bearer ${applicant.token}` } };
    },
  },
  'POST /api/partner/onboarding/questionnaire': {
    caller: 'applicant',
    request: async () => {
      const applicant = await newApplicant();
      const payload = completeQuestionnaire(applicant);
      return { url: '/api/partner/onboarding/questionnaire', payload, headers: { authorization: `Bearer ${applicant.token}` } };
    },
  },
};

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'], env: { READ_YOUR_WRITES_WAIT_MS: '1500' } });
  [admin, partner, distributor] = await Promise.all(['admin', 'partner', 'distributor'].map((name) => login(t.app, `${name}@partnerhub.test`)));
  const products = (await as(t.app, admin)({ method: 'GET', url: '/api/products?range=[0,99]' })).json() as Array<{
    id: string;
    moq: number;
    stock_quantity: number;
  }>;
  product = products.find((p) => p.stock_quantity >= p.moq * 20)!;
  const project = await as(
    t.app,
    partner,
  )({ method: 'POST', url: '/api/projects', ...(await multipart({ title: 'Milestones', expected_closure_date: inDays(90), value: '10.00' })) });
  projectId = project.json().data.id;
  const ticket = await as(t.app, partner)({ method: 'POST', url: '/api/tickets', ...(await multipart({ title: 'Comments', description: 'For comments.' })) });
  ticketId = ticket.json().data.id;
  const delivered = (await as(t.app, partner)({ method: 'GET', url: `/api/orders/${demoOrderId('northwind-1')}` })).json().data;
  const fund = await as(
    t.app,
    admin,
  )({
    method: 'POST',
    url: '/api/funds',
    payload: {
      name: 'Requests and claims',
      period_start: inDays(-30),
      period_end: inDays(60),
      budget: 100000,
      allocations: [{ organisation_id: partner.user.id, amount: 100000 }],
    },
  });
  fundId = fund.json().data.id;
  serials = delivered.serial_numbers.map((unit: { serial_number: string }) => unit.serial_number);
});
afterAll(() => t?.close());

async function send(route: CreateRoute, options: Omit<InjectOptions, 'method'>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const session = { admin, partner, distributor, public: undefined, applicant: undefined }[route.caller];
  return as(t.app, session)({ ...options, method: 'POST', headers: { ...(options.headers ?? {}), ...headers } });
}

const eventCount = async () => (await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0].n;
const idOf = (response: LightMyRequestResponse) => (response.json().data?.id ?? response.json().id) as string;

/** Holds the projector (its checkpoint row locked) while `during` runs. */
async function withProjectorHeld<T>(during: () => Promise<T>): Promise<T> {
  const holder = await t.db.pool.connect();
  try {
    await holder.query('BEGIN');
    await holder.query("SELECT 1 FROM read.checkpoints WHERE name = 'read-models' FOR UPDATE");
    return await during();
  } finally {
    await holder.query('COMMIT').catch(() => {});
    holder.release();
  }
}

/** Reads `url` as an administrator until it answers 200 with the record's id in it (the projector catching up). */
async function appears(url: string, id: string): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await as(t.app, admin)({ method: 'GET', url });
    if (response.statusCode === 200 && response.body.includes(id)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe('create routes', () => {
  it('are every POST route that is not listed as creating nothing', async () => {
    const posts = (await documentedRoutes(t.app)).filter((route) => route.method === 'POST').map((route) => `POST ${route.url}`);
    const unclassified = posts.filter((key) => !(key in CREATE_ROUTES) && !(key in NOT_CREATING));
    expect(unclassified, 'a new POST route: add it to CREATE_ROUTES (with an Idempotency-Key) or to NOT_CREATING').toEqual([]);
    expect(Object.keys(CREATE_ROUTES).filter((key) => !posts.includes(key))).toEqual([]);
  });

  for (const [name, route] of Object.entries(CREATE_ROUTES)) {
    it(`${name}: the same Idempotency-Key twice creates one record`, async () => {
      const request = await route.request();
      const key = `test-${randomUUID()}`;
      const first = await send(route, request, { 'idempotency-key': key });
      // This file waits 1.5 s for the read models, so that the late-projector cases below stay quick; on a
      // loaded machine the first creation may outlast that and be answered 202. The repeat is asked for
      // once the record can be read, as a client retrying later would.
      expect([201, 202], first.body).toContain(first.statusCode);
      if (first.statusCode === 202) expect(await appears(first.headers.location as string, idOf(first))).toBe(true);
      const before = await eventCount();
      const again = await send(route, request, { 'idempotency-key': key });
      expect(again.statusCode, again.body).toBe(200);
      expect(idOf(again)).toBe(idOf(first));
      expect(await eventCount()).toBe(before);
    });

    it(`${name}: with the projector late, 202 with the id, the position and a Location where the record appears`, async () => {
      const request = await route.request();
      const accepted = await withProjectorHeld(() => send(route, request));
      expect(accepted.statusCode, accepted.body).toBe(202);
      const body = accepted.json();
      expect(body).toMatchObject({
        success: true,
        accepted: true,
        id: expect.any(String),
        data: { id: body.id, position: { commit: expect.stringMatching(/^\d+$/), prepare: expect.stringMatching(/^\d+$/) } },
      });
      const location = accepted.headers.location as string;
      expect(location).toMatch(/^\/api\//);
      expect(body.data.location).toBe(location);
      expect(await appears(location, body.id), `${location} shows ${body.id}`).toBe(true);
    });
  }
});
