import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';

/** Invitations by e-mail, through a real SMTP server: the link arrives, works once, and not after it expires. */
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

const VALIDITY_SECONDS = 4;
let t: TestPortal;
let partner: Session;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await startTestPortal({
    processes: ['api', 'projector', 'worker'],
    env: {
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      PUBLIC_URL: 'https://portal.example.test',
      INVITATION_VALIDITY_SECONDS: String(VALIDITY_SECONDS),
      JOB_BACKOFF_MS: '50',
    },
  });
  partner = await login(t.app, 'partner@partnerhub.test');
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** The invitation link of the e-mail sent to `address` (quoted-printable soft breaks undone). */
async function invitationLinkMailedTo(address: string): Promise<URL> {
  for (let i = 0; i < 300; i++) {
    const mail = received.find((m) => m.to.includes(address));
    if (mail) {
      const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const link = text.match(/https:\/\/portal\.example\.test\/team-invitation\?token=[\w.%-]+/)?.[0];
      if (!link) throw new Error(`no link in the e-mail: ${text}`);
      return new URL(link);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no e-mail reached ${address}`);
}

const invite = (email: string) =>
  as(
    t.app,
    partner,
  )({
    method: 'POST',
    url: '/api/partner/management/sub-users',
    payload: { full_name: 'Invited Colleague', email, permissions: ['projects_read'], invite: true },
  });
const accept = (token: string, password: string) => t.app.inject({ method: 'POST', url: '/api/team/invitations/accept', payload: { token, password } });

describe('an invitation e-mail', () => {
  it('arrives once with a link that sets the password once', { timeout: 60_000 }, async () => {
    const email = 'first.invited@northwind.test';
    expect((await invite(email)).statusCode).toBe(201);
    const link = await invitationLinkMailedTo(email);
    const mail = received.find((m) => m.to.includes(email))!;
    expect(mail.raw).toContain('You are invited to join the Northwind Networks team on PartnerHub');
    const token = link.searchParams.get('token')!;

    expect((await accept(token, 'Chosen2026')).statusCode).toBe(200);
    await login(t.app, email, 'Chosen2026');
    const second = await accept(token, 'Another2026');
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('This invitation has already been used. Sign in with the password you chose.');
    // The worker never mails the same invitation twice.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.filter((m) => m.to.includes(email) && m.raw.includes('You are invited to join'))).toHaveLength(1);
  });

  it('is refused once its link has expired', { timeout: 60_000 }, async () => {
    const email = 'late.invited@northwind.test';
    await invite(email);
    const token = (await invitationLinkMailedTo(email)).searchParams.get('token')!;
    await new Promise((resolve) => setTimeout(resolve, VALIDITY_SECONDS * 1000 + 200));
    const shown = await t.app.inject({ method: 'GET', url: `/api/team/invitation?token=${encodeURIComponent(token)}` });
    expect(shown.statusCode).toBe(409);
    const late = await accept(token, 'Chosen2026');
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({
      error: { code: 'INVITATION_EXPIRED' },
      message: 'This invitation link has expired. Ask your team administrator for a new one.',
    });
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'Chosen2026' } })).statusCode).toBe(401);
  });
});
