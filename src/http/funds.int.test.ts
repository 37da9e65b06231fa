import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundCard } from '../../projections/funds';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let uploadDir: string;
let admin: Session;
let partnerA: Session;
let partnerB: Session;
let fundId: string;
const password = 'Partner2026';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1f0b90000000049454e44ae426082',
  'hex',
);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const orgOf = (session: Session) => session.user.id;

beforeAll(async () => {
  uploadDir = await mkdtemp(path.join(os.tmpdir(), 'funds-uploads-'));
  t = await startTestPortal({ env: { JOB_BACKOFF_MS: '50', UPLOAD_DIR: uploadDir } });
  [admin, partnerA] = await Promise.all(['admin', 'partner'].map((name) => login(t.app, `${name}@partnerhub.test`)));
  const email = `fjord.${Date.now()}@example.test`;
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/user/register/',
    payload: { full_name: 'Ingrid Berg', email, password, company_name: 'Fjord Networks' },
  });
  const id = registered.json().data.id;
  const activated = await as(
    t.app,
    admin,
  )({
    method: 'PUT',
    url: `/api/users/${id}`,
    payload: { full_name: 'Ingrid Berg', email, role: 'partner', is_active: true, permissions: ['MDF.Read', 'MDF.Create'] },
  });
  expect(activated.statusCode).toBe(200);
  partnerB = await login(t.app, email, password);
  const created = await as(
    t.app,
    admin,
  )({
    method: 'POST',
    url: '/api/funds',
    payload: {
      name: 'Test fund',
      period_start: day(-30),
      period_end: day(60),
      budget: 100000,
      allocations: [
        { organisation_id: orgOf(partnerA), amount: 10000 },
        { organisation_id: orgOf(partnerB), amount: 2000 },
      ],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  fundId = created.json().data.id;
});
afterAll(async () => {
  await t?.close();
  await rm(uploadDir, { recursive: true, force: true });
});

const call = (session: Session | undefined) => as(t.app, session);
type FilePart = { bytes: Buffer; name: string };

async function multipart(fields: Record<string, string>, field: string, files: FilePart[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(field, new Blob([new Uint8Array(file.bytes)]), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

const requestFields = (overrides: Record<string, string> = {}) => ({
  fund_id: fundId,
  activity_type: 'webinar',
  title: 'Zero-trust webinar',
  description: 'Two sessions with a live demo',
  start_date: day(-10),
  end_date: day(-2),
  planned_cost: '5000.00',
  requested_amount: '2500.00',
  expected_leads: '40',
  ...overrides,
});

async function requestFunds(session: Session, overrides: Record<string, string> = {}, files: FilePart[] = [{ bytes: PDF, name: 'plan.pdf' }]) {
  return call(session)({ method: 'POST', url: '/api/fund-requests', ...(await multipart(requestFields(overrides), 'attachments', files)) });
}
async function claimFunds(session: Session, fields: Record<string, string>, files: FilePart[]) {
  return call(session)({ method: 'POST', url: '/api/fund-claims', ...(await multipart(fields, 'proof', files)) });
}
const review = (requestId: string, payload: object) => call(admin)({ method: 'POST', url: `/api/fund-requests/${requestId}/review`, payload });
const balanceOf = async (session: Session) => {
  const response = await call(session)({ method: 'GET', url: '/api/funds/balance' });
  expect(response.statusCode).toBe(200);
  return response.json().data.funds.find((f: { fund_id: string }) => f.fund_id === fundId);
};

describe('funds', () => {
  it('are created by admins only, with allocations within the budget', async () => {
    const refused = await call(partnerA)({
      method: 'POST',
      url: '/api/funds',
      payload: { name: 'Mine', period_start: day(0), period_end: day(10), budget: 10 },
    });
    expect(refused.statusCode).toBe(403);
    const over = await call(admin)({
      method: 'POST',
      url: '/api/funds',
      payload: { name: 'Over', period_start: day(0), period_end: day(10), budget: 10, allocations: [{ organisation_id: orgOf(partnerA), amount: 11 }] },
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.message).toBe('The allocations add up to more than the budget.');
  });

  it('show an organisation its own allocation only', async () => {
    const mine = await call(partnerB)({ method: 'GET', url: `/api/funds/${fundId}` });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.allocations.map((a: { organisation_id: string }) => a.organisation_id)).toEqual([orgOf(partnerB)]);
    const all = await call(admin)({ method: 'GET', url: `/api/funds/${fundId}` });
    expect(all.json().data.allocations).toHaveLength(2);
  });
});

describe('the life of an activity: request, approval of a lower amount, claim with proof, payout', () => {
  let requestId: string;
  let claimId: string;
  let proofUrls: string[];

  it('a partner requests funds; the balance is unchanged until approval', async () => {
    const response = await requestFunds(partnerA);
    expect(response.statusCode, response.body).toBe(201);
    requestId = response.json().data.id;
    expect(response.json().data).toMatchObject({ status: 'pending', requested_amount: 2500, organisation_id: orgOf(partnerA) });
    expect(response.json().data.attachments).toHaveLength(1);
    expect(await balanceOf(partnerA)).toMatchObject({ allocated: 10000, reserved: 0, available: 10000 });
  });

  it('refuses a request above the available balance, and one above the planned cost', async () => {
    const above = await requestFunds(partnerB, { planned_cost: '9000', requested_amount: '2000.01' });
    expect(above.statusCode).toBe(409);
    expect(above.json().error.code).toBe('INSUFFICIENT_FUNDS');
    const planned = await requestFunds(partnerA, { planned_cost: '100', requested_amount: '200' });
    expect(planned.statusCode).toBe(400);
  });

  it('refuses a renamed text file as an attachment', async () => {
    const response = await requestFunds(partnerA, {}, [{ bytes: Buffer.from('just some words, not a document'), name: 'plan.pdf' }]);
    expect(response.statusCode).toBe(415);
  });

  it('the admin approves a lower amount: it is reserved and the claim deadline set', async () => {
    expect(await review(requestId, { decision: 'approved', approved_amount: 2000, note: 'No travel' }).then((r) => r.statusCode)).toBe(200);
    const request = (await call(partnerA)({ method: 'GET', url: `/api/fund-requests/${requestId}` })).json().data;
    expect(request).toMatchObject({ status: 'approved', approved_amount: 2000, reserved: 2000, note: 'No travel', claim_deadline: day(-2 + 60) });
    expect(await balanceOf(partnerA)).toMatchObject({ reserved: 2000, available: 8000 });
    const again = await review(requestId, { decision: 'approved', approved_amount: 2000 });
    expect(again.statusCode).toBe(409);
  });

  it('a partner cannot review', async () => {
    const response = await call(partnerA)({
      method: 'POST',
      url: `/api/fund-requests/${requestId}/review`,
      payload: { decision: 'approved', approved_amount: 1 },
    });
    expect(response.statusCode).toBe(403);
  });

  it('refuses a claim above the approved amount and a renamed text file as proof', async () => {
    const above = await claimFunds(partnerA, { request_id: requestId, actual_cost: '4800', claimed_amount: '2000.01', leads_generated: '52' }, [
      { bytes: PDF, name: 'invoice.pdf' },
    ]);
    expect(above.statusCode).toBe(400);
    expect(above.json().error.message).toBe('The claimed amount cannot be more than the approved amount.');
    const renamed = await claimFunds(partnerA, { request_id: requestId, actual_cost: '4800', claimed_amount: '2000', leads_generated: '52' }, [
      { bytes: Buffer.from('name,email\nnot really'), name: 'invoice.pdf' },
    ]);
    expect(renamed.statusCode).toBe(415);
  });

  it('another organisation can neither see nor claim the request', async () => {
    expect((await call(partnerB)({ method: 'GET', url: `/api/fund-requests/${requestId}` })).statusCode).toBe(404);
    const list = await call(partnerB)({ method: 'GET', url: '/api/fund-requests' });
    expect(list.json().data.requests.map((r: { id: string }) => r.id)).not.toContain(requestId);
    const claim = await claimFunds(partnerB, { request_id: requestId, actual_cost: '4800', claimed_amount: '100', leads_generated: '1' }, [
      { bytes: PDF, name: 'invoice.pdf' },
    ]);
    expect(claim.statusCode).toBe(404);
  });

  it('the partner claims with two proof files', async () => {
    const response = await claimFunds(partnerA, { request_id: requestId, actual_cost: '4800', claimed_amount: '2000', leads_generated: '52' }, [
      { bytes: PDF, name: 'invoice.pdf' },
      { bytes: PNG, name: 'booth.png' },
    ]);
    expect(response.statusCode, response.body).toBe(201);
    claimId = response.json().data.id;
    proofUrls = response.json().data.proof.map((p: { url: string }) => p.url);
    expect(proofUrls).toHaveLength(2);
    const second = await claimFunds(partnerA, { request_id: requestId, actual_cost: '4800', claimed_amount: '2000', leads_generated: '52' }, [
      { bytes: PDF, name: 'invoice.pdf' },
    ]);
    expect(second.statusCode).toBe(409);
  });

  it('serves proof files only to those who may see the claim', async () => {
    for (const url of proofUrls) {
      expect((await call(partnerA)({ method: 'GET', url })).statusCode).toBe(200);
      expect((await call(admin)({ method: 'GET', url })).statusCode).toBe(200);
      expect((await call(partnerB)({ method: 'GET', url })).statusCode).toBe(404);
      expect((await call(undefined)({ method: 'GET', url })).statusCode).toBe(401);
    }
    const pdf = await call(partnerA)({ method: 'GET', url: proofUrls[0] });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.equals(PDF)).toBe(true);
  });

  it('the admin approves a paid amount and records the payout, once', async () => {
    const above = await call(admin)({ method: 'POST', url: `/api/fund-claims/${claimId}/review`, payload: { decision: 'approved', paid_amount: 2000.01 } });
    expect(above.statusCode).toBe(400);
    const approved = await call(admin)({ method: 'POST', url: `/api/fund-claims/${claimId}/review`, payload: { decision: 'approved', paid_amount: 1900 } });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await balanceOf(partnerA)).toMatchObject({ reserved: 0, claimed: 1900, paid: 0, available: 8100 });
    const paid = await call(admin)({
      method: 'POST',
      url: `/api/fund-claims/${claimId}/payout`,
      payload: { reference: 'PAY-1', paid_at: day(0), method: 'bank_transfer' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ status: 'paid', paid_amount: 1900, payout: { reference: 'PAY-1', method: 'bank_transfer' } });
    expect(await balanceOf(partnerA)).toMatchObject({ allocated: 10000, reserved: 0, claimed: 0, paid: 1900, available: 8100 });
    const twice = await call(admin)({
      method: 'POST',
      url: `/api/fund-claims/${claimId}/payout`,
      payload: { reference: 'PAY-2', paid_at: day(0), method: 'bank_transfer' },
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('ALREADY_PAID');
    expect(await balanceOf(partnerA)).toMatchObject({ paid: 1900, available: 8100 });
  });

  it('keeps the history, the versions and the exports', async () => {
    const history = await call(partnerA)({ method: 'GET', url: `/api/fund-claims/${claimId}/history` });
    expect(history.json().data.map((h: { to_status: string }) => h.to_status)).toEqual(['pending', 'approved', 'paid']);
    const versions = await call(partnerA)({ method: 'GET', url: `/api/fund-requests/${requestId}/versions` });
    expect(versions.statusCode).toBe(200);
    expect(versions.json().data.length).toBeGreaterThanOrEqual(3);
    const csv = await call(admin)({ method: 'GET', url: '/api/fund-claims/export' });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain(claimId);
    const partnerCsv = await call(partnerB)({ method: 'GET', url: '/api/fund-requests/export' });
    expect(partnerCsv.body).not.toContain(requestId);
  });

  it('answers a fund, a request and a claim as they were (asOf), and the request’s attachment, through their declared answers', async () => {
    const now = new Date().toISOString();
    for (const url of [`/api/funds/${fundId}`, `/api/fund-requests/${requestId}`, `/api/fund-claims/${claimId}`]) {
      const then = await call(admin)({ method: 'GET', url: `${url}?asOf=${encodeURIComponent(now)}` });
      expect(then.statusCode, then.body).toBe(200);
      expect(then.json()).toMatchObject({ success: true, as_of: now, data: { as_of: now } });
      expect(then.json().version).toBeGreaterThanOrEqual(1);
    }
    const found = await call(partnerA)({ method: 'GET', url: `/api/fund-requests/${requestId}` });
    const [attachment] = found.json().data.attachments as Array<{ url: string }>;
    const file = await call(partnerA)({ method: 'GET', url: attachment.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(PDF)).toBe(true);
  });
});

describe('return on an activity, from deal registrations and their delivered orders', () => {
  const address = {
    firstName: 'Priya',
    lastName: 'Shah',
    email: 'priya@northwind.test',
    phone: '+1 206 555 0142',
    addressLine1: '410 Harbour Steps',
    city: 'Seattle',
    state: 'WA',
    zipCode: '98101',
    country: 'United States',
  };
  async function placeOrder(quantity: number) {
    const { rows } = await t.portal.services.pool.query<{ id: string; moq: number }>(
      `SELECT id, moq FROM read.products WHERE stock_quantity >= moq * 4 ORDER BY moq, id LIMIT 1`,
    );
    expect(rows, 'the demo catalogue has a product in stock').toHaveLength(1);
    const placed = await call(partnerA)({
      method: 'POST',
      url: '/api/orders',
      payload: {
        estimated_delivery: day(5),
        notes: 'Webinar deal',
        items: [{ product_id: rows[0].id, quantity: rows[0].moq * quantity }],
        shipping_address: address,
      },
    });
    expect(placed.statusCode, placed.body).toBe(201);
    return placed.json().data as { id: string; total_amount: number };
  }
  async function deliver(orderId: string) {
    for (const status of ['approved', 'shipped', 'delivered']) {
      const changed = await call(admin)({
        method: 'PUT',
        url: `/api/orders/admin/${orderId}/status`,
        payload: { status, ...(status === 'shipped' ? { carrier: 'UPS', tracking_number: '1Z999AA10123456784' } : {}) },
      });
      expect(changed.statusCode, changed.body).toBe(200);
    }
  }
  const registerDeal = async (session: Session, fields: Record<string, string>) =>
    call(session)({ method: 'POST', url: '/api/projects', ...(await multipart({ title: 'Campus refresh', ...fields }, 'boq_file')) });
  const activity = async (id: string) => (await call(partnerA)({ method: 'GET', url: `/api/fund-requests/${id}` })).json().data;

  it('a deal names only an approved activity of its own organisation', async () => {
    const { rows } = await t.portal.services.pool.query<{ id: string; organisation_id: string; status: string }>(
      `SELECT id, organisation_id, status FROM read.fund_requests ORDER BY submitted_at`,
    );
    const paidOfA = rows.find((r) => r.organisation_id === orgOf(partnerA) && r.status === 'claimed')!;
    const pendingOfA = rows.find((r) => r.organisation_id === orgOf(partnerA) && r.status === 'pending');
    const ofB = rows.find((r) => r.organisation_id === orgOf(partnerB))!;
    for (const refused of [ofB?.id, pendingOfA?.id, '00000000-0000-4000-8000-000000000000'].filter(Boolean) as string[]) {
      const response = await registerDeal(partnerA, { fund_request_id: refused });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.details[0].field).toBe('fund_request_id');
    }
    expect((await registerDeal(partnerA, { fund_request_id: 'not-an-id' })).statusCode).toBe(400);
    const named = await registerDeal(partnerA, { fund_request_id: paidOfA.id, value: '50000' });
    expect(named.statusCode, named.body).toBe(201);
    expect(named.json().data.fund_request_id).toBe(paidOfA.id);
  });

  it('ROI = revenue of delivered orders linked to its deals / paid amount, on the request and its list', async () => {
    const { rows } = await t.portal.services.pool.query<{ id: string }>(
      `SELECT r.id FROM read.fund_requests r JOIN read.fund_claims c ON c.id = r.claim_id WHERE r.organisation_id = $1 AND c.status = 'paid' AND r.title = 'Zero-trust webinar' LIMIT 1`,
      [orgOf(partnerA)],
    );
    const requestId = rows[0].id;
    const before = await activity(requestId);
    expect(before.paid).toBe(1900);
    // a second deal, then an update moving a third one onto the activity and back off
    const deal = (await registerDeal(partnerA, { title: 'Branch offices', value: '30000' })).json().data;
    const linked = await call(partnerA)({ method: 'PUT', url: `/api/projects/${deal.id}`, payload: { fund_request_id: requestId } });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().data.fund_request_id).toBe(requestId);
    const withDeal = await activity(requestId);
    expect(withDeal.deals).toBe(before.deals + 1);
    expect(withDeal.pipeline).toBe(before.pipeline + 30000);

    const delivered = await placeOrder(2);
    const undelivered = await placeOrder(1);
    for (const order of [delivered, undelivered]) {
      expect((await call(partnerA)({ method: 'POST', url: `/api/projects/${deal.id}/orders`, payload: { order_id: order.id } })).statusCode).toBe(201);
    }
    expect((await activity(requestId)).revenue, 'orders not yet delivered are no revenue').toBe(before.revenue);
    await deliver(delivered.id);
    const after = await activity(requestId);
    const revenue = Math.round((before.revenue + delivered.total_amount) * 100) / 100;
    expect(after.revenue).toBe(revenue);
    expect(after.roi).toBe(Math.round((revenue / 1900) * 100) / 100);
    const listed = (await call(partnerA)({ method: 'GET', url: `/api/fund-requests?limit=100` }))
      .json()
      .data.requests.find((r: { id: string }) => r.id === requestId);
    expect(listed).toMatchObject({ deals: after.deals, pipeline: after.pipeline, revenue, roi: after.roi });

    // a field edit leaves the link alone; clearing it removes the deal from the activity
    expect(
      (await call(partnerA)({ method: 'PUT', url: `/api/projects/${deal.id}`, payload: { title: 'Branch offices, phase 1' } })).json().data.fund_request_id,
    ).toBe(requestId);
    expect((await call(partnerA)({ method: 'PUT', url: `/api/projects/${deal.id}`, payload: { fund_request_id: null } })).statusCode).toBe(200);
    expect(await activity(requestId)).toMatchObject({ deals: before.deals, pipeline: before.pipeline, revenue: before.revenue });
  });
});

describe('approvals racing for the last dollars', () => {
  it('reserve at most the available balance: one of two approvals is refused', async () => {
    const first = (await requestFunds(partnerB, { planned_cost: '2000', requested_amount: '1500' })).json().data.id;
    const second = (await requestFunds(partnerB, { planned_cost: '2000', requested_amount: '1500' })).json().data.id;
    const answers = await Promise.all([first, second].map((id) => review(id, { decision: 'approved', approved_amount: 1500 })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balanceOf(partnerB)).toMatchObject({ allocated: 2000, reserved: 1500, available: 500 });
    const statuses = await Promise.all(
      [first, second].map(async (id) => (await call(admin)({ method: 'GET', url: `/api/fund-requests/${id}` })).json().data.status),
    );
    expect(statuses.sort()).toEqual(['approved', 'pending']);
  });
});

describe('changes requested and rejections', () => {
  it('the partner edits and resubmits; a rejection needs a reason', async () => {
    const id = (await requestFunds(partnerA, { requested_amount: '100' })).json().data.id;
    expect((await review(id, { decision: 'changes_requested' })).statusCode).toBe(400);
    expect((await review(id, { decision: 'changes_requested', note: 'Attach the quote' })).statusCode).toBe(200);
    const edited = await call(partnerA)({
      method: 'PUT',
      url: `/api/fund-requests/${id}`,
      ...(await multipart(withoutFund(requestFields({ requested_amount: '120' })), 'attachments', [{ bytes: PDF, name: 'quote.pdf' }])),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ status: 'pending', requested_amount: 120 });
    expect(edited.json().data.attachments).toHaveLength(2);
    expect((await review(id, { decision: 'rejected', note: 'Out of scope' })).statusCode).toBe(200);
  });
});

describe('the balance and the funds card', () => {
  it('come from one definition and agree', async () => {
    for (const session of [partnerA, partnerB]) {
      const response = await call(session)({ method: 'GET', url: '/api/funds/balance' });
      const card = await fundCard(t.portal.services.pool, { organisationId: orgOf(session) });
      const { pending_requests: _r, pending_claims: _c, ...figures } = card;
      expect(figures).toEqual(response.json().data.total);
    }
    const all = await call(admin)({ method: 'GET', url: '/api/funds/balance' });
    const { pending_requests: _r, pending_claims: _c, ...figures } = await fundCard(t.portal.services.pool, { organisationId: undefined });
    expect(figures).toEqual(all.json().data.total);
  });
});

describe('the dashboards’ funds cards', () => {
  it('answer the balance and the counts of the lists they link to', async () => {
    const pendingTotal = async (session: Session, list: 'fund-requests' | 'fund-claims') =>
      (await call(session)({ method: 'GET', url: `/api/${list}?status=pending&limit=1` })).json().data.total as number;
    // one more request waiting, so the counts are not zero
    expect((await requestFunds(partnerB, { requested_amount: '100', planned_cost: '200', title: 'Card count' })).statusCode).toBe(201);
    for (const [session, url] of [
      [partnerA, '/api/dashboard/stats'],
      [partnerB, '/api/dashboard/stats'],
      [admin, '/api/dashboard/admin/stats'],
    ] as const) {
      const response = await call(session)({ method: 'GET', url });
      expect(response.statusCode, response.body).toBe(200);
      const { pending_requests, pending_claims, ...figures } = response.json().data.data.funds;
      expect(figures).toEqual((await call(session)({ method: 'GET', url: '/api/funds/balance' })).json().data.total);
      expect(pending_requests).toBe(await pendingTotal(session, 'fund-requests'));
      expect(pending_claims).toBe(await pendingTotal(session, 'fund-claims'));
    }
    expect((await call(admin)({ method: 'GET', url: '/api/dashboard/admin/stats' })).json().data.data.funds.pending_requests).toBeGreaterThan(0);
  });
});

function withoutFund(fields: Record<string, string>): Record<string, string> {
  const { fund_id: _fund, ...rest } = fields;
  return rest;
}

describe('co-op accrual', () => {
  it('equals the fund’s share of each delivered order, rounded down per order, and grows with each delivery', async () => {
    const created = await call(admin)({
      method: 'POST',
      url: '/api/funds',
      payload: {
        name: 'Co-op',
        period_start: day(-400),
        period_end: day(30),
        budget: 1000,
        coop_share_percent: 2.5,
        allocations: [{ organisation_id: orgOf(partnerA), amount: 0 }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const coopFund = created.json().data.id;
    const pool = t.portal.services.pool;
    const expected = async () => {
      const { rows } = await pool.query<{ cents: string }>(
        `SELECT coalesce(sum(floor(round(total_amount * 100) * 250 / 10000)), 0) AS cents FROM read.orders
         WHERE organisation_id = $1 AND status = 'delivered' AND delivered_at::date BETWEEN $2::date AND $3::date`,
        [orgOf(partnerA), day(-400), day(30)],
      );
      return Number(rows[0].cents) / 100;
    };
    const accrued = async () => (await call(partnerA)({ method: 'GET', url: `/api/funds/${coopFund}` })).json().data.totals.accrued as number;
    expect(await accrued()).toBe(await expected());

    const { rows } = await pool.query<{ id: string; status: string; total_amount: string }>(
      `SELECT id, status, total_amount FROM read.orders WHERE organisation_id = $1 AND status IN ('pending', 'approved', 'shipped') ORDER BY created_at LIMIT 1`,
      [orgOf(partnerA)],
    );
    expect(rows, 'the demo data has an undelivered order of the partner').toHaveLength(1);
    const order = rows[0];
    const before = await accrued();
    const path = { pending: ['approved', 'shipped', 'delivered'], approved: ['shipped', 'delivered'], shipped: ['delivered'] }[order.status]!;
    for (const status of path) {
      const changed = await call(admin)({
        method: 'PUT',
        url: `/api/orders/admin/${order.id}/status`,
        payload: { status, ...(status === 'shipped' ? { carrier: 'UPS', tracking_number: '1Z999AA10123456784' } : {}) },
      });
      expect(changed.statusCode, changed.body).toBe(200);
    }
    const after = await accrued();
    expect(Math.round((after - before) * 100)).toBe(Math.floor((Math.round(Number(order.total_amount) * 100) * 250) / 10000));
    expect(after).toBe(await expected());
    expect(
      (await call(partnerA)({ method: 'GET', url: '/api/funds/balance' })).json().data.funds.find((f: { fund_id: string }) => f.fund_id === coopFund),
    ).toMatchObject({ accrued: after, available: after });
  });
});

describe('closing a period early', () => {
  it('administrators only; the available balance expires, a second close and new requests are refused', async () => {
    const created = await call(admin)({
      method: 'POST',
      url: '/api/funds',
      payload: {
        name: 'Closed early',
        period_start: day(-20),
        period_end: day(40),
        budget: 2000,
        allocations: [{ organisation_id: orgOf(partnerB), amount: 500 }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    expect((await call(partnerB)({ method: 'POST', url: `/api/funds/${id}/close` })).statusCode).toBe(403);
    const closed = await call(admin)({ method: 'POST', url: `/api/funds/${id}/close`, payload: {} });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data).toMatchObject({ status: 'closed', close_reason: 'manual', totals: { allocated: 500, expired: 500, available: 0 } });
    expect(closed.json().data.closed_at).toEqual(expect.any(String));
    const again = await call(admin)({ method: 'POST', url: `/api/funds/${id}/close`, payload: {} });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This fund period is already closed.');
    const mine = (await call(partnerB)({ method: 'GET', url: '/api/funds/balance' })).json().data;
    expect(mine.funds.find((f: { fund_id: string }) => f.fund_id === id)).toMatchObject({ status: 'closed', allocated: 500, expired: 500, available: 0 });
    const late = await requestFunds(partnerB, { fund_id: id, requested_amount: '100', planned_cost: '200' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe('This fund is not open for requests.');
    const events = (await t.portal.services.store.readStream(`funds-${id}`)).map((e) => e.type);
    expect(events.filter((type) => type === 'FundPeriodClosed.v1')).toHaveLength(1);
    expect(events.filter((type) => type === 'FundAllocationExpired.v1')).toHaveLength(1);
  });
});

describe('allocations by a rule', () => {
  it('a percentage of each organisation’s delivered purchases in the previous period: previewed, then set, the rule and the purchases recorded', async () => {
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 12, 0)).toISOString().slice(0, 10);
    const created = await call(admin)({
      method: 'POST',
      url: '/api/funds',
      payload: { name: 'By the rule', period_start: start, period_end: end, budget: 10_000_000 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as string;
    const from = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);

    // What the orders read model says each organisation bought and had delivered in the previous twelve months.
    const { rows } = await t.portal.services.pool.query<{ organisation_id: string; cents: string }>(
      `SELECT organisation_id, sum(round(total_amount * 100)) AS cents FROM read.orders WHERE status = 'delivered' AND delivered_at::date BETWEEN $1::date AND $2::date GROUP BY organisation_id`,
      [from, to],
    );
    expect(rows.length, 'the demo data has deliveries in the previous year').toBeGreaterThan(0);
    const expected = Object.fromEntries(
      rows.map((r) => [r.organisation_id, { purchases: Number(r.cents) / 100, amount: Math.floor((Number(r.cents) * 150) / 10000) / 100 }]),
    );

    expect((await call(partnerA)({ method: 'GET', url: `/api/funds/${fundId}/allocation-rule?percent=1.5` })).statusCode).toBe(403);
    expect((await call(admin)({ method: 'GET', url: `/api/funds/${id}/allocation-rule?percent=0` })).statusCode).toBe(400);
    const preview = await call(admin)({ method: 'GET', url: `/api/funds/${id}/allocation-rule?percent=1.5` });
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json().data;
    expect(p).toMatchObject({ measured_from: from, measured_to: to, within_budget: true, rule: { kind: 'percent_of_purchases', percent: 1.5 } });
    expect(
      Object.fromEntries(
        p.allocations.map((a: { organisation_id: string; purchases: number; amount: number }) => [
          a.organisation_id,
          { purchases: a.purchases, amount: a.amount },
        ]),
      ),
    ).toEqual(expected);
    // Nothing is set by the preview.
    expect((await call(admin)({ method: 'GET', url: `/api/funds/${id}` })).json().data.allocations).toEqual([]);

    expect((await call(partnerA)({ method: 'POST', url: `/api/funds/${id}/allocation-rule`, payload: { percent: 1.5 } })).statusCode).toBe(403);
    const applied = await call(admin)({ method: 'POST', url: `/api/funds/${id}/allocation-rule`, payload: { percent: 1.5 } });
    expect(applied.statusCode, applied.body).toBe(200);
    const fund = applied.json().data;
    expect(fund.allocation_rule).toEqual({ kind: 'percent_of_purchases', percent: 1.5, measured_from: from, measured_to: to });
    expect(
      Object.fromEntries(
        fund.allocations.map((a: { organisation_id: string; measured_purchases: number; amount: number }) => [
          a.organisation_id,
          { purchases: a.measured_purchases, amount: a.amount },
        ]),
      ),
    ).toEqual(expected);
    const [event] = (await t.portal.services.store.readStream(`funds-${id}`)).filter((e) => e.type === 'FundAllocationsSetByRule.v1');
    expect(event.data).toMatchObject({ rule: { kind: 'percent_of_purchases', percentBasisPoints: 150, measuredFrom: from, measuredTo: to } });
    expect((event.data as { allocations: unknown[] }).allocations).toHaveLength(rows.length);
  });
});
