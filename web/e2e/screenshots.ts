/**
 * Screenshots of every screen at desktop (1280×800) and phone (390×844) width, and a check that
 * nothing is wider than the viewport.
 *
 *   tsx web/e2e/screenshots.ts [base URL, default http://127.0.0.1:3000] [output dir, default /tmp/screens]
 */

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, PHONE, demoEmail, launchBrowser, openPage, signIn } from './browser';

const baseUrl = process.argv[2] ?? 'http://127.0.0.1:3000';
const outDir = process.argv[3] ?? '/tmp/screens';
mkdirSync(outDir, { recursive: true });

type Viewport = { width: number; height: number };
interface Shot {
  name: string;
  path: string;
  as?: string;
  /** Runs after the page settles, before the screenshot. */
  then?: (page: Page, phone: boolean) => Promise<void>;
  /** The whole scrolling page, not only the viewport (long screens such as dashboards). */
  fullPage?: boolean;
}

const settle = async (page: Page) => {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(400);
};

/** Elements wider than the viewport (the usual cause of sideways scrolling on phones). */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) found.push(`page scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    for (const element of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (rect.right > width + 1 && getComputedStyle(element).position !== 'fixed') {
        let scrollable = false;
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          const style = getComputedStyle(parent);
          if (/(auto|scroll|hidden)/.test(style.overflowX) && parent !== document.body && parent !== document.documentElement) {
            scrollable = true;
            break;
          }
        }
        if (!scrollable) found.push(`${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]} right=${Math.round(rect.right)}`);
      }
    }
    // A table in a scrolling container does not widen the page, but on a desktop it still hides columns behind a sideways scroll.
    if (width >= 1000) {
      for (const container of Array.from(document.querySelectorAll<HTMLElement>('.MuiTableContainer-root'))) {
        if (container.scrollWidth > container.clientWidth + 1)
          found.push(
            `table "${container.querySelector('table')?.getAttribute('aria-label') ?? ''}" scrolls sideways (${container.scrollWidth} > ${container.clientWidth})`,
          );
      }
    }
    return found.slice(0, 5);
  });
}

/** A dashboard's figures and charts are drawn. */
const dashboardLoaded = async (page: Page) => {
  await page.getByTestId('dashboard-figures').waitFor();
  await page.locator('[data-testid="chart-card"] svg').first().waitFor();
  await page.waitForTimeout(600);
};

const openUsersTab = async (page: Page) => {
  await page.getByTestId('user-row').first().waitFor();
};

const SHOTS: Shot[] = [
  { name: 'signin', path: '/signin' },
  { name: 'signin-partner', path: '/signin?type=partner' },
  {
    name: 'signin-distributor-error',
    path: '/signin?type=distributor',
    then: async (page) => {
      await page.locator('input[name="email"]').fill('distributor@partnerhub.test');
      await page.locator('input[name="password"]').fill('wrong-password');
      await page.getByRole('button', { name: 'SIGN IN' }).click();
      await page.getByTestId('signin-error').waitFor();
    },
  },
  {
    name: 'signup-errors',
    path: '/SignUp',
    then: async (page) => {
      await page.locator('input[name="email"]').fill('nope');
      await page.locator('input[name="password"]').fill('abc');
      await page.locator('input[name="confirmPassword"]').fill('abd');
      await page.locator('input[name="full_name"]').focus();
    },
  },
  { name: 'register-partner', path: '/register-partner', then: async (page) => void (await page.getByRole('button', { name: 'Register' }).click()) },
  { name: 'partner-onboarding', path: '/partner-onboarding' },
  { name: 'admin-home', path: '/', as: 'admin' },
  {
    name: 'admin-menu-open',
    path: '/',
    as: 'admin',
    then: async (page, phone) => {
      if (phone)
        await page
          .getByRole('button', { name: /open menu|menu/i })
          .first()
          .click();
      await page.waitForTimeout(400);
    },
  },
  {
    name: 'admin-user-menu',
    path: '/',
    as: 'admin',
    then: async (page) => {
      await page.getByRole('button', { name: 'Profile' }).click();
      await page.getByText('Change Password').waitFor();
    },
  },
  {
    name: 'admin-notifications',
    path: '/',
    as: 'admin',
    then: async (page) => {
      await page.getByRole('button', { name: /Notifications/ }).click();
      await page.getByRole('heading', { name: 'Notifications' }).waitFor();
    },
  },
  { name: 'admin-dashboard', path: '/administratordashboard', as: 'admin', fullPage: true, then: dashboardLoaded },
  { name: 'adminpanel-approvals', path: '/adminpanel', as: 'admin' },
  { name: 'adminpanel-users', path: '/adminpanel?tab=users', as: 'admin', then: openUsersTab },
  {
    name: 'adminpanel-add-user',
    path: '/adminpanel?tab=users',
    as: 'admin',
    then: async (page) => {
      await openUsersTab(page);
      await page.getByRole('button', { name: 'Add User' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Add User' }).click();
      await dialog.getByText('Full name is required.').waitFor();
      await dialog.getByRole('combobox').click();
      await page.getByRole('option', { name: 'Distributor' }).click();
      await dialog.getByTestId('permission-picker').waitFor();
    },
  },
  {
    name: 'adminpanel-edit-user',
    path: '/adminpanel?tab=users',
    as: 'admin',
    then: async (page) => {
      await openUsersTab(page);
      await page
        .getByRole('button', { name: /^Edit / })
        .nth(1)
        .click();
      await page.getByRole('dialog').getByText('Edit User').waitFor();
    },
  },
  {
    name: 'adminpanel-delete-user',
    path: '/adminpanel?tab=users',
    as: 'admin',
    then: async (page) => {
      await openUsersTab(page);
      await page
        .getByRole('button', { name: /^Delete / })
        .nth(1)
        .click();
      await page.getByText(/Are you sure you want to delete user/).waitFor();
    },
  },
  {
    name: 'adminpanel-history',
    path: '/adminpanel?tab=users',
    as: 'admin',
    then: async (page) => {
      await openUsersTab(page);
      await page
        .getByRole('button', { name: /^History of / })
        .first()
        .click();
      await page.getByTestId('record-history').getByTestId('version').first().waitFor();
    },
  },
  { name: 'adminpanel-settings', path: '/adminpanel?tab=settings', as: 'admin' },
  {
    name: 'adminpanel-users-bulk',
    path: '/adminpanel?tab=users',
    as: 'admin',
    then: async (page) => {
      await openUsersTab(page);
      const boxes = page.getByRole('checkbox', { name: /^Select (?!all)/ });
      await boxes.nth(1).check();
      await boxes.nth(2).check();
      await page.getByTestId('bulk-toolbar').waitFor();
    },
  },
  {
    name: 'adminpanel-users-empty',
    path: '/adminpanel?tab=users',
    as: 'admin',
    then: async (page) => {
      await openUsersTab(page);
      await page.getByPlaceholder('Search by name').fill('zzz-nobody-by-this-name');
      await page.getByTestId('list-empty').waitFor();
    },
  },
  {
    name: 'adminpanel-products',
    path: '/adminpanel?tab=products',
    as: 'admin',
    then: async (page) => void (await page.getByTestId('product-row').first().waitFor()),
  },
  {
    name: 'adminpanel-products-bulk',
    path: '/adminpanel?tab=products',
    as: 'admin',
    then: async (page) => {
      await page.getByTestId('product-row').first().waitFor();
      const boxes = page.getByRole('checkbox', { name: /^Select (?!all)/ });
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await page.getByTestId('bulk-toolbar').waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
    },
  },
  {
    name: 'adminpanel-approve-defaults',
    path: '/adminpanel',
    as: 'admin',
    then: async (page) => {
      await page
        .getByRole('button', { name: /^Approve / })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name: 'Approve Partner' });
      await dialog.getByLabel(/Authorized Distributor/).check();
      await dialog.getByTestId('approve-permissions-hint').waitFor();
    },
  },
  {
    name: 'adminpanel-partner-history',
    path: '/adminpanel',
    as: 'admin',
    then: async (page) => {
      await page.getByRole('button', { name: 'All', exact: true }).click();
      await page
        .getByRole('button', { name: /^History of / })
        .first()
        .click();
      await page.getByTestId('partner-history-entry').first().waitFor();
    },
  },
  { name: 'manufacturer-adminpanel', path: '/adminpanel', as: 'manufacturer' },
  { name: 'manufacturer-products-page', path: '/products', as: 'manufacturer' },
  { name: 'manufacturer-orders', path: '/orders', as: 'manufacturer' },
  { name: 'partner-products-page', path: '/products', as: 'partner' },
  { name: 'partneronboarding-no-application', path: '/partneronboarding' },
  {
    name: 'partneronboarding-partner',
    path: '/partneronboarding',
    as: 'partner',
    then: async (page) => void (await page.getByTestId('own-application').waitFor()),
  },
  {
    name: 'change-password',
    path: '/change-password',
    as: 'admin',
    then: async (page) => {
      await page.locator('input[name="currentPassword"]').fill('Demo2026!');
      await page.locator('input[name="newPassword"]').fill('Better2027');
      await page.locator('input[name="confirmPassword"]').fill('Better2028');
      await page.getByRole('button', { name: 'Change Password' }).click();
      await page.getByText('New passwords do not match').first().waitFor();
    },
  },
  { name: 'projects', path: '/projects', as: 'partner' },
  {
    name: 'projects-table',
    path: '/projects',
    as: 'admin',
    then: async (page) => {
      await page.getByRole('button', { name: 'Table view' }).click();
      await page.getByRole('table', { name: 'Projects' }).waitFor();
    },
  },
  {
    name: 'orders-filters-open',
    path: '/orders',
    as: 'admin',
    then: async (page, phone) => {
      if (phone) await page.getByRole('button', { name: 'Filters' }).click();
    },
  },
  {
    name: 'projects-create',
    path: '/projects',
    as: 'partner',
    then: async (page) => {
      await page.getByRole('button', { name: 'New Project' }).click();
      await page.getByRole('dialog').getByText('A deal registration is valid for 60 days').waitFor();
    },
  },
  {
    name: 'projects-edit',
    path: '/projects',
    as: 'partner',
    then: async (page) => {
      await page
        .getByRole('button', { name: /^Manage / })
        .first()
        .click();
      await page.getByTestId('important-notice').waitFor();
    },
  },
  { name: 'project-details', path: '/projects', as: 'partner', then: (page) => openFirstProject(page, 'Overview') },
  { name: 'project-team', path: '/projects', as: 'partner', then: (page) => openFirstProject(page, 'Team', 'Contoso Retail store network refresh') },
  { name: 'project-orders', path: '/projects', as: 'partner', then: (page) => openFirstProject(page, 'Orders', 'Contoso Retail store network refresh') },
  { name: 'project-timeline', path: '/projects', as: 'partner', then: (page) => openFirstProject(page, 'Timeline', 'Contoso Retail store network refresh') },
  { name: 'projects-restricted', path: '/projects', as: 'distributor' },
  {
    name: 'partner-directory-projects',
    path: '/partnerdirectory',
    as: 'distributor',
    then: async (page) =>
      void (await page
        .getByText(/\d+ projects?/)
        .first()
        .waitFor()),
  },
  {
    name: 'adminpanel-registrations',
    path: '/adminpanel?tab=registrations',
    as: 'admin',
    then: async (page) => void (await page.getByTestId('conflict-side-Earlier registration').first().waitFor()),
  },
  {
    name: 'project-history',
    path: '/projects',
    as: 'admin',
    then: async (page) => {
      await openFirstProject(page, 'History');
      await page.getByTestId('version').first().waitFor();
    },
  },
  {
    name: 'project-history-as-of',
    path: '/projects',
    as: 'admin',
    then: async (page) => {
      await openFirstProject(page, 'History');
      // The oldest version: the project as registered, with everything changed since highlighted.
      await page.getByTestId('version').last().getByRole('button', { name: 'View as of this version' }).click();
      await page.getByTestId('changed-since-count').waitFor();
    },
  },
  {
    name: 'order-history',
    path: '/orders',
    as: 'admin',
    then: async (page) => {
      await page
        .getByRole('button', { name: /^History of / })
        .first()
        .click();
      await page.getByTestId('version').first().waitFor();
    },
  },
  { name: 'partner-dashboard', path: '/partnerdashboard', as: 'partner' },
  { name: 'partner-dashboard', path: '/partnerdashboard', as: 'partner', fullPage: true, then: dashboardLoaded },
  { name: 'distributor-dashboard', path: '/distributordashboard', as: 'distributor', fullPage: true, then: dashboardLoaded },
  { name: 'manufacturer-dashboard', path: '/manufacturerdashboard', as: 'manufacturer', fullPage: true, then: dashboardLoaded },
  { name: 'support-dashboard', path: '/support-dashboard', as: 'support', fullPage: true, then: dashboardLoaded },
  {
    name: 'admin-partner-dashboard-selected',
    path: '/partnerdashboard',
    as: 'admin',
    fullPage: true,
    then: async (page) => {
      await dashboardLoaded(page);
      await page.getByLabel('Partner').fill('northwind');
      await page.getByRole('option', { name: /Priya Shah/ }).click();
      await page.getByText('Showing the figures of Priya Shah').waitFor();
      await dashboardLoaded(page);
    },
  },
  {
    name: 'admin-dashboard-selector-empty',
    path: '/distributordashboard',
    as: 'admin',
    then: async (page) => {
      await dashboardLoaded(page);
      await page.getByLabel('Distributor').fill('no such company');
      await page.getByText('No Distributors found matching the search').waitFor();
    },
  },
  { name: 'partner-adminpanel-redirect', path: '/adminpanel', as: 'partner' },
  { name: 'partner-solutions', path: '/partner-solutions', as: 'partner' },
  { name: 'support-rebates-restricted', path: '/rebates', as: 'support' },
  { name: 'partner-rebates-overview', path: '/rebates', as: 'partner', then: async (page) => void (await page.getByTestId('quarter-chart').waitFor()) },
  {
    name: 'partner-rebates-submit',
    path: '/rebates?tab=submit',
    as: 'partner',
    then: async (page) => {
      await page.getByRole('button', { name: 'Submit Rebate' }).click();
      await page.getByText('Product name is required').waitFor();
    },
  },
  {
    name: 'partner-rebates-history',
    path: '/rebates?tab=history',
    as: 'partner',
    then: async (page) => void (await page.getByTestId('rebate-row').first().waitFor()),
  },
  {
    name: 'partner-rebates-detail',
    path: '/rebates?tab=history',
    as: 'partner',
    then: async (page) => {
      await page.locator('[data-testid="rebate-row"][data-status="rejected"]').first().click();
      await page.getByTestId('version').first().waitFor();
    },
  },
  {
    name: 'partner-rebates-progress',
    path: '/rebates?tab=progress',
    as: 'partner',
    then: async (page) => void (await page.getByTestId('progress-title').waitFor()),
  },
  { name: 'admin-rebates-page', path: '/rebates', as: 'admin', then: async (page) => void (await page.getByTestId('admin-access-note').waitFor()) },
  {
    name: 'adminpanel-rebates',
    path: '/adminpanel?tab=rebates',
    as: 'admin',
    then: async (page) => void (await page.getByTestId('rebate-row').first().waitFor()),
  },
  {
    name: 'adminpanel-rebates-approve',
    path: '/adminpanel?tab=rebates',
    as: 'admin',
    then: async (page) => {
      await page
        .locator('[data-testid="rebate-row"][data-status="pending"]')
        .first()
        .getByRole('button', { name: /^Approve / })
        .click();
      await page.getByRole('dialog', { name: 'Approve Rebate' }).waitFor();
    },
  },
  {
    name: 'adminpanel-rebates-reject',
    path: '/adminpanel?tab=rebates',
    as: 'admin',
    then: async (page) => {
      await page
        .locator('[data-testid="rebate-row"][data-status="processing"]')
        .first()
        .getByRole('button', { name: /^Reject / })
        .click();
      await page.getByRole('dialog', { name: 'Reject Rebate' }).getByLabel('Reason for rejection').fill('The invoice date is outside the programme period.');
    },
  },
  {
    name: 'adminpanel-rebates-detail',
    path: '/adminpanel?tab=rebates',
    as: 'admin',
    then: async (page) => {
      await page.getByRole('textbox', { name: 'Search rebates' }).fill('ORD-');
      await page.getByTestId('match-chip').first().waitFor();
      await page
        .getByRole('button', { name: /^View ORD-/ })
        .first()
        .click();
      await page.getByTestId('rebate-match').waitFor();
    },
  },
  { name: 'sub-user-dashboard', path: '/sub-user-dashboard', as: 'partner.user' },
  { name: 'distributor-solutions', path: '/distributor-solutions', as: 'distributor' },
  { name: 'supportcenter-partner', path: '/supportcenter', as: 'partner', then: async (page) => void (await page.getByTestId('ticket-row').first().waitFor()) },
  {
    name: 'supportcenter-create',
    path: '/supportcenter',
    as: 'partner',
    then: async (page) => {
      await page.getByRole('button', { name: 'Create Ticket' }).click();
      await page.getByRole('dialog', { name: 'Create Ticket' }).getByRole('button', { name: 'Create Ticket' }).click();
      await page.getByText('Title is required').waitFor();
    },
  },
  {
    name: 'supportcenter-ticket-partner',
    path: '/supportcenter',
    as: 'partner',
    then: async (page) => {
      await page.getByRole('button', { name: /HX-M2424 reboots/ }).click();
      await page.getByTestId('public-entry').first().waitFor();
    },
  },
  { name: 'supportcenter-queue', path: '/supportcenter', as: 'support', then: async (page) => void (await page.getByTestId('overdue-chip').first().waitFor()) },
  {
    name: 'supportcenter-ticket-support',
    path: '/supportcenter',
    as: 'support',
    then: async (page) => {
      await page.getByRole('button', { name: /HX-M2424 reboots/ }).click();
      await page.getByTestId('internal-entry').first().waitFor();
    },
  },
  {
    name: 'supportcenter-warranty',
    path: '/supportcenter?tab=warranty',
    as: 'partner',
    then: async (page) => {
      const serial = await page.evaluate(async () => {
        const token = localStorage.getItem(Object.keys(localStorage).find((key) => key.toLowerCase().includes('access')) ?? '') ?? '';
        const orders = await (await fetch('/api/orders?status=delivered', { headers: { Authorization: `Bearer ${token}` } })).json();
        const order = await (await fetch(`/api/orders/${orders.data.orders[0].id}`, { headers: { Authorization: `Bearer ${token}` } })).json();
        return order.data.serial_numbers[0].serial_number as string;
      });
      await page.getByLabel('Serial number').fill(serial);
      await page.getByRole('button', { name: 'Check Warranty' }).click();
      await page.getByTestId('warranty-result').waitFor();
    },
  },
  { name: 'supportcenter-contact', path: '/supportcenter?tab=contact', as: 'partner' },
  { name: 'comprehensive-support', path: '/comprehensive-support', as: 'partner' },
  {
    name: 'supportcenter-downloads',
    path: '/supportcenter?tab=downloads',
    as: 'partner',
    then: async (page) => void (await page.getByTestId('resource-row').first().waitFor()),
  },
  {
    name: 'supportcenter-downloads-admin',
    path: '/supportcenter?tab=downloads',
    as: 'admin',
    then: async (page) => void (await page.getByTestId('resource-row').first().waitFor()),
  },
  { name: 'supportcenter-faqs', path: '/faqs', as: 'partner' },
  { name: 'supportcenter-live-chat', path: '/live-chat', as: 'partner' },
  { name: 'team-partner', path: '/partner/team-management', as: 'partner', then: async (page) => void (await page.getByTestId('team-row').first().waitFor()) },
  {
    name: 'team-partner-add',
    path: '/partner/team-management',
    as: 'partner',
    then: async (page) => {
      await page.getByRole('button', { name: 'Add Team Member' }).click();
      await page.getByRole('group', { name: 'Permissions' }).waitFor();
      await page.getByLabel('First Name').fill('N');
      await page.getByLabel('Email').click();
    },
  },
  {
    name: 'team-distributor-details',
    path: '/distributor/team-management',
    as: 'distributor',
    then: async (page) => {
      await page
        .getByRole('button', { name: /^View / })
        .first()
        .click();
      await page.getByRole('dialog').waitFor();
    },
  },
  { name: 'team-member-restricted', path: '/partner/team-management', as: 'partner.user' },
  { name: 'team-invitation-invalid', path: '/team-invitation?token=not-a-real-link' },
  { name: 'audit-log', path: '/audit', as: 'admin', then: async (page) => void (await page.getByTestId('audit-line').first().waitFor()) },
  {
    name: 'audit-log-filtered',
    path: '/audit',
    as: 'admin',
    then: async (page) => {
      await page.getByRole('combobox', { name: 'Event type' }).fill('OrderStatusChanged.v1');
      await page
        .getByText(/Order ORD-\S+ /)
        .first()
        .waitFor();
    },
  },
  { name: 'activity-partner', path: '/activity', as: 'partner', then: async (page) => void (await page.getByTestId('activity-line').first().waitFor()) },
  { name: 'activity-distributor-user', path: '/activity', as: 'distributor.user' },
  ...['contract', 'orders', 'account', 'rebates'].map((tab) => ({
    name: `governance-${tab}`,
    path: `/partnership-governance?tab=${tab}`,
    as: 'partner',
    then: async (page: Page) => void (await page.getByText('Northwind Networks:').waitFor()),
  })),
  { name: 'governance-distributor-rebates', path: '/distributor/partnership-governance?tab=rebates', as: 'distributor' },
  {
    name: 'programme-partner',
    path: '/partnership-governance',
    as: 'partner',
    fullPage: true,
    then: async (page) => void (await page.getByTestId('tier-ladder').waitFor()),
  },
  {
    name: 'programme-partner-scorecard',
    path: '/partnership-governance?tab=scorecard',
    as: 'partner',
    fullPage: true,
    then: async (page) =>
      void (await page.locator('[data-testid="own-scorecard"] [data-testid="chart-card"], [data-testid="scorecard-empty"]').first().waitFor()),
  },
  { name: 'programme-partner-dashboard', path: '/partnerdashboard', as: 'partner', then: dashboardLoaded },
  {
    name: 'programme-scorecards',
    path: '/programme',
    as: 'admin',
    then: async (page) => void (await page.locator('[data-testid="scorecard-row"], [data-testid="list-empty"]').first().waitFor()),
  },
  {
    name: 'programme-tiers',
    path: '/programme?tab=tiers',
    as: 'admin',
    fullPage: true,
    then: async (page) => void (await page.getByTestId('tier-row').first().waitFor()),
  },
  {
    name: 'programme-tier-editor',
    path: '/programme?tab=tiers',
    as: 'admin',
    then: async (page) => {
      await page.getByTestId('tier-row').last().getByRole('button', { name: 'Edit' }).click();
      await page.getByTestId('tier-editor').waitFor();
    },
  },
  {
    name: 'programme-evaluations',
    path: '/programme?tab=evaluations',
    as: 'admin',
    then: async (page) => {
      const run = page.getByTestId('evaluation-run').first();
      if (
        await run.waitFor({ timeout: 5000 }).then(
          () => true,
          () => false,
        )
      ) {
        await run.click();
        await page.getByTestId('run-results').waitFor();
      }
    },
  },
  {
    name: 'programme-scorecard-page',
    path: '/programme',
    as: 'admin',
    fullPage: true,
    then: async (page) => {
      await page.getByTestId('scorecard-row').first().getByRole('link').first().click();
      await page.getByTestId('standing').waitFor();
      await page.locator('[data-testid="chart-card"] svg, [data-testid="scorecard-empty"]').first().waitFor();
    },
  },
  {
    name: 'programme-manufacturer',
    path: '/programme',
    as: 'manufacturer',
    then: async (page) => void (await page.locator('[data-testid="scorecard-row"], [data-testid="list-empty"]').first().waitFor()),
  },
  {
    name: 'programme-directory',
    path: '/partnerdirectory',
    as: 'distributor',
    then: async (page) => void (await page.getByTestId('directory-card').first().waitFor()),
  },
  {
    name: 'inventory',
    path: '/distributor/inventory',
    as: 'distributor',
    then: async (page) => void (await page.getByTestId('inventory-row').first().waitFor()),
  },
  { name: 'api-keys-partner', path: '/api-keys', as: 'partner', then: async (page) => void (await page.getByTestId('api-key-row').first().waitFor()) },
  ...['configuration', 'templates', 'notifications', 'access', 'api-keys', 'backup'].map((section) => ({
    name: `settings-${section}`,
    path: `/adminpanel?tab=settings&section=${section}`,
    as: 'admin',
    then: async (page: Page) => void (await page.locator('section h3').first().waitFor()),
  })),
  {
    name: 'settings-api-key-created',
    path: '/adminpanel?tab=settings&section=api-keys',
    as: 'admin',
    then: async (page) => {
      await page.getByRole('textbox', { name: /^Name/ }).fill('Screenshot BI');
      await page.getByRole('checkbox', { name: /orders:read$/ }).check();
      await page.getByRole('button', { name: 'Create API key' }).click();
      await page.getByTestId('api-key-secret').waitFor();
    },
  },
  { name: 'learn-earn', path: '/learn-earn', as: 'partner', then: async (page) => void (await page.getByTestId('catalogue').waitFor()) },
  { name: 'orders-admin', path: '/orders', as: 'admin', then: async (page) => void (await page.getByTestId('order-row').first().waitFor()) },
  {
    name: 'orders-admin-list',
    path: '/orders',
    as: 'admin',
    then: async (page) => void (await page.getByRole('region', { name: 'Orders' }).scrollIntoViewIfNeeded()),
  },
  {
    name: 'orders-admin-filtered',
    path: '/orders',
    as: 'admin',
    then: async (page) => {
      await page.getByTestId('order-tab-shipped').click();
      await page.locator('input[name="total_gte"]').fill('1000');
      await page.waitForTimeout(800);
      await page.getByRole('tablist', { name: 'Filter orders by status' }).scrollIntoViewIfNeeded();
    },
  },
  {
    name: 'orders-admin-empty',
    path: '/orders?filter=%7B%22q%22%3A%22no-such-order%22%7D',
    as: 'admin',
    then: async (page) => void (await page.getByTestId('list-empty').waitFor()),
  },
  {
    name: 'orders-partner',
    path: '/orders',
    as: 'partner',
    then: async (page) => void (await page.getByRole('region', { name: 'Orders' }).scrollIntoViewIfNeeded()),
  },
  {
    name: 'orders-support',
    path: '/orders',
    as: 'support',
    then: async (page) => void (await page.getByRole('region', { name: 'Orders' }).scrollIntoViewIfNeeded()),
  },
  {
    name: 'order-admin-ship-dialog',
    path: '/orders?filter=%7B%22status%22%3A%22approved%22%7D',
    as: 'admin',
    then: async (page) => {
      await page.getByTestId('order-row').first().click();
      await page
        .getByRole('button', { name: /^Update status of / })
        .first()
        .click();
      await page.getByTestId('shipment-fields').waitFor();
    },
  },
  {
    name: 'order-admin-page',
    path: '/orders?filter=%7B%22status%22%3A%22shipped%22%7D',
    as: 'admin',
    then: async (page) => {
      await page.getByTestId('order-row').first().click();
      await page.getByTestId('order-history').waitFor();
    },
  },
  {
    name: 'order-partner-tracking',
    path: '/orders?filter=%7B%22status%22%3A%22shipped%22%7D',
    as: 'partner',
    then: async (page) => {
      await page.getByTestId('order-row').first().click();
      await page.getByTestId('shipment').waitFor();
    },
  },
  {
    name: 'catalogue-cart',
    path: '/catalogue',
    as: 'partner',
    then: async (page) => {
      await page.getByRole('button', { name: 'Add HX-M2408 8-Port Gigabit Managed Switch to cart' }).click();
      await page.getByTestId('cart-added').waitFor();
    },
  },
  {
    name: 'order-shipping-prefilled',
    path: '/catalogue',
    as: 'partner',
    then: async (page) => {
      await page.getByTestId('app-bar-cart').click();
      await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
      await page.getByTestId('profile-prefill').waitFor();
      await page.getByRole('combobox', { name: /Country/ }).click();
      await page.getByRole('option', { name: 'United States' }).click();
      await page.getByTestId('country-mismatch').waitFor();
    },
  },
  { name: 'order-confirmation-none', path: '/order/confirmation', as: 'manufacturer' },
];

/** Opens a project's details (the first card's, or the named demo project's) and the given tab. */
async function openFirstProject(page: Page, tab: string, title?: string) {
  await page
    .getByRole('button', { name: title ? `View details of ${title}` : /^View details of / })
    .first()
    .click();
  await page.getByRole('tab', { name: tab }).click();
  await settle(page);
}

/** An optional fourth argument picks the shots whose names match it (a regular expression). */
const only = process.argv[4] ? new RegExp(process.argv[4]) : undefined;

async function run(browser: Browser, viewport: Viewport, label: string) {
  const sessions = new Map<string, Awaited<ReturnType<typeof openPage>>>();
  const problems: string[] = [];
  for (const shot of SHOTS.filter((s) => !only || only.test(s.name))) {
    const key = shot.as ?? 'signed-out';
    let session = sessions.get(key);
    if (!session) {
      session = await openPage(browser, baseUrl, viewport);
      const errors = session.consoleErrors;
      session.page.on('response', (response) => {
        if (response.status() >= 400) errors.push(`${response.status()} ${response.request().method()} ${response.url()}`);
      });
      if (shot.as) {
        await signIn(session.page, demoEmail(shot.as));
        await session.page.waitForFunction(() => !location.pathname.startsWith('/signin'), undefined, { timeout: 15_000 });
        await settle(session.page);
      }
      sessions.set(key, session);
    }
    const { page } = session;
    await page.goto(shot.path);
    await page.waitForTimeout(1200); // the start-up splash
    await settle(page);
    await shot.then?.(page, viewport.width < 600);
    await page.waitForTimeout(300);
    const file = path.join(outDir, `${shot.name}-${label}.png`);
    await page.screenshot({ path: file, fullPage: shot.fullPage });
    const wide = await overflow(page);
    // Close menus and drawers (the phone drawer's open state is remembered across pages).
    await page.keyboard.press('Escape');
    if (wide.length) problems.push(`${shot.name}-${label}: ${wide.join('; ')}`);
    console.log(file);
  }
  for (const session of sessions.values()) {
    if (session.consoleErrors.length) problems.push(`console (${label}): ${session.consoleErrors.slice(0, 3).join(' | ')}`);
    await session.context.close();
  }
  return problems;
}

const browser = await launchBrowser();
try {
  const problems = [...(await run(browser, DESKTOP, 'desktop')), ...(await run(browser, PHONE, 'phone'))];
  console.log(problems.length ? `\nProblems:\n${problems.join('\n')}` : '\nNo overflow found.');
} finally {
  await browser.close();
}
