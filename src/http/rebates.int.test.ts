import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REBATE_MESSAGES } from '../../domain/rebates/rebates';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let uploadDir: string;
let admin: Session;
let partnerA: Session;
let partnerB: Session;
let teamMemberA: Session;
let distributor: Session;
let manufacturer: Session;
const password = 'Partner2026';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1f0b90000000049454e44ae426082',
  'hex',
);

beforeAll(async () => {
  uploadDir = await mkdtemp(path.join(os.tmpdir(), 'rebates-uploads-'));
  t = await startTestPortal({ env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000', JOB_BACKOFF_MS: '50', UPLOAD_DIR: uploadDir } });
  [admin, partnerA, teamMemberA, distributor, manufacturer] = await Promise.all(
    ['admin', 'partner', 'partner.user', 'distributor', 'manufacturer'].map((name) => login(t.app, `${name}@partnerhub.test`)),
  );
  // A second partner organisation, activated by an admin with the partner's rebate permissions.
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
    payload: { full_name: 'Ingrid Berg', email, role: 'partner', is_active: true, permissions: ['Rebates.Read', 'Rebates.Create', 'Rebates.Overview'] },
  });
  expect(activated.statusCode).toBe(200);
  partnerB = await login(t.app, email, password);
});
afterAll(async () => {
  await t?.close();
  await rm(uploadDir, { recursive: true, force: true });
});

