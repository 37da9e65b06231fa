/**
 * Lists in a real browser: the projects table view sorted by the server and its column chooser
 * (both remembered across a reload), two deal registrations rejected together with one reason, a
 * rebate selection, and the phone's Filters button on Orders.
 *
 * With SCREENSHOT_DIR set, the screens are also saved there as PNG files.
 */

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, demoEmail, DEMO_PASSWORD, PHONE, signedIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' });
const { withPage } = e2e;

const shotDir = process.env.SCREENSHOT_DIR;
if (shotDir) mkdirSync(shotDir, { recursive: true });
async function shot(page: Page, name: string) {
  if (!shotDir) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(shotDir, `${name}.png`) });
}

async function api(name: string) {
  const login = await fetch(`${e2e.portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoEmail(name), password: DEMO_PASSWORD }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  return async (method: string, url: string, body?: unknown, form?: FormData) => {
    const response = await fetch(`${e2e.portal.url}${url}`, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: form ?? (body ? JSON.stringify(body) : undefined),
    });
    return { status: response.status, json: (await response.json()) as any, headers: response.headers };
  };
}

const dollars = (text: string) => (text.trim() === '—' ? null : Number(text.replace(/[$,]/g, '')));
const headers = (page: Page) => page.getByRole('table', { name: 'Projects' }).locator('thead th').allTextContents();

describe('lists', () => {
  it('projects: the table view sorts on the server by its headers and hides the columns the user unticks, remembered after a reload', async () => {
    const admin = await api('admin');
    await withPage(DESKTOP, async (page, errors) => {
      await signedIn(page, 'admin');
      await page.goto('/projects');
      await page.getByTestId('project-card').first().waitFor();
      await shot(page, 'projects-cards-desktop');
      await page.getByRole('button', { name: 'Table view' }).click();
      await page.getByRole('tab', { name: /All Projects/ }).click();
      const table = page.getByRole('table', { name: 'Projects' });
      await table.waitFor();
      expect(await headers(page)).toEqual(expect.arrayContaining(['Project', 'Partner', 'Status', 'Registration', 'Value', 'Submitted']));

      // Value sorts largest first on the first click, smallest first on the second: the server's order, page by page.
      for (const order of ['DESC', 'ASC'] as const) {
        await table.getByRole('button', { name: 'Value', exact: true }).click();
        const expected = (
          await admin('GET', `/api/projects?sort=${encodeURIComponent(JSON.stringify(['value', order]))}&range=${encodeURIComponent('[0,9]')}`)
        ).json.map((p: { title: string }) => p.title);
        await expect.poll(() => page.getByTestId('project-row-title').allTextContents(), { timeout: 10_000 }).toEqual(expected);
        const values = (await page.getByTestId('project-row-value').allTextContents()).map(dollars).filter((v): v is number => v !== null);
        expect(values).toEqual([...values].sort((a, b) => (order === 'ASC' ? a - b : b - a)));
      }
      await shot(page, 'projects-table-desktop');

      // Saved filters: the tab and the sort are saved under a name and come back with it.
      const ascending = await page.getByTestId('project-row-title').allTextContents();
      await page.getByRole('button', { name: 'Saved filters' }).click();
      await page.getByRole('menuitem', { name: 'Save current filters…' }).click();
      const naming = page.getByRole('dialog', { name: 'Save current filters' });
      await naming.getByLabel('Name').fill('Smallest deals');
      await naming.getByRole('button', { name: 'Save' }).click();
      await naming.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Smallest deals' }).waitFor();
      await page.getByRole('tab', { name: /Active Projects/ }).click();
      await table.getByRole('button', { name: 'Project', exact: true }).click();
      await page.getByRole('button', { name: 'Saved filters' }).click();
      await page.getByRole('menuitem', { name: 'Smallest deals' }).click();
      expect(await page.getByRole('tab', { selected: true }).textContent()).toMatch(/^All Projects/);
      await expect.poll(() => page.getByTestId('project-row-title').allTextContents(), { timeout: 10_000 }).toEqual(ascending);

      // The column chooser: Partner goes; Project (what names the row) cannot be hidden.
      await page.getByRole('button', { name: 'Columns' }).click();
      const menu = page.getByRole('menu', { name: 'Columns shown' });
      expect(await menu.getByRole('menuitemcheckbox', { name: 'Project' }).isDisabled()).toBe(true);
      await menu.getByRole('menuitemcheckbox', { name: 'Partner' }).click();
      await page.keyboard.press('Escape');
      await expect.poll(() => headers(page)).not.toContain('Partner');

      await page.reload();
      await table.waitFor();
      expect(await headers(page)).not.toContain('Partner');
      expect(await headers(page)).toContain('Value');
      expect(errors).toEqual([]);
    });
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/projects');
      await page.getByTestId('project-card').first().waitFor();
      await shot(page, 'projects-cards-phone');
      await page.getByRole('button', { name: 'Table view' }).click();
      await page.getByRole('table', { name: 'Projects' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await shot(page, 'projects-table-phone');
    });
  });

  it('deal registrations: an admin rejects two registrations at once with one reason', async () => {
    const partner = await api('partner');
    const admin = await api('admin');
    const stamp = Date.now().toString(36);
    const ids: string[] = [];
    for (const name of ['Harbour clinic', 'Lakeside school']) {
      const form = new FormData();
      form.append('title', `${name} ${stamp}`);
      form.append('end_user_customer_name', `${name} ${stamp}`);
      form.append('expected_closure_date', new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10));
      const created = await partner('POST', '/api/projects', undefined, form);
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      expect(created.json.data.registration_status).toBe('pending');
      ids.push(created.json.data.id);
    }
    const reason = 'Both customers are covered by a direct agreement.';
    await withPage(DESKTOP, async (page, errors) => {
      await signedIn(page, 'admin');
      await page.goto('/adminpanel?tab=registrations');
      await page.getByRole('combobox', { name: 'Show' }).click();
      await page.getByRole('option', { name: 'Awaiting review', exact: true }).click();
      for (const id of ids) {
        const card = page.locator(`[data-testid="registration-card"][data-project-id="${id}"]`);
        await card.getByRole('checkbox').check();
      }
      const bar = page.getByTestId('bulk-toolbar');
      await bar.getByText('2 selected').waitFor();
      await bar.getByRole('button', { name: 'Reject' }).click();
      const dialog = page.getByTestId('bulk-review-dialog');
      await dialog.getByRole('heading', { name: 'Reject 2 registrations' }).waitFor();
      expect(await dialog.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
      await dialog.getByLabel('Reason for rejection').fill(reason);
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.getByText('2 registrations rejected.').waitFor();
      for (const id of ids) expect(await page.locator(`[data-testid="registration-card"][data-project-id="${id}"]`).count()).toBe(0);
      expect(errors).toEqual([]);
    });
    for (const id of ids) expect((await admin('GET', `/api/projects/${id}`)).json.data).toMatchObject({ registration_status: 'rejected', review_note: reason });
  });

  it('rebates: ticking claims shows the bulk actions', async () => {
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/adminpanel?tab=rebates');
      await page.getByRole('tab', { name: /^Pending/ }).click();
      const rows = page.getByTestId('rebate-row');
      await rows.first().waitFor();
      await rows.nth(0).getByRole('checkbox').check();
      await rows.nth(1).getByRole('checkbox').check();
      const bar = page.getByTestId('bulk-toolbar');
      await bar.getByText('2 selected').waitFor();
      await bar.getByRole('button', { name: 'Approve' }).waitFor();
      await shot(page, 'rebates-selection-desktop');
    });
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/adminpanel?tab=rebates');
      const rows = page.getByTestId('rebate-row');
      await rows.first().waitFor();
      await page
        .getByRole('checkbox', { name: /^Select / })
        .first()
        .check();
      await page.getByTestId('bulk-toolbar').getByText('1 selected').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await shot(page, 'rebates-selection-phone');
    });
  });

  it('orders on a phone: the filters fold behind a Filters button and the first orders show at once', async () => {
    await withPage(PHONE, async (page, errors) => {
      await signedIn(page, 'admin');
      await page.goto('/orders');
      const firstRow = page.getByTestId('order-row').first();
      await firstRow.waitFor();
      const filters = page.getByRole('button', { name: 'Filters' });
      expect(await filters.getAttribute('aria-expanded')).toBe('false');
      expect(await page.getByLabel('Ordered from').isVisible()).toBe(false);
      const box = await firstRow.boundingBox();
      expect(box && box.y + box.height).toBeLessThan(PHONE.height);
      await shot(page, 'orders-phone-filters-closed');

      await filters.click();
      await page.getByLabel('Ordered from').waitFor({ state: 'visible' });
      await page.getByLabel('Total from ($)').waitFor({ state: 'visible' });
      expect(await filters.getAttribute('aria-expanded')).toBe('true');
      await page.getByLabel('Total from ($)').fill('1000');
      // The filter applies after the field's debounce: a busy machine takes longer than expect.poll's default second.
      await expect.poll(() => filters.textContent(), { timeout: 10_000 }).toMatch(/1/);
      await shot(page, 'orders-phone-filters-open');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(errors).toEqual([]);
    });
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/orders');
      await page.getByTestId('order-row').first().waitFor();
      // Wide screens keep the filters in the bar, without the button.
      expect(await page.getByRole('button', { name: 'Filters' }).count()).toBe(0);
      expect(await page.getByLabel('Ordered from').isVisible()).toBe(true);
    });
  });
});
