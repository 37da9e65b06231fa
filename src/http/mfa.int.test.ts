import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { totpCodeAt } from '../plugins/secondFactor';

const CHALLENGE_TTL_SECONDS = 6;

let t: TestPortal;
beforeAll(async () => {
  t = await startTestPortal({
    processes: ['api', 'projector'],
    env: { LOGIN_FAILURES_PER_EMAIL: '3', MFA_CHALLENGE_TTL_SECONDS: String(CHALLENGE_TTL_SECONDS) },
  });
});
afterAll(() => t?.close());

const post = (url: string, payload: unknown, session?: Session) => as(t.app, session)({ method: 'POST', url, payload: payload as object });
const password = (email: string) => post('/api/auth/login', { email, password: DEMO_PASSWORD });
const secretOf = (uri: string) => new URL(uri).searchParams.get('secret')!;

/** Sets up an authenticator app for a signed-in person; answers its secret and recovery codes. */
async function enrolTotp(session: Session): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await post('/api/auth/mfa/totp/enrol', {}, session);
  expect(started.statusCode).toBe(200);
  const secret = secretOf(started.json().data.otpauth_uri);
  const confirmed = await post('/api/auth/mfa/totp/confirm', { code: totpCodeAt(secret, Date.now()) }, session);
  expect(confirmed.statusCode).toBe(200);
  return { secret, recoveryCodes: confirmed.json().data.recovery_codes };
}

