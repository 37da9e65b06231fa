import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { leads } from '../domain/leads/leads';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { startWorkers } from './index';
import { closeQueues, createQueues } from '../platform/queues';
import { sweepLeadWindows } from './leads';

// Each offer in this file has about 3.6 seconds to be answered.
const WINDOW_HOURS = 0.001;
const WINDOW_MS = WINDOW_HOURS * 3_600_000;
let t: TestPortal;
let admin: Session;
let partner: Session;
let sakura: Session;

beforeAll(async () => {
  t = await startTestPortal({ env: { LEAD_ACCEPTANCE_WINDOW_HOURS: String(WINDOW_HOURS), JOB_BACKOFF_MS: '100', LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
  [admin, partner, sakura] = await Promise.all(
    ['admin@partnerhub.test', 'partner@partnerhub.test', 'kenji.mori@sakura-netcom.test'].map((email) => login(t.app, email)),
  );
  const rule = await as(
    t.app,
    admin,
  )({
    method: 'POST',
    url: '/api/lead-rules',
    payload: { name: 'Iceland in turns', countries: ['IS'], method: 'round_robin', organisation_ids: [partner.user.id, sakura.user.id], position: 0 },
  });
  expect(rule.statusCode, rule.body).toBe(201);
});
afterAll(() => t?.close());

let counter = 0;
async function createLead() {
  const company = `Reykjavik Geothermal ${Date.now().toString(36)}${counter++}`;
  const response = await as(
    t.app,
    admin,
  )({
    method: 'POST',
    url: '/api/leads',
    payload: {
      company,
      contact_name: 'Bjork Gudmunds',
      email: `bjork@${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`,
      country: 'IS',
      region: 'EMEA',
      product_interest: 'Managed Switches',
      estimated_value: 30000,
      source: 'event',
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; organisation_id: string; due_at: string; company: string };
}

const eventsOf = async (id: string, type: string) => (await t.portal.services.store.readStream(leads.streamId(id))).filter((e) => e.type === type);
const leadRow = async (id: string) =>
  (
    await t.db.pool.query<{ status: string; organisation_id: string | null; passed_count: number }>(
      'SELECT status, organisation_id, passed_count FROM read.leads WHERE id = $1',
      [id],
    )
  ).rows[0];
const notifications = async (kind: string, text: string) =>
  (await t.db.pool.query<{ user_id: string }>('SELECT user_id FROM read.notifications WHERE kind = $1 AND body LIKE $2', [kind, `%${text}%`])).rows.map(
    (r) => r.user_id,
  );

describe('the acceptance window', () => {
  it('passes an unanswered lead on exactly once per window, across a second worker and the sweep, and returns it to the queue after the last organisation', async () => {
    const lead = await createLead();
    const first = lead.organisation_id;
    const second = first === partner.user.id ? sakura.user.id : partner.user.id;
    expect(Date.parse(lead.due_at) - Date.now()).toBeLessThanOrEqual(WINDOW_MS);

    // A second worker process (a restart while the first is still draining) and the sweep, both racing the job.
    const other = await startWorkers(t.portal.services, { log: () => {} });
    const queues = createQueues(t.portal.services.config);
    try {
      await vi.waitFor(async () => expect(await leadRow(lead.id)).toMatchObject({ status: 'assigned', organisation_id: second, passed_count: 1 }), {
        timeout: 20_000,
        interval: 100,
      });
      await sweepLeadWindows(t.portal.services, queues);
      await vi.waitFor(async () => expect(await leadRow(lead.id)).toMatchObject({ status: 'unassigned', organisation_id: null, passed_count: 2 }), {
        timeout: 20_000,
        interval: 100,
      });
      await sweepLeadWindows(t.portal.services, queues);
      await new Promise((resolve) => setTimeout(resolve, 1500));
    } finally {
      await other.stop();
      await closeQueues(queues);
    }

    const lapses = await eventsOf(lead.id, 'LeadLapsed.v1');
    expect(lapses.map((e) => e.data as { organisationId: string; passedTo: string | null })).toMatchObject([
      { organisationId: first, passedTo: second },
      { organisationId: second, passedTo: null },
    ]);
    expect(lapses.every((e) => e.metadata.actorRole === 'system')).toBe(true);
    expect(await eventsOf(lead.id, 'LeadAssigned.v1')).toHaveLength(2);
    expect((await leadRow(lead.id)).status).toBe('unassigned');

    // The organisations that let it lapse see only that: no contact details.
    const seen = (await as(t.app, partner)({ method: 'GET', url: `/api/leads/${lead.id}` })).json().data;
    expect(seen).toMatchObject({ status: 'lapsed', contact_name: null, email: null, phone: null });
    const accept = await as(t.app, partner)({ method: 'POST', url: `/api/leads/${lead.id}/accept` });
    expect(accept.statusCode).toBe(403);

    // Each organisation heard of its offer and its lapse once; every admin once that the lead is back in the queue.
    await vi.waitFor(
      async () => {
        expect((await notifications('lead-assigned', lead.company)).sort()).toEqual([first, second].sort());
        expect((await notifications('lead-lapsed', lead.company)).sort()).toEqual([first, second].sort());
        expect(await notifications('lead-returned', lead.company)).toContain(admin.user.id);
      },
      { timeout: 20_000, interval: 200 },
    );
    const returned = await notifications('lead-returned', lead.company);
    expect(new Set(returned).size).toBe(returned.length);
  }, 60_000);

  it('reminds the organisation once before the window closes', async () => {
    const lead = await createLead();
    await vi.waitFor(async () => expect(await notifications('lead-expiring', lead.company)).toEqual([lead.organisation_id]), {
      timeout: 20_000,
      interval: 100,
    });
  }, 30_000);

  it('does not pass on a lead that was accepted in time', async () => {
    const lead = await createLead();
    const holder = lead.organisation_id === partner.user.id ? partner : sakura;
    const accepted = await as(t.app, holder)({ method: 'POST', url: `/api/leads/${lead.id}/accept` });
    expect(accepted.statusCode, accepted.body).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 1500));
    expect(await leadRow(lead.id)).toMatchObject({ status: 'accepted', organisation_id: lead.organisation_id });
    expect(await eventsOf(lead.id, 'LeadLapsed.v1')).toHaveLength(0);
  }, 30_000);

  it('the sweep passes on a lead whose job was lost', async () => {
    const lead = await createLead();
    const queues = createQueues(t.portal.services.config);
    try {
      const lapseJob = async () => (await queues['lead-acceptance'].getJobs(['delayed', 'wait'])).find((job) => job?.id?.startsWith(`lead-lapse.${lead.id}.`));
      await vi.waitFor(async () => expect(await lapseJob()).toBeDefined(), { timeout: 10_000, interval: 50 });
      // The job disappears from Redis (a restarted Redis, a flushed queue).
      await (await lapseJob())!.remove();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(lead.due_at) - Date.now()) + 300));
      expect((await leadRow(lead.id)).passed_count).toBe(0);
      const swept = await sweepLeadWindows(t.portal.services, queues);
      expect(swept.ran).toBeGreaterThanOrEqual(1);
    } finally {
      await closeQueues(queues);
    }
    await vi.waitFor(async () => expect((await leadRow(lead.id)).passed_count).toBe(1), { timeout: 10_000, interval: 100 });
    expect(await eventsOf(lead.id, 'LeadLapsed.v1')).toHaveLength(1);
  }, 30_000);
});
