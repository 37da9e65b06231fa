import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { funds } from '../domain/funds/funds';
import { fundRequests } from '../domain/funds/requests';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { sweepFundDeadlines } from './funds';
import { startWorkers } from './index';
import { closeQueues, createQueues } from '../platform/queues';

// A one-day claim window, so an activity that ended days ago is past its deadline when approved.
let t: TestPortal;
let admin: Session;
let partner: Session;
let fundId: string;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

beforeAll(async () => {
  // No worker process: the deadline jobs are "lost" until a worker starts and sweeps.
  t = await startTestPortal({ processes: ['api', 'projector'], env: { FUND_CLAIM_WINDOW_DAYS: '1', JOB_BACKOFF_MS: '100' } });
  [admin, partner] = await Promise.all([login(t.app, 'admin@partnerhub.test'), login(t.app, 'partner@partnerhub.test')]);
  const created = await as(
    t.app,
    admin,
  )({
    method: 'POST',
    url: '/api/funds',
    payload: {
      name: 'Deadline fund',
      period_start: day(-30),
      period_end: day(30),
      budget: 10000,
      allocations: [{ organisation_id: partner.user.id, amount: 10000 }],
    },
  });
  expect(created.statusCode).toBe(201);
  fundId = created.json().data.id;
});
afterAll(() => t?.close());

