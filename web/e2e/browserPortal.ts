import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startTestPortal, type TestPortal } from '../../src/testing/portal';
import { launchBrowser, openPage } from './browser';

/**
 * A portal serving the built web app, and a headless browser, for one test file: started before its
 * tests and closed after them. `withPage` gives each test a fresh browser context (no cookies or
 * storage left by another test) and the console errors its page logged.
 */
export function useBrowserPortal(env?: Record<string, string>) {
  let portal: TestPortal | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    portal = await startTestPortal({ web: true, listen: true, env });
    browser = await launchBrowser();
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });
  return {
    get portal(): TestPortal {
      return portal!;
    },
    get browser(): Browser {
      return browser!;
    },
    async withPage<T>(viewport: { width: number; height: number }, work: (page: Page, consoleErrors: string[]) => Promise<T>): Promise<T> {
      const { context, page, consoleErrors } = await openPage(browser!, portal!.url, viewport);
      try {
        return await work(page, consoleErrors);
      } finally {
        await context.close();
      }
    },
  };
}
