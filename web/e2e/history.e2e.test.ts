/**
 * A record as it was, in a real browser: an administrator opens a project's History, picks the version
 * from last month and sees the whole project as it was then, with the fields that changed since
 * highlighted beside today's values. The project's past is written here, with commands dated in the past.
 */

import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandMetadata } from '../../domain/decider';
import { PROJECT_DETAIL_FIELDS, projects, type ProjectDetails } from '../../domain/projects/projects';
import { DAY_MS } from '../../domain/projects/registration';
import { runCommand } from '../../platform/commands/dispatch';
import { registerProject } from '../../commands/projects';
import { demoUserId } from '../../src/seed/identity';
import { startTestPortal, type TestPortal } from '../../src/testing/portal';
import { DESKTOP, demoEmail, launchBrowser, openPage, PHONE, signIn } from './browser';

let portal: TestPortal;
let browser: Browser;
const projectId = randomUUID();

const partnerId = demoUserId('partner@partnerhub.test');
const adminId = demoUserId('admin@partnerhub.test');
const daysAgo = (days: number, actorId: string, actorRole: string): CommandMetadata => ({
  now: new Date(Date.now() - days * DAY_MS).toISOString(),
  actorId,
  actorRole,
  correlationId: randomUUID(),
  causationId: null,
});

const empty = Object.fromEntries(PROJECT_DETAIL_FIELDS.map((field) => [field, null])) as unknown as ProjectDetails;
const registered: ProjectDetails = {
  ...empty,
  title: 'Harbour Clinic network',
  progress: 10,
  value: 25_000,
  end_user_customer_name: 'Harbour Clinic',
  expected_closure_date: '2027-03-01',
  project_stage: 'Discovery',
};
const lastMonth: ProjectDetails = { ...registered, value: 31_000, project_stage: 'Proposal' };
const thisWeek: ProjectDetails = { ...lastMonth, title: 'Harbour Clinic network and Wi-Fi', value: 42_500, project_stage: 'Negotiation' };

beforeAll(async () => {
  portal = await startTestPortal({ web: true, listen: true, env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
  browser = await launchBrowser();
  const { services } = portal.portal;
  await registerProject(
    services,
    { projectId, organisationId: partnerId, companyName: 'Northwind Networks', createdBy: partnerId, details: registered, boqFile: null },
    daysAgo(50, partnerId, 'partner'),
  );
  await runCommand(services, projects, projectId, { type: 'UpdateProject', details: lastMonth }, daysAgo(30, partnerId, 'partner'));
  await runCommand(services, projects, projectId, { type: 'UpdateProject', details: thisWeek }, daysAgo(2, adminId, 'admin'));
  await runCommand(
    services,
    projects,
    projectId,
    { type: 'ChangeProjectStatus', status: 'In Progress', reason: 'Purchase order received.' },
    daysAgo(1, partnerId, 'partner'),
  );
});

afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function withPage<T>(viewport: { width: number; height: number }, email: string, work: (page: Page) => Promise<T>): Promise<T> {
  const { context, page, consoleErrors } = await openPage(browser, portal.url, viewport);
  try {
    await signIn(page, email);
    await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
    const result = await work(page);
    expect(consoleErrors).toEqual([]);
    return result;
  } finally {
    await context.close();
  }
}

const changedRow = (page: Page, field: string) => page.locator(`[data-testid="as-of-field"][data-field="${field}"]`);

describe('a project as it was', () => {
  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`an administrator picks last month's version and sees the project as it was, changes since highlighted (${name})`, async () => {
      await withPage(viewport, demoEmail('admin'), async (page) => {
        await page.goto(`/project/details?id=${projectId}&tab=history`);
        const timeline = page.getByTestId('record-history');
        await timeline.waitFor();
        // Newest first: the status change, this week's edit, last month's edit, the registration. A registration
        // dated 50 days back has a reminder already due, which the expiry worker sends at once: its event lands
        // anywhere between the registration and now, so the revisions are compared, not counted.
        const statusChange = timeline.getByTestId('version').filter({ hasText: 'Purchase order received.' });
        await statusChange.waitFor();
        const monthAgo = timeline.getByTestId('version').filter({ hasText: 'Value: 25,000 → 31,000' });
        const weekAgo = timeline.getByTestId('version').filter({ hasText: 'Value: 31,000 → 42,500' });
        const revisionOf = async (version: typeof monthAgo) => Number(await version.getAttribute('data-revision'));
        expect(await timeline.getByTestId('version').last().getAttribute('data-revision')).toBe('0');
        expect(await revisionOf(monthAgo)).toBeGreaterThanOrEqual(1);
        expect(await revisionOf(monthAgo)).toBeLessThan(await revisionOf(weekAgo));
        expect(await revisionOf(weekAgo)).toBeLessThan(await revisionOf(statusChange));
        const text = (await monthAgo.textContent()) ?? '';
        expect(text).toContain('Project updated');
        expect(text).toMatch(/by .+ \(Partner\)/);
        expect(text).toContain('Value: 25,000 → 31,000');
        expect(text).toContain('Project stage: Discovery → Proposal');

        await monthAgo.getByRole('button', { name: 'View as of this version' }).click();
        const asOf = page.getByTestId('record-as-of');
        await asOf.waitFor();
        await changedRow(page, 'value').waitFor();
        expect(await changedRow(page, 'value').getAttribute('data-changed')).toBe('true');
        expect(await changedRow(page, 'value').textContent()).toContain('31,000');
        expect(await changedRow(page, 'value').textContent()).toContain('42,500');
        expect(await changedRow(page, 'title').getAttribute('data-changed')).toBe('true');
        expect(await changedRow(page, 'title').textContent()).toContain('Harbour Clinic network');
        expect(await changedRow(page, 'status').textContent()).toContain('Planning');
        expect(await changedRow(page, 'status').getAttribute('data-changed')).toBe('true');
        expect(await changedRow(page, 'end_user_customer_name').getAttribute('data-changed')).toBe('false');
        expect(await asOf.getByTestId('changed-since-count').textContent()).toMatch(/^\d+ fields have changed since/);

        // No part of the view is wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await asOf.getByRole('button', { name: 'Back to the timeline' }).click();
        await timeline.waitFor();
      });
    }, 180_000);
  }

  it('the partner that owns the project reads its history too; another organisation cannot', async () => {
    await withPage(DESKTOP, demoEmail('partner'), async (page) => {
      await page.goto(`/project/details?id=${projectId}&tab=history`);
      await page
        .getByTestId('record-history')
        .waitFor({ timeout: 20_000 })
        .catch(async () => {
          throw new Error(`no history on the page: ${await page.locator('body').innerText()}`);
        });
      await page.getByTestId('version').filter({ hasText: 'Value: 25,000 → 31,000' }).waitFor();
    });
    const other = await portal.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: demoEmail('distributor'), password: 'Demo2026!' } });
    const token = other.json().accessToken as string;
    const answer = await portal.app.inject({ method: 'GET', url: `/api/projects/${projectId}/versions`, headers: { authorization: `Bearer ${token}` } });
    expect([403, 404]).toContain(answer.statusCode);
  }, 180_000);
});