describe('authenticator app (TOTP)', () => {
  let partner: Session;
  let secret: string;
  let recoveryCodes: string[];

  beforeAll(async () => {
    partner = await login(t.app, 'partner@partnerhub.test');
  });

  it('enrolment answers the otpauth:// URI and a QR image, and is confirmed with a current code only', async () => {
    const before = await as(t.app, partner)({ method: 'GET', url: '/api/auth/mfa' });
    expect(before.json().data).toEqual({ totp: null, recovery_codes_left: 0, passkeys: [], required: false });

    const started = await post('/api/auth/mfa/totp/enrol', {}, partner);
    expect(started.statusCode).toBe(200);
    const { otpauth_uri, qr_image, secret: shown } = started.json().data;
    expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/PartnerHub:partner%40partnerhub\.test\?/);
    expect(qr_image).toMatch(/^data:image\/png;base64,/);
    secret = secretOf(otpauth_uri);
    expect(shown).toBe(secret);

    const wrong = await post('/api/auth/mfa/totp/confirm', { code: totpCodeAt(secret, Date.now() - 5 * 60_000) }, partner);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('INVALID_SECOND_FACTOR');

    const confirmed = await post('/api/auth/mfa/totp/confirm', { code: totpCodeAt(secret, Date.now()) }, partner);
    expect(confirmed.statusCode).toBe(200);
    recoveryCodes = confirmed.json().data.recovery_codes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(confirmed.json().accessToken).toBeUndefined();

    const after = await as(t.app, partner)({ method: 'GET', url: '/api/auth/mfa' });
    expect(after.json().data).toMatchObject({ totp: { name: 'Authenticator app' }, recovery_codes_left: 10 });
    const again = await post('/api/auth/mfa/totp/enrol', {}, partner);
    expect(again.statusCode).toBe(409);
  });

  it('keeps the seed and the recovery codes out of the event log; the codes are stored hashed', async () => {
    const { rows } = await t.db.pool.query<{ type: string; data: Record<string, unknown> }>(
      `SELECT type, data FROM events WHERE type IN ('TotpEnrolled.v1', 'RecoveryCodesIssued.v1')`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) {
      expect(row.data).not.toHaveProperty('secret');
      expect(row.data).not.toHaveProperty('codeHashes');
      expect(JSON.stringify(row.data)).not.toContain(secret);
    }
    const { rows: stored } = await t.db.pool.query<{ code_hash: string }>('SELECT code_hash FROM secret.recovery_codes WHERE user_id = $1', [partner.user.id]);
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(row.code_hash).toMatch(/^\$argon2id\$/);
  });

  it('sign-in answers mfa_required with a challenge and no tokens; a code from the app completes it', async () => {
    const first = await password('partner@partnerhub.test');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ mfa_required: true, enrolment_required: false, methods: ['totp', 'recovery_code'] });
    expect(body.accessToken).toBeUndefined();
    expect(body.refreshToken).toBeUndefined();

    const wrong = await post('/api/auth/mfa/challenge', { challenge: body.challenge, code: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('INVALID_SECOND_FACTOR');

    // The next step's code: the current one was spent confirming the enrolment.
    const code = totpCodeAt(secret, Date.now() + 30_000);
    const answered = await post('/api/auth/mfa/challenge', { challenge: body.challenge, code });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({ success: true, user: { email: 'partner@partnerhub.test' } });
    const me = await as(t.app, answered.json())({ method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(200);

    // Neither the challenge nor the code works twice.
    const replayed = await post('/api/auth/mfa/challenge', { challenge: body.challenge, code });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().error.code).toBe('MFA_CHALLENGE_EXPIRED');
    const second = (await password('partner@partnerhub.test')).json();
    const reused = await post('/api/auth/mfa/challenge', { challenge: second.challenge, code });
    expect(reused.statusCode).toBe(401);
  });

  it('a recovery code works once; used twice it is refused', async () => {
    const code = recoveryCodes[3];
    const first = (await password('partner@partnerhub.test')).json();
    const used = await post('/api/auth/mfa/challenge', { challenge: first.challenge, recovery_code: code.toLowerCase() });
    expect(used.statusCode).toBe(200);
    expect(used.json().accessToken).toEqual(expect.any(String));

    const second = (await password('partner@partnerhub.test')).json();
    const again = await post('/api/auth/mfa/challenge', { challenge: second.challenge, recovery_code: code });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe('INVALID_SECOND_FACTOR');
    const view = await as(t.app, used.json())({ method: 'GET', url: '/api/auth/mfa' });
    expect(view.json().data.recovery_codes_left).toBe(9);
  });

  it('a challenge expires', async () => {
    const first = (await password('partner@partnerhub.test')).json();
    expect(first.expires_in).toBe(CHALLENGE_TTL_SECONDS);
    await new Promise((resolve) => setTimeout(resolve, (CHALLENGE_TTL_SECONDS + 1) * 1000));
    const late = await post('/api/auth/mfa/challenge', { challenge: first.challenge, code: totpCodeAt(secret, Date.now()) });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({
      success: false,
      error: { code: 'MFA_CHALLENGE_EXPIRED', message: 'Your sign-in has expired. Please sign in again with your password.' },
    });
  }, 20_000);

  it('wrong second factors are throttled like wrong passwords, and audited', async () => {
    const first = (await password('partner@partnerhub.test')).json();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await post('/api/auth/mfa/challenge', { challenge: first.challenge, code: '111111' })).statusCode);
    // Three free failures, then each failure blocks the source for a while.
    expect(statuses.slice(0, 4)).toEqual([401, 401, 401, 401]);
    expect(statuses.slice(4)).toContain(429);
    // The same throttle as the password: this account from this address now waits there too.
    const blockedPassword = await password('partner@partnerhub.test');
    expect(blockedPassword.statusCode).toBe(429);
    const { rows } = await t.db.pool.query(`SELECT 1 FROM events WHERE type = 'SignInFailed.v1' AND data->>'reason' = 'second_factor_failed'`);
    expect(rows.length).toBeGreaterThanOrEqual(4);
  });
});

