/**
 * Market development funds in a real browser: a partner requests funds, an administrator approves a
 * lower amount, the partner claims it with two proof files, the administrator approves the claim and
 * records the payout; the balance cards of both sides follow each step. Screenshots of both screens
 * at desktop and phone width go to /tmp/funds-screens.
 */

import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, demoEmail, DEMO_PASSWORD, PHONE, signedIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' });
const { withPage } = e2e;
const SCREENS = '/tmp/funds-screens';
mkdirSync(SCREENS, { recursive: true });

async function balanceOf(name: string) {
  const login = await fetch(`${e2e.portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoEmail(name), password: DEMO_PASSWORD }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const response = await fetch(`${e2e.portal.url}/api/funds/balance`, { headers: { authorization: `Bearer ${accessToken}` } });
  return ((await response.json()) as { data: { total: Record<string, number> } }).data.total;
}

/** Dollars moved by whole cents, without binary fractions. */
const plus = (amount: number, delta: number) => Math.round(amount * 100 + delta * 100) / 100;
const usd = (amount: number) => amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1f0b90000000049454e44ae426082',
  'hex',
);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const title = `Browser webinar ${Date.now().toString(36)}`;

/** The cards show what the balance route answers. */
async function expectCards(page: Page, testId: string, balance: Record<string, number>) {
  for (const key of ['available', 'reserved', 'claimed', 'paid']) {
    await expect.poll(() => page.getByTestId(`${testId}-${key}`).textContent(), { timeout: 10_000 }).toBe(usd(balance[key]));
  }
}

async function openFunds(page: Page, who: 'partner' | 'admin') {
  await signedIn(page, who);
  await page.goto('/funds');
  await page.getByRole('heading', { name: who === 'admin' ? 'Funds' : 'Marketing Funds', level: 1 }).waitFor();
}

describe('market development funds', () => {
  it('request, approval of a lower amount, claim with two proof files, claim approval and payout; balances move on both sides', async () => {
    const start = await balanceOf('partner');
    const adminStart = await balanceOf('admin');

    // The partner requests $2,000.
    await withPage(DESKTOP, async (page) => {
      await openFunds(page, 'partner');
      await expectCards(page, 'balance', start);
      await page.screenshot({ path: `${SCREENS}/partner-desktop.png` });
      await page.getByTestId('new-request').click();
      await page.getByLabel('Title').fill(title);
      await page.getByLabel('Description').fill('Two sessions with a live demo.');
      await page.getByLabel('Start date').fill(day(-12));
      await page.getByLabel('End date').fill(day(-2));
      await page.getByLabel('Planned cost ($)').fill('4000');
      await page.getByLabel('Requested amount ($)').fill('2000');
      await page.getByLabel('Expected leads').fill('30');
      await page.getByTestId('attachments-input').setInputFiles([{ name: 'plan.pdf', mimeType: 'application/pdf', buffer: PDF }]);
      await page.screenshot({ path: `${SCREENS}/request-form-desktop.png` });
      await page.getByTestId('form-submit').click();
      await expect.poll(() => page.getByTestId('funds-notice').textContent(), { timeout: 15_000 }).toContain('Fund request submitted.');
      await expect.poll(() => page.getByTestId(`request-${title}`).textContent()).toContain('Pending review');
      await expectCards(page, 'balance', start);
    });

    // The admin approves $1,500.
    await withPage(DESKTOP, async (page) => {
      await openFunds(page, 'admin');
      await expectCards(page, 'admin-balance', adminStart);
      await page.getByTestId(`queue-request-${title}`).getByTestId('review-request').click();
      await page.screenshot({ path: `${SCREENS}/admin-review-desktop.png` });
      await page.getByLabel('Approved amount ($)').fill('1500');
      await page.getByLabel('Note (optional)').fill('Without the catering.');
      await page.getByTestId('decision-submit').click();
      await expect.poll(() => page.getByTestId('funds-notice').textContent(), { timeout: 15_000 }).toContain('Fund request approved.');
      await expectCards(page, 'admin-balance', { ...adminStart, reserved: plus(adminStart.reserved, 1500), available: plus(adminStart.available, -1500) });
    });
    const approved = await balanceOf('partner');
    expect(approved).toMatchObject({ reserved: plus(start.reserved, 1500), available: plus(start.available, -1500) });

    // The partner claims $1,500 with two proof files.
    await withPage(DESKTOP, async (page) => {
      await openFunds(page, 'partner');
      await expectCards(page, 'balance', approved);
      await page.getByTestId(`request-${title}`).getByTestId('claim-button').click();
      await page.getByLabel('Actual cost ($)').fill('3600');
      await page.getByLabel('Claimed amount ($)').fill('1500');
      await page.getByLabel('Leads generated').fill('41');
      await page.getByTestId('proof-input').setInputFiles([
        { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: PDF },
        { name: 'booth.png', mimeType: 'image/png', buffer: PNG },
      ]);
      await page.screenshot({ path: `${SCREENS}/claim-form-desktop.png` });
      await page.getByTestId('form-submit').click();
      await expect.poll(() => page.getByTestId('funds-notice').textContent(), { timeout: 15_000 }).toContain('Claim submitted.');
      await expect.poll(() => page.getByTestId(`claim-${title}`).textContent()).toContain('invoice.pdf');
      expect(await page.getByTestId(`claim-${title}`).textContent()).toContain('booth.png');
    });

    // The admin approves $1,400 and records the payout.
    await withPage(DESKTOP, async (page) => {
      await openFunds(page, 'admin');
      await page.getByTestId('tab-claims').click();
      await page.getByTestId(`queue-claim-${title}`).getByTestId('review-claim').click();
      await page.getByLabel('Paid amount ($)').fill('1400');
      await page.getByTestId('decision-submit').click();
      await expect.poll(() => page.getByTestId('funds-notice').textContent(), { timeout: 15_000 }).toContain('Claim approved.');
      await expectCards(page, 'admin-balance', { ...adminStart, claimed: plus(adminStart.claimed, 1400), available: plus(adminStart.available, -1400) });
      await page.getByTestId(`queue-claim-${title}`).getByTestId('record-payout').click();
      await page.getByLabel('Reference').fill('PAY-E2E-1');
      await page.getByTestId('decision-submit').click();
      await expect.poll(() => page.getByTestId('funds-notice').textContent(), { timeout: 15_000 }).toContain('Payout recorded.');
      await expectCards(page, 'admin-balance', { ...adminStart, paid: plus(adminStart.paid, 1400), available: plus(adminStart.available, -1400) });
      await page.screenshot({ path: `${SCREENS}/admin-claims-desktop.png` });
      await page.getByTestId('tab-funds').click();
      await page.screenshot({ path: `${SCREENS}/admin-funds-desktop.png`, fullPage: true });
    });

    const paid = await balanceOf('partner');
    expect(paid).toMatchObject({ reserved: start.reserved, claimed: start.claimed, paid: plus(start.paid, 1400), available: plus(start.available, -1400) });
    await withPage(DESKTOP, async (page) => {
      await openFunds(page, 'partner');
      await expectCards(page, 'balance', paid);
      await expect.poll(() => page.getByTestId(`claim-${title}`).textContent()).toContain('Paid');
    });

    for (const who of ['partner', 'admin'] as const) {
      await withPage(PHONE, async (page) => {
        await openFunds(page, who);
        const card = page.getByTestId(who === 'admin' ? 'admin-balance-available' : 'balance-available');
        await expect.poll(() => card.textContent(), { timeout: 10_000 }).toMatch(/^\$/);
        await page.screenshot({ path: `${SCREENS}/${who}-phone.png`, fullPage: true });
      });
    }
  }, 240_000);

  it('an administrator creates a fund, allocates it by a rule after a preview and closes the period early; charts and cards fit a phone', async () => {
    const name = `Rule fund ${Date.now().toString(36)}`;
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString().slice(0, 10);
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 12, 0)).toISOString().slice(0, 10);
    await withPage(DESKTOP, async (page) => {
      await openFunds(page, 'admin');
      await page.getByTestId('tab-funds').click();
      await page.getByTestId('utilisation-chart').locator('svg').first().waitFor();
      await page.getByTestId('new-fund').click();
      await page.getByLabel('Name').fill(name);
      await page.getByLabel('Period start').fill(start);
      await page.getByLabel('Period end').fill(end);
      await page.getByLabel('Budget ($)').fill('500000');
      await page.getByTestId('fund-create-submit').click();
      await expect.poll(() => page.getByTestId('funds-notice').textContent(), { timeout: 15_000 }).toContain('Fund created.');
      const fund = page.getByTestId(`fund-${name}`);
      await expect.poll(() => fund.getByTestId(`org-chart-${name}-empty`).textContent()).toContain('No organisation has an allocation');

      await fund.getByTestId('allocate-by-rule').click();
      await page.getByLabel('Percent of delivered purchases').fill('2');
      await page.getByTestId('rule-preview').click();
      await expect.poll(() => page.getByTestId('rule-measured').textContent(), { timeout: 10_000 }).toContain('Purchases delivered');
      await page.screenshot({ path: `${SCREENS}/admin-rule-dialog-desktop.png` });
      await page.getByTestId('rule-apply').click();
      await expect.poll(() => page.getByTestId('funds-notice').textContent(), { timeout: 15_000 }).toContain('Allocations set by the rule.');
      await expect.poll(() => fund.textContent()).toContain('Allocated by rule: 2% of delivered purchases');
      await fund.getByTestId(`org-chart-${name}`).locator('svg').first().waitFor();
      await page.screenshot({ path: `${SCREENS}/admin-funds-charts-desktop.png`, fullPage: true });

      await fund.getByTestId('close-fund').click();
      await page.screenshot({ path: `${SCREENS}/admin-close-dialog-desktop.png` });
      await page.getByTestId('close-fund-submit').click();
      await expect.poll(() => page.getByTestId('funds-notice').textContent(), { timeout: 15_000 }).toContain('Fund period closed.');
      await expect.poll(() => fund.textContent()).toContain('Closed');
      expect(await fund.getByTestId('close-fund').count()).toBe(0);
    });

    for (const who of ['partner', 'admin'] as const) {
      await withPage(PHONE, async (page) => {
        await openFunds(page, who);
        if (who === 'admin') await page.getByTestId('tab-funds').click();
        const chart = page.getByTestId(who === 'admin' ? 'utilisation-chart' : 'period-chart');
        await chart.locator('svg').first().waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await page.screenshot({ path: `${SCREENS}/${who}-charts-phone.png`, fullPage: true });
      });
    }
    await withPage(DESKTOP, async (page) => {
      await openFunds(page, 'partner');
      await page.getByTestId('period-chart').locator('svg').first().waitFor();
      // What expires next is the available balance of the open fund ending first, as the balance route answers it.
      const balance = await balanceOf('partner');
      await expect.poll(() => page.getByTestId('balance-expiring').textContent()).toMatch(/^\$/);
      expect(Number((await page.getByTestId('balance-expiring').textContent())!.replace(/[$,]/g, ''))).toBeLessThanOrEqual(balance.available);
      await page.screenshot({ path: `${SCREENS}/partner-charts-desktop.png`, fullPage: true });
    });
  }, 180_000);
});
