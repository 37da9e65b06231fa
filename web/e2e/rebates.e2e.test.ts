/**
 * Rebates in a real browser: a partner submits a claim with two documents and finds it in History;
 * an administrator approves it with the suggested amount; the partner's Overview and Progress move;
 * a rejection shows its reason to the partner.
 */

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, demoEmail, DEMO_PASSWORD, PHONE, signedIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' });
const { withPage } = e2e;

async function api(name: string) {
  const login = await fetch(`${e2e.portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoEmail(name), password: DEMO_PASSWORD }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${e2e.portal.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, json: (await response.json()) as any };
  };
}

const usd = (amount: number) => amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1f0b90000000049454e44ae426082',
  'hex',
);
const invoice = `INV-E2E-${Date.now().toString(36).toUpperCase()}`;
const today = new Date().toISOString().slice(0, 10);
let before: any;

async function pick(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

describe('rebates', () => {
  it('a partner submits a rebate with two documents (removing a third) and sees it in History', async () => {
    before = (await (await api('partner'))('GET', '/api/rebates/dashboard/overview')).json.data;
    await withPage(DESKTOP, async (page, errors) => {
      await signedIn(page, 'partner');
      await page.goto('/rebates');
      await page.getByRole('heading', { name: 'Rebates', level: 1 }).waitFor();
      // Overview first; all four tabs for the demo partner.
      expect(await page.getByRole('tab').allTextContents()).toEqual(['Overview', 'Submit Rebate', 'History', 'Progress']);
      expect(await page.getByRole('tab', { selected: true }).textContent()).toBe('Overview');
      await page.getByRole('tab', { name: 'Submit Rebate' }).click();

      // Sending the empty form names every missing field.
      await page.getByRole('button', { name: 'Submit Rebate' }).click();
      await page.getByText('Product name is required').waitFor();
      await page.getByText('Description is required').waitFor();

      await page.getByLabel('Product name').fill('HX-M2424 24-Port Gigabit Managed Switch');
      await pick(page, 'Product category', 'Managed Switches');
      await page.getByLabel('Purchase date').fill(today);
      await page.getByLabel('Invoice number').fill(invoice);
      await page.getByLabel('Purchase amount').fill('5000');
      await pick(page, 'Rebate type', 'Volume Rebate');
      await page.getByLabel('Description').fill('Warehouse network, browser test.');
      expect(await page.getByTestId('documents-hint').textContent()).toContain('at most 5 files');
      await page.getByTestId('documents-input').setInputFiles([
        { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: PDF },
        { name: 'delivery-note.png', mimeType: 'image/png', buffer: PNG },
        { name: 'wrong-one.pdf', mimeType: 'application/pdf', buffer: PDF },
      ]);
      await expect.poll(() => page.getByTestId('document-item').count(), { timeout: 10_000 }).toBe(3);
      await page.getByRole('button', { name: 'Remove wrong-one.pdf' }).click();
      await expect.poll(() => page.getByTestId('document-item').count(), { timeout: 10_000 }).toBe(2);
      await page.getByRole('button', { name: 'Submit Rebate' }).click();
      await expect.poll(() => page.getByTestId('submit-result').textContent(), { timeout: 15_000 }).toBe('Rebate submitted successfully!');

      await page.getByRole('tab', { name: 'History' }).click();
      const row = page.locator(`[data-testid="rebate-row"][data-invoice="${invoice}"]`);
      await row.waitFor();
      expect(await row.getAttribute('data-status')).toBe('pending');
      await row.click();
      const dialog = page.getByRole('dialog', { name: new RegExp(`Rebate ${invoice}`) });
      await dialog.waitFor();
      expect(await dialog.getByTestId('rebate-document').count()).toBe(2);
      await dialog.getByText('invoice.pdf').waitFor();
      // The document downloads through the signed-in session.
      const download = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Download invoice.pdf' }).click();
      expect((await download).suggestedFilename()).toBe('invoice.pdf');
      await expect.poll(() => dialog.getByTestId('version').count(), { timeout: 10_000 }).toBe(1);
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      expect(errors).toEqual([]);
    });
  });

  it('an admin approves it with the suggested amount (purchase × rate)', async () => {
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/adminpanel?tab=rebates');
      await page.getByRole('heading', { name: 'Rebate Management' }).waitFor();
      await page.getByRole('textbox', { name: 'Search rebates' }).fill(invoice);
      const row = page.locator(`[data-testid="rebate-row"][data-invoice="${invoice}"]`);
      await row.waitFor();
      await expect.poll(() => page.getByTestId('rebate-row').count(), { timeout: 10_000 }).toBe(1);
      expect(await row.textContent()).toContain('Northwind Networks');
      // The status tabs count the claims under the other filters (here: the search).
      await page.getByRole('tab', { name: 'Pending (1)' }).waitFor();
      await page.getByRole('tab', { name: 'Approved (0)' }).waitFor();
      // Pending offers processing, approve and reject.
      for (const action of ['Mark', 'Approve', 'Reject', 'View'])
        expect(await row.getByRole('button', { name: new RegExp(`^${action} ${invoice}`) }).count()).toBe(1);
      await row.getByRole('button', { name: `Approve ${invoice}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve Rebate' });
      await dialog.waitFor();
      const suggested = (5000 * before.rate) / 100;
      expect(await dialog.getByTestId('rebate-amount').inputValue()).toBe(suggested.toFixed(2));
      expect(await dialog.getByLabel('Note').inputValue()).toBe('Approved after review');
      await dialog.getByRole('button', { name: 'Approve Rebate' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('approved');
      // Approved offers nothing but the details.
      expect(await row.getByRole('button', { name: `Approve ${invoice}` }).count()).toBe(0);
      expect(await row.getByRole('button', { name: `View ${invoice}` }).count()).toBe(1);
      expect(await row.textContent()).toContain(usd(suggested));

      // Export the current view: approved claims matching the search.
      await page.getByRole('tab', { name: 'Approved (1)' }).click();
      await expect.poll(() => page.getByTestId('rebate-row').count(), { timeout: 10_000 }).toBe(1);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^rebates-\d{4}-\d{2}-\d{2}\.csv$/);
      const { readFile } = await import('node:fs/promises');
      const lines = (await readFile((await file.path())!, 'utf8')).trim().split('\r\n');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`,${invoice},`);
      expect(lines[1]).toContain(',approved,');
    });
  });

  it("the partner's Overview and Progress move with the approval", async () => {
    const after = (await (await api('partner'))('GET', '/api/rebates/dashboard/overview')).json.data;
    expect(after.financial_summary.quarterly_purchase).toBeCloseTo(before.financial_summary.quarterly_purchase + 5000, 2);
    expect(after.financial_summary.quarterly_rebate).toBeCloseTo(before.financial_summary.quarterly_rebate + (5000 * before.rate) / 100, 2);
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'partner');
      await page.goto('/rebates');
      await expect
        .poll(() => page.getByTestId(`money-${after.quarter.label} purchases`).textContent(), { timeout: 10_000 })
        .toBe(usd(after.financial_summary.quarterly_purchase));
      // The demo partner holds a programme tier: the tier and its rate come from the partner programme, which says what the next tier needs.
      expect(after.tier_source).toBe('programme');
      const standing = (await (await api('partner'))('GET', '/api/programme/standing')).json.data;
      expect(after).toMatchObject({
        current_tier: { tier: standing.tier.name, next: standing.next_tier?.name ?? null },
        rate: standing.benefits.rebate_rate_percent,
        next_tier_missing: standing.missing_sentence,
      });
      expect(await page.getByTestId('kpi-rate').textContent()).toContain(`${after.rate}%`);
      expect(await page.getByTestId('kpi-tier').textContent()).toBe(after.current_tier.tier);
      expect(await page.getByTestId('programme-next').textContent()).toContain(after.next_tier_missing ?? 'top tier');
      await page.getByRole('tab', { name: 'Progress' }).click();
      expect(await page.getByTestId('progress-title').textContent()).toBe(after.quarter.progress_label);
      expect(after.quarter.progress_label).toMatch(/^Q[1-4] \d{4} Progress$/);
      expect(await page.getByTestId('progress-days').textContent()).toBe(
        `${after.quarter.days_remaining} ${after.quarter.days_remaining === 1 ? 'day' : 'days'} remaining`,
      );
      expect(await page.getByTestId('progress-rate').textContent()).toBe(`${after.rate}%`);
      expect(await page.getByTestId('progress-tier').textContent()).toBe(after.current_tier.tier);
      // One tier system: the Tiers table is the programme's ladder with its rates.
      const tiers = (await (await api('partner'))('GET', '/api/programme/tiers')).json.data.tiers as Array<{
        name: string;
        benefits: { rebate_rate_percent: number };
      }>;
      const table = page.getByRole('region', { name: 'Tiers' });
      for (const tier of tiers)
        await expect
          .poll(() => table.getByRole('row', { name: new RegExp(`^${tier.name} `) }).textContent())
          .toContain(`${tier.benefits.rebate_rate_percent}%`);
      expect(await table.textContent()).not.toContain('Bronze');
      // No sideways scrolling at phone width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1)).toBe(true);
    });
  });

  it('a rejection shows its reason to the partner', async () => {
    const partner = await api('partner');
    const form = new FormData();
    const rejected = `${invoice}-R`;
    for (const [k, v] of Object.entries({
      product_name: 'Helix 150 W Power Supply',
      product_category: 'Helix Power Supply',
      purchase_date: today,
      invoice_number: rejected,
      purchase_amount: '300',
      rebate_type: 'Promotional Rebate',
      description: 'Promotion claim.',
    }))
      form.append(k, v);
    const login = await fetch(`${e2e.portal.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: demoEmail('partner'), password: DEMO_PASSWORD }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const submitted = await fetch(`${e2e.portal.url}/api/rebates/submit`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` }, body: form });
    expect(submitted.status).toBe(201);
    const reason = 'The promotion ended before the purchase date.';
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/adminpanel?tab=rebates');
      await page.getByRole('textbox', { name: 'Search rebates' }).fill(rejected);
      const row = page.locator(`[data-testid="rebate-row"][data-invoice="${rejected}"]`);
      await row.getByRole('button', { name: `Reject ${rejected}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Reject Rebate' });
      const confirm = dialog.getByRole('button', { name: 'Reject Rebate' });
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel('Reason for rejection').fill('   ');
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel('Reason for rejection').fill(reason);
      expect(await dialog.getByTestId('reason-counter').textContent()).toBe(`${reason.length}/500`);
      await confirm.click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('rejected');
    });
    expect((await partner('GET', `/api/rebates/user?search=${rejected}`)).json.data.rebates[0].rejection_reason).toBe(reason);
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'partner');
      await page.goto('/rebates?tab=history');
      const card = page.locator(`[data-testid="rebate-row"][data-invoice="${rejected}"]`);
      await card.waitFor();
      expect(await card.getAttribute('data-status')).toBe('rejected');
      await card.click();
      await expect.poll(() => page.getByTestId('rebate-rejection-reason').textContent(), { timeout: 10_000 }).toBe(`Rejected: ${reason}`);
      await expect.poll(() => page.getByTestId('version-reason').allTextContents(), { timeout: 10_000 }).toEqual([`“${reason}”`]);
    });
  });
});
