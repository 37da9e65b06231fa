/**
 * Figures that agree, in a real browser: a dashboard card opens its list filtered to exactly what it
 * counted, and the list shows the same number. And the Greenfield case: a second partner registering
 * "Greenfield General Hospital Inc." meets the first partner's "Greenfield General Hospital" and is
 * warned without being told who. Screenshots of the dashboards go to /tmp/kpi-screens.
 */

import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../../src/testing/portal';
import { DEMO_PASSWORD, DESKTOP, demoEmail, launchBrowser, openPage, PHONE, signIn } from './browser';

let portal: TestPortal;
let browser: Browser;
const SHOTS = '/tmp/kpi-screens';
mkdirSync(SHOTS, { recursive: true });

beforeAll(async () => {
  portal = await startTestPortal({ web: true, listen: true, env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function withPage<T>(viewport: { width: number; height: number }, email: string, work: (page: Page) => Promise<T>, password = DEMO_PASSWORD): Promise<T> {
  const { context, page } = await openPage(browser, portal.url, viewport);
  try {
    await signIn(page, email, password);
    await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
    return await work(page);
  } finally {
    await context.close();
  }
}

async function api(email: string, password = DEMO_PASSWORD) {
  const login = await fetch(`${portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  return async (method: string, path: string, body?: BodyInit, headers: Record<string, string> = {}) => {
    const response = await fetch(`${portal.url}${path}`, { method, headers: { authorization: `Bearer ${accessToken}`, ...headers }, body });
    return { status: response.status, json: (await response.json()) as any };
  };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('dashboard cards and their lists', () => {
  it("the partner's Active Projects card opens the projects it counted, and the numbers agree", async () => {
    const partner = await api(demoEmail('partner'));
    const cards = (await partner('GET', '/api/dashboard/stats')).json.data.data.kpis as Array<{ id: string; count: number; link: string }>;
    const active = cards.find((c) => c.id === 'partner.activeProjects')!;
    await withPage(DESKTOP, demoEmail('partner'), async (page) => {
      await page.goto('/partnerdashboard');
      await page.getByTestId('kpi-cards').waitFor({ timeout: 20_000 });
      await expect.poll(() => page.getByLabel('Active Projects', { exact: true }).first().textContent()).toBe(String(active.count));
      await page.screenshot({ path: `${SHOTS}/partner-desktop.png`, fullPage: true });
      await page.getByTestId('kpi-cards').locator(`a[href="${active.link}"]`).click();
      await page.waitForURL((url) => url.pathname === '/projects');
      const notice = page.getByTestId('url-filter-notice');
      await expect.poll(() => notice.textContent(), { timeout: 15_000 }).toContain(`the ${active.count} record`);
      // The Projects page's own Active Projects card says the same.
      await expect.poll(() => page.getByText('Active Projects', { exact: true }).first().locator('xpath=..').textContent()).toContain(String(active.count));
      await notice.getByRole('button', { name: 'Show all' }).click();
      await expect.poll(() => page.getByTestId('url-filter-notice').count()).toBe(0);
    });
  });

  it('dashboards at desktop and phone width, with the period selector', async () => {
    for (const [name, path] of [
      ['admin', '/administratordashboard'],
      ['partner', '/partnerdashboard'],
      ['manufacturer', '/manufacturerdashboard'],
      ['support', '/support-dashboard'],
      ['distributor', '/distributordashboard'],
    ] as const) {
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        await withPage(viewport, demoEmail(name), async (page) => {
          await page.goto(`${path}?range=30d`);
          await page.getByTestId('kpi-cards').waitFor({ timeout: 20_000 });
          await page.waitForLoadState('networkidle').catch(() => undefined);
          await page.screenshot({ path: `${SHOTS}/${name}-${size}.png`, fullPage: true });
          if (name === 'admin' && size === 'desktop') {
            await page.getByTestId('kpi-cards').getByText('Orders Last 30 Days').waitFor();
            const href = await page.getByTestId('kpi-cards').locator('a[href^="/orders"]').getAttribute('href');
            expect(decodeURIComponent(href!)).toContain(`"date_lte":"${new Date().toISOString().slice(0, 10)}"`);
          }
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1)).toBe(true);
        });
      }
    }
  }, 240_000);

  it("another role's dashboard shows the lock screen, not a red error", async () => {
    await withPage(DESKTOP, demoEmail('partner'), async (page) => {
      await page.goto('/administratordashboard');
      await page.getByTestId('access-restricted').waitFor({ timeout: 20_000 });
      expect(await page.getByText('Error:').count()).toBe(0);
    });
  });
});

describe('the Greenfield case', () => {
  it('a second partner registering "Greenfield General Hospital Inc." meets the first registration and is warned without names', async () => {
    const partner = await api(demoEmail('partner'));
    const first = new FormData();
    for (const [k, v] of Object.entries({
      title: 'Greenfield imaging network',
      expected_closure_date: inDays(90),
      end_user_customer_name: 'Greenfield General Hospital',
      end_user_email: 'it@greenfield-hospital.test',
    }))
      first.append(k, v);
    expect((await partner('POST', '/api/projects', first)).status).toBe(201);

    const admin = await api(demoEmail('admin'));
    const email = `greenfield.${Date.now()}@example.test`;
    const password = 'Greenfield2026';
    const registered = await fetch(`${portal.url}/api/user/register/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ full_name: 'Ingrid Berg', email, password, company_name: 'Fjord Networks' }),
    });
    const id = ((await registered.json()) as any).data.id;
    const activated = await admin(
      'PUT',
      `/api/users/${id}`,
      JSON.stringify({
        full_name: 'Ingrid Berg',
        email,
        role: 'partner',
        is_active: true,
        permissions: ['Projects.Read', 'Projects.Create', 'Projects.Update'],
      }),
      { 'content-type': 'application/json' },
    );
    expect(activated.status).toBe(200);

    await withPage(
      PHONE,
      email,
      async (page) => {
        await page.goto('/projects');
        await page.getByRole('button', { name: 'New Project' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Title').fill('Greenfield wards Wi-Fi');
        await dialog.getByLabel('Expected Closure Date').fill(inDays(100));
        await dialog.getByLabel('End User Customer Name').fill('Greenfield General Hospital Inc.');
        await dialog.getByLabel('End User Email').fill('procurement@greenfield-hospital.test');
        await dialog.getByRole('button', { name: 'Create Project' }).click();
        await page.waitForURL((url) => url.pathname === '/project/details', { timeout: 20_000 });
        // The answer to the submission says so (the toast), and the registration is under review.
        await page.getByRole('alert').filter({ hasText: 'A registration for this customer may already exist' }).waitFor({ timeout: 15_000 });
        await page.getByTestId('registration-text').getByText('Another registration for this customer exists').waitFor();
        const text = await page.locator('body').textContent();
        expect(text).not.toContain('Northwind');
        await page.screenshot({ path: `${SHOTS}/greenfield-phone.png`, fullPage: true });
      },
      password,
    );
  });
});
