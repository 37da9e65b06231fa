/**
 * Ordering in a real browser: a partner fills the cart at phone width and checks out, an
 * administrator moves the order through its statuses, and the partner follows it on the tracking page.
 */

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../../src/testing/portal';
import { DESKTOP, demoEmail, DEMO_PASSWORD, launchBrowser, openPage, PHONE, signIn } from './browser';

let portal: TestPortal;
let browser: Browser;

beforeAll(async () => {
  portal = await startTestPortal({ web: true, listen: true, env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function withPage<T>(viewport: { width: number; height: number }, work: (page: Page) => Promise<T>): Promise<T> {
  const { context, page } = await openPage(browser, portal.url, viewport);
  try {
    return await work(page);
  } finally {
    await context.close();
  }
}

async function signedIn(page: Page, name: string) {
  await signIn(page, demoEmail(name));
  await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
}

/** The API as a signed-in demo user, for the steps that set a scene rather than test a screen. */
async function api(name: string) {
  const login = await fetch(`${portal.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: demoEmail(name), password: DEMO_PASSWORD }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${portal.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, json: (await response.json()) as any };
  };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

let orderNumber = '';
let orderId = '';

describe('ordering', () => {
  it('a partner fills the cart at phone width (the drawer opens after each add), checks out and sees the confirmation', async () => {
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'partner');
      await page.goto('/catalogue');
      await page.getByRole('heading', { name: 'Product Catalogue', level: 1 }).waitFor();

      // The quantity starts at the MOQ; an out-of-stock product cannot be added.
      const outOfStock = page.getByRole('button', { name: 'Add HX-U116 16-Port Gigabit Rackmount Switch to cart' });
      await outOfStock.waitFor();
      expect(await outOfStock.isDisabled()).toBe(true);
      const quantity = page.getByRole('spinbutton', { name: 'Quantity of HX-M2408 8-Port Gigabit Managed Switch' });
      expect(await quantity.inputValue()).toBe('2');
      await quantity.fill('3');
      await page.getByRole('button', { name: 'Add HX-M2408 8-Port Gigabit Managed Switch to cart' }).click();

      const drawer = page.locator('.MuiDrawer-paper');
      await drawer.getByTestId('cart-line').first().waitFor();
      expect(await drawer.getByTestId('cart-line').count()).toBe(1);
      expect(await drawer.getByTestId('cart-total').textContent()).toBe('$567.00');
      await drawer.getByRole('button', { name: 'Close cart' }).click();
      await drawer.waitFor({ state: 'hidden' });

      await page.getByRole('button', { name: 'Add HX-M2424 24-Port Gigabit Managed Switch to cart' }).click();
      await drawer.getByTestId('cart-line').nth(1).waitFor();
      // The stepper adds one more, then the line total follows.
      await drawer.getByRole('button', { name: 'Increase quantity of HX-M2424 24-Port Gigabit Managed Switch' }).click();
      await expect.poll(() => drawer.getByTestId('cart-total').textContent()).toBe('$1,865.00');
      await drawer.getByRole('button', { name: 'Proceed to Checkout' }).click();

      await page.waitForURL((url) => url.pathname === '/order/shipping', { timeout: 15_000 });
      await page.getByRole('button', { name: 'Place Order' }).click();
      await page.getByText('Phone number is required').waitFor();
      await page.getByText('Delivery date is required').waitFor();
      await page.locator('input[name="phone"]').fill('+1 206 555 0142');
      await page.locator('input[name="addressLine1"]').fill('410 Harbour Steps');
      await page.locator('input[name="city"]').fill('Seattle');
      await page.locator('input[name="state"]').fill('WA');
      await page.locator('input[name="zipCode"]').fill('98101');
      await page.locator('input[name="estimatedDelivery"]').fill(inDays(10));
      await page.locator('textarea[name="notes"]').fill('Browser test order');
      await page.getByRole('button', { name: 'Place Order' }).click();

      await page.waitForURL((url) => url.pathname === '/order/confirmation', { timeout: 15_000 });
      await page.getByRole('heading', { name: 'Order Confirmed', level: 1 }).waitFor();
      await page.getByText('Confirmed', { exact: true }).waitFor();
      orderNumber = (await page.getByTestId('confirmation-order-number').textContent()) ?? '';
      expect(orderNumber).toMatch(/^ORD-\d{4}-\d{6}$/);
      expect(await page.getByTestId('confirmation-total').textContent()).toBe('$1,865.00');
      await page.getByText('410 Harbour Steps').waitFor();
      await page.getByRole('button', { name: 'Return to Orders' }).click();
      await page.waitForURL((url) => url.pathname === '/orders');
      await page.locator(`[data-order-number="${orderNumber}"]`).waitFor();
    });
    const placed = await (await api('partner'))('GET', `/api/orders/${orderNumber}`);
    orderId = placed.json.data.id;
    expect(placed.json.data).toMatchObject({ status: 'pending', total_amount: 1865, notes: 'Browser test order' });
  }, 90_000);

  it('an admin moves the order pending → approved → shipped → delivered with the dialog', async () => {
    expect(orderNumber).not.toBe('');
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/orders');
      await page.getByRole('textbox', { name: 'Search orders by order ID or company' }).fill(orderNumber);
      const card = page.locator(`[data-order-number="${orderNumber}"]`);
      await card.waitFor();
      await expect.poll(() => page.getByTestId('order-card').count()).toBe(1);

      for (const [status, label, note] of [
        ['approved', 'Approved', 'Stock confirmed by the warehouse'],
        ['shipped', 'Shipped', 'Tracking 1Z 999 AA1'],
        ['delivered', 'Delivered', ''],
      ] as const) {
        await card.getByRole('button', { name: `Update status of ${orderNumber}` }).click();
        const dialog = page.getByRole('dialog', { name: 'Update Order Status' });
        await dialog.waitFor();
        // Only the allowed next statuses, the first preselected, the notes prefilled.
        await expect.poll(() => dialog.getByRole('combobox').textContent()).toBe(label);
        expect(await dialog.getByLabel('Notes').inputValue()).toBe(`Order ${status}.`);
        if (note) await dialog.getByLabel('Notes').fill(note);
        await dialog.getByRole('button', { name: 'Update Status' }).click();
        await dialog.waitFor({ state: 'hidden' });
        await page.getByTestId('orders-notice').getByText(`Order ${orderNumber} status successfully updated to ${label}`).waitFor();
        await card.locator(`[data-status="${status}"]`).waitFor();
      }
      // The notice clears itself after 3 seconds.
      await page.getByTestId('orders-notice').waitFor({ state: 'detached', timeout: 6_000 });

      await card.getByRole('button', { name: `Update status of ${orderNumber}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Update Order Status' });
      await dialog.getByText('No valid status transitions available').waitFor();
      expect(await dialog.getByRole('button', { name: 'Update Status' }).isDisabled()).toBe(true);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });
  }, 90_000);

  it("the partner's tracking page shows each step with its time and note", async () => {
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'partner');
      await page.goto('/orders');
      const card = page.locator(`[data-order-number="${orderNumber}"]`);
      await card.getByRole('button', { name: `Track ${orderNumber}` }).click();
      await page.waitForURL((url) => url.pathname === `/order/track/${orderId}`);
      await page.getByRole('heading', { name: `Order ${orderNumber}`, level: 1 }).waitFor();
      const steps = page.getByTestId('timeline-step');
      await expect.poll(() => steps.count()).toBe(4);
      expect(await steps.evaluateAll((nodes) => nodes.map((n) => [n.getAttribute('data-status'), n.getAttribute('data-done')]))).toEqual([
        ['pending', 'true'],
        ['approved', 'true'],
        ['shipped', 'true'],
        ['delivered', 'true'],
      ]);
      const times = await page.getByTestId('timeline-time').allTextContents();
      expect(times).toHaveLength(4);
      for (const time of times) expect(time).toMatch(/\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2} (AM|PM)/);
      expect(await page.getByTestId('timeline-note').allTextContents()).toEqual(['Stock confirmed by the warehouse', 'Tracking 1Z 999 AA1', 'Order delivered.']);
      // No admin action here.
      expect(await page.getByRole('button', { name: /Update status/ }).count()).toBe(0);
    });
  }, 90_000);

  it('an invalid transition shows the message of spec 001 §8', async () => {
    // A second order; while the admin's dialog is open, someone else approves it.
    const partner = await api('partner');
    const admin = await api('admin');
    const products = await partner('GET', '/api/products?search=HX-M2424');
    const placed = await partner('POST', '/api/orders', {
      estimated_delivery: inDays(7),
      items: [{ product_id: products.json.data[0].id, quantity: 1 }],
      shipping_address: { firstName: 'Priya', lastName: 'Shah', email: 'p@northwind.test', phone: '+1 206 555 0100', addressLine1: '1 Pier', city: 'Seattle', state: 'WA', zipCode: '98101', country: 'United States' },
    });
    expect(placed.status).toBe(201);
    const second = placed.json.data;
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/orders');
      await page.getByRole('textbox', { name: 'Search orders by order ID or company' }).fill(second.order_number);
      const card = page.locator(`[data-order-number="${second.order_number}"]`);
      await card.getByRole('button', { name: `Update status of ${second.order_number}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Update Order Status' });
      await expect.poll(() => dialog.getByRole('combobox').textContent()).toBe('Approved');
      expect((await admin('PUT', `/api/orders/admin/${second.id}/status`, { status: 'approved' })).status).toBe(200);
      await dialog.getByRole('button', { name: 'Update Status' }).click();
      await dialog.getByTestId('status-notice').getByText('Invalid status transition: Cannot change status from approved to approved').waitFor();
      // Notices clear themselves after 3 seconds.
      await dialog.getByTestId('status-notice').waitFor({ state: 'detached', timeout: 6_000 });
    });
  }, 90_000);

  it('without Orders.Track the orders screen is restricted and names Delivery status, the role and the permissions', async () => {
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'support');
      await page.goto('/orders');
      const restricted = page.getByTestId('access-restricted');
      await restricted.getByText('Access Restricted').waitFor();
      await restricted.getByText('Delivery status').waitFor();
      await restricted.getByText('Your role: Support').waitFor();
      expect(await restricted.getByTestId('current-permissions').textContent()).toContain('Support.Read');
      expect(await page.getByTestId('order-card').count()).toBe(0);
    });
  }, 90_000);

  it('an unknown order, or one of another organisation, shows Order Not Found with Go Back', async () => {
    const distributorOrder = (await (await api('distributor'))('GET', '/api/orders?limit=1')).json.data.orders[0];
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'partner');
      for (const id of ['ORD-2001-999999', distributorOrder.id]) {
        await page.goto(`/order/track/${id}`);
        await page.getByRole('heading', { name: 'Order Not Found', level: 1 }).waitFor();
        await page.getByRole('button', { name: 'Go Back' }).waitFor();
      }
    });
  }, 90_000);
});
