/** Debian's chromium, driven headless by playwright-core (no downloaded browsers). */

import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export const DEMO_PASSWORD = 'Demo2026!';
export const demoEmail = (name: string) => `${name}@partnerhub.test`;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** A page that records console errors and failed page loads, for the "no errors" checks. */
export async function openPage(browser: Browser, baseURL: string, viewport: { width: number; height: number } = DESKTOP) {
  const context: BrowserContext = await browser.newContext({ baseURL, viewport });
  const page: Page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  return { context, page, consoleErrors };
}

/** Signs in through the form and waits for the landing route. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, type?: 'partner' | 'distributor') {
  await page.goto(type ? `/signin?type=${type}` : '/signin');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'SIGN IN' }).click();
}

/** Signs a demo account in (`admin` for admin@partnerhub.test) and waits until the portal has left the sign-in page. */
export async function signedIn(page: Page, name: string): Promise<void> {
  await signIn(page, demoEmail(name));
  await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
}
