/**
 * API keys in a real browser: a partner's owner creates a key for its CRM with scopes and an expiry,
 * sees the secret once, the CRM registers a deal and reads its orders with it, the page shows it as
 * used; the owner rotates it with an overlap (both secrets work), sorts, filters and exports the list,
 * and revokes it (refused at once). A distributor on a phone cannot choose scopes beyond its role; a new
 * organisation sees the empty state; a failed load offers Retry. An administrator manages vendor keys
 * with scopes and rotation in System Settings. Screenshots of both widths go to API_KEY_SCREENSHOTS
 * (default /tmp/api-keys-screens).
 */

import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DESKTOP, PHONE, signIn, signedIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' });
const { withPage } = e2e;
const SHOTS = process.env.API_KEY_SCREENSHOTS ?? '/tmp/api-keys-screens';

async function shoot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.waitForLoadState('networkidle').catch(() => {});
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
}

const withKey = (key: string) => ({ 'x-api-key': key });
const stamp = Date.now().toString(36);

async function createKey(page: Page, name: string, scopes: string[]): Promise<string> {
  await page.getByRole('textbox', { name: /^Name/ }).fill(name);
  for (const scope of scopes) await page.getByRole('checkbox', { name: new RegExp(`${scope}$`) }).check();
  await page.getByRole('button', { name: 'Create API key' }).click();
  const secret = (await page.getByTestId('api-key-secret').textContent())!.trim();
  expect(secret).toMatch(/^phk_[\w-]{40}$/);
  return secret;
}

async function registerDeal(key: string, title: string) {
  const form = new FormData();
  form.append('title', title);
  form.append('end_user_customer_name', `Customer ${title}`);
  form.append('value', '42000');
  return fetch(`${e2e.portal.url}/api/projects`, { method: 'POST', headers: withKey(key), body: form });
}

describe('organisation API keys', () => {
  it(
    "a partner's owner makes a key for its CRM, which registers a deal and reads its orders; rotates it with an overlap, sorts, filters, exports and revokes",
    { timeout: 180_000 },
    async () => {
      await withPage(DESKTOP, async (page, consoleErrors) => {
        await signedIn(page, 'partner');
        await page.getByRole('menuitem', { name: 'API Keys' }).click();
        await page.waitForURL('**/api-keys');
        // The seeded key of the organisation.
        await page.getByTestId('api-key-row').filter({ hasText: 'Northwind CRM' }).waitFor();
        await shoot(page, 'organisation-keys');

        await page.getByLabel('Expires on').fill(new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10));
        const name = `CRM sync ${stamp}`;
        const secret = await createKey(page, name, ['projects:write', 'projects:read', 'orders:read']);
        await shoot(page, 'organisation-key-created');
        await page.getByRole('button', { name: 'Done' }).click();
        const row = page.getByTestId('api-key-row').filter({ hasText: name });
        await row.getByText('Active').waitFor();
        await row.getByText('Never used').waitFor();
        expect(await page.locator('body').textContent()).not.toContain(secret);

        // The CRM: a deal registered for the organisation, its orders read, nothing beyond its scopes.
        const deal = await registerDeal(secret, `CRM deal ${stamp}`);
        expect(deal.status).toBe(201);
        expect(((await deal.json()) as { data: { company_name: string } }).data.company_name).toBe('Northwind Networks');
        const orders = await fetch(`${e2e.portal.url}/api/orders?limit=100`, { headers: withKey(secret) });
        expect(orders.status).toBe(200);
        const organisations = new Set(
          ((await orders.json()) as { data: { orders: Array<{ organisation_id: string }> } }).data.orders.map((o) => o.organisation_id),
        );
        expect(organisations.size).toBe(1);
        expect((await fetch(`${e2e.portal.url}/api/tickets`, { headers: withKey(secret) })).status).toBe(403);

        await page.reload();
        await expect
          .poll(async () => (await page.getByTestId('api-key-row').filter({ hasText: name }).textContent()) ?? '', { timeout: 10_000 })
          .not.toContain('Never used');

        // Rotation with a day's overlap: both secrets work.
        await row.getByRole('button', { name: 'Rotate' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
        const rotated = (await page.getByTestId('api-key-secret').textContent())!.trim();
        await page.getByText(/The previous key keeps working until/).waitFor();
        await shoot(page, 'organisation-key-rotated');
        await page.getByRole('button', { name: 'Done' }).click();
        await row.getByText(/Previous key until/).waitFor();
        for (const key of [secret, rotated]) expect((await fetch(`${e2e.portal.url}/api/orders`, { headers: withKey(key) })).status).toBe(200);

        // Sorting by name, both ways.
        const names = async () => (await page.getByTestId('api-key-row').allTextContents()).map((text) => text.slice(0, 8));
        await page.getByRole('button', { name: 'Name' }).click();
        const ascending = await names();
        await page.getByRole('button', { name: 'Name' }).click();
        expect(await names()).toEqual([...ascending].reverse());

        // CSV of what is shown.
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
        const csv = await readFile((await download.path())!, 'utf8');
        expect(csv.split('\n')[0]).toBe('name,prefix,scopes,status,created_at,created_by,expires_at,last_used_at,rate_limit_per_minute,revoked_at');
        expect(csv).toContain(name);
        expect(csv).not.toContain(secret);

        // Revoked: refused at once; the status filter shows it among the revoked only.
        await row.getByRole('button', { name: 'Revoke' }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
        await row.getByText(/^Revoked/).waitFor();
        expect((await fetch(`${e2e.portal.url}/api/orders`, { headers: withKey(rotated) })).status).toBe(401);
        await page.getByRole('combobox', { name: 'Status' }).click();
        await page.getByRole('option', { name: 'Revoked' }).click();
        await expect
          .poll(async () => {
            const texts = await page.getByTestId('api-key-row').allTextContents();
            return texts.length > 0 && texts.every((text) => text.includes('Revoked'));
          })
          .toBe(true);
        await page.getByRole('combobox', { name: 'Status' }).click();
        await page.getByRole('option', { name: 'Expired' }).click();
        await page.getByText('No API keys match the search and status chosen.').waitFor();
        expect(consoleErrors).toEqual([]);
      });
    },
  );

  it('on a phone, a distributor cannot choose scopes beyond its role, and its keys read as cards', { timeout: 120_000 }, async () => {
    await withPage(PHONE, async (page, consoleErrors) => {
      await signedIn(page, 'distributor');
      await page.goto('/api-keys');
      await page.getByTestId('api-key-row').filter({ hasText: 'Atlas ERP' }).waitFor();
      // Leads are not the distributor's: the scope is offered but cannot be chosen.
      expect(await page.getByRole('checkbox', { name: /leads:write$/ }).isDisabled()).toBe(true);
      expect(await page.getByRole('checkbox', { name: /orders:write$/ }).isDisabled()).toBe(false);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await shoot(page, 'organisation-keys');
      const secret = await createKey(page, `ERP ${stamp}`, ['orders:read', 'catalogue:read']);
      await shoot(page, 'organisation-key-created');
      await page.getByRole('button', { name: 'Done' }).click();
      expect((await fetch(`${e2e.portal.url}/api/products`, { headers: withKey(secret) })).status).toBe(200);
      expect(consoleErrors).toEqual([]);
    });
  });

  it('a new organisation sees the empty state; a failed load offers Retry; team members are kept out', { timeout: 120_000 }, async () => {
    const login = await fetch(`${e2e.portal.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@partnerhub.test', password: DEMO_PASSWORD }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const email = `fresh.${stamp}@example.test`;
    const created = await fetch(`${e2e.portal.url}/api/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        full_name: 'Freya Fresh',
        email,
        password: 'Secret123',
        role: 'distributor',
        is_active: true,
        company_name: `Fresh Supply ${stamp}`,
        permissions: ['Orders.Read', 'Orders.Browse'],
      }),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    await withPage(PHONE, async (page) => {
      await signIn(page, email, 'Secret123');
      await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
      await page.route('**/api/organisation/api-keys?*', (route) => route.abort());
      await page.goto('/api-keys');
      await page.getByText('The API keys could not be loaded.').waitFor();
      await shoot(page, 'organisation-keys-error');
      await page.unroute('**/api/organisation/api-keys?*');
      await page.getByRole('button', { name: 'Retry' }).click();
      await page.getByTestId('api-keys-empty').waitFor();
      await shoot(page, 'organisation-keys-empty');
    });
    await withPage(DESKTOP, async (page) => {
      await signIn(page, email, 'Secret123');
      await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
      await page.goto('/api-keys');
      await page.getByTestId('api-keys-empty').waitFor();
      await shoot(page, 'organisation-keys-empty');
    });
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'partner.user');
      await page.goto('/api-keys');
      await page.getByText('Access restricted.').waitFor();
      expect(await page.getByRole('menuitem', { name: 'API Keys' }).count()).toBe(0);
    });
  });
});

