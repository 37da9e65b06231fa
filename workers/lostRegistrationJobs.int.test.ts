import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../domain/projects/projects';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { sweepDealRegistrations } from './projects';
import { closeQueues, createQueues } from '../platform/queues';

/**
 * A registration none of whose jobs ever ran (no worker here: as if Redis had lost them all) and whose
 * reminders and expiry are all past due: the sweep sends the missed reminders, late and saying so,
 * before it expires the registration.
 */
const VALIDITY_MS = 1500;
let t: TestPortal;
let partner: Session;
beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'], env: { DEAL_REGISTRATION_VALIDITY_MS: String(VALIDITY_MS) } });
  partner = await login(t.app, 'partner@partnerhub.test');
});
afterAll(() => t?.close());

describe('the registration sweep after lost jobs', () => {
  it('sends the reminders that fell due before the expiry that followed them, each once and marked late', async () => {
    const form = new FormData();
    form.append('title', 'Forgotten deal');
    form.append('end_user_customer_name', 'Forgotten deal customer');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const created = await as(
      t.app,
      partner,
    )({
      method: 'POST',
      url: '/api/projects',
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type')! },
    });
    expect(created.statusCode).toBe(201);
    const { id } = created.json().data as { id: string };
    await new Promise((resolve) => setTimeout(resolve, VALIDITY_MS + 200));

    const queues = createQueues(t.portal.services.config);
    try {
      await sweepDealRegistrations(t.portal.services, queues);
      await sweepDealRegistrations(t.portal.services, queues);
    } finally {
      await closeQueues(queues);
    }
    const steps = (await t.portal.services.store.readStream(projects.streamId(id))).filter(
      (event) => event.type === 'ProjectExpiryReminderSent.v1' || event.type === 'ProjectRegistrationExpired.v1',
    );
    expect(
      steps.map((event) => [event.type, (event.data as { daysBefore?: number; late?: boolean }).daysBefore, (event.data as { late?: boolean }).late]),
    ).toEqual([
      ['ProjectExpiryReminderSent.v1', 14, true],
      ['ProjectExpiryReminderSent.v1', 3, true],
      ['ProjectRegistrationExpired.v1', undefined, undefined],
    ]);
  });
});
