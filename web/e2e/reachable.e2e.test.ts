/**
 * Screens that lead somewhere: the Downloads library from the menu, Comprehensive Support with the configured
 * hours and only cards with something behind them (the learning ones for those who may learn), Live Chat for a manufacturer, the Admin Panel for a
 * distributor, and a visible Track action on a partner's order rows. Screenshots go to SCREENSHOT_DIR when set.
 */

import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, signedIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' });
const { withPage } = e2e;

async function shot(page: Page, name: string) {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: path.join(dir, `${name}-${page.viewportSize()?.width}.png`) });
}

describe('screens that lead somewhere', () => {
  it('/downloads is the resources library, for a partner and for a manufacturer', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      await withPage(viewport, async (page, consoleErrors) => {
        await signedIn(page, 'partner');
        await page.goto('/downloads');
        await page.getByRole('heading', { name: 'Downloads', level: 1 }).waitFor();
        await page.getByText('HX-M2424 datasheet').waitFor();
        await page.getByText('IMS-810 installation manual').waitFor();
        expect(await page.getByText('Distributor price list Q4 2026').count()).toBe(0);
        await shot(page, 'downloads-partner');
        expect(consoleErrors).toEqual([]);
      });
    }
    await withPage(DESKTOP, async (page, consoleErrors) => {
      await signedIn(page, 'manufacturer');
      await page.goto('/downloads');
      await page.getByText('HX-M2424 datasheet').waitFor();
      expect(await page.getByText('Firmware 4.2.1 release notes').count()).toBe(0);
      expect(consoleErrors).toEqual([]);
    });
  });

  it('Comprehensive Support shows the configured hours and only cards with something behind them; Live Chat works for a manufacturer', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      await withPage(viewport, async (page, consoleErrors) => {
        await signedIn(page, 'manufacturer');
        await page.goto('/comprehensive-support');
        await page.getByText('Support hours: Monday to Friday, 8:00–18:00 CET; Critical tickets around the clock').waitFor();
        expect(await page.getByText(/24\/7/).count()).toBe(0);
        expect(await page.getByRole('link', { name: /Live Chat/ }).count()).toBe(0);
        // Manufacturers read the course catalogue, so the learning cards lead somewhere for them.
        for (const shown of ['Learn & Earn', 'Training Videos', 'Tech Gallery']) await page.getByRole('link', { name: new RegExp(shown) }).waitFor();
        await page.getByRole('link', { name: /FAQs/ }).waitFor();
        await page.getByRole('link', { name: /Downloads/ }).waitFor();
        await shot(page, 'comprehensive-support-manufacturer');
        await page.goto('/live-chat');
        await page.getByRole('link', { name: /Call \+1 800 555 0199/ }).waitFor();
        expect(consoleErrors).toEqual([]);
      });
    }
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'partner');
      await page.goto('/comprehensive-support');
      await page.getByRole('link', { name: 'Submit Ticket' }).waitFor();
      await shot(page, 'comprehensive-support-partner');
    });
  });

  it('the Admin Panel shows a distributor the approved partners, never an empty pending count', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      await withPage(viewport, async (page) => {
        await signedIn(page, 'distributor');
        await page.goto('/adminpanel');
        await page.getByRole('heading', { name: 'Approved Partners' }).waitFor();
        await page.getByTestId('partner-application').filter({ hasText: 'Northwind Networks' }).first().waitFor();
        expect(await page.getByLabel('Pending Approvals').count()).toBe(0);
        expect(await page.getByText('No pending applications').count()).toBe(0);
        await shot(page, 'adminpanel-distributor');
      });
    }
  });

  it('the Admin Panel tabs scroll at 1280 px rather than being cut', async () => {
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/adminpanel');
      const tabs = page.getByRole('tablist', { name: 'Admin panel sections' });
      await tabs.waitFor();
      const settings = page.getByRole('tab', { name: 'System Settings' });
      await settings.scrollIntoViewIfNeeded();
      await settings.click();
      await page.getByRole('tab', { name: 'System Settings', selected: true }).waitFor();
      const box = (await settings.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(1280);
      await shot(page, 'adminpanel-admin');
    });
  });

  it("a partner's order rows carry a visible Track action", async () => {
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'partner');
      await page.goto('/orders');
      const track = page.getByRole('link', { name: /^Track ORD-/ }).first();
      await track.waitFor();
      await shot(page, 'orders-partner');
      await track.click();
      await page.waitForURL((url) => url.pathname.startsWith('/order/track/'));
    });
  });
});
