/**
 * Webhooks in a real browser: an organisation's owner adds an endpoint pointing at a local consumer,
 * sees the signing secret once, and sees the deliveries of its events in the log; the admin sees the
 * vendor's and every organisation's endpoints. Screenshots at desktop and phone width go to
 * WEBHOOK_SHOTS (default /tmp/webhooks-screens).
 */

import http from 'node:http';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, demoEmail, DEMO_PASSWORD, PHONE, signedIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
const { withPage } = e2e;
const SCREENS = process.env.WEBHOOK_SHOTS ?? '/tmp/webhooks-screens';
mkdirSync(SCREENS, { recursive: true });

let consumer: http.Server;
let hookUrl = '';
let secret = '';
const verified: string[] = [];
const refused: string[] = [];

beforeAll(async () => {
  consumer = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        new Webhook(secret).verify(raw, request.headers as Record<string, string>);
        verified.push(JSON.parse(raw).type);
        response.writeHead(200).end('thanks');
      } catch (error) {
        refused.push((error as Error).message);
        response.writeHead(400).end('bad signature');
      }
    });
  });
  await new Promise<void>((resolve) => consumer.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(consumer.address() as AddressInfo).port}/partnerhub`;
});
afterAll(() => new Promise((resolve) => consumer?.close(resolve)));

async function api(name: string, method: string, path: string, body?: unknown) {
  const login = await fetch(`${e2e.portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoEmail(name), password: DEMO_PASSWORD }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const response = await fetch(`${e2e.portal.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await response.json()) as { data: { id: string; organisation_id: string | null } };
}

describe('webhooks', () => {
  it('an owner creates an endpoint, sees the secret once, and sees the deliveries of its events', async () => {
    await withPage(DESKTOP, async (page, consoleErrors) => {
      await signedIn(page, 'partner');
      await page.goto('/webhooks');
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      // The demo's inactive example endpoint of this organisation.
      await page.getByText('https://erp.northwind.example/partnerhub/webhooks').waitFor();
      await page.screenshot({ path: `${SCREENS}/list-partner-desktop.png` });

      await page.getByRole('button', { name: 'Add endpoint' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
      await dialog.getByLabel('URL').fill(hookUrl);
      await dialog.getByText('lead.assigned', { exact: true }).click();
      await dialog.getByText('lead.status_changed', { exact: true }).click();
      await expect.poll(() => dialog.getByText('lead.created', { exact: true }).count()).toBe(0);
      await page.screenshot({ path: `${SCREENS}/create-desktop.png` });
      await dialog.getByRole('button', { name: 'Add endpoint' }).click();

      const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
      await secretDialog.waitFor();
      secret = (await secretDialog.getByTestId('webhook-secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);
      await page.screenshot({ path: `${SCREENS}/secret-desktop.png` });
      await secretDialog.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => page.getByText(secret).count()).toBe(0);

      // An event of the organisation: a lead offered to it.
      const lead = await api('admin', 'POST', '/leads', {
        company: `Browser Hook Customer ${Date.now().toString(36)}`,
        contact_name: 'Ada Lovelace',
        email: 'ada@browser-hook.example',
        country: 'IS',
        region: 'EMEA',
        source: 'event',
      });
      const partnerId = ((await api('partner', 'GET', '/auth/me')) as unknown as { user: { id: string } }).user.id;
      if (lead.data.organisation_id !== partnerId)
        await api('admin', 'POST', `/leads/${lead.data.id}/assign`, { organisation_id: partnerId, reason: 'Browser test' });
      await expect.poll(() => verified.includes('lead.assigned'), { timeout: 20_000 }).toBe(true);
      expect(refused).toEqual([]);

      await page.getByText(hookUrl).click();
      await page.getByRole('heading', { name: 'Webhook endpoint', level: 1 }).waitFor();
      await expect.poll(async () => (await page.getByTestId('delivery').first().textContent()) ?? '', { timeout: 15_000 }).toContain('lead.assigned');
      await expect.poll(async () => (await page.getByTestId('delivery').first().textContent()) ?? '').toContain('Delivered');
      expect(await page.getByText(secret).count()).toBe(0);
      await page.screenshot({ path: `${SCREENS}/deliveries-desktop.png` });

      await page.getByRole('button', { name: 'Replay…' }).click();
      await page.getByRole('dialog', { name: 'Replay events' }).waitFor();
      await page.screenshot({ path: `${SCREENS}/replay-desktop.png` });
      await page.getByRole('dialog', { name: 'Replay events' }).getByRole('button', { name: 'Replay' }).click();
      await expect.poll(() => verified.filter((t) => t === 'lead.assigned').length, { timeout: 20_000 }).toBeGreaterThan(1);
      expect(consoleErrors).toEqual([]);
    });
  });

  it('phone layout: endpoints as cards, deliveries as cards', async () => {
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'partner');
      await page.goto('/webhooks');
      await page.getByText(hookUrl).waitFor();
      await page.screenshot({ path: `${SCREENS}/list-partner-phone.png`, fullPage: true });
      await page.getByText(hookUrl).click();
      await expect.poll(async () => page.getByTestId('delivery').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      await page.screenshot({ path: `${SCREENS}/deliveries-phone.png`, fullPage: true });
    });
  });

  it('admins see the vendor endpoints and every organisation; filters narrow the list and say when nothing matches', async () => {
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/webhooks');
      await page.getByText('https://crm.partnerhub.example/hooks/partnerhub').waitFor();
      await page.getByText('Atlas Distribution').first().waitFor();
      await page.screenshot({ path: `${SCREENS}/list-admin-desktop.png` });
      await page.getByLabel('Search URL').fill('no-such-endpoint');
      await page.getByText('No endpoint matches').waitFor();
      await page.screenshot({ path: `${SCREENS}/list-empty-filter-desktop.png` });
    });
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/webhooks');
      await page.getByText('https://crm.partnerhub.example/hooks/partnerhub').waitFor();
      await page.screenshot({ path: `${SCREENS}/list-admin-phone.png`, fullPage: true });
    });
  });
});
