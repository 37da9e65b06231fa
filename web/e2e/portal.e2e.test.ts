/**
 * The web app in a real browser against a whole portal (fresh database, demo data), served as the
 * production build from the API server.
 */

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../../src/testing/portal';
import { readFile } from 'node:fs/promises';
import { as, login } from '../../src/testing/api';
import { DEMO_PASSWORD, demoEmail, launchBrowser, openPage, signIn } from './browser';

let portal: TestPortal;
let browser: Browser;

beforeAll(async () => {
  portal = await startTestPortal({ web: true, listen: true });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

async function withPage<T>(work: (page: Page, consoleErrors: string[]) => Promise<T>, viewport?: { width: number; height: number }): Promise<T> {
  const { context, page, consoleErrors } = await openPage(browser, portal.url, viewport);
  try {
    return await work(page, consoleErrors);
  } finally {
    await context.close();
  }
}

const path = (page: Page) => new URL(page.url()).pathname;

describe('signing in', () => {
  it.each([
    ['admin', '/'],
    ['partner', '/partnerdashboard'],
    ['distributor', '/distributordashboard'],
    ['manufacturer', '/manufacturerdashboard'],
    ['support', '/support-dashboard'],
    ['partner.user', '/sub-user-dashboard'],
    ['distributor.user', '/sub-user-dashboard'],
  ])('%s lands on %s', async (name, landing) => {
    await withPage(async (page) => {
      await signIn(page, demoEmail(name));
      await page.waitForURL((url) => url.pathname === landing, { timeout: 15_000 });
      // The signed-in shell is there: the user menu and the page heading.
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(path(page)).toBe(landing);
      expect(await page.evaluate(() => localStorage.getItem('access'))).toBeTruthy();
    });
  });

  it("shows the server's message for a wrong password", async () => {
    await withPage(async (page) => {
      await signIn(page, demoEmail('manufacturer'), 'Wrong-password-1');
      await expect.poll(() => page.getByTestId('signin-error').textContent()).toBe('Invalid email or password.');
      expect(path(page)).toBe('/signin');
    });
  });

  it('enables SIGN IN only with a 5+ character email and a 4+ character password', async () => {
    await withPage(async (page) => {
      await page.goto('/signin');
      const button = page.getByRole('button', { name: 'SIGN IN' });
      const email = page.locator('input[name="email"]');
      const password = page.locator('input[name="password"]');
      await button.waitFor();
      expect(await button.isDisabled()).toBe(true);
      await email.fill('a@b.');
      await password.fill('abcd');
      expect(await button.isDisabled()).toBe(true);
      await email.fill('  a@b.  ');
      expect(await button.isDisabled()).toBe(true);
      await email.fill('a@b.c');
      await password.fill('abc');
      expect(await button.isDisabled()).toBe(true);
      await password.fill('abcd');
      expect(await button.isDisabled()).toBe(false);
      await password.fill('');
      await password.blur();
      await page.getByText('Password is required').waitFor();
    });
  });

  it('shows the heading for each sign-in type and offers registration to partners only', async () => {
    await withPage(async (page) => {
      for (const [query, heading, register] of [
        ['?type=partner', 'Partner Login', true],
        ['?type=distributor', 'Distributor Login', false],
        ['', 'Login', true],
      ] as const) {
        await page.goto(`/signin${query}`);
        await page.getByRole('heading', { name: heading, exact: true }).waitFor();
        await page.getByText('Grow, explore and succeed with us').first().waitFor();
        expect(await page.getByRole('button', { name: 'Register as a Partner' }).count()).toBe(register ? 1 : 0);
      }
    });
  });
});

describe('signed-out screens', () => {
  it('sends a signed-out visit to /orders to /signin', async () => {
    await withPage(async (page) => {
      await page.goto('/orders');
      await page.waitForURL((url) => url.pathname === '/signin', { timeout: 15_000 });
      await page.getByRole('button', { name: 'SIGN IN' }).waitFor();
    });
  });

  it('shows the sign-up validation messages', async () => {
    await withPage(async (page) => {
      await page.goto('/SignUp');
      const submit = page.getByRole('button', { name: 'Sign Up' });
      await submit.waitFor();
      expect(await submit.isDisabled()).toBe(true);
      const field = (name: string) => page.locator(`input[name="${name}"]`);

      await field('email').fill('not-an-email');
      await field('email').blur();
      await page.getByText('Please enter a valid email').waitFor();
      await field('email').fill('');
      await page.getByText('Email is required').waitFor();

      await field('password').fill('abc');
      await field('password').blur();
      await page.getByText('Password must be at least 6 characters').waitFor();
      await field('password').fill('abcdefg');
      await page.getByText('Password must contain at least one uppercase letter').waitFor();
      await field('password').fill('Abcdefg');
      await page.getByText('Password must contain at least one number').waitFor();
      await field('password').fill('');
      await page.getByText('Password is required').waitFor();

      await field('confirmPassword').focus();
      await field('confirmPassword').blur();
      await page.getByText('Confirm Password is required').waitFor();
      await field('password').fill('Abcdef1');
      await field('confirmPassword').fill('Abcdef2');
      await page.getByText('Passwords do not match').waitFor();

      await field('full_name').fill('Casey Rivers');
      await field('email').fill(`casey.${Date.now()}@example.test`);
      await field('confirmPassword').fill('Abcdef1');
      expect(await submit.isDisabled()).toBe(false);
      await submit.click();
      await page.getByRole('heading', { name: 'Account created' }).waitFor();
      await page.getByText('What happens next').waitFor();
    });
  });

  it("shows the server's reason when a partner registration fails", async () => {
    await withPage(async (page) => {
      await page.goto('/register-partner');
      await page.getByRole('heading', { name: 'Register as a Partner' }).waitFor();
      await page.getByRole('button', { name: 'Register' }).click();
      await expect.poll(() => page.getByTestId('register-error').textContent()).toBe('All fields are required.');
      await page.locator('input[name="company_name"]').fill('Taken Email Ltd');
      await page.locator('input[name="email"]').fill(demoEmail('partner'));
      await page.locator('input[name="password"]').fill('Secret123');
      await page.getByRole('button', { name: 'Register' }).click();
      await expect.poll(() => page.getByTestId('register-error').textContent()).toBe('Email already exists');
    });
  });
});

describe('access', () => {
  it('sends a partner opening /adminpanel to /', async () => {
    await withPage(async (page) => {
      await signIn(page, demoEmail('partner'));
      await page.waitForURL((url) => url.pathname === '/partnerdashboard', { timeout: 15_000 });
      await page.goto('/adminpanel');
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      await page.getByRole('heading', { level: 1, name: 'Partner Dashboard' }).waitFor();
      expect(await page.getByRole('menuitem', { name: 'Admin Panel' }).count()).toBe(0);
    });
  });

  it('shows a distributor (Partners.Read) only the tab it may use in the admin panel', async () => {
    await withPage(async (page, consoleErrors) => {
      await signIn(page, demoEmail('distributor'));
      await page.waitForURL((url) => url.pathname === '/distributordashboard', { timeout: 15_000 });
      await page.goto('/adminpanel?tab=users');
      await page.getByRole('heading', { level: 2, name: 'Approved Partners' }).waitFor();
      expect(await page.getByRole('tab').allTextContents()).toEqual(['Partner Approvals']);
      expect(await page.getByText('Total Users').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Add User' }).count()).toBe(0);
      expect(consoleErrors.filter((e) => e.includes('403'))).toEqual([]);
    });
  });

  it('shows the toast and returns to /signin when the session has expired', async () => {
    await withPage(async (page) => {
      await signIn(page, demoEmail('admin'));
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      // The server no longer accepts the tokens: the signature is broken and the refresh token unknown.
      await page.evaluate(() => {
        const access = localStorage.getItem('access')!;
        localStorage.setItem('access', `${access.slice(0, access.lastIndexOf('.'))}.invalid-signature`);
        localStorage.setItem('refresh', 'expired-refresh-token');
      });
      await page.goto('/adminpanel?tab=users');
      await page.getByText('Your session has expired or you lack permissions. Redirecting to login...').waitFor({ timeout: 15_000 });
      await page.waitForURL((url) => url.pathname === '/signin', { timeout: 15_000 });
      expect(await page.evaluate(() => localStorage.getItem('access'))).toBeNull();
    });
  });
});

describe('user management', () => {
  it('lets an admin add, edit and delete a user', async () => {
    await withPage(async (page) => {
      await signIn(page, demoEmail('admin'));
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      await page.goto('/adminpanel');
      await page.getByRole('tab', { name: 'Partner Approvals', selected: true }).waitFor();
      await page.getByRole('tab', { name: 'User Management' }).click();
      await page.getByTestId('user-row').first().waitFor();

      // Add User: the specification's messages, then a valid user.
      await page.getByRole('button', { name: 'Add User' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Add User' }).click();
      for (const message of ['Full name is required.', 'Email is required.', 'Password is required.', 'Role is required.']) {
        await dialog.getByText(message).waitFor();
      }
      expect(await dialog.getByTestId('permission-picker').count()).toBe(0);
      const name = `Riley Quinn ${Date.now()}`;
      const email = `riley.${Date.now()}@example.test`;
      await dialog.locator('input[name="full_name"]').fill(name);
      await dialog.locator('input[name="email"]').fill('riley@');
      await dialog.locator('input[name="password"]').fill('abc');
      await dialog.getByRole('button', { name: 'Add User' }).click();
      await dialog.getByText('Email is invalid.').waitFor();
      await dialog.getByText('Password must be at least 6 characters.').waitFor();
      await dialog.locator('input[name="email"]').fill(email);
      await dialog.locator('input[name="password"]').fill('Secret123');
      await dialog.getByRole('combobox').click();
      await page.getByRole('option', { name: 'Support' }).click();
      await dialog.getByTestId('permission-picker').waitFor();
      await dialog.getByRole('button', { name: 'Add User' }).click();
      await page.getByText('User successfully registered').waitFor();
      await dialog.waitFor({ state: 'detached' });

      await page.getByPlaceholder('Search by name').fill(name);
      const row = page.getByTestId('user-row').filter({ hasText: name });
      await row.waitFor();
      expect(await row.textContent()).toContain('Inactive');

      // Edit User: the role is fixed; name and status change.
      await row.getByRole('button', { name: `Edit ${name}` }).click();
      const editDialog = page.getByRole('dialog');
      expect(await editDialog.getByRole('combobox').getAttribute('aria-disabled')).toBe('true');
      const renamed = `${name} Jr`;
      await editDialog.locator('input[name="full_name"]').fill(renamed);
      await editDialog.getByLabel('Active').check();
      await editDialog.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('User updated successfully').waitFor();
      await page.getByPlaceholder('Search by name').fill(renamed);
      const renamedRow = page.getByTestId('user-row').filter({ hasText: renamed });
      await expect
        .poll(
          async () =>
            (await renamedRow.count()) === 1 && (await renamedRow.textContent())?.includes('Active') && !(await renamedRow.textContent())?.includes('Inactive'),
        )
        .toBe(true);

      // History shows the change with its actor, field by field.
      await renamedRow.getByRole('button', { name: `History of ${renamed}` }).click();
      const renaming = page
        .getByTestId('record-history')
        .getByTestId('version')
        .filter({ hasText: `Full name: ${name} → ${renamed}` });
      await renaming.getByText(/by Alex Morgan \(Admin\)/).waitFor();
      await page.getByRole('button', { name: 'Close history' }).click();

      // Delete User.
      await renamedRow.getByRole('button', { name: `Delete ${renamed}` }).click();
      await page.getByText(`Are you sure you want to delete user ${renamed}? This action cannot be undone.`).waitFor();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await page.getByText(`User ${renamed} deleted successfully`).waitFor();
      await expect.poll(() => renamedRow.count()).toBe(0);
    });
  });
});

describe('erasing a person', () => {
  it('needs a reason, then the person is gone from the list and cannot sign in; the admin cannot erase themselves', async () => {
    const admin = await login(portal.app, demoEmail('admin'));
    const name = `Erin Erasable ${Date.now().toString(36)}`;
    const email = `erin.${Date.now()}@example.test`;
    const created = await as(
      portal.app,
      admin,
    )({
      method: 'POST',
      url: '/api/users',
      payload: { full_name: name, email, password: 'Secret123', role: 'support', is_active: true, permissions: ['Support.Read'] },
    });
    expect(created.statusCode, created.body).toBe(201);

    await withPage(async (page) => {
      await signIn(page, demoEmail('admin'));
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      await page.goto('/adminpanel?tab=users');
      await page.getByTestId('user-row').first().waitFor();
      expect(await page.getByRole('button', { name: 'Erase personal data of Alex Morgan' }).count()).toBe(0);
      await page.getByPlaceholder('Search by name').fill(name);
      const row = page.getByTestId('user-row').filter({ hasText: name });
      await row.waitFor();
      await row.getByRole('button', { name: `Erase personal data of ${name}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Erase personal data' });
      expect(await dialog.getByRole('button', { name: 'Erase' }).isDisabled()).toBe(true);
      await dialog.getByLabel(/Reason/).fill('Asked for erasure by e-mail');
      await dialog.getByRole('button', { name: 'Erase' }).click();
      await page.getByText('User erased: their personal data can no longer be read.').waitFor();
      await expect.poll(() => row.count()).toBe(0);
    });
    expect((await portal.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'Secret123' } })).statusCode).not.toBe(200);
  });
});

describe('user management bulk actions and export', () => {
  it('deactivates the ticked users at once and exports exactly the filtered rows', async () => {
    const admin = await login(portal.app, demoEmail('admin'));
    const tag = `Bulk ${Date.now().toString(36)}`;
    for (const n of [1, 2]) {
      const created = await as(
        portal.app,
        admin,
      )({
        method: 'POST',
        url: '/api/users',
        payload: {
          full_name: `${tag} Person ${n}`,
          email: `bulk.${n}.${Date.now()}@example.test`,
          password: 'Secret123',
          role: 'support',
          is_active: true,
          permissions: ['Support.Read'],
        },
      });
      expect(created.statusCode, created.body).toBe(201);
    }

    await withPage(async (page) => {
      await signIn(page, demoEmail('admin'));
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      await page.goto('/adminpanel?tab=users');
      await page.getByTestId('user-row').first().waitFor();
      await page.getByPlaceholder('Search by name').fill(tag);
      const rows = page.getByTestId('user-row').filter({ hasText: tag });
      await expect.poll(() => page.getByTestId('user-row').count()).toBe(2);

      // Export: a CSV of exactly the rows the search selects.
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const csv = await readFile((await download.path())!, 'utf8');
      const lines = csv.trim().split('\n');
      expect(lines[0]).toBe('Name,Email,Role,Company,Status,Permissions,Created');
      expect(
        lines
          .slice(1)
          .map((line) => line.split(',')[0])
          .sort(),
      ).toEqual([`${tag} Person 1`, `${tag} Person 2`]);

      // Bulk deactivate: tick every row on the page, then Deactivate.
      await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
      const bulkBar = page.getByTestId('bulk-toolbar');
      await bulkBar.getByText('2 selected').waitFor();
      await bulkBar.getByRole('button', { name: 'Deactivate' }).click();
      await page.getByText('2 users deactivated.').waitFor();
      await expect
        .poll(async () => {
          const texts = await rows.allTextContents();
          return texts.length > 0 && texts.every((text) => text.includes('Inactive'));
        })
        .toBe(true);
      await bulkBar.waitFor({ state: 'detached' });
    });
  });
});

describe('product management bulk delete', () => {
  it('deletes the ticked products at once after a confirmation', async () => {
    const admin = await login(portal.app, demoEmail('admin'));
    const tag = `HX-B${Date.now().toString(36)}`;
    for (const n of [1, 2]) {
      const form = new FormData();
      for (const [name, value] of Object.entries({
        name: `${tag} Switch ${n}`,
        price: '99.00',
        category: 'Managed Switches',
        stock_quantity: '5',
        moq: '1',
        description: 'Made for the bulk delete test.',
      }))
        form.append(name, value);
      const created = await fetch(`${portal.url}/api/products`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin.accessToken}` } });
      expect(created.status, await created.clone().text()).toBe(201);
    }

    await withPage(async (page) => {
      await signIn(page, demoEmail('admin'));
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      await page.goto('/adminpanel?tab=products');
      await page.getByTestId('product-row').first().waitFor();
      await page.getByPlaceholder('Search products').fill(tag);
      await expect.poll(() => page.getByTestId('product-row').count()).toBe(2);

      await page.getByRole('checkbox', { name: `Select ${tag} Switch 1` }).check();
      const bulkBar = page.getByTestId('bulk-toolbar');
      await bulkBar.getByText('1 selected').waitFor();
      await page.getByRole('checkbox', { name: `Select ${tag} Switch 2` }).check();
      await bulkBar.getByText('2 selected').waitFor();
      await bulkBar.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Are you sure you want to delete 2 products? This action cannot be undone.').waitFor();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('2 products deleted.').waitFor();
      await page.getByText('No products found').waitFor();
      await bulkBar.waitFor({ state: 'detached' });
    });
  });
});

describe('production build', () => {
  it('loads without console errors (Content-Security-Policy violations included) and keeps the admin screens out of the sign-in page', async () => {
    await withPage(async (page, consoleErrors) => {
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      const answer = await page.goto('/signin');
      // The app runs under the portal's policy: a violation would be a console error below.
      expect(answer?.headers()['content-security-policy']).toContain("script-src 'self'");
      await page.getByRole('button', { name: 'SIGN IN' }).waitFor();
      expect(scripts.some((script) => /AdminPanel|UserList/.test(script))).toBe(false);

      await page.locator('input[name="email"]').fill(demoEmail('admin'));
      await page.locator('input[name="password"]').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'SIGN IN' }).click();
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      await page.getByRole('heading', { level: 2, name: 'Dashboards' }).waitFor();
      await page.goto('/adminpanel?tab=users');
      await page.getByTestId('user-row').first().waitFor();
      await page.goto('/change-password');
      await page.getByRole('heading', { level: 1, name: 'Change Password' }).waitFor();
      expect(consoleErrors).toEqual([]);
    });
  });

  it('answers index.html for app routes and 404 for unknown API paths', async () => {
    const page = await fetch(`${portal.url}/partnerdashboard`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(await page.text()).toContain('<div id="root">');
    const api = await fetch(`${portal.url}/api/no-such-route`, { headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
  });
});
