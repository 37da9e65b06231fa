/**
 * The role dashboards in a real browser: each demo role lands on its dashboard and sees figures and
 * a chart; an administrator opens a dashboard from the landing page's role cards and picks a partner
 * in the selector; quick actions follow the partner's permissions; a failed call shows the red box.
 * Figures are compared with the API's answers, never with fixed demo numbers.
 */

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, demoEmail, DEMO_PASSWORD, PHONE, signIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' });
const { withPage } = e2e;

async function api(email: string, password = DEMO_PASSWORD) {
  const login = await fetch(`${e2e.portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { accessToken, user } = (await login.json()) as { accessToken: string; user: { id: string } };
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${e2e.portal.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, json: (await response.json()) as any };
  };
  return Object.assign(call, { userId: user.id });
}

/** Figures drawn: stat cards with values and at least one chart's svg. */
async function expectFiguresAndChart(page: Page) {
  await page.getByTestId('dashboard-figures').waitFor({ timeout: 20_000 });
  const values = await page.getByTestId('stat-card').locator('p.MuiTypography-h5').allTextContents();
  expect(values.length).toBeGreaterThanOrEqual(4);
  expect(values.every((v) => v.trim() !== '')).toBe(true);
  await page.locator('[data-testid="chart-card"] svg').first().waitFor();
  expect(await page.locator('[data-testid="chart-card"] svg').count()).toBeGreaterThan(0);
}

const LANDINGS = [
  ['partner', '/partnerdashboard', 'Partner Dashboard'],
  ['distributor', '/distributordashboard', 'Distributor Dashboard'],
  ['manufacturer', '/manufacturerdashboard', 'Manufacturer Dashboard'],
  ['support', '/support-dashboard', 'Support Dashboard'],
] as const;

describe('each demo role lands on its dashboard', () => {
  for (const [name, path, title] of LANDINGS) {
    it(`${name}: ${title} with figures, a chart, quick actions and recent activity`, async () => {
      await withPage(DESKTOP, async (page, errors) => {
        await signIn(page, demoEmail(name));
        await page.waitForURL((url) => url.pathname === path, { timeout: 20_000 });
        await page.getByRole('heading', { level: 1, name: title }).waitFor();
        await page.getByText(/^Welcome back/).waitFor();
        await expectFiguresAndChart(page);
        await page.getByRole('heading', { name: 'Quick Actions' }).waitFor();
        await page.getByRole('heading', { name: 'Recent Activity' }).waitFor();
        // Only administrators choose a user.
        expect(await page.getByPlaceholder(/^Select /).count()).toBe(0);
        expect(await page.title()).toContain(title);
        expect(errors).toEqual([]);
      });
    });
  }

  it('a phone shows the same figures and charts without sideways scrolling', async () => {
    await withPage(PHONE, async (page) => {
      await signIn(page, demoEmail('partner'));
      await page.waitForURL((url) => url.pathname === '/partnerdashboard', { timeout: 20_000 });
      await expectFiguresAndChart(page);
      const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth + 1);
    });
  });
});

describe('administrator', () => {
  it("opens a dashboard from the landing page's role cards and picks a partner to see that partner's figures", async () => {
    const admin = await api(demoEmail('admin'));
    const partner = await api(demoEmail('partner'));
    const theirs = (await admin('GET', `/api/dashboard/stats?user_id=${partner.userId}`)).json.data.data;
    await withPage(DESKTOP, async (page) => {
      await signIn(page, demoEmail('admin'));
      await page.getByTestId('role-cards').waitFor({ timeout: 20_000 });
      await page
        .getByTestId('role-cards')
        .getByRole('link', { name: /Partner/ })
        .click();
      await page.waitForURL((url) => url.pathname === '/partnerdashboard');
      await expectFiguresAndChart(page);

      const selector = page.getByLabel('Partner', { exact: true });
      expect(await selector.getAttribute('placeholder')).toBe('Select Partner');
      // Case does not matter, and the company name is searched too.
      await selector.fill('NORTHWIND');
      await page.getByRole('option', { name: /Priya Shah/ }).click();
      await page.getByText('Showing the figures of Priya Shah').waitFor();
      await expectFiguresAndChart(page);
      const card = (id: string) => String(theirs.kpis.find((k: { id: string }) => k.id === id).count);
      await expect.poll(() => page.getByLabel('Orders This Month').textContent()).toBe(card('partner.orders'));
      await expect.poll(() => page.getByLabel('Open Tickets').textContent()).toBe(card('partner.openTickets'));

      await selector.fill('no such partner anywhere');
      await page.getByText('No Partners found matching the search').waitFor();
    });
  });

  it('sees the admin dashboard with its own figures', async () => {
    await withPage(DESKTOP, async (page) => {
      await signIn(page, demoEmail('admin'));
      await page.getByTestId('role-cards').waitFor({ timeout: 20_000 });
      await page.goto('/administratordashboard');
      await page.getByRole('heading', { level: 1, name: 'Admin Dashboard' }).waitFor();
      await expectFiguresAndChart(page);
      await page.getByLabel('Pending Approvals').waitFor();
      expect(await page.getByLabel('Administrator', { exact: true }).getAttribute('placeholder')).toBe('Select Administrator');
    });
  });
});

describe('quick actions', () => {
  it("follow the partner's permissions; Team Management is always there", async () => {
    const admin = await api(demoEmail('admin'));
    const email = `dash.e2e.${Date.now()}@example.test`;
    const password = 'Dashboard2026';
    const registered = await fetch(`${e2e.portal.url}/api/user/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ full_name: 'Quinn Harper', email, password, company_name: 'Harper Networks' }),
    });
    const id = ((await registered.json()) as any).data.id;
    const activated = await admin('PUT', `/api/users/${id}`, {
      full_name: 'Quinn Harper',
      email,
      role: 'partner',
      is_active: true,
      permissions: ['Orders.Browse'],
    });
    expect(activated.status).toBe(200);

    await withPage(DESKTOP, async (page) => {
      await signIn(page, email, password);
      await page.waitForURL((url) => url.pathname === '/partnerdashboard', { timeout: 20_000 });
      const actions = page.getByTestId('quick-actions');
      await actions.waitFor();
      expect(await actions.locator('[data-action]').evaluateAll((links) => links.map((l) => l.getAttribute('data-action')))).toEqual([
        'place-order',
        'team-management',
      ]);
    });
    await withPage(DESKTOP, async (page) => {
      await signIn(page, demoEmail('partner'));
      await page.waitForURL((url) => url.pathname === '/partnerdashboard', { timeout: 20_000 });
      const actions = page.getByTestId('quick-actions');
      await actions.waitFor();
      expect(await actions.locator('[data-action]').evaluateAll((links) => links.map((l) => l.getAttribute('data-action')))).toEqual([
        'new-project',
        'place-order',
        'check-rebates',
        'team-management',
      ]);
      await actions.getByRole('link', { name: /Place Order/ }).click();
      await page.waitForURL((url) => url.pathname === '/catalogue');
    });
  });
});

describe('failure', () => {
  it("shows 'Error:' and the server's message in a red box", async () => {
    await withPage(DESKTOP, async (page) => {
      await signIn(page, demoEmail('manufacturer'));
      await page.waitForURL((url) => url.pathname === '/manufacturerdashboard', { timeout: 20_000 });
      await page.getByTestId('dashboard-figures').waitFor();
      await page.route('**/api/dashboard/manufacturer/stats*', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({
            success: false,
            message: 'The figures are being rebuilt.',
            error: { code: 'UNAVAILABLE', message: 'The figures are being rebuilt.' },
          }),
        }),
      );
      await page.reload();
      const alert = page.getByRole('alert').filter({ hasText: 'Error: ' });
      await alert.waitFor({ timeout: 20_000 });
      expect(await alert.textContent()).toContain('Error: The figures are being rebuilt.');
    });
  });
});
