import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { rebateReactions } from './rebates';

/** Mail as a real SMTP server receives it. */
const received: Array<{ to: string[]; raw: string }> = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
      callback();
    });
  },
});

let t: TestPortal;
let admin: Session;
let partner: Session;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await startTestPortal({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, JOB_BACKOFF_MS: '50', LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
  [admin, partner] = await Promise.all([login(t.app, 'admin@partnerhub.test'), login(t.app, 'partner@partnerhub.test')]);
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function submit(invoice: string) {
  const form = new FormData();
  const fields = {
    product_name: 'HX-M2408 8-Port Gigabit Managed Switch',
    product_category: 'Managed Switches',
    purchase_date: new Date().toISOString().slice(0, 10),
    invoice_number: invoice,
    purchase_amount: '2000',
    rebate_type: 'Volume Rebate',
    description: 'Worker test.',
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const request = new Request('http://x/', { method: 'POST', body: form });
  const response = await as(
    t.app,
    partner,
  )({
    method: 'POST',
    url: '/api/rebates/submit',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string };
}

const mailsAbout = (address: string, text: string) => received.filter((m) => m.to.includes(address) && m.raw.includes(text));

describe('rebate notifications', () => {
  it('react to submissions and to each review decision, and nothing else', () => {
    expect(Object.keys(rebateReactions).sort()).toEqual(['RebateApproved.v1', 'RebateProcessingStarted.v1', 'RebateRejected.v1', 'RebateSubmitted.v1']);
  });

  it('e-mail the admins of a new claim and the organisation of each decision, once each', async () => {
    const invoice = `INV-MAIL-${Date.now()}`;
    const rebate = await submit(invoice);
    await expect.poll(() => mailsAbout('admin@partnerhub.test', invoice).length, { timeout: 20_000 }).toBe(1);
    expect(mailsAbout('admin@partnerhub.test', invoice)[0].raw).toContain('New rebate claim');

    for (const [body, word] of [
      [{ status: 'processing' }, 'processing'],
      [{ status: 'approved', rebate_amount: 40, notes: 'Approved after review' }, 'approved'],
    ] as const) {
      const reviewed = await as(t.app, admin)({ method: 'PATCH', url: `/api/rebates/admin/${rebate.id}/status`, payload: body });
      expect(reviewed.statusCode, reviewed.body).toBe(200);
      await expect.poll(() => mailsAbout('partner@partnerhub.test', `Rebate ${invoice} ${word}`).length, { timeout: 20_000 }).toBe(1);
    }
    expect(mailsAbout('partner@partnerhub.test', `Rebate ${invoice} approved`)[0].raw).toContain('$40.00');
    // In the portal too, linking to the History tab.
    const inApp = (await as(t.app, partner)({ method: 'GET', url: '/api/notifications?limit=50' })).json().data.notifications as Array<{
      title: string;
      link: string;
    }>;
    expect(
      inApp
        .filter((n) => n.title.startsWith(`Rebate ${invoice}`))
        .map((n) => [n.title, n.link])
        .sort(),
    ).toEqual([
      [`Rebate ${invoice} approved`, '/rebates?tab=history'],
      [`Rebate ${invoice} processing`, '/rebates?tab=history'],
    ]);
    // Nobody else's mailbox hears of it.
    expect(received.filter((m) => m.raw.includes(invoice) && !m.to.includes('partner@partnerhub.test') && !m.to.includes('admin@partnerhub.test'))).toEqual([]);
  }, 60_000);
});
