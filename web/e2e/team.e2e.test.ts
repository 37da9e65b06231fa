/**
 * Team management in a real browser: a partner adds a member with two permissions, the member signs
 * in and sees exactly those features and uses them, the partner narrows the permissions and the
 * member's menu follows on its next request; an invited member sets a password from the link.
 */

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, demoEmail, openPage, PHONE, signIn } from './browser';
import { useBrowserPortal } from './browserPortal';

const e2e = useBrowserPortal();
const { withPage } = e2e;

const menuEntries = async (page: Page) => (await page.getByRole('menuitem').allTextContents()).map((text) => text.trim()).filter(Boolean);

describe('a partner’s team', () => {
  it('adds a member with two permissions; the member uses exactly those; narrowing them changes the member’s menu', { timeout: 120_000 }, async () => {
    const { context: partnerContext, page: partner, consoleErrors } = await openPage(e2e.browser, e2e.portal.url, DESKTOP);
    const { context: memberContext, page: member } = await openPage(e2e.browser, e2e.portal.url, DESKTOP);
    try {
      await signIn(partner, demoEmail('partner'));
      await partner.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
      await partner.goto('/partner/team-management');
      await partner.getByRole('heading', { level: 1, name: 'Team Management' }).waitFor();
      await partner.getByTestId('team-row').first().waitFor();
      expect(await partner.getByTestId('team-showing').textContent()).toMatch(/^Showing 1 to \d+ of \d+ team members$/);

      await partner.getByRole('button', { name: 'Add Team Member' }).click();
      const dialog = partner.getByRole('dialog');
      const submit = dialog.getByRole('button', { name: 'Add Team Member' });
      await dialog.getByLabel('First Name').fill('N');
      await dialog.getByLabel('Last Name').click();
      await dialog.getByText('First name must be at least 2 characters').waitFor();
      expect(await submit.isDisabled()).toBe(true);
      await dialog.getByLabel('First Name').fill('Nora');
      await dialog.getByLabel('Last Name').fill('Vik');
      await dialog.getByLabel('Email').fill('nora.vik@northwind.test');
      await dialog.locator('input[type="password"]').fill('Secret123');
      await dialog.getByRole('group', { name: 'Permissions' }).waitFor();
      expect(await submit.isDisabled()).toBe(true);
      await dialog.getByLabel('View Projects', { exact: true }).check();
      await dialog.getByLabel('Track Orders', { exact: true }).check();
      await submit.click();
      await partner.getByText('Team member added successfully!').waitFor();
      await partner.getByRole('cell', { name: 'nora.vik@northwind.test' }).waitFor();

      await signIn(member, 'nora.vik@northwind.test', 'Secret123');
      await member.waitForURL((url) => url.pathname === '/sub-user-dashboard', { timeout: 15_000 });
      await member.getByRole('heading', { level: 1, name: 'Welcome to Partner Portal' }).waitFor();
      const cards = await member.locator('main').getByRole('heading', { level: 2 }).allTextContents();
      expect(cards).toEqual(['Projects', 'Orders']);
      expect(await menuEntries(member)).toEqual(['Welcome', 'Projects', 'Orders', 'Activity']);
      await member.getByRole('menuitem', { name: 'Orders', exact: true }).click();
      await member.waitForURL((url) => url.pathname === '/orders');
      await member
        .getByText(/ORD-\d{4}-\d{6}/)
        .first()
        .waitFor();

      // The partner takes Orders away; the member's next request brings the change.
      await partner.getByRole('button', { name: 'Edit Nora Vik' }).click();
      const edit = partner.getByRole('dialog');
      await edit.getByLabel('Track Orders', { exact: true }).uncheck();
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await partner.getByText('Team member updated successfully!').waitFor();

      await member.goto('/sub-user-dashboard');
      await member.getByRole('heading', { level: 1, name: 'Welcome to Partner Portal' }).waitFor();
      await expect.poll(() => menuEntries(member), { timeout: 15_000 }).toEqual(['Welcome', 'Projects', 'Activity']);
      expect(await member.locator('main').getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Projects']);
      expect(consoleErrors).toEqual([]);
    } finally {
      await partnerContext.close();
      await memberContext.close();
    }
  });

  it('works at phone width, with the empty text while searching', async () => {
    await withPage(PHONE, async (page) => {
      await signIn(page, demoEmail('distributor'));
      await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
      await page.goto('/distributor/team-management');
      await page.getByTestId('team-row').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page
        .getByRole('button', { name: /^View / })
        .first()
        .click();
      await page
        .getByRole('dialog')
        .getByText(/Permissions \(\d+ total\)/)
        .waitFor();
      await page.getByRole('button', { name: 'Close' }).click();
      await page.getByLabel('Search team members').fill('nobody-here');
      await page.getByText('No team members found matching your search.').waitFor();
    });
  });
});

describe('an invitation', () => {
  it('is sent from the form and its link lets the member choose a password and sign in', async () => {
    const link = await withPage(DESKTOP, async (page) => {
      await signIn(page, demoEmail('partner'));
      await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 15_000 });
      await page.goto('/partner/team-management');
      await page.getByRole('button', { name: 'Add Team Member' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('First Name').fill('Ida');
      await dialog.getByLabel('Last Name').fill('Strand');
      await dialog.getByLabel('Email').fill('ida.strand@northwind.test');
      await dialog.getByLabel(/Invite by e-mail/).check();
      await dialog.getByLabel('View Projects', { exact: true }).check();
      await dialog.getByRole('button', { name: 'Send Invitation' }).click();
      const field = dialog.getByLabel('Invitation link');
      await field.waitFor();
      return field.inputValue();
    });
    await withPage(DESKTOP, async (page) => {
      await page.goto(new URL(link).pathname + new URL(link).search);
      await page.getByText(/Ida Strand, you are invited to join Northwind Networks/).waitFor();
      await page.getByLabel('Password', { exact: true }).fill('Chosen2026');
      await page.getByLabel('Confirm Password').fill('Chosen2026');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Your password is set. You can sign in now.').waitFor();
      await signIn(page, 'ida.strand@northwind.test', 'Chosen2026');
      await page.waitForURL((url) => url.pathname === '/sub-user-dashboard', { timeout: 15_000 });
      await page.goto(new URL(link).pathname + new URL(link).search);
      await page.getByText('This invitation has already been used. Sign in with the password you chose.').waitFor();
    });
  });
});