describe('vendor API keys in System Settings', () => {
  it('an administrator creates a scoped key with an expiry, rotates it without overlap and revokes it', { timeout: 120_000 }, async () => {
    await withPage(DESKTOP, async (page, consoleErrors) => {
      await signedIn(page, 'admin');
      await page.goto('/adminpanel?tab=settings&section=api-keys');
      await page.getByTestId('api-key-row').filter({ hasText: 'Finance BI' }).waitFor();
      // Deal writes are the organisations' own: not offered to vendor keys.
      expect(await page.getByRole('checkbox', { name: /projects:write$/ }).count()).toBe(0);
      await shoot(page, 'vendor-keys');
      const name = `Rebates BI ${stamp}`;
      const secret = await createKey(page, name, ['rebates:read']);
      await page.getByRole('button', { name: 'Done' }).click();
      expect((await fetch(`${e2e.portal.url}/api/rebates`, { headers: withKey(secret) })).status).toBe(200);
      expect((await fetch(`${e2e.portal.url}/api/orders`, { headers: withKey(secret) })).status).toBe(403);
      const row = page.getByTestId('api-key-row').filter({ hasText: name });
      await row.getByRole('button', { name: 'Rotate' }).click();
      await page.getByLabel('Overlap').click();
      await page.getByRole('option', { name: /None/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
      const rotated = (await page.getByTestId('api-key-secret').textContent())!.trim();
      await page.getByText('The previous key no longer works.').waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
      expect((await fetch(`${e2e.portal.url}/api/rebates`, { headers: withKey(secret) })).status).toBe(401);
      expect((await fetch(`${e2e.portal.url}/api/rebates`, { headers: withKey(rotated) })).status).toBe(200);
      await row.getByRole('button', { name: 'Revoke' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await row.getByText(/^Revoked/).waitFor();
      expect((await fetch(`${e2e.portal.url}/api/rebates`, { headers: withKey(rotated) })).status).toBe(401);
      expect(consoleErrors).toEqual([]);
    });
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/adminpanel?tab=settings&section=api-keys');
      await page.getByTestId('api-key-row').filter({ hasText: 'Finance BI' }).waitFor();
      await shoot(page, 'vendor-keys');
    });
  });
});