async function approvedRequest(title: string, endDate: string) {
  const form = new FormData();
  const fields = {
    fund_id: fundId,
    activity_type: 'event',
    title,
    description: 'Roadshow stop',
    start_date: day(-10),
    end_date: endDate,
    planned_cost: '3000',
    requested_amount: '1000',
    expected_leads: '10',
  };
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('attachments', new Blob([new Uint8Array(PDF)]), 'plan.pdf');
  const request = new Request('http://x/', { method: 'POST', body: form });
  const submitted = await as(
    t.app,
    partner,
  )({
    method: 'POST',
    url: '/api/fund-requests',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
  expect(submitted.statusCode, submitted.body).toBe(201);
  const id = submitted.json().data.id as string;
  const approved = await as(t.app, admin)({ method: 'POST', url: `/api/fund-requests/${id}/review`, payload: { decision: 'approved', approved_amount: 800 } });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}

const releasesOf = async (requestId: string) =>
  (await t.portal.services.store.readStream(funds.streamId(fundId))).filter(
    (e) => e.type === 'FundReservationReleased.v1' && (e.data as { requestId: string }).requestId === requestId,
  );
const requestEvents = async (requestId: string, type: string) =>
  (await t.portal.services.store.readStream(fundRequests.streamId(requestId))).filter((e) => e.type === type);
const notificationsOf = async (kind: string, title: string) =>
  (await t.db.pool.query<{ body: string }>('SELECT body FROM read.notifications WHERE user_id = $1 AND kind = $2', [partner.user.id, kind])).rows.filter((n) =>
    n.body.includes(`"${title}"`),
  );
const balance = async () =>
  (await as(t.app, partner)({ method: 'GET', url: '/api/funds/balance' })).json().data.funds.find((f: { fund_id: string }) => f.fund_id === fundId);

describe('claim deadlines', () => {
  it('release the unclaimed reservation at the deadline exactly once across a worker restart; each reminder goes out once; an open deadline is kept', async () => {
    const lapsed = await approvedRequest('Lapsed roadshow', day(-5)); // deadline day(-4): passed
    const open = await approvedRequest('Open roadshow', day(-1)); // deadline today: not passed yet
    expect(await balance()).toMatchObject({ reserved: 1600, available: 8400 });

    // The first worker sweeps at start: the lapsed request's jobs were never queued.
    const first = await startWorkers(t.portal.services, { log: () => {} });
    await vi.waitFor(async () => expect((await releasesOf(lapsed)).length).toBe(1), { timeout: 20_000, interval: 100 });
    await vi.waitFor(
      async () => {
        expect(await notificationsOf('fund-reservation-released', 'Lapsed roadshow')).toHaveLength(1);
        expect(await notificationsOf('fund-claim-reminder', 'Open roadshow')).toHaveLength(2);
      },
      { timeout: 20_000, interval: 100 },
    );
    await first.stop();

    // A restarted worker sweeps again, and so does an explicit sweep: nothing happens twice.
    const second = await startWorkers(t.portal.services, { log: () => {} });
    const queues = createQueues(t.portal.services.config);
    await sweepFundDeadlines(t.portal.services, queues);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await second.stop();
    await closeQueues(queues);

    const [released] = await releasesOf(lapsed);
    expect(released.data).toMatchObject({ amountCents: 800_00, reason: 'deadline' });
    expect(released.metadata.actorRole).toBe('system');
    expect(await releasesOf(lapsed)).toHaveLength(1);
    expect(await requestEvents(lapsed, 'FundRequestReleased.v1')).toHaveLength(1);
    expect(await releasesOf(open)).toHaveLength(0);
    expect((await requestEvents(open, 'FundClaimReminderSent.v1')).map((e) => (e.data as { daysBefore: number }).daysBefore).sort()).toEqual([14, 3]);
    expect(await notificationsOf('fund-reservation-released', 'Lapsed roadshow')).toHaveLength(1);
    expect(await notificationsOf('fund-claim-reminder', 'Open roadshow')).toHaveLength(2);
    expect(await balance()).toMatchObject({ reserved: 800, available: 9200 });
    const request = (await as(t.app, partner)({ method: 'GET', url: `/api/fund-requests/${lapsed}` })).json().data;
    expect(request).toMatchObject({ status: 'released', reserved: 0, released: 800 });
  });
});

describe('the end of a fund period', () => {
  it('closes the fund and expires the unspent allocation exactly once across a worker restart; an approved reservation stays claimable', async () => {
    const created = await as(
      t.app,
      admin,
    )({
      method: 'POST',
      url: '/api/funds',
      payload: {
        name: 'Ended fund',
        period_start: day(-40),
        period_end: day(-1),
        budget: 5000,
        allocations: [{ organisation_id: partner.user.id, amount: 3000 }],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const endedId = created.json().data.id as string;
    // An activity that ended yesterday, approved before the close: its claim deadline is today.
    const form = new FormData();
    const fields = {
      fund_id: endedId,
      activity_type: 'event',
      title: 'Last-day summit',
      description: 'Booth',
      start_date: day(-3),
      end_date: day(-1),
      planned_cost: '2000',
      requested_amount: '1000',
      expected_leads: '5',
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const body = new Request('http://x/', { method: 'POST', body: form });
    const submitted = await as(
      t.app,
      partner,
    )({
      method: 'POST',
      url: '/api/fund-requests',
      payload: Buffer.from(await body.arrayBuffer()),
      headers: { 'content-type': body.headers.get('content-type')! },
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const requestId = submitted.json().data.id as string;
    expect(
      (await as(t.app, admin)({ method: 'POST', url: `/api/fund-requests/${requestId}/review`, payload: { decision: 'approved', approved_amount: 1000 } }))
        .statusCode,
    ).toBe(200);

    const fundEvents = async (type: string) => (await t.portal.services.store.readStream(funds.streamId(endedId))).filter((e) => e.type === type);
    const first = await startWorkers(t.portal.services, { log: () => {} });
    await vi.waitFor(async () => expect(await fundEvents('FundPeriodClosed.v1')).toHaveLength(1), { timeout: 20_000, interval: 100 });
    await first.stop();
    const second = await startWorkers(t.portal.services, { log: () => {} });
    const queues = createQueues(t.portal.services.config);
    await sweepFundDeadlines(t.portal.services, queues);
    // The organisation is told once.
    const told = async () =>
      (
        await t.db.pool.query<{ body: string }>("SELECT body FROM read.notifications WHERE user_id = $1 AND kind = 'fund-allocation-expired'", [
          partner.user.id,
        ])
      ).rows.filter((n) => n.body.includes('"Ended fund"'));
    await vi.waitFor(async () => expect(await told()).toHaveLength(1), { timeout: 20_000, interval: 100 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await second.stop();
    await closeQueues(queues);
    expect(await told()).toHaveLength(1);

    const [closed] = await fundEvents('FundPeriodClosed.v1');
    expect(await fundEvents('FundPeriodClosed.v1')).toHaveLength(1);
    expect(closed.data).toMatchObject({ reason: 'period_end', expiredCents: 2000_00 });
    expect(closed.metadata.actorRole).toBe('system');
    expect((await fundEvents('FundAllocationExpired.v1')).map((e) => e.data)).toEqual([
      { fundId: endedId, organisationId: partner.user.id, amountCents: 2000_00, reason: 'period_closed', requestId: null },
    ]);

    expect((await told())[0].body).toContain('$2,000.00 left unspent expired');

    const answer = (await as(t.app, partner)({ method: 'GET', url: '/api/funds/balance' })).json().data;
    expect(answer.funds.find((f: { fund_id: string }) => f.fund_id === endedId)).toMatchObject({
      status: 'closed',
      allocated: 3000,
      reserved: 1000,
      expired: 2000,
      available: 0,
    });
    expect(answer.total.expired).toBeGreaterThanOrEqual(2000);

    // No new request against the closed fund; the approved one is still claimed with proof.
    const again = new FormData();
    for (const [name, value] of Object.entries({ ...fields, title: 'Too late' })) again.append(name, value);
    const lateBody = new Request('http://x/', { method: 'POST', body: again });
    const late = await as(
      t.app,
      partner,
    )({
      method: 'POST',
      url: '/api/fund-requests',
      payload: Buffer.from(await lateBody.arrayBuffer()),
      headers: { 'content-type': lateBody.headers.get('content-type')! },
    });
    expect(late.statusCode, late.body).toBe(409);
    const claim = new FormData();
    for (const [name, value] of Object.entries({ request_id: requestId, actual_cost: '1500', claimed_amount: '900' })) claim.append(name, value);
    claim.append('proof', new Blob([new Uint8Array(PDF)]), 'invoice.pdf');
    const claimBody = new Request('http://x/', { method: 'POST', body: claim });
    const claimed = await as(
      t.app,
      partner,
    )({
      method: 'POST',
      url: '/api/fund-claims',
      payload: Buffer.from(await claimBody.arrayBuffer()),
      headers: { 'content-type': claimBody.headers.get('content-type')! },
    });
    expect(claimed.statusCode, claimed.body).toBe(201);
  });
});
