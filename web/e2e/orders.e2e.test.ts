/**
 * Ordering in a real browser: a partner fills the cart at phone width, reaches it from the app bar and
 * checks out with the address of the organisation's profile; an administrator finds the order in the
 * orders list (status tabs, date filter, sort by total, CSV export), ships it with a carrier, and the
 * partner follows it on the tracking page.
 */

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DESKTOP, demoEmail, DEMO_PASSWORD, PHONE, signIn, signedIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal({ LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' });
const { withPage } = e2e;

/** The API as a signed-in demo user, for the steps that set a scene rather than test a screen. */
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

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

let orderNumber = '';
let orderId = '';

const ordersFilter = (filter: Record<string, unknown>) => `/orders?filter=${encodeURIComponent(JSON.stringify(filter))}`;

describe('ordering', () => {
  it('a partner on a phone adds to cart, reaches the cart from the app bar and checks out with the prefilled address', async () => {
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

      // The cart opens after an add, with the notice inside it rather than a toast over it.
      const drawer = page.locator('.MuiDrawer-paper');
      await drawer.getByTestId('cart-added').getByText('HX-M2408 8-Port Gigabit Managed Switch added to cart').waitFor();
      expect(await page.locator('.MuiSnackbar-root').count()).toBe(0);
      expect(await drawer.getByTestId('cart-line').count()).toBe(1);
      expect(await drawer.getByTestId('cart-total').textContent()).toBe('$567.00');
      await drawer.getByRole('button', { name: 'Close cart' }).click();
      await drawer.waitFor({ state: 'hidden' });

      // The app bar's cart button carries the number of units and reopens the cart from any screen.
      const cartButton = page.getByTestId('app-bar-cart');
      expect(await cartButton.getAttribute('aria-label')).toBe('Open cart (3 items)');
      await page.getByRole('button', { name: 'Add HX-M2424 24-Port Gigabit Managed Switch to cart' }).click();
      await drawer.getByTestId('cart-line').nth(1).waitFor();
      await drawer.getByRole('button', { name: 'Close cart' }).click();
      await drawer.waitFor({ state: 'hidden' });
      await page.goto('/orders');
      await page.getByRole('heading', { name: 'Order Management', level: 1 }).waitFor();
      await cartButton.click();
      await page.waitForURL((url) => url.pathname === '/catalogue');
      await drawer.getByTestId('cart-line').nth(1).waitFor();
      // The stepper adds one more, then the line total follows.
      await drawer.getByRole('button', { name: 'Increase quantity of HX-M2424 24-Port Gigabit Managed Switch' }).click();
      await expect.poll(() => drawer.getByTestId('cart-total').textContent()).toBe('$1,865.00');
      await drawer.getByRole('button', { name: 'Proceed to Checkout' }).click();

      // The organisation's profile fills the address; a country other than the profile's makes the form warn.
      await page.waitForURL((url) => url.pathname === '/order/shipping', { timeout: 15_000 });
      await page.getByTestId('profile-prefill').waitFor();
      await expect.poll(() => page.locator('input[name="addressLine1"]').inputValue()).toBe('12 Harbour Exchange Square, London E14');
      expect(await page.locator('input[name="city"]').inputValue()).toBe('London');
      expect(await page.locator('input[name="phone"]').inputValue()).toBe('+1 555 0100');
      expect(await page.locator('input[name="firstName"]').inputValue()).toBe('Priya');
      expect(await page.getByTestId('country-mismatch').count()).toBe(0);
      await page.getByRole('combobox', { name: /Country/ }).click();
      await page.getByRole('option', { name: 'United States' }).click();
      await page
        .getByTestId('country-mismatch')
        .getByText(/profile gives its country as United Kingdom, but this order ships to United States/)
        .waitFor();
      await page.getByRole('combobox', { name: /Country/ }).click();
      await page.getByRole('option', { name: 'United Kingdom' }).click();
      await page.getByTestId('country-mismatch').waitFor({ state: 'detached' });

      // The demo partner's profile is a complete address: nothing of it is marked missing, and no address is typed.
      expect(await page.locator('input[name="state"]').inputValue()).toBe('Greater London');
      expect(await page.locator('input[name="zipCode"]').inputValue()).toBe('E14 9GE');
      expect(await page.getByText(/is required$/).count()).toBe(0);
      await page.getByRole('button', { name: 'Place Order' }).click();
      await page.getByText('Delivery date is required').waitFor();
      await page.locator('input[name="estimatedDelivery"]').fill(inDays(10));
      await page.locator('textarea[name="notes"]').fill('Browser test order');
      await page.getByRole('button', { name: 'Place Order' }).click();

      await page.waitForURL((url) => url.pathname === '/order/confirmation', { timeout: 15_000 });
      await page.getByRole('heading', { name: 'Order Confirmed', level: 1 }).waitFor();
      // The real status under the spec's heading, and a way to follow the order.
      await page.getByTestId('confirmation-status').getByText('Pending').waitFor();
      orderNumber = (await page.getByTestId('confirmation-order-number').textContent()) ?? '';
      expect(orderNumber).toMatch(/^ORD-\d{4}-\d{6}$/);
      expect(await page.getByTestId('confirmation-total').textContent()).toBe('$1,865.00');
      await page.getByText('12 Harbour Exchange Square, London E14').waitFor();
      // The contact is the configured one (System Settings), not a fixed text.
      await page.getByTestId('confirmation-contact').getByRole('link', { name: 'support@partnerhub.test' }).waitFor();
      expect(await cartButton.getAttribute('aria-label')).toBe('Open cart (empty)');
      await page.getByRole('button', { name: 'Track Order' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/order/track/'));
      await page.getByRole('heading', { name: `Order ${orderNumber}`, level: 1 }).waitFor();
    });
    const placed = await (await api('partner'))('GET', `/api/orders/${orderNumber}`);
    orderId = placed.json.data.id;
    expect(placed.json.data).toMatchObject({
      status: 'pending',
      total_amount: 1865,
      notes: 'Browser test order',
      shipping_address: { country: 'United Kingdom', city: 'London' },
    });
  }, 180_000);

  it('an admin filters by status tab and date, sorts by total, exports exactly the filtered rows and opens an order', async () => {
    expect(orderNumber).not.toBe('');
    const admin = await api('admin');
    const today = new Date().toISOString().slice(0, 10);
    // What the server holds for today's pending orders, largest first: the screen and the file must agree with it.
    const expected = await admin(
      'GET',
      `/api/orders?sort=${encodeURIComponent('["total_amount","DESC"]')}&range=${encodeURIComponent('[0,99]')}&filter=${encodeURIComponent(JSON.stringify({ status: 'pending', date_gte: today, date_lte: today }))}`,
    );
    const expectedNumbers = (expected.json as Array<{ order_number: string }>).map((o) => o.order_number);
    expect(expectedNumbers).toContain(orderNumber);

    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto('/orders');
      await page.getByTestId('order-row').first().waitFor();
      // The statistics cards and the spec's texts stay above the list.
      await page.getByTestId('stat-Total Orders').waitFor();

      await page.getByTestId('order-tab-pending').click();
      await page.locator('input[name="date_gte"]').fill(today);
      await page.locator('input[name="date_lte"]').fill(today);
      await expect.poll(() => page.getByTestId('order-tab-pending').textContent(), { timeout: 10_000 }).toBe(`Pending (${expectedNumbers.length})`);
      // Like Posters Galore, a total sorts largest first on the first click.
      await page.locator('th [data-field="total_amount"]').click();
      await expect.poll(async () => page.getByTestId('order-row').allTextContents(), { timeout: 10_000 }).toEqual(expectedNumbers.slice(0, 25));

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const csv = (await readFile((await download.path())!, 'utf8'))
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(csv[0].split(',').slice(0, 7)).toEqual(['order_number', 'order_date', 'company_name', 'placed_by', 'status', 'units', 'total_amount']);
      expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(expectedNumbers);

      // A row opens the order: its items, address, timeline and, for admins, the History.
      await page.locator(`[data-order-number="${orderNumber}"]`).click();
      await page.waitForURL((url) => url.pathname === `/order/track/${orderId}`);
      await page.getByRole('heading', { name: `Order ${orderNumber}`, level: 1 }).waitFor();
      await page.getByRole('table', { name: 'Order items' }).waitFor();
      await page.getByText('12 Harbour Exchange Square, London E14').waitFor();
      await page.getByTestId('order-history').getByText('Placed (Pending)').waitFor();
    });
  }, 180_000);

  it('an admin moves the order along with the dialog, shipping it with a carrier; Update Status leaves once the order is final', async () => {
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto(`/order/track/${orderId}`);
      const update = page.getByRole('button', { name: `Update status of ${orderNumber}` });
      for (const [status, label, note] of [
        ['approved', 'Approved', 'Stock confirmed by the warehouse'],
        ['shipped', 'Shipped', 'Two cartons'],
        ['delivered', 'Delivered', ''],
      ] as const) {
        await update.click();
        const dialog = page.getByRole('dialog', { name: 'Update Order Status' });
        await dialog.waitFor();
        // Only the allowed next statuses, the first preselected, the notes prefilled.
        await expect.poll(() => dialog.getByRole('combobox', { name: 'New status' }).textContent()).toBe(label);
        expect(await dialog.getByLabel('Notes').inputValue()).toBe(`Order ${status}.`);
        if (note) await dialog.getByLabel('Notes').fill(note);
        if (status === 'shipped') {
          // Shipping asks for the carrier and the tracking number before it goes anywhere.
          await dialog.getByRole('button', { name: 'Update Status' }).click();
          await dialog.getByText('Carrier is required to ship an order').waitFor();
          await dialog.getByText('Tracking number is required to ship an order').waitFor();
          await dialog.getByRole('combobox', { name: 'Carrier' }).fill('DHL Express');
          await dialog.getByLabel('Tracking number').fill('JD01 4600 0062 8100');
        }
        await dialog.getByRole('button', { name: 'Update Status' }).click();
        await dialog.waitFor({ state: 'hidden' });
        await page.getByTestId('orders-notice').getByText(`Order ${orderNumber} status successfully updated to ${label}`).waitFor();
        await page.locator(`[data-testid="timeline-step"][data-status="${status}"][data-done="true"]`).waitFor();
      }
      // Delivered is final: no Update Status any more.
      await expect.poll(() => update.count()).toBe(0);
      await page.goto(ordersFilter({ q: orderNumber }));
      await page.locator(`[data-order-number="${orderNumber}"]`).waitFor();
      expect(await page.getByRole('button', { name: `Update status of ${orderNumber}` }).count()).toBe(0);
    });
  }, 180_000);

  it("the partner's tracking page shows the carrier, the tracking number and each step with its time and note", async () => {
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'partner');
      await page.goto(ordersFilter({ q: orderNumber }));
      await page.locator(`[data-order-number="${orderNumber}"]`).click();
      await page.waitForURL((url) => url.pathname === `/order/track/${orderId}`);
      await page.getByRole('heading', { name: `Order ${orderNumber}`, level: 1 }).waitFor();
      await page.getByTestId('shipment').getByText('Shipped with DHL Express').waitFor();
      expect(await page.getByTestId('tracking-number').textContent()).toBe('JD01 4600 0062 8100');
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
      expect(await page.getByTestId('timeline-note').allTextContents()).toEqual(['Stock confirmed by the warehouse', 'Two cartons', 'Order delivered.']);
      // No admin action or History here.
      expect(await page.getByRole('button', { name: /Update status/ }).count()).toBe(0);
      expect(await page.getByTestId('order-history').count()).toBe(0);
    });
    // The partner's notification names the carrier and the tracking number too.
    const partner = await api('partner');
    await expect
      .poll(
        async () =>
          (await partner('GET', '/api/notifications?limit=50')).json.data.notifications.find(
            (n: { title: string }) => n.title === `Order ${orderNumber}: Shipped`,
          )?.body,
        { timeout: 15_000 },
      )
      .toContain('Carrier: DHL Express, tracking number JD01 4600 0062 8100.');
  }, 180_000);

  it('an invalid transition shows the message of spec 001 §8', async () => {
    // A second order; while the admin's dialog is open, someone else approves it.
    const partner = await api('partner');
    const admin = await api('admin');
    const products = await partner('GET', '/api/products?search=HX-M2424');
    const placed = await partner('POST', '/api/orders', {
      estimated_delivery: inDays(7),
      items: [{ product_id: products.json.data[0].id, quantity: 1 }],
      shipping_address: {
        firstName: 'Priya',
        lastName: 'Shah',
        email: 'p@northwind.test',
        phone: '+1 206 555 0100',
        addressLine1: '1 Pier',
        city: 'Seattle',
        state: 'WA',
        zipCode: '98101',
        country: 'United States',
      },
    });
    expect(placed.status).toBe(201);
    const second = placed.json.data;
    await withPage(DESKTOP, async (page) => {
      await signedIn(page, 'admin');
      await page.goto(ordersFilter({ q: second.order_number }));
      await page.locator(`[data-order-number="${second.order_number}"]`).waitFor();
      await page.getByRole('button', { name: `Update status of ${second.order_number}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Update Order Status' });
      await expect.poll(() => dialog.getByRole('combobox', { name: 'New status' }).textContent()).toBe('Approved');
      expect((await admin('PUT', `/api/orders/admin/${second.id}/status`, { status: 'approved' })).status).toBe(200);
      await dialog.getByRole('button', { name: 'Update Status' }).click();
      await dialog.getByTestId('status-notice').getByText('Invalid status transition: Cannot change status from approved to approved').waitFor();
      // Notices clear themselves after 3 seconds.
      await dialog.getByTestId('status-notice').waitFor({ state: 'detached', timeout: 6_000 });
    });
  });

  it("support staff read every organisation's orders but change none; without Orders.Track the screen is restricted", async () => {
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'support');
      await page.goto(ordersFilter({ q: orderNumber }));
      await page.locator(`[data-order-number="${orderNumber}"]`).click();
      await page.getByTestId('shipment').waitFor();
      expect(await page.getByRole('button', { name: /Update status/ }).count()).toBe(0);
      expect(await page.getByTestId('app-bar-cart').count()).toBe(0);
    });
    // A support colleague whose permissions were narrowed to the Support Center.
    const admin = await api('admin');
    const email = `support.${Date.now()}@partnerhub.test`;
    expect(
      (
        await admin('POST', '/api/users', {
          full_name: 'Sam Rivera',
          email,
          password: DEMO_PASSWORD,
          role: 'support',
          is_active: true,
          permissions: ['Support.Read'],
        })
      ).status,
    ).toBe(201);
    await withPage(PHONE, async (page) => {
      await signIn(page, email);
      await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
      await page.goto('/orders');
      const restricted = page.getByTestId('access-restricted');
      await restricted.getByText('Access Restricted').waitFor();
      await restricted.getByText('Delivery status').waitFor();
      await restricted.getByText('Your role: Support').waitFor();
      expect(await restricted.getByTestId('current-permissions').textContent()).toContain('Support.Read');
      expect(await page.getByTestId('order-row').count()).toBe(0);
    });
  });

  it('the confirmation page opened without an order says so and leads to the orders', async () => {
    await withPage(PHONE, async (page) => {
      await signedIn(page, 'manufacturer');
      await page.goto('/order/confirmation');
      await page.getByTestId('no-order').getByRole('link', { name: 'Orders page' }).click();
      await page.waitForURL((url) => url.pathname === '/orders');
    });
  });

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
  });
});
