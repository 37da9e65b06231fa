import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoUserId } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/** Each invitation is an e-mail: an organisation may send INVITATIONS_PER_ORGANISATION_PER_HOUR of them an hour. */
let t: TestPortal;
let admin: Session;
let partner: Session;
let distributor: Session;
beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'], env: { INVITATIONS_PER_ORGANISATION_PER_HOUR: '3' } });
  [admin, partner, distributor] = await Promise.all([
    login(t.app, 'admin@partnerhub.test'),
    login(t.app, 'partner@partnerhub.test'),
    login(t.app, 'distributor@partnerhub.test'),
  ]);
});
afterAll(() => t?.close());

const invitee = (overrides: Record<string, unknown> = {}) => ({
  full_name: 'Invited Person',
  email: `invited.${Math.random().toString(36).slice(2, 10)}@example.test`,
  invite: true,
  permissions: ['projects_read'],
  ...overrides,
});
const invite = (session: Session, team: 'partner' | 'distributor', body: Record<string, unknown> = invitee()) =>
  as(t.app, session)({ method: 'POST', url: `/api/${team}/management/sub-users`, payload: body });

describe('invitations per organisation', () => {
  it('answers 429 with a clear message once the organisation has sent its invitations for the hour', async () => {
    const sent = await Promise.all([invite(partner, 'partner'), invite(partner, 'partner'), invite(partner, 'partner')]);
    expect(sent.map((response) => response.statusCode)).toEqual([201, 201, 201]);
    const refused = await invite(partner, 'partner');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(refused.json().message).toMatch(
      /^Your organisation has sent 3 invitations in the last hour, the most allowed\. Please wait \d+ minutes? and try again\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    // An administrator inviting on the organisation's behalf sends its e-mails too.
    expect((await invite(admin, 'partner', invitee({ parentUserId: demoUserId('partner@partnerhub.test') }))).statusCode).toBe(429);
    // Nothing was written for the refused invitations.
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM read.users WHERE email LIKE 'invited.%@example.test'`);
    expect(rows[0].n).toBe(3);
  });

  it('leaves members added with a password, and other organisations, alone', async () => {
    expect((await invite(partner, 'partner', invitee({ invite: false, password: 'Secret123' }))).statusCode).toBe(201);
    const [grantable] = (await as(t.app, distributor)({ method: 'GET', url: '/api/permissions' })).json().data as Array<{ key: string }>;
    expect((await invite(distributor, 'distributor', invitee({ permissions: [grantable.key] }))).statusCode).toBe(201);
  });
});