describe('a second factor required by the security policy', () => {
  let admin: Session;
  beforeAll(async () => {
    admin = await login(t.app, 'admin@partnerhub.test');
  });

  it('only administrators change the policy, and an administrator without a factor is sent to enrol after the password', async () => {
    const partner = await login(t.app, 'distributor@partnerhub.test');
    const refused = await as(t.app, partner)({ method: 'PUT', url: '/api/settings/security', payload: { mfa_required_for: 'administrators' } });
    expect(refused.statusCode).toBe(403);
    const saved = await as(t.app, admin)({ method: 'PUT', url: '/api/settings/security', payload: { mfa_required_for: 'administrators' } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toEqual({ mfa_required_for: 'administrators', sso_required_organisations: [] });

    const first = await password('admin@partnerhub.test');
    expect(first.json()).toMatchObject({ mfa_required: true, enrolment_required: true, methods: [] });
    expect(first.json().accessToken).toBeUndefined();
    const { challenge } = first.json();
    // Nothing to answer with yet.
    const early = await post('/api/auth/mfa/challenge', { challenge, code: '123456' });
    expect(early.statusCode).toBe(400);
    expect(early.json().error.code).toBe('MFA_ENROLMENT_REQUIRED');

    const started = await post('/api/auth/mfa/totp/enrol', { challenge });
    expect(started.statusCode).toBe(200);
    const secret = secretOf(started.json().data.otpauth_uri);
    const confirmed = await post('/api/auth/mfa/totp/confirm', { challenge, code: totpCodeAt(secret, Date.now()) });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ success: true, user: { email: 'admin@partnerhub.test' }, data: { recovery_codes: expect.any(Array) } });
    expect(confirmed.json().accessToken).toEqual(expect.any(String));

    // A partner is not concerned by an administrators' policy.
    expect((await password('manufacturer@partnerhub.test')).json().accessToken).toEqual(expect.any(String));

    // The last factor of someone who must have one cannot be removed.
    const session = confirmed.json();
    const factors = (await as(t.app, session)({ method: 'GET', url: '/api/auth/mfa' })).json().data;
    expect(factors.required).toBe(true);
    const removal = await as(t.app, session)({ method: 'DELETE', url: `/api/auth/mfa/factors/${factors.totp.id}` });
    expect(removal.statusCode).toBe(409);

    await as(t.app, session)({ method: 'PUT', url: '/api/settings/security', payload: { mfa_required_for: 'nobody' } });
  });

  it('an administrator resets a person’s factors with a reason (audited); the person then signs in with the password alone', async () => {
    const support = await login(t.app, 'support@partnerhub.test');
    await enrolTotp(support);
    expect((await password('support@partnerhub.test')).json().mfa_required).toBe(true);

    const adminSession = await signInThroughFactor('admin@partnerhub.test');
    const withoutReason = await post(`/api/users/${support.user.id}/mfa/reset`, { reason: ' ' }, adminSession);
    expect(withoutReason.statusCode).toBe(400);
    const byPartner = await post(`/api/users/${support.user.id}/mfa/reset`, { reason: 'Lost phone' }, await login(t.app, 'distributor@partnerhub.test'));
    expect(byPartner.statusCode).toBe(403);
    const reset = await post(`/api/users/${support.user.id}/mfa/reset`, { reason: 'Lost phone; identity checked by call' }, adminSession);
    expect(reset.statusCode).toBe(200);

    expect((await password('support@partnerhub.test')).json().accessToken).toEqual(expect.any(String));
    const { rows } = await t.db.pool.query(`SELECT data, metadata FROM events WHERE type = 'FactorsReset.v1' AND data->>'userId' = $1`, [support.user.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0].data.reason).toBe('Lost phone; identity checked by call');
    expect(rows[0].metadata.actorId).toBe(adminSession.user.id);
  });
});

/**
 * The admin enrolled in the test above signs in through the app's code. A step's code is spent once used, and
 * earlier tests spent some of the steps around now (how many depends on how fast they ran): the first of the
 * next, current and previous steps' codes not yet spent gets through, each on a fresh challenge.
 */
async function signInThroughFactor(email: string): Promise<Session> {
  const first = (await password(email)).json();
  if (!first.mfa_required) return first;
  const { rows } = await t.db.pool.query<{ secret: string }>(
    `SELECT f.secret FROM secret.user_factors f JOIN read.users u ON u.id = f.user_id WHERE u.email = $1 AND f.kind = 'totp'`,
    [email],
  );
  let challenge = first.challenge;
  for (const offset of [30_000, 0, -30_000]) {
    const answered = await post('/api/auth/mfa/challenge', { challenge, code: totpCodeAt(rows[0].secret, Date.now() + offset) });
    if (answered.statusCode === 200) return answered.json();
    challenge = (await password(email)).json().challenge;
  }
  throw new Error(`${email} could not get through the second factor with any current code`);
}
