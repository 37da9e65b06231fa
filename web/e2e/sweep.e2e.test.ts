/**
 * Every screen of the side menu, for every demo role, at desktop and phone width: no console error, no
 * failed request, and no text that betrays a broken figure ("0....", "0.000000", "NaN", "undefined").
 * The menu itself says which screens a role may open, so a new screen is swept the day it is added.
 */

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, demoEmail, signIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' });

const ROLES = ['admin', 'partner', 'distributor', 'manufacturer', 'support', 'partner.user', 'distributor.user'] as const;
const BROKEN_TEXT = /0\.\.\.\.|0\.000000|NaN|undefined/;

/** Requests that answered an error, and requests that never answered, while `page` was open. */
function watchRequests(page: Page): string[] {
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on('requestfailed', (request) => {
    // A navigation away aborts what the last screen still had in flight: that is not a failure of either screen.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED')
      failed.push(`failed ${request.method()} ${new URL(request.url()).pathname}: ${request.failure()?.errorText}`);
  });
  return failed;
}

async function settled(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  // Lists and charts fill in after their first answer.
  await page
    .waitForFunction(() => !document.querySelector('.MuiCircularProgress-root, .MuiLinearProgress-indeterminate'), undefined, { timeout: 10_000 })
    .catch(() => undefined);
}

describe('every screen of the menu, for every role, at both widths', () => {
  for (const role of ROLES) {
    it(`${role}: no console error, no failed request, no broken figure`, async () => {
      const problems: string[] = [];
      let screens: string[] = [];
      for (const viewport of [DESKTOP, PHONE]) {
        await e2e.withPage(viewport, async (page, consoleErrors) => {
          const failed = watchRequests(page);
          await signIn(page, demoEmail(role));
          await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 20_000 });
          await settled(page);
          if (viewport === DESKTOP) {
            await page.locator('a.RaMenuItemLink-root').first().waitFor({ timeout: 20_000 });
            screens = await page
              .locator('a.RaMenuItemLink-root')
              .evaluateAll((links) => [...new Set(links.map((a) => new URL((a as HTMLAnchorElement).href).pathname))]);
          }
          for (const screen of screens) {
            consoleErrors.length = 0;
            failed.length = 0;
            await page.goto(screen);
            // The portal restores the session before it draws the screen inside its layout.
            await page.locator('.RaLayout-content').first().waitFor({ timeout: 30_000 });
            await settled(page);
            const text = await page.locator('body').innerText();
            const where = `${screen} at ${viewport.width}px`;
            for (const error of consoleErrors) problems.push(`${where}: console error ${error.slice(0, 200)}`);
            for (const request of failed) problems.push(`${where}: ${request}`);
            const broken = BROKEN_TEXT.exec(text);
            if (broken) problems.push(`${where}: shows "${text.slice(Math.max(0, broken.index - 40), broken.index + 40).replace(/\s+/g, ' ')}"`);
          }
        });
      }
      expect(screens.length, `${role} has a menu`).toBeGreaterThan(2);
      expect(problems).toEqual([]);
    }, 300_000);
  }
});