const call = (session: Session | undefined) => as(t.app, session);
const unique = () => `INV-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

type FilePart = { bytes: Buffer; name: string };

async function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('attachments', new Blob([new Uint8Array(file.bytes)]), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

const claim = (overrides: Record<string, string> = {}) => ({
  product_name: 'HX-M2424 24-Port Gigabit Managed Switch',
  product_category: 'Managed Switches',
  purchase_date: daysAgo(3),
  invoice_number: unique(),
  purchase_amount: '12500.00',
  rebate_type: 'Volume Rebate',
  description: 'Campus refresh, building B.',
  ...overrides,
});

async function submit(session: Session | undefined, fields: Record<string, string> = claim(), files: FilePart[] = []) {
  return call(session)({ method: 'POST', url: '/api/rebates/submit', ...(await multipart(fields, files)) });
}

async function submitted(session: Session, fields: Record<string, string> = claim(), files: FilePart[] = []) {
  const response = await submit(session, fields, files);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as {
    id: string;
    invoice_number: string;
    attachments: Array<{ file: string; name: string; url: string }>;
    [key: string]: unknown;
  };
}

const review = (session: Session | undefined, id: string, body: Record<string, unknown>) =>
  call(session)({ method: 'PATCH', url: `/api/rebates/admin/${id}/status`, payload: body });
const storedFiles = async () => (await readdir(path.join(uploadDir, 'private')).catch(() => [])).length;

describe('submitting a rebate', () => {
  it('stores the claim with its documents and answers with the record', async () => {
    const fields = claim({ invoice_number: ' inv-77  001 ' });
    const response = await submit(partnerA, fields, [
      { bytes: PDF, name: 'invoice.pdf' },
      { bytes: PNG, name: 'delivery-note.png' },
    ]);
    expect(response.statusCode, response.body).toBe(201);
    const { success, message, data } = response.json();
    expect({ success, message }).toEqual({ success: true, message: 'Rebate submitted successfully!' });
    expect(data).toMatchObject({
      product_name: fields.product_name,
      product_category: 'Managed Switches',
      purchase_date: fields.purchase_date,
      invoice_number: 'INV-77 001',
      purchase_amount: 12500,
      rebate_type: 'Volume Rebate',
      status: 'pending',
      next_statuses: ['processing', 'approved', 'rejected'],
      rebate_amount: null,
      company_name: 'Northwind Networks',
      submitted_by: partnerA.user.id,
      attachments: [
        { name: 'invoice.pdf', type: 'pdf' },
        { name: 'delivery-note.png', type: 'png' },
      ],
    });
    // The demo partner starts the quarter at Bronze: 2% of the purchase is suggested.
    expect(data.suggested_rebate_amount).toBe(250);
  });

  it('answers missing fields with the specification’s messages, in the form’s order', async () => {
    for (const [field, message] of [
      ['product_name', 'Product name is required'],
      ['product_category', 'Product category is required'],
      ['purchase_date', 'Purchase date is required'],
      ['invoice_number', 'Invoice number is required'],
      ['purchase_amount', 'Purchase amount is required'],
      ['rebate_type', 'Rebate type is required'],
      ['description', 'Description is required'],
    ]) {
      const fields = claim();
      delete (fields as Record<string, string>)[field];
      const response = await submit(partnerA, fields);
      expect(response.statusCode, field).toBe(400);
      expect(response.json()).toMatchObject({ success: false, message, error: { code: 'VALIDATION_ERROR', details: [{ field, message }] } });
    }
  });

  it('refuses bad values and unknown fields', async () => {
    const cases: Array<[Record<string, string>, number, string | RegExp]> = [
      [claim({ purchase_date: daysAgo(-3) }), 400, REBATE_MESSAGES.purchaseDateFuture],
      [claim({ purchase_date: '2026-13-01' }), 400, REBATE_MESSAGES.purchaseDateInvalid],
      [claim({ purchase_amount: '-5' }), 400, /Purchase amount must be a number/],
      [claim({ purchase_amount: '12.345' }), 400, /Purchase amount must be a number/],
      [claim({ purchase_amount: '0' }), 400, REBATE_MESSAGES.purchaseAmountPositive],
      [claim({ product_category: 'Toasters' }), 400, REBATE_MESSAGES.categoryUnknown],
      [claim({ rebate_type: 'Cashback' }), 400, REBATE_MESSAGES.rebateTypeUnknown],
      [{ ...claim(), status: 'approved' }, 400, /Unknown field: status/],
    ];
    for (const [fields, status, message] of cases) {
      const response = await submit(partnerA, fields);
      expect(response.statusCode, JSON.stringify(fields)).toBe(status);
      expect(response.json().message).toMatch(message);
    }
  });

  it('refuses 6 documents, and a text file renamed .pdf, storing nothing', async () => {
    const before = await storedFiles();
    const six = await submit(
      partnerA,
      claim({ invoice_number: 'INV-SIX-DOCS' }),
      Array.from({ length: 6 }, (_, i) => ({ bytes: PDF, name: `doc${i}.pdf` })),
    );
    expect(six.statusCode).toBe(400);
    expect(six.json().message).toBe('Supporting documents: at most 5 files.');
    const renamed = await submit(partnerA, claim({ invoice_number: 'INV-RENAMED' }), [
      { bytes: PDF, name: 'invoice.pdf' },
      { bytes: Buffer.from('just some text, not a PDF at all'), name: 'statement.pdf' },
    ]);
    expect(renamed.statusCode).toBe(415);
    expect(renamed.json().message).toMatch(/Supporting documents must be a PDF, DOC, DOCX, JPG, PNG file; "statement.pdf" is not/);
    expect(await storedFiles()).toBe(before);
    const listed = await call(partnerA)({ method: 'GET', url: '/api/rebates/user?search=INV-SIX-DOCS' });
    expect(listed.json().data.total).toBe(0);
    expect((await call(partnerA)({ method: 'GET', url: '/api/rebates/user?search=INV-RENAMED' })).json().data.total).toBe(0);
  });

  it('refuses the same invoice twice for one organisation (any spelling), but not for another, and removes the refused files', async () => {
    const invoice = unique();
    const first = await submitted(partnerA, claim({ invoice_number: invoice }));
    const before = await storedFiles();
    const again = await submit(partnerA, claim({ invoice_number: ` ${invoice.toLowerCase()} ` }), [{ bytes: PDF, name: 'copy.pdf' }]);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, error: { code: 'DUPLICATE_INVOICE' } });
    expect(again.json().message).toMatch(
      new RegExp(`^Invoice ${invoice} has already been claimed by your organisation \\(submitted \\w{3} \\d{1,2}, \\d{4}, pending\\)`),
    );
    expect(await storedFiles()).toBe(before);
    const other = await submitted(partnerB, claim({ invoice_number: invoice }));
    expect(other.id).not.toBe(first.id);
  });

  it("a team member's claim belongs to the organisation", async () => {
    const member = (await call(admin)({ method: 'GET', url: '/api/users/' + teamMemberA.user.id })).json().data;
    const granted = await call(admin)({
      method: 'PUT',
      url: `/api/users/${member.id}`,
      payload: {
        full_name: member.full_name,
        email: member.email,
        role: member.role,
        is_active: true,
        permissions: [...member.permissions, 'Rebates.Read', 'Rebates.Create'],
      },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const session = await login(t.app, 'partner.user@partnerhub.test');
    const rebate = await submitted(session);
    expect(rebate).toMatchObject({ organisation_id: partnerA.user.id, submitted_by: member.id, company_name: 'Northwind Networks' });
    expect((await call(partnerA)({ method: 'GET', url: `/api/rebates/${rebate.id}` })).statusCode).toBe(200);
    // Put the demo team member back as it was, for the matrix below.
    await call(admin)({
      method: 'PUT',
      url: `/api/users/${member.id}`,
      payload: { full_name: member.full_name, email: member.email, role: member.role, is_active: true, permissions: member.permissions },
    });
    teamMemberA = await login(t.app, 'partner.user@partnerhub.test');
  });
});

describe('ReviewRebate', () => {
  it('pending → processing → approved, with the amount and the note; then final', async () => {
    const rebate = await submitted(partnerA);
    const processing = await review(admin, rebate.id, { status: 'processing', notes: 'Checking with the distributor.' });
    expect(processing.statusCode, processing.body).toBe(200);
    expect(processing.json()).toMatchObject({
      success: true,
      message: 'Rebate processing successfully',
      data: { status: 'processing', next_statuses: ['approved', 'rejected'] },
    });
    const approved = await review(admin, rebate.id, { status: 'approved', notes: 'Approved after review', rebate_amount: 250 });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      success: true,
      message: 'Rebate approved successfully',
      details: 'Status changed from processing to approved',
      data: { status: 'approved', rebate_amount: 250, notes: 'Approved after review', reviewed_by: admin.user.id, next_statuses: [] },
    });
    for (const status of ['rejected', 'processing', 'approved', 'pending']) {
      const refused = await review(admin, rebate.id, { status, notes: 'x', rebate_amount: 1 });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        success: false,
        message: 'Invalid status transition',
        details: `Cannot change status from approved to ${status}`,
        error: { code: 'INVALID_STATUS_TRANSITION' },
      });
    }
    const history = (await call(partnerA)({ method: 'GET', url: `/api/rebates/${rebate.id}/history` })).json().data;
    expect(
      history.map((h: { from_status: string | null; to_status: string; reason: string | null; actor_role: string }) => [
        h.from_status,
        h.to_status,
        h.reason,
        h.actor_role,
      ]),
    ).toEqual([
      [null, 'pending', null, 'partner'],
      ['pending', 'processing', 'Checking with the distributor.', 'admin'],
      ['processing', 'approved', 'Approved after review', 'admin'],
    ]);
  });

  it('approval needs an amount ≥ 0 and not above the purchase; the amount may be text', async () => {
    const rebate = await submitted(partnerA, claim({ purchase_amount: '1000' }));
    for (const [body, message] of [
      [{ status: 'approved' }, REBATE_MESSAGES.amountRequired],
      [{ status: 'approved', rebate_amount: null }, REBATE_MESSAGES.amountRequired],
      [{ status: 'approved', rebate_amount: -1 }, REBATE_MESSAGES.amountNegative],
      [{ status: 'approved', rebate_amount: '-1.00' }, REBATE_MESSAGES.amountNegative],
      [{ status: 'approved', rebate_amount: 1000.01 }, REBATE_MESSAGES.amountAbovePurchase],
      [{ status: 'approved', rebate_amount: 'ten' }, 'The rebate amount must be a number with at most 2 decimals.'],
      [{ status: 'approved', rebate_amount: 1.005 }, 'The rebate amount must be a number with at most 2 decimals.'],
      [{ status: 'paid', rebate_amount: 1 }, /Status must be one of/],
      [{ status: 'approved', rebate_amount: 1, extra: true }, /Unknown field: extra/],
    ] as const) {
      const response = await review(admin, rebate.id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    const approved = await review(admin, rebate.id, { status: 'approved', rebate_amount: '35.50' });
    expect(approved.json().data).toMatchObject({ status: 'approved', rebate_amount: 35.5, notes: null });
  });

  it('rejection needs a reason of at most 500 characters, which the partner reads', async () => {
    const rebate = await submitted(partnerA);
    expect((await review(admin, rebate.id, { status: 'rejected', notes: '   ' })).json().message).toBe(REBATE_MESSAGES.reasonRequired);
    expect((await review(admin, rebate.id, { status: 'rejected', notes: 'x'.repeat(501) })).json().message).toBe(REBATE_MESSAGES.reasonTooLong);
    const rejected = await review(admin, rebate.id, { status: 'rejected', notes: ' The invoice is not legible. ' });
    expect(rejected.statusCode).toBe(200);
    const seen = (await call(partnerA)({ method: 'GET', url: `/api/rebates/${rebate.id}` })).json().data;
    expect(seen).toMatchObject({ status: 'rejected', rejection_reason: 'The invoice is not legible.', notes: 'The invoice is not legible.' });
  });

  it('shows the reviewer the order a claim matches, by order number or by product and amount', async () => {
    const orders = (await call(partnerA)({ method: 'GET', url: '/api/orders?status=delivered' })).json().data.orders as Array<{
      order_number: string;
      total_amount: number;
      items: Array<{ product_name: string; line_total: number }>;
    }>;
    expect(orders.length).toBeGreaterThan(0);
    const order = orders[0];
    // The demo data already claims the delivered order's number; an approved order's number is free.
    const approvedOrder = (await call(partnerA)({ method: 'GET', url: '/api/orders?status=approved' })).json().data.orders[0] as { order_number: string };
    const byNumber = await submitted(partnerA, claim({ invoice_number: approvedOrder.order_number.toLowerCase() }));
    expect(byNumber).toMatchObject({
      match_note: `matches order ${approvedOrder.order_number}`,
      matched_order: { order_number: approvedOrder.order_number, matched_by: 'invoice' },
    });
    const line = order.items[0];
    const byProduct = await submitted(partnerA, claim({ product_name: line.product_name.toUpperCase(), purchase_amount: line.line_total.toFixed(2) }));
    expect(byProduct).toMatchObject({ match_note: `matches order ${order.order_number}`, matched_order: { matched_by: 'product_and_amount' } });
    const none = await submitted(partnerA, claim({ product_name: 'Something else entirely', purchase_amount: '1.23' }));
    expect(none).toMatchObject({ match_note: null, matched_order: null });
    // Another organisation's claim never matches Northwind's orders.
    const foreign = await submitted(partnerB, claim({ invoice_number: order.order_number }));
    expect(foreign.match_note).toBeNull();
  });
});

describe('overview, stats and progress', () => {
  it('count an approved claim in the quarter of its purchase, and move the tier at its threshold', async () => {
    const overview = async () => (await call(partnerB)({ method: 'GET', url: '/api/rebates/dashboard/overview' })).json().data;
    const before = await overview();
    const today = new Date().toISOString().slice(0, 10);
    expect(before.quarter.progress_label).toMatch(/^Q[1-4] \d{4} Progress$/);
    expect(before.quarter.days_remaining).toBeGreaterThan(0);
    expect(before).toMatchObject({ scope: 'organisation', current_tier: { tier: 'Bronze', next: 'Silver' }, rate: 2 });
    // Exactly the Silver threshold, purchased today, approved.
    const big = await submitted(partnerB, claim({ purchase_date: today, purchase_amount: (25_000 - before.financial_summary.quarterly_purchase).toFixed(2) }));
    expect(big.suggested_rebate_amount).toBeCloseTo(((25_000 - before.financial_summary.quarterly_purchase) * 2) / 100, 2);
    // The suggestion uses the tier before the claim counts, even when approving it reaches the next one.
    expect(big).toMatchObject({ suggested_tier: 'Bronze', suggested_rate: 2 });
    await review(admin, big.id, { status: 'approved', rebate_amount: big.suggested_rebate_amount });
    const after = await overview();
    expect(after).toMatchObject({
      current_tier: { tier: 'Silver', next: 'Gold' },
      rate: 3.5,
      quarterly_progress: { current: 25_000, target: 75_000, percentage: 33.3 },
      remaining_to_next_tier: 50_000,
      financial_summary: { quarterly_purchase: 25_000 },
    });
    expect(after.summary_counts.approved).toBe(before.summary_counts.approved + 1);
    const month = after.monthly.find((m: { month: string }) => m.month === today.slice(0, 7));
    expect(month.purchases).toBeGreaterThanOrEqual(big.purchase_amount as number);
    const stats = (await call(partnerB)({ method: 'GET', url: '/api/rebates/stats/user' })).json().data;
    expect(stats).toMatchObject({
      currentTier: 'Silver',
      nextTier: 'Gold',
      nextTierTarget: 75_000,
      quarterlyTarget: 75_000,
      rebateRate: 3.5,
      quarterLabel: after.quarter.label,
    });
    // A pending claim is now suggested at the Silver rate.
    const next = await submitted(partnerB, claim({ purchase_date: today, purchase_amount: '1000' }));
    expect(next.suggested_rebate_amount).toBe(35);
    expect(next).toMatchObject({ suggested_tier: 'Silver', suggested_rate: 3.5 });
  });

  it('admins see every organisation’s totals without a tier', async () => {
    const data = (await call(admin)({ method: 'GET', url: '/api/rebates/dashboard/overview' })).json().data;
    expect(data).toMatchObject({ scope: 'all', current_tier: { tier: null, next: null }, rate: null });
    expect(data.summary_counts.total).toBeGreaterThan(0);
  });

  it('serve the form’s category and type lists', async () => {
    const categories = (await call(partnerA)({ method: 'GET', url: '/api/rebates/categories/list' })).json().data;
    expect(categories[0]).toEqual({ id: 'managed-switches', name: 'Managed Switches' });
    expect(categories.map((c: { name: string }) => c.name)).toContain('Other');
    const types = (await call(partnerA)({ method: 'GET', url: '/api/rebates/types/list' })).json().data;
    expect(types.map((c: { name: string }) => c.name)).toContain('Volume Rebate');
  });

  it('accept a claim naming the category and type by the ids the lists answer, and store their names', async () => {
    const categories = (await call(partnerA)({ method: 'GET', url: '/api/rebates/categories/list' })).json().data as Array<{ id: string; name: string }>;
    const types = (await call(partnerA)({ method: 'GET', url: '/api/rebates/types/list' })).json().data as Array<{ id: string; name: string }>;
    const rebate = await submitted(partnerA, claim({ product_category: categories[1].id, rebate_type: types[1].id }));
    expect([rebate.product_category, rebate.rebate_type]).toEqual([categories[1].name, types[1].name]);
    const refused = await submit(partnerA, claim({ product_category: 'no-such-category' }));
    expect(refused.statusCode).toBe(400);
  });
});

describe('documents', () => {
  it('are served to the organisation and admins only', async () => {
    const rebate = await submitted(partnerA, claim(), [{ bytes: PDF, name: 'invoice; final €.pdf' }]);
    const url = rebate.attachments[0].url;
    expect(url).toBe(`/api/rebates/${rebate.id}/attachments/${rebate.attachments[0].file}`);
    for (const session of [partnerA, admin]) {
      const served = await call(session)({ method: 'GET', url });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('application/pdf');
      expect(served.headers['cache-control']).toBe('private, no-store');
      expect(served.headers['content-disposition']).toBe(
        `attachment; filename="invoice_ final _.pdf"; filename*=UTF-8''${encodeURIComponent('invoice; final €.pdf')}`,
      );
      expect(served.rawPayload.equals(PDF)).toBe(true);
    }
    expect((await call(partnerB)({ method: 'GET', url })).statusCode).toBe(404);
    expect((await call(teamMemberA)({ method: 'GET', url })).statusCode).toBe(403);
    expect((await call(undefined)({ method: 'GET', url })).statusCode).toBe(401);
    // Never as a public upload.
    expect((await call(undefined)({ method: 'GET', url: `/uploads/${rebate.attachments[0].file}` })).statusCode).toBe(404);
    // Another rebate's id with this file: not found.
    const other = await submitted(partnerA);
    expect((await call(partnerA)({ method: 'GET', url: `/api/rebates/${other.id}/attachments/${rebate.attachments[0].file}` })).statusCode).toBe(404);
  });
});

describe('deleting', () => {
  it('lets the organisation withdraw a pending claim, which frees the invoice and removes its documents', async () => {
    const rebate = await submitted(partnerA, claim(), [{ bytes: PDF, name: 'withdrawn.pdf' }]);
    const file = path.join(uploadDir, 'private', rebate.attachments[0].file);
    expect((await readdir(path.dirname(file))).includes(rebate.attachments[0].file)).toBe(true);
    const deleted = await call(partnerA)({ method: 'DELETE', url: `/api/rebates/${rebate.id}` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ success: true, message: 'Rebate deleted successfully' });
    expect((await call(partnerA)({ method: 'GET', url: `/api/rebates/${rebate.id}` })).statusCode).toBe(404);
    const history = await t.portal.services.pool.query(
      "SELECT from_status, to_status, actor_role FROM read.status_history WHERE record_type = 'rebates' AND record_id = $1 ORDER BY occurred_at",
      [rebate.id],
    );
    expect(history.rows.at(-1)).toEqual({ from_status: 'pending', to_status: 'deleted', actor_role: 'partner' });
    await expect.poll(async () => (await readdir(path.dirname(file))).includes(rebate.attachments[0].file), { timeout: 15_000 }).toBe(false);
    const again = await submitted(partnerA, claim({ invoice_number: rebate.invoice_number }));
    expect(again.id).toBe(rebate.id);
  });

  it('refuses the organisation once under review, and everyone once approved', async () => {
    const rebate = await submitted(partnerA);
    await review(admin, rebate.id, { status: 'processing' });
    const refused = await call(partnerA)({ method: 'DELETE', url: `/api/rebates/${rebate.id}` });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(REBATE_MESSAGES.ownerDeleteOnlyPending);
    await review(admin, rebate.id, { status: 'approved', rebate_amount: 10 });
    const adminRefused = await call(admin)({ method: 'DELETE', url: `/api/rebates/${rebate.id}` });
    expect(adminRefused.statusCode).toBe(409);
    expect(adminRefused.json().message).toBe(REBATE_MESSAGES.approvedNotDeletable);
    const processing = await submitted(partnerA);
    await review(admin, processing.id, { status: 'processing' });
    expect((await call(admin)({ method: 'DELETE', url: `/api/rebates/${processing.id}` })).statusCode).toBe(200);
  });
});

describe('lists and export', () => {
  it("a partner's list and export hold exactly its organisation's rows; the admin's hold everyone's", async () => {
    await submitted(partnerB, claim({ product_name: 'Fjord, "quoted" =SUM(A1)' }));
    for (const session of [partnerA, partnerB]) {
      const list = (await call(session)({ method: 'GET', url: '/api/rebates/user?limit=100' })).json().data;
      expect(list.rebates.every((r: { organisation_id: string }) => r.organisation_id === session.user.id)).toBe(true);
      const csv = await call(session)({ method: 'GET', url: '/api/rebates/export' });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="rebates-\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe(
        'id,submitted_date,company_name,invoice_number,product_name,product_category,purchase_date,purchase_amount,rebate_type,status,rebate_amount,notes,matched_order,documents,description',
      );
      const ids = lines.slice(1).map((line) => line.split(',')[0]);
      expect(new Set(ids)).toEqual(new Set(list.rebates.map((r: { id: string }) => r.id)));
    }
    const fjord = (await call(partnerB)({ method: 'GET', url: '/api/rebates/export' })).body;
    expect(fjord).toContain('"Fjord, ""quoted"" =SUM(A1)"');
    const all = await call(admin)({ method: 'GET', url: '/api/rebates/admin/all?limit=1' });
    const adminCsv = (await call(admin)({ method: 'GET', url: '/api/rebates/export' })).body.trim().split('\r\n');
    expect(adminCsv.length - 1).toBe(all.json().data.total);
  });

  it('exports with the current filters', async () => {
    const rows = (url: string) => call(admin)({ method: 'GET', url }).then((r) => r.body.trim().split('\r\n').slice(1));
    const approved = await rows('/api/rebates/export?status=approved');
    expect(approved.length).toBeGreaterThan(0);
    expect(approved.every((line) => line.includes(',approved,'))).toBe(true);
    const fjordOnly = await rows(`/api/rebates/export?organisation_id=${partnerB.user.id}`);
    expect(fjordOnly.every((line) => line.includes('Fjord Networks'))).toBe(true);
    // A partner naming another organisation gets nothing of it.
    const snooping = (await call(partnerA)({ method: 'GET', url: `/api/rebates/export?organisation_id=${partnerB.user.id}` })).body.trim().split('\r\n');
    expect(snooping).toHaveLength(1);
  });

  it('filter, search and sort (react-admin and the specification’s shapes)', async () => {
    const ra = await call(admin)({
      method: 'GET',
      url: `/api/rebates/admin/all?${new URLSearchParams({ filter: JSON.stringify({ status: 'pending', organisation_id: partnerB.user.id }), sort: JSON.stringify(['purchase_amount', 'DESC']), range: '[0,4]' })}`,
    });
    expect(ra.statusCode, ra.body).toBe(200);
    expect(ra.headers['content-range']).toMatch(/^rebates 0-\d+\/\d+$/);
    const amounts = ra.json().map((r: { purchase_amount: number; status: string; organisation_id: string }) => {
      expect(r).toMatchObject({ status: 'pending', organisation_id: partnerB.user.id });
      return r.purchase_amount;
    });
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    for (const sort of ['id', 'submitted_date', 'purchase_date', 'rebate_amount', 'status', 'company_name', 'invoice_number', 'product_name']) {
      expect(
        (await call(admin)({ method: 'GET', url: `/api/rebates/admin/all?sort=${encodeURIComponent(JSON.stringify([sort, 'ASC']))}` })).statusCode,
        sort,
      ).toBe(200);
    }
    const today = new Date().toISOString().slice(0, 10);
    const dated = (await call(admin)({ method: 'GET', url: `/api/rebates/admin/all?date_from=${today}&date_to=${today}&limit=100` })).json().data;
    expect(dated.total).toBeGreaterThan(0);
    expect((await call(admin)({ method: 'GET', url: '/api/rebates/admin/all?date_from=2020-01-01&date_to=2020-01-02' })).json().data.total).toBe(0);
    expect((await call(admin)({ method: 'GET', url: '/api/rebates/admin/all?date_from=yesterday' })).statusCode).toBe(400);
    expect((await call(admin)({ method: 'GET', url: '/api/rebates/admin/all?colour=blue' })).statusCode).toBe(400);
  });
});

describe('who may call what (role × route × own/other organisation)', () => {
  let own: { id: string; attachments: Array<{ url: string }> };
  beforeAll(async () => {
    own = await submitted(partnerA, claim(), [{ bytes: PNG, name: 'scan.png' }]);
  });

  it('matches the table', async () => {
    type Who = 'anonymous' | 'partnerA' | 'partnerB' | 'teamMemberA' | 'distributor' | 'manufacturer' | 'admin';
    const sessions: Record<Who, Session | undefined> = { anonymous: undefined, partnerA, partnerB, teamMemberA, distributor, manufacturer, admin };
    const routes: Array<[string, string, Partial<Record<Who, number>>]> = [
      ['GET', '/api/rebates', { anonymous: 401, partnerA: 200, teamMemberA: 403, distributor: 403, admin: 200 }],
      ['GET', '/api/rebates/user', { anonymous: 401, partnerA: 200, partnerB: 200, teamMemberA: 403, distributor: 403, manufacturer: 403, admin: 200 }],
      ['GET', '/api/rebates/export', { anonymous: 401, partnerA: 200, partnerB: 200, teamMemberA: 403, distributor: 403, manufacturer: 403, admin: 200 }],
      ['GET', '/api/rebates/stats/user', { anonymous: 401, partnerA: 200, partnerB: 200, teamMemberA: 403, distributor: 403, manufacturer: 403, admin: 200 }],
      [
        'GET',
        '/api/rebates/dashboard/overview',
        { anonymous: 401, partnerA: 200, partnerB: 200, teamMemberA: 403, distributor: 403, manufacturer: 403, admin: 200 },
      ],
      ['GET', '/api/rebates/categories/list', { anonymous: 401, partnerA: 200, teamMemberA: 403, distributor: 403, admin: 200 }],
      ['GET', '/api/rebates/types/list', { anonymous: 401, partnerA: 200, teamMemberA: 403, distributor: 403, admin: 200 }],
      ['GET', '/api/rebates/admin/all', { anonymous: 401, partnerA: 403, partnerB: 403, teamMemberA: 403, distributor: 403, manufacturer: 403, admin: 200 }],
      ['GET', `/api/rebates/${'own'}`, { anonymous: 401, partnerA: 200, partnerB: 404, teamMemberA: 403, distributor: 403, manufacturer: 403, admin: 200 }],
      ['GET', `/api/rebates/${'own'}/history`, { anonymous: 401, partnerA: 200, partnerB: 404, teamMemberA: 403, distributor: 403, admin: 200 }],
      ['GET', 'attachment', { anonymous: 401, partnerA: 200, partnerB: 404, teamMemberA: 403, distributor: 403, admin: 200 }],
      ['PATCH', `/api/rebates/admin/${'own'}/status`, { anonymous: 401, partnerA: 403, partnerB: 403, teamMemberA: 403, distributor: 403, manufacturer: 403 }],
      ['DELETE', `/api/rebates/${'own'}`, { anonymous: 401, partnerB: 404, teamMemberA: 403, distributor: 403, manufacturer: 403 }],
      ['POST', '/api/rebates/submit', { anonymous: 401, teamMemberA: 403, distributor: 403, manufacturer: 403 }],
    ];
    const failures: string[] = [];
    for (const [method, template, expected] of routes) {
      const url = template === 'attachment' ? own.attachments[0].url : template.replace('own', own.id);
      for (const [who, status] of Object.entries(expected) as Array<[Who, number]>) {
        const body = method === 'PATCH' ? { payload: { status: 'processing' } } : method === 'POST' ? await multipart(claim()) : {};
        const response = await call(sessions[who])({ method: method as 'GET', url, ...body });
        if (response.statusCode !== status) failures.push(`${who} ${method} ${url}: ${response.statusCode}, expected ${status}`);
      }
    }
    expect(failures).toEqual([]);
    // The admin's review and the owner's withdrawal were never let through by the refusals above.
    expect((await call(partnerA)({ method: 'GET', url: `/api/rebates/${own.id}` })).json().data.status).toBe('pending');
  });
});

describe('notifications', () => {
  it('tell admins of a new claim and the organisation of each review decision', async () => {
    const rebate = await submitted(partnerA, claim({ invoice_number: unique() }));
    await review(admin, rebate.id, { status: 'rejected', notes: 'Wrong programme: use the Project Rebate.' });
    const find = async (session: Session, kind: string) => {
      const list = (await call(session)({ method: 'GET', url: '/api/notifications?limit=100' })).json().data.notifications as Array<{
        kind: string;
        title: string;
        body: string;
        link: string;
      }>;
      return list.find((n) => n.kind === kind && n.body.includes(rebate.invoice_number));
    };
    await expect.poll(() => find(admin, 'rebate-submitted'), { timeout: 15_000 }).toMatchObject({ title: 'New rebate claim', link: '/adminpanel?tab=rebates' });
    await expect
      .poll(() => find(partnerA, 'rebate-rejected'), { timeout: 15_000 })
      .toMatchObject({ title: `Rebate ${rebate.invoice_number} rejected`, link: '/rebates?tab=history' });
    expect((await find(partnerA, 'rebate-rejected'))!.body).toContain('Wrong programme: use the Project Rebate.');
  });
});

describe('demo data', () => {
  it('holds claims of several organisations in every status, with documents, and seeding again adds nothing', async () => {
    const { pool } = t.portal.services;
    const count = async () =>
      (
        await pool.query<{ n: string }>(
          "SELECT count(*) AS n FROM read.rebates WHERE invoice_number LIKE 'NW-%' OR invoice_number LIKE 'PD-%' OR invoice_number LIKE 'SKN-%' OR invoice_number LIKE 'ORD-%'",
        )
      ).rows[0].n;
    const before = await count();
    expect(Number(before)).toBeGreaterThanOrEqual(12);
    const statuses = await pool.query<{ status: string; organisations: string }>(
      "SELECT status, count(DISTINCT organisation_id) AS organisations FROM read.rebates WHERE invoice_number LIKE 'NW-%' OR invoice_number LIKE 'PD-%' OR invoice_number LIKE 'SKN-%' GROUP BY status ORDER BY status",
    );
    expect(statuses.rows.map((r) => r.status)).toEqual(['approved', 'pending', 'processing', 'rejected']);
    expect(Number(statuses.rows.find((r) => r.status === 'approved')!.organisations)).toBe(3);
    const withoutDocuments = await pool.query("SELECT id FROM read.rebates WHERE document_count = 0 AND invoice_number LIKE 'NW-%'");
    expect(withoutDocuments.rowCount).toBe(0);
    // The claim made on a portal order's number shows the match to the reviewer.
    const matched = (await call(admin)({ method: 'GET', url: '/api/rebates/admin/all?search=ORD-&limit=100' })).json().data.rebates as Array<{
      company_name: string;
      match_note: string | null;
    }>;
    expect(matched.some((r) => r.company_name === 'Northwind Networks' && r.match_note?.startsWith('matches order ORD-'))).toBe(true);
    const { seed } = await import('../seed');
    await seed(t.portal.services);
    expect(await count()).toBe(before);
    // A demo document is a real PDF the organisation can open.
    const demo = (await call(partnerA)({ method: 'GET', url: '/api/rebates/user?search=NW-INV-21088' })).json().data.rebates[0];
    const served = await call(partnerA)({ method: 'GET', url: demo.attachments[0].url });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });
});

describe('reviewing several claims at once', () => {
  const bulk = (session: Session | undefined, payload: Record<string, unknown>) => call(session)({ method: 'POST', url: '/api/rebates/bulk-review', payload });
  const read = async (id: string) =>
    (await call(admin)({ method: 'GET', url: `/api/rebates/${id}` })).json().data as {
      status: string;
      rebate_amount: number | null;
      suggested_rebate_amount: number;
      notes: string | null;
    };

  it('is for admins only', async () => {
    const rebate = await submitted(partnerA);
    for (const session of [partnerA, teamMemberA, distributor, manufacturer, partnerB]) {
      expect((await bulk(session, { ids: [rebate.id], decision: 'rejected', reason: 'No.' })).statusCode, session.user.role).toBe(403);
    }
    expect((await bulk(undefined, { ids: [rebate.id], decision: 'approved' })).statusCode).toBe(401);
    expect((await read(rebate.id)).status).toBe('pending');
  });

  it('refuses a rejection without a reason and a list that is empty, repeated or too long, changing nothing', async () => {
    const rebate = await submitted(partnerA);
    const noReason = await bulk(admin, { ids: [rebate.id], decision: 'rejected' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'reason', message: 'Please give a reason for the rejection.' }] },
    });
    expect((await bulk(admin, { ids: [], decision: 'approved' })).json().message).toBe('Choose at least one rebate.');
    expect((await bulk(admin, { ids: [rebate.id, rebate.id], decision: 'approved' })).json().message).toBe('A rebate is listed twice.');
    const many = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect((await bulk(admin, { ids: many, decision: 'approved' })).json().message).toBe('Choose at most 100 rebates at a time.');
    expect((await bulk(admin, { ids: ['not-an-id'], decision: 'approved' })).statusCode).toBe(400);
    expect((await read(rebate.id)).status).toBe('pending');
  });

  it('rejects with one reason and reports the claims it could not reject', async () => {
    const [first, second, approved] = [await submitted(partnerA), await submitted(partnerB), await submitted(partnerA)];
    expect((await review(admin, approved.id, { status: 'approved', rebate_amount: 100 })).statusCode).toBe(200);
    const answer = await bulk(admin, { ids: [first.id, approved.id, second.id], decision: 'rejected', reason: 'Invoices outside the claim window.' });
    expect(answer.statusCode, answer.body).toBe(200);
    const { message, data } = answer.json();
    expect(message).toBe('2 rebates rejected; 1 refused.');
    expect(data).toEqual({
      succeeded: [first.id, second.id],
      refused: [{ id: approved.id, code: 'INVALID_STATUS_TRANSITION', message: REBATE_MESSAGES.invalidTransition }],
    });
    for (const id of [first.id, second.id]) expect((await read(id)).status).toBe('rejected');
    const history = (await call(admin)({ method: 'GET', url: `/api/rebates/${first.id}/history` })).json().data;
    expect(JSON.stringify(history)).toContain('Invoices outside the claim window.');
    expect((await read(approved.id)).status).toBe('approved');
  });

  it('approves each claim at the amount its Approve dialog suggests', async () => {
    const [first, second] = [await submitted(partnerA), await submitted(partnerA, claim({ purchase_amount: '999.99' }))];
    const suggested = await Promise.all([first.id, second.id].map(async (id) => (await read(id)).suggested_rebate_amount));
    const answer = await bulk(admin, { ids: [first.id, second.id], decision: 'approved', reason: 'Quarter close' });
    expect(answer.json()).toMatchObject({ message: '2 rebates approved.', data: { succeeded: [first.id, second.id], refused: [] } });
    expect((await read(first.id)).rebate_amount).toBe(suggested[0]);
    expect((await read(second.id)).rebate_amount).toBe(suggested[1]);
    expect(suggested[0]).toBeGreaterThan(0);
  });
});
