/**
 * The audit log in a real browser: an administrator pages through a log longer than its count (the
 * total reads "more than"), filters it by event type and record type, sees only matching lines, exports exactly those as CSV, and finds the export itself in the log; a
 * partner reaches its organisation's activity page and never the audit log.
 */

import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { lengthenAuditLog } from '../../src/testing/auditLog';
import { DESKTOP, PHONE, signedIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' });
const { withPage } = e2e;

// Longer than the count's window, so the screen's total reads "more than".
beforeAll(() => lengthenAuditLog(e2e.portal, 1_200).then(() => undefined), 120_000);

const csvLines = async (page: Page, click: () => Promise<void>) => {
  const download = page.waitForEvent('download');
  await click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  return (await readFile((await file.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
};

describe('audit log screen', () => {
  it('an administrator filters by event type and record type, then exports exactly the filtered lines', async () => {
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.getByRole('menuitem', { name: 'Audit Log' }).click();
      await page.waitForURL('**/audit');
      await page.getByTestId('audit-line').first().waitFor();

      // The log is longer than the count's window (1,000 lines past the page): the total says "more
      // than", and the window moves on with the pages.
      await page.getByText('1–25 of more than 1,025', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Go to next page' }).click();
      await page.getByText('26–50 of more than 1,050', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Go to previous page' }).click();
      await page.getByText('1–25 of more than 1,025', { exact: true }).waitFor();

      await page.getByRole('combobox', { name: 'Event type' }).fill('OrderStatusChanged.v1');
      await expect
        .poll(
          async () => {
            const events = await page.getByTestId('audit-line').locator('td:nth-child(4)').allTextContents();
            return events.length > 0 && events.every((e) => e === 'OrderStatusChanged.v1');
          },
          { timeout: 10_000 },
        )
        .toBe(true);
      const shown = await page.getByTestId('audit-line').count();

      await page.getByRole('combobox', { name: 'Record type' }).click();
      await page.getByRole('option', { name: 'Orders' }).click();
      await expect.poll(() => page.getByTestId('audit-line').count(), { timeout: 10_000 }).toBe(shown);

      const lines = await csvLines(page, () => page.getByRole('button', { name: 'Export CSV' }).click());
      expect(lines[0]).toBe('time,actor_id,actor_name,actor_role,record_type,record_id,organisation_id,event_type,summary,event_id,api_key_id,api_key_name');
      expect(lines.length - 1).toBe(shown);
      for (const line of lines.slice(1)) expect(line).toContain(',orders,');
      for (const line of lines.slice(1)) expect(line).toContain(',OrderStatusChanged.v1,');

      // The export is itself in the log.
      await page.getByRole('button', { name: 'Clear filters' }).click();
      await page.getByRole('combobox', { name: 'Event type' }).fill('ExportDownloaded.v1');
      await expect.poll(() => page.getByText(/Exported audit log as CSV/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    });
  });

  it('shows an empty state for filters that match nothing, and fits a phone', async () => {
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'admin');
      await page.goto(`${e2e.portal.url}/audit`);
      await page.getByTestId('audit-line').first().waitFor();
      await page.getByRole('textbox', { name: 'From' }).fill('2001-01-01');
      await page.getByRole('textbox', { name: 'To' }).fill('2001-01-31');
      await page.getByText('No audit entries match these filters.').waitFor();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(PHONE.width);
    });
  });

  it('a partner opens its activity page and is kept out of the audit log', async () => {
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'partner');
      await page.getByRole('menuitem', { name: 'Activity' }).click();
      await page.getByTestId('activity-line').first().waitFor();
      expect(await page.getByRole('menuitem', { name: 'Audit Log' }).count()).toBe(0);
      await page.goto(`${e2e.portal.url}/audit`);
      await page.getByText('Access restricted.').waitFor();
    });
  });
});
