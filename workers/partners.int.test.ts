import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emptyQuestionnaire } from '../domain/partners/questionnaire';
import type { RecordedEvent } from '../platform/eventstore';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { startWorkers, type Workers } from '.';
import { approvalProcessData, completePartnerApproval, PARTNER_APPROVAL_STEPS } from './partners';
import { createQueue, QUEUES } from '../platform/queues';
import { REACTOR_CHECKPOINT, reactorCheckpoints } from './reactor';

// The portal runs without its worker; each test starts and stops the worker itself, like a crash would.
let t: TestPortal;
let admin: Session;
let workers: Workers | undefined;
let approvals: Queue;
const log: string[] = [];

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'], env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000', JOB_BACKOFF_MS: '50' } });
  admin = await login(t.app, 'admin@partnerhub.test');
  approvals = createQueue(t.portal.services.config, QUEUES.partnerApprovals);
});

afterAll(async () => {
  await workers?.stop();
  await approvals?.close();
  await t?.close();
});

const services = () => t.portal.services;
const PASSWORD = 'Welcome2026';

async function approvedApplicant(permissions = ['Projects.Read', 'Orders.Browse', 'Rebates.Read']) {
  const email = `crash.${Date.now()}.${Math.random().toString(36).slice(2, 6)}@example.test`;
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/user/register/',
    payload: { email, password: PASSWORD, company_name: 'Midway Networks' },
  });
  const { data, onboardingToken } = registered.json();
  const answers = {
    ...emptyQuestionnaire(),
    company_name: 'Midway Networks',
    contact_email: email,
    contact_name: 'Rui Costa',
    phone_number: '+351 21 000 0000',
    job_title: 'Founder',
    country: 'Portugal',
    city: 'Lisbon',
    location: 'Avenida da Liberdade 100',
    business_type: 'Partnership',
    years_in_operation: '3',
    employees_range: '1–10',
    business_description: 'Consulting & Professional Services',
    target_markets: ['Europe'],
    business_registration_number: 'PT-515000000',
    country_of_incorporation: 'Other',
    country_of_incorporation_other: 'Portugal',
    annual_turnover: '<$100,000',
    turnover_currency: 'EUR',
    fiscal_year_end_month: 'December',
    are_financials_audited: 'No',
    agreed_to_terms: true,
  };
  const submitted = await t.app.inject({
    method: 'POST',
    url: '/api/partner/onboarding/questionnaire',
    headers: { authorization: `Bearer ${onboardingToken}` },
    payload: answers,
  });
  expect(submitted.statusCode, submitted.body).toBe(201);
  const approved = await as(
    t.app,
    admin,
  )({ method: 'PATCH', url: `/api/partner/partners/${data.id}`, payload: { status: 'approved', category: 'Helix Value Added Distributor', permissions } });
  expect(approved.statusCode, approved.body).toBe(200);
  const approval = (await services().store.readStream(`partners-${data.id}`)).find((e) => e.type === 'PartnerApproved.v1')!;
  return { id: data.id as string, email, approval };
}

/** The account's events that the approval caused, by type. */
async function causedBy(userId: string, approval: RecordedEvent) {
  const stream = await services().store.readStream(`users-${userId}`);
  const caused = stream.filter((event) => event.metadata.causationId === approval.id);
  return {
    permissionsChanged: caused.filter((e) => e.type === 'UserPermissionsChanged.v1').length,
    activated: caused.filter((e) => e.type === 'UserActivated.v1').length,
    total: stream.length,
    events: caused,
  };
}

async function isActive(userId: string) {
  const { rows } = await services().pool.query<{ is_active: boolean; permissions: string[] }>('SELECT is_active, permissions FROM read.users WHERE id = $1', [
    userId,
  ]);
  return rows[0];
}

/** The reactor has read the whole log and no approval job is waiting or running. */
async function settled() {
  await vi.waitFor(
    async () => {
      expect(await reactorCheckpoints.load(services().pool, REACTOR_CHECKPOINT)).toEqual(await services().store.headPosition());
      const counts = await approvals.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(0);
    },
    { timeout: 15_000, interval: 50 },
  );
}

