/**
 * Deal registrations in a real browser: a partner registers a project, sees its protection, adds a
 * milestone and asks for an extension; an administrator approves the extension and resolves a
 * conflict; each partner sees the outcome, and the later partner never learns who holds the deal.
 */

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../../src/testing/portal';
import { DESKTOP, demoEmail, launchBrowser, openPage, PHONE, signIn } from './browser';

let portal: TestPortal;
let browser: Browser;

beforeAll(async () => {
  portal = await startTestPortal({ web: true, listen: true, env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function withPage<T>(viewport: { width: number; height: number }, email: string, work: (page: Page) => Promise<T>): Promise<T> {
  const { context, page } = await openPage(browser, portal.url, viewport);
  try {
    await signIn(page, email);
    await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
    return await work(page);
  } finally {
    await context.close();
  }
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const longDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
const TITLE = `Riverside Hospital core ${Date.now().toString(36)}`;
let projectId = '';

describe('deal registrations', () => {
  it('a partner registers a project and sees it protected until its expiry date', async () => {
    await withPage(DESKTOP, demoEmail('partner'), async (page) => {
      await page.goto('/projects');
      await page.getByRole('heading', { name: 'Project Management', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'New Project' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('A deal registration is valid for 60 days from the date of submission.').waitFor();
      // The title is required.
      await dialog.getByRole('button', { name: 'Create Project' }).click();
      await dialog.getByText('Title is required').waitFor();
      await dialog.getByLabel('Title').fill(TITLE);
      await dialog.getByLabel('Expected Closure Date').fill(inDays(120));
      await dialog.getByLabel('Budget (USD)').fill('48250.75');
      await dialog.getByLabel('End User Customer Name').fill('Riverside Hospital');
      await dialog.getByLabel('End User Email').fill('it@riverside-hospital.test');
      await dialog.getByTestId('boq-input').setInputFiles({ name: 'boq.csv', mimeType: 'text/csv', buffer: Buffer.from('item,qty\nHX-2400,4\nSFP-10G,20\n') });
      await dialog.getByRole('button', { name: 'Create Project' }).click();

      await page.waitForURL((url) => url.pathname === '/project/details');
      projectId = new URL(page.url()).searchParams.get('id')!;
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor();
      const expected = new Date(Date.now() + 60 * 86_400_000).toISOString();
      await page
        .getByTestId('registration-text')
        .getByText(`Protected until ${longDate(expected)}`)
        .waitFor();
      expect(await page.getByTestId('stat-Value').textContent()).toBe('$48,250.75');
      await page.getByRole('button', { name: 'Download BoQ' }).waitFor();

      // Reload-safe: the page opened by its address loads the project.
      await page.reload();
      await page.getByRole('heading', { name: TITLE, level: 1 }).waitFor({ timeout: 15_000 });
    });
  });

  it('adds a milestone inside the project dates (outside is refused) and requests an extension', async () => {
    await withPage(DESKTOP, demoEmail('partner'), async (page) => {
      await page.goto(`/project/details?id=${projectId}&tab=timeline`);
      await page.getByText('No milestones yet').waitFor();
      await page.getByRole('button', { name: 'Add Milestone' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Title').fill('Site survey');
      await dialog.getByLabel('Date').fill(inDays(200));
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText('Milestone date must be within project start and end date').waitFor();
      await dialog.getByLabel('Date').fill(inDays(10));
      await dialog.getByRole('button', { name: 'Save' }).click();
      await page.getByTestId('milestones').getByText('Site survey').waitFor();

      await page.getByRole('button', { name: 'Request Extension' }).click();
      const request = page.getByRole('dialog');
      await request.getByLabel('Reason').fill('The hospital board meets after the protection ends.');
      await request.getByRole('button', { name: 'Request Extension' }).click();
      await page.getByTestId('registration-text').getByText('An extension request is awaiting review.').waitFor();
      expect(await page.getByRole('button', { name: 'Request Extension' }).count()).toBe(0);
    });
  });

  it('an admin approves the extension and rejects the later of two conflicting registrations', async () => {
    await withPage(DESKTOP, demoEmail('admin'), async (page) => {
      await page.goto('/adminpanel?tab=registrations');
      // Conflicts first, both registrations side by side.
      const first = page.getByTestId('registration-card').first();
      await first.getByTestId('conflict-side-Earlier registration').getByText('Contoso Retail store network refresh').waitFor();
      await first.getByTestId('conflict-side-Later registration').getByText('Contoso Retail Latin America stores').waitFor();
      await first.getByRole('button', { name: 'Reject later one' }).click();
      let dialog = page.getByRole('dialog');
      expect(await dialog.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
      await dialog.getByLabel('Reason').fill('Another partner registered this customer first.');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await dialog.waitFor({ state: 'detached' });

      const card = page.locator(`[data-testid="registration-card"][data-project-id="${projectId}"]`);
      await card.getByRole('button', { name: 'Approve Extension' }).click();
      dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Approve Extension' }).click();
      await dialog.waitFor({ state: 'detached' });

      await page.goto(`/project/details?id=${projectId}&tab=history`);
      const history = page.getByTestId('record-history');
      await history.getByText(/^Project extension requested/).waitFor();
      await history.getByText(/^Project extension approved: expires at/).waitFor();
    });
  });

  it('the partner sees the extension; the rejected partner sees the outcome and never the other deal', async () => {
    await withPage(PHONE, demoEmail('partner'), async (page) => {
      await page.goto(`/project/details?id=${projectId}`);
      const extended = new Date(Date.now() + 90 * 86_400_000).toISOString();
      await page
        .getByTestId('registration-text')
        .getByText(`Protected until ${longDate(extended)}`)
        .waitFor();
      await page.getByTestId('registration-text').getByText('Extended by 30 days.').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    });
    await withPage(DESKTOP, 'lucia.fernandez@pampas-digital.test', async (page) => {
      await page.goto('/projects');
      await page.getByRole('tab', { name: /All Projects/ }).click();
      const card = page.getByTestId('project-card').filter({ hasText: 'Contoso Retail Latin America stores' });
      await card.getByText('Registration rejected').waitFor();
      await card.getByRole('button', { name: /^View details of/ }).click();
      await page.getByTestId('registration-text').getByText('Reason: Another partner registered this customer first.').waitFor();
      const text = await page.locator('main').innerText();
      expect(text).not.toContain('Contoso Retail store network refresh');
      expect(text).not.toContain('Northwind');
    });
  });

  it('a user without project permissions sees the Access Restricted screen', async () => {
    await withPage(DESKTOP, demoEmail('distributor'), async (page) => {
      await page.goto('/projects');
      await page.getByText("You don't have permission to view projects. Please contact your administrator.").waitFor();
    });
  });
});
