/**
 * Single sign-on and second factors in a real browser: sign in through a real OpenID provider's login
 * page and land on the role's dashboard; set up an authenticator app on the Security page and answer
 * the challenge after the password; add a passkey with Chromium's virtual authenticator and sign in
 * with it; the administrators' Security & Sign-in settings. Screenshots at both widths go to
 * IDENTITY_SCREENSHOTS (default /tmp/identity-screens).
 */

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { landingRouteFor } from '../../domain/access';
import { totpCodeAt } from '../../src/plugins/secondFactor';
import { startTestIdentityProvider, type TestIdentityProvider } from '../../src/testing/oidcProvider';
import { DEMO_PASSWORD, DESKTOP, PHONE, signIn, signedIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' });
const { withPage } = e2e;
const SHOTS = process.env.IDENTITY_SCREENSHOTS ?? '/tmp/identity-screens';

async function shoot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.waitForLoadState('networkidle').catch(() => {});
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
}

async function api(email: string) {
  const login = await fetch(`${e2e.portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  return async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${e2e.portal.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, json: (await response.json()) as any };
  };
}

/** No wider than the window: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

const signOutHere = (page: Page) =>
  page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

let idp: TestIdentityProvider;
beforeAll(async () => {
  idp = await startTestIdentityProvider({
    clients: [{ client_id: 'portal', client_secret: 'portal-secret-0123456789', redirect_uris: [`${e2e.portal.url}/api/auth/oidc/acme/callback`] }],
  });
  const admin = await api('admin@partnerhub.test');
  const partner = await api('partner@partnerhub.test');
  const partnerId = (await partner('GET', '/api/auth/me')).json.user.id;
  const created = await admin('POST', '/api/identity-providers', {
    slug: 'acme',
    name: 'Acme Identity',
    issuer: idp.issuer,
    client_id: 'portal',
    client_secret: 'portal-secret-0123456789',
    allowed_domains: ['acme.example'],
    organisation_id: partnerId,
    role: 'partner_user',
  });
  expect(created.status).toBe(201);
});
afterAll(() => idp?.close());

describe('single sign-on', () => {
  it('signs in through the provider’s login page and lands on the role’s dashboard', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      await withPage(viewport, async (page) => {
        await page.goto('/signin');
        const button = page.getByRole('link', { name: 'Sign in with Acme Identity' });
        await button.waitFor();
        await shoot(page, 'signin-with-provider');
        if (viewport === PHONE) await expectNoSidewaysScroll(page);
        await button.click();
        // The provider's own login page.
        await page.waitForURL((url) => url.origin === idp.issuer);
        await page.locator('input[name="login"]').fill(`sso.person.${viewport.width}@acme.example`);
        await page.locator('input[name="password"]').fill('anything');
        await page.locator('button[type="submit"]').click();
        await page.waitForURL((url) => url.pathname === landingRouteFor('partner_user'), { timeout: 20_000 });
        const user = await page.evaluate(() => JSON.stringify(localStorage));
        expect(user).toContain(`sso.person.${viewport.width}@acme.example`);
      });
    }
  });

  it('a disallowed domain is told why on the sign-in page', async () => {
    await withPage(DESKTOP, async (page) => {
      await page.goto('/signin');
      await page.getByRole('link', { name: 'Sign in with Acme Identity' }).click();
      await page.waitForURL((url) => url.origin === idp.issuer);
      await page.locator('input[name="login"]').fill('someone@elsewhere.example');
      await page.locator('input[name="password"]').fill('anything');
      await page.locator('button[type="submit"]').click();
      await expect
        .poll(
          () =>
            page
              .getByTestId('sso-error')
              .textContent()
              .catch(() => ''),
          { timeout: 15_000 },
        )
        .toContain('People of elsewhere.example cannot sign in');
    });
  });
});

describe('second factor', () => {
  it('sets up an authenticator app on the Security page, keeps the recovery codes, and is asked for a code after the password', async () => {
    await withPage(DESKTOP, async (page, consoleErrors) => {
      await signedIn(page, 'distributor');
      await page.goto('/security');
      await page.getByRole('heading', { name: 'Security', level: 1 }).waitFor();
      await shoot(page, 'security-empty');
      await page.getByRole('button', { name: 'Set up authenticator app' }).click();
      const secret = (await page.getByTestId('totp-secret').textContent())!.replace(/\s/g, '');
      await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      await shoot(page, 'security-totp-qr');
      await page.getByLabel('Code from your authenticator app').fill(totpCodeAt(secret, Date.now()));
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByTestId('recovery-codes').waitFor();
      const codes = await page.getByTestId('recovery-code').allTextContents();
      expect(codes).toHaveLength(10);
      await shoot(page, 'security-recovery-codes');
      await page.getByRole('button', { name: 'I have saved my recovery codes' }).click();
      await expect.poll(() => page.getByTestId('recovery-codes-left').textContent()).toContain('10 of 10');

      await signOutHere(page);
      await signIn(page, 'distributor@partnerhub.test');
      await page.getByTestId('mfa-challenge').waitFor();
      await shoot(page, 'mfa-challenge');
      // A wrong code is refused on the page.
      await page.locator('input[name="code"]').fill('000000');
      await page.getByRole('button', { name: 'VERIFY' }).click();
      await expect.poll(() => page.getByTestId('mfa-error').textContent()).toContain('That code is not right');
      await page.locator('input[name="code"]').fill(totpCodeAt(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: 'VERIFY' }).click();
      await page.waitForURL((url) => url.pathname === landingRouteFor('distributor'), { timeout: 15_000 });

      // A recovery code instead of the app.
      await signOutHere(page);
      await signIn(page, 'distributor@partnerhub.test');
      await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await page.locator('input[name="recovery_code"]').fill(codes[0]);
      await page.getByRole('button', { name: 'VERIFY' }).click();
      await page.waitForURL((url) => url.pathname === landingRouteFor('distributor'), { timeout: 15_000 });
      expect(consoleErrors.filter((e) => !/401|Unauthorized/i.test(e))).toEqual([]);
    });
  });

  it('the challenge and the Security page at phone width', async () => {
    await withPage(PHONE, async (page) => {
      await signIn(page, 'distributor@partnerhub.test');
      await page.getByTestId('mfa-challenge').waitFor();
      await expectNoSidewaysScroll(page);
      await shoot(page, 'mfa-challenge');
    });
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'support');
      await page.goto('/security');
      await page.getByRole('button', { name: 'Set up authenticator app' }).click();
      await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
      await expectNoSidewaysScroll(page);
      await shoot(page, 'security-totp-qr');
    });
  });

  it('adds a passkey with a virtual authenticator and signs in with it', async () => {
    // WebAuthn needs a domain, not an IP address, as its relying party: the same portal as localhost.
    const localhost = e2e.portal.url.replace('127.0.0.1', 'localhost');
    await withPage(DESKTOP, async (page) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: {
          protocol: 'ctap2',
          transport: 'internal',
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      await page.goto(`${localhost}/signin`);
      await page.locator('input[name="email"]').fill('manufacturer@partnerhub.test');
      await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'SIGN IN' }).click();
      await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
      await page.goto(`${localhost}/security`);
      await page.getByLabel('Passkey name').fill('Test laptop');
      await page.getByRole('button', { name: 'Add a passkey' }).click();
      await page.getByTestId('passkey-list').getByText('Test laptop').waitFor({ timeout: 15_000 });
      await shoot(page, 'security-passkey');

      await signOutHere(page);
      await page.goto(`${localhost}/signin`);
      await page.locator('input[name="email"]').fill('manufacturer@partnerhub.test');
      await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'SIGN IN' }).click();
      await page.getByRole('button', { name: 'Use a passkey' }).click();
      await page.waitForURL((url) => url.pathname === landingRouteFor('manufacturer'), { timeout: 15_000 });
    });
  });
});

describe('administrators', () => {
  it('reset a person’s second factors from User Management, with a reason', async () => {
    const password = () =>
      fetch(`${e2e.portal.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'manufacturer@partnerhub.test', password: DEMO_PASSWORD }),
      }).then((response) => response.json() as Promise<{ mfa_required?: boolean; accessToken?: string }>);
    // The passkey test above gave the manufacturer a factor: the password alone does not sign in.
    expect((await password()).mfa_required).toBe(true);
    const { rows } = await e2e.portal.db.pool.query<{ full_name: string }>('SELECT full_name FROM read.users WHERE email = $1', [
      'manufacturer@partnerhub.test',
    ]);
    const name = rows[0].full_name;
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/adminpanel?tab=users');
      await page.getByTestId('user-row').first().waitFor();
      await page.getByPlaceholder('Search by name').fill(name);
      const row = page.getByTestId('user-row').filter({ hasText: name });
      await row.first().waitFor();
      await row
        .first()
        .getByRole('button', { name: `Reset second factors of ${name}` })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Reset second factors' });
      expect(await dialog.getByRole('button', { name: 'Reset' }).isDisabled()).toBe(true);
      await dialog.getByLabel(/Reason/).fill('Lost laptop; identity checked by phone');
      await dialog.getByRole('button', { name: 'Reset' }).click();
      await page.getByText('Second factors reset.', { exact: false }).waitFor();
    });
    expect((await password()).accessToken).toEqual(expect.any(String));
  });

  it('see the security policy and the identity providers in System Settings', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      await withPage(viewport, async (page, consoleErrors) => {
        await signedIn(page, 'admin');
        await page.goto('/adminpanel?tab=settings&section=security');
        await page.getByTestId('identity-provider-row').first().waitFor({ timeout: 15_000 });
        await expect.poll(() => page.getByTestId('identity-provider-row').first().textContent()).toContain('Acme Identity');
        await shoot(page, 'admin-security-settings');
        if (viewport === PHONE) await expectNoSidewaysScroll(page);
        await page.getByRole('button', { name: 'Remove Acme Identity' }).click();
        await page.getByRole('dialog', { name: 'Remove identity provider?' }).getByRole('button', { name: 'Cancel' }).click();
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        await page.getByRole('button', { name: 'Add provider' }).click();
        await page.getByRole('dialog').waitFor();
        await shoot(page, 'admin-provider-dialog');
        // The organisations new people may join are read a page at a time: no request is refused.
        expect(consoleErrors).toEqual([]);
      });
    }
  });
});