describe('the approval process', () => {
  it('a crash after the first step is completed on restart, and nothing is applied twice', async () => {
    const { id, email, approval } = await approvedApplicant();

    // The worker granted the permissions, then died before activating the account.
    const first = await completePartnerApproval(services(), approvalProcessData(approval), { upTo: 1 });
    expect(first.steps).toEqual([{ name: PARTNER_APPROVAL_STEPS[0].name, appended: 1 }]);
    expect(await causedBy(id, approval)).toMatchObject({ permissionsChanged: 1, activated: 0 });
    const refused = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: PASSWORD } });
    expect(refused.statusCode).toBe(403);

    // On restart the reactor finds the approval and the job runs the whole process again.
    workers = await startWorkers(services(), { log: (line) => log.push(line) });
    await vi.waitFor(async () => expect((await isActive(id))?.is_active).toBe(true), { timeout: 15_000, interval: 50 });
    await settled();
    const after = await causedBy(id, approval);
    expect(after).toMatchObject({ permissionsChanged: 1, activated: 1 });
    // Each step acted as the approving admin, caused by the approval.
    expect(after.events.map((e) => e.metadata)).toEqual([
      expect.objectContaining({ actorId: admin.user.id, actorRole: 'admin', correlationId: approval.metadata.correlationId }),
      expect.objectContaining({ actorId: admin.user.id, actorRole: 'admin', correlationId: approval.metadata.correlationId }),
    ]);
    const session = await login(t.app, email, PASSWORD);
    expect(session.user.permissions.sort()).toEqual(['Orders.Browse', 'Projects.Read', 'Rebates.Read']);

    // Running it yet again, or replaying the whole log without the finished job records, changes nothing.
    expect((await completePartnerApproval(services(), approvalProcessData(approval))).steps.map((s) => s.appended)).toEqual([0, 0]);
    await workers.stop();
    await approvals.clean(0, 1000, 'completed');
    await services().pool.query('DELETE FROM subscription_checkpoints WHERE name = $1', [REACTOR_CHECKPOINT]);
    workers = await startWorkers(services(), { log: (line) => log.push(line) });
    await settled();
    expect(await causedBy(id, approval)).toMatchObject({ permissionsChanged: 1, activated: 1, total: after.total });
  });

  it('two runs at the same moment apply each step once', async () => {
    await workers?.stop();
    workers = undefined;
    const { id, approval } = await approvedApplicant(['Support.Read']);
    await Promise.all([1, 2, 3].map(() => completePartnerApproval(services(), approvalProcessData(approval))));
    expect(await causedBy(id, approval)).toMatchObject({ permissionsChanged: 1, activated: 1 });
  });

  it("a step run again later never undoes an admin's later change", async () => {
    const { id, approval } = await approvedApplicant(['Projects.Read']);
    await completePartnerApproval(services(), approvalProcessData(approval));
    const user = (await as(t.app, admin)({ method: 'GET', url: `/api/users/${id}` })).json().data;
    // The admin later takes a permission away and deactivates the account.
    const changed = await as(
      t.app,
      admin,
    )({
      method: 'PUT',
      url: `/api/users/${id}`,
      payload: { full_name: user.full_name, email: user.email, permissions: ['Projects.Read', 'Support.Read'], is_active: false },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await completePartnerApproval(services(), approvalProcessData(approval));
    expect(await isActive(id)).toEqual({ is_active: false, permissions: ['Projects.Read', 'Support.Read'] });
    expect(await causedBy(id, approval)).toMatchObject({ permissionsChanged: 1, activated: 1 });
  });
});

describe('notifications', () => {
  async function notificationsOf(userId: string) {
    const { rows } = await services().pool.query<{ kind: string; title: string; body: string; link: string | null }>(
      'SELECT kind, title, body, link FROM read.notifications WHERE user_id = $1 ORDER BY created_at',
      [userId],
    );
    return rows;
  }

  it('tell admins of each application, and the applicant of the approval or the rejection with its reason', async () => {
    workers ??= await startWorkers(services(), { log: (line) => log.push(line) });
    const { id } = await approvedApplicant();
    const rejectedEmail = `rejected.${Date.now()}@example.test`;
    const registered = (
      await t.app.inject({ method: 'POST', url: '/api/user/register/', payload: { email: rejectedEmail, password: PASSWORD, company_name: 'Shady Deals LLC' } })
    ).json();
    const answers = {
      ...emptyQuestionnaire(),
      company_name: 'Shady Deals LLC',
      contact_email: rejectedEmail,
      contact_name: 'S. Deal',
      phone_number: '+1 555 0199',
      job_title: 'Owner',
      country: 'United States',
      city: 'Reno',
      location: 'PO Box 1',
      business_type: 'Sole Proprietorship',
      years_in_operation: '1',
      employees_range: '1–10',
      business_description: 'Retail & E-commerce',
      target_markets: ['Global'],
      business_registration_number: 'X',
      country_of_incorporation: 'United States',
      annual_turnover: '<$100,000',
      turnover_currency: 'USD',
      fiscal_year_end_month: 'March',
      are_financials_audited: 'No',
      agreed_to_terms: true,
    };
    await t.app.inject({
      method: 'POST',
      url: '/api/partner/onboarding/questionnaire',
      headers: { authorization: `Bearer ${registered.onboardingToken}` },
      payload: answers,
    });
    await as(
      t.app,
      admin,
    )({
      method: 'PATCH',
      url: `/api/partner/partners/${registered.data.id}`,
      payload: { status: 'rejected', rejection_reason: 'The registration number could not be verified.' },
    });

    await vi.waitFor(
      async () => {
        expect((await notificationsOf(id)).map((n) => n.kind)).toContain('partner-approved');
        expect((await notificationsOf(registered.data.id)).map((n) => n.kind)).toContain('partner-rejected');
        expect((await notificationsOf(admin.user.id)).filter((n) => n.kind === 'partner-application' && n.body.startsWith('Shady Deals LLC'))).toHaveLength(1);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect((await notificationsOf(id)).find((n) => n.kind === 'partner-approved')).toMatchObject({
      title: 'Your partner application was approved',
      body: 'Welcome to PartnerHub! Midway Networks is now a Helix Value Added Distributor. You can sign in to the partner portal.',
      link: '/partnerdashboard',
    });
    expect((await notificationsOf(registered.data.id)).find((n) => n.kind === 'partner-rejected')).toMatchObject({
      title: 'Your partner application was not approved',
      body: 'Your partner application for Shady Deals LLC was not approved. Reason: The registration number could not be verified.',
    });
    expect((await notificationsOf(admin.user.id)).find((n) => n.kind === 'partner-application' && n.body.startsWith('Shady'))).toMatchObject({
      title: 'New partner application',
      link: '/adminpanel',
    });
  });
});
