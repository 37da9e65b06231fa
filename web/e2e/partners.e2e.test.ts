/**
 * The partner journey in a real browser: registration, the onboarding questionnaire, an admin's
 * approval with a category and a chosen permission set, the partner's first sign-in and menu, and
 * the application's history; plus the wizard, rejection and the partner directory.
 */

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from '../../src/testing/portal';
import { PHONE, demoEmail, launchBrowser, openPage, signIn } from './browser';

let portal: TestPortal;
let browser: Browser;

beforeAll(async () => {
  portal = await startTestPortal({ web: true, listen: true, env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000' } });
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

const PASSWORD = 'Welcome2026';
const unique = () => `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;

async function registerPartner(page: Page, company: string, email: string) {
  await page.goto('/register-partner');
  await page.locator('input[name="company_name"]').fill(company);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL((url) => url.pathname === '/partner-onboarding', { timeout: 15_000 });
  await page.getByRole('heading', { name: 'Partner Onboarding Questionnaire' }).waitFor();
}

async function choose(page: Page, field: string, option: string) {
  await page.locator(`#q-${field}`).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Fills every mandatory answer in the order the form unlocks them. */
async function answerQuestionnaire(page: Page) {
  const input = (name: string) => page.locator(`[name="${name}"]`);
  await input('contact_name').fill('Ingrid Berg');
  await input('phone_number').fill('+47 22 00 00 00');
  await choose(page, 'job_title', 'Other');
  await input('job_title_other').fill('Head of Channel');
  await choose(page, 'country', 'Norway');
  await input('city').fill('Oslo');
  await input('location').fill('Karl Johans gate 1');
  await choose(page, 'business_type', 'Private Limited');
  await input('years_in_operation').fill('12');
  await choose(page, 'employees_range', '11–50');
  await choose(page, 'business_description', 'Technology & Software');
  await page.locator('#q-target_markets').click();
  await page.getByRole('option', { name: 'Europe' }).click();
  await page.keyboard.press('Escape');
  await input('business_registration_number').fill('NO-998877');
  await choose(page, 'country_of_incorporation', 'Netherlands');
  await choose(page, 'annual_turnover', '$1M – $10M');
  await choose(page, 'turnover_currency', 'EUR');
  await choose(page, 'fiscal_year_end_month', 'December');
  await page.locator('input[name="are_financials_audited"][value="Yes"]').check();
}

/** Signs in, retrying while the approval process is still activating the account. */
async function signInOnceActive(page: Page, email: string) {
  for (let attempt = 0; attempt < 20; attempt++) {
    await signIn(page, email, PASSWORD, 'partner');
    const outcome = await Promise.race([
      page.waitForURL((url) => url.pathname === '/partnerdashboard', { timeout: 15_000 }).then(() => 'in' as const),
      page
        .getByTestId('signin-error')
        .waitFor({ timeout: 15_000 })
        .then(() => 'refused' as const),
    ]);
    if (outcome === 'in') return;
    await page.waitForTimeout(500);
  }
  throw new Error(`${email} could not sign in`);
}

describe('the partner journey', () => {
  it('register → questionnaire → an admin approves with a category and chosen permissions → the partner signs in with exactly those → the history shows the approval', async () => {
    const company = `Fjord Networks ${unique()}`;
    const email = `fjord.${unique()}@example.test`;

    await withPage(async (page, consoleErrors) => {
      await registerPartner(page, company, email);
      const emailField = page.locator('input[name="contact_email"]');
      expect(await emailField.inputValue()).toBe(email);
      expect(await emailField.getAttribute('readonly')).not.toBeNull();
      expect(await page.locator('input[name="company_name"]').inputValue()).toBe(company);

      // Mandatory fields open in order; optional ones are always open.
      expect(await page.locator('input[name="phone_number"]').isDisabled()).toBe(true);
      expect(await page.locator('input[name="website"]').isDisabled()).toBe(false);
      expect(await page.locator('input[name="tax_id"]').isDisabled()).toBe(false);

      // Submitting too early names what is missing and takes the applicant to the first gap.
      await page.getByRole('button', { name: 'Submit Questionnaire' }).click();
      for (const message of [
        'Contact name is required',
        'Phone number is required',
        'Business activities are required',
        'Please select if financials are audited',
        'You must agree to the terms and conditions',
      ]) {
        await page.getByText(message, { exact: true }).first().waitFor();
      }
      await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('contact_name');

      await page.locator('input[name="contact_name"]').fill('Ingrid Berg');
      expect(await page.locator('input[name="phone_number"]').isDisabled()).toBe(false);
      await answerQuestionnaire(page);

      // With every mandatory answer in, the terms open by themselves; I Agree ticks the box.
      const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
      await terms.waitFor();
      await terms.getByRole('button', { name: 'I Agree' }).click();
      await terms.waitFor({ state: 'detached' });
      expect(await page.locator('input[name="agreed_to_terms"]').isChecked()).toBe(true);
      expect(await page.getByText('You must agree to the terms and conditions').count()).toBe(0);

      await page.getByRole('button', { name: 'Submit Questionnaire' }).click();
      await expect
        .poll(() => page.getByTestId('questionnaire-outcome').textContent(), { timeout: 10_000 })
        .toBe('Questionnaire submitted! Wait for Admin approval');
      await page.waitForURL((url) => url.pathname === '/signin', { timeout: 5_000 });

      // Waiting for approval.
      await signIn(page, email, PASSWORD, 'partner');
      await expect.poll(() => page.getByTestId('signin-error').textContent(), { timeout: 10_000 }).toContain('awaiting approval');
      expect(consoleErrors.filter((e) => !e.includes('403'))).toEqual([]);
    });

    await withPage(async (page) => {
      await signIn(page, demoEmail('admin'));
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      await page.goto('/adminpanel');
      const card = page.getByTestId('partner-application').filter({ hasText: company });
      await card.waitFor();
      await card.getByRole('button', { name: `Approve ${company}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve Partner' });
      await dialog.getByTestId('approve-company').filter({ hasText: company }).waitFor();
      for (const category of ['Helix Value Added Distributor', 'Helix Authorized Distributor', 'Helix Exclusive Distributor'])
        await dialog.getByLabel(category).waitFor();
      expect(await dialog.getByRole('button', { name: 'Approve Partner' }).isDisabled()).toBe(true);
      // Nothing is ticked before a category is chosen; each category starts from its own defaults.
      const ticked = () =>
        dialog
          .getByTestId('approval-permission-picker')
          .locator('input[type="checkbox"]:checked')
          .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).name).sort());
      expect(await ticked()).toEqual([]);
      await dialog.getByLabel('Helix Exclusive Distributor').check();
      expect(await ticked()).toHaveLength(17);
      await dialog.getByLabel('Helix Value Added Distributor').check();
      expect(await ticked()).toEqual([
        'Leads.Read',
        'Leads.Update',
        'Learning.Read',
        'MDF.Read',
        'Orders.Browse',
        'Orders.Checkout',
        'Orders.Shipping',
        'Orders.Track',
        'Projects.Create',
        'Projects.Read',
        'Projects.Update',
        'Rebates.Overview',
        'Rebates.Read',
        'Support.Read',
      ]);
      await dialog.getByLabel('Helix Authorized Distributor').check();
      expect(await ticked()).toEqual([
        'Learning.Read',
        'Orders.Browse',
        'Orders.Checkout',
        'Orders.Shipping',
        'Orders.Track',
        'Projects.Create',
        'Projects.Read',
        'Support.Read',
      ]);
      expect(await dialog.getByTestId('approve-permissions-hint').textContent()).toContain('Helix Authorized Distributor');

      // The chosen set: View Projects, Track Orders and Access Support.
      await dialog.getByRole('button', { name: 'Clear All Projects' }).click();
      await dialog.getByLabel('View Projects').check();
      await dialog.getByRole('button', { name: 'Clear All Orders' }).click();
      await dialog.getByLabel('Track Orders').check();
      await dialog.getByRole('button', { name: 'Clear All Rebate' }).click();
      await dialog.getByRole('button', { name: 'Clear All Learning' }).click();
      await dialog.getByRole('button', { name: 'Select All Support' }).click();
      expect(await dialog.getByLabel('Access Support').isChecked()).toBe(true);
      expect(await dialog.getByLabel('Create Projects').isChecked()).toBe(false);
      await dialog.getByRole('button', { name: 'Approve Partner' }).click();
      await page.getByText('Partner approved').first().waitFor();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => card.count()).toBe(0);
    });

    await withPage(async (page) => {
      await signInOnceActive(page, email);
      await page.getByRole('heading', { name: 'Partner Dashboard' }).first().waitFor();
      const menu = async (name: string) => page.getByRole('menuitem', { name, exact: true }).count();
      await page.getByRole('menuitem', { name: 'Projects' }).waitFor();
      expect({
        projects: await menu('Projects'),
        orders: await menu('Orders'),
        support: await menu('Support Center'),
        catalogue: await menu('Catalogue'),
        rebates: await menu('Rebates'),
        directory: await menu('Partner Directory'),
        admin: await menu('Admin Panel'),
      }).toEqual({ projects: 1, orders: 1, support: 1, catalogue: 0, rebates: 0, directory: 0, admin: 0 });
      expect(JSON.parse((await page.evaluate(() => localStorage.getItem('permissions'))) ?? '[]').sort()).toEqual([
        'Orders.Track',
        'Projects.Read',
        'Support.Read',
      ]);
    });

    await withPage(async (page) => {
      await signIn(page, demoEmail('admin'));
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      await page.goto('/adminpanel');
      await page.getByRole('button', { name: 'Approved', exact: true }).click();
      const card = page.getByTestId('partner-application').filter({ hasText: company });
      // The decision history is one click from the card.
      await card.getByRole('button', { name: `History of ${company}` }).click();
      const approval = page.getByTestId('version').filter({ hasText: 'Partner approved' });
      await approval.waitFor();
      const text = (await approval.textContent()) ?? '';
      expect(text).toContain('by Alex Morgan (Admin)');
      expect(text).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M/);
      expect(text).toContain('Category: — → Helix Authorized Distributor');
      expect(text).toContain('Permissions: — → View Projects, Track Orders, Access Support');
      // The applicant's account now carries the contact person's name (renamed in the background).
      await page
        .getByTestId('version')
        .filter({ hasText: 'Partner application submitted' })
        .filter({ hasText: new RegExp(`by (Ingrid Berg|${company}) \\(Partner\\)`) })
        .waitFor();
      await page.keyboard.press('Escape');

      // The account carries the contact person's name, and its partner decisions are one click from User Management.
      await page.getByRole('tab', { name: 'User Management' }).click();
      await page.getByPlaceholder('Search by name').fill(email);
      const row = page.getByTestId('user-row').filter({ hasText: email });
      await row.waitFor();
      expect(await row.textContent()).toContain('Ingrid Berg');
      await row.getByRole('button', { name: 'Partner application history of Ingrid Berg' }).click();
      await page.getByTestId('version').filter({ hasText: 'Partner approved' }).waitFor();
    });
  }, 180_000);
});

describe('deciding and finding partners', () => {
  it('a rejection needs a reason of at most 500 characters, and the applicant reads it at sign-in', { timeout: 120_000 }, async () => {
    const company = `Shady Deals ${unique()}`;
    const email = `shady.${unique()}@example.test`;
    await withPage(async (page) => {
      await registerPartner(page, company, email);
      await answerQuestionnaire(page);
      await page.getByRole('dialog', { name: 'Terms and Conditions' }).getByRole('button', { name: 'I Agree' }).click();
      await page.getByRole('button', { name: 'Submit Questionnaire' }).click();
      await page.waitForURL((url) => url.pathname === '/signin', { timeout: 10_000 });
    });
    await withPage(async (page) => {
      await signIn(page, demoEmail('admin'));
      await page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
      await page.goto('/adminpanel');
      await page.getByRole('button', { name: `Reject ${company}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Reject Partner' });
      const reject = dialog.getByRole('button', { name: 'Reject Partner' });
      expect(await reject.isDisabled()).toBe(true);
      const reason = dialog.locator('textarea[name="rejection_reason"]');
      await reason.fill('   ');
      expect(await reject.isDisabled()).toBe(true);
      await reason.fill('x'.repeat(600));
      expect((await reason.inputValue()).length).toBe(500);
      expect(await dialog.getByTestId('reason-counter').textContent()).toBe('500/500');
      const why = 'We could not verify your business registration number.';
      await reason.fill(why);
      expect(await dialog.getByTestId('reason-counter').textContent()).toBe(`${why.length}/500`);
      await reject.click();
      await page.getByText('Partner rejected successfully').first().waitFor();
    });
    await withPage(async (page) => {
      await signIn(page, email, PASSWORD, 'partner');
      await expect
        .poll(() => page.getByTestId('signin-error').textContent(), { timeout: 10_000 })
        .toBe('Your partner application was not approved: We could not verify your business registration number.');
    });
  });

  it('an applicant who left the questionnaire signs in later, is told it is incomplete and continues it', { timeout: 120_000 }, async () => {
    const company = `Late Starter ${unique()}`;
    const email = `late.${unique()}@example.test`;
    // Registers, then closes the tab before answering: the hand-over of that tab is gone.
    await withPage(async (page) => registerPartner(page, company, email));
    await withPage(async (page) => {
      await signIn(page, email, PASSWORD, 'partner');
      const error = page.getByTestId('signin-error');
      await expect
        .poll(() => error.textContent(), { timeout: 10_000 })
        .toContain('Your partner application is not complete yet: finish the onboarding questionnaire so an administrator can review it.');
      await error.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.pathname === '/partner-onboarding');
      expect(await page.locator('input[name="contact_email"]').inputValue()).toBe(email);
      await answerQuestionnaire(page);
      await page.getByRole('dialog', { name: 'Terms and Conditions' }).getByRole('button', { name: 'I Agree' }).click();
      await page.getByRole('button', { name: 'Submit Questionnaire' }).click();
      await page.waitForURL((url) => url.pathname === '/signin', { timeout: 10_000 });
      await signIn(page, email, PASSWORD, 'partner');
      await expect.poll(() => page.getByTestId('signin-error').textContent(), { timeout: 10_000 }).toMatch(/awaiting approval/);
    });
  });

  it('an applicant who left continues in the wizard too, with their own details filled in', { timeout: 120_000 }, async () => {
    const company = `Wizard Returner ${unique()}`;
    const email = `returner.${unique()}@example.test`;
    await withPage(async (page) => registerPartner(page, company, email));
    await withPage(async (page) => {
      await signIn(page, email, PASSWORD, 'partner');
      const error = page.getByTestId('signin-error');
      await error.getByRole('button', { name: 'Continue' }).waitFor({ timeout: 10_000 });
      await error.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL((url) => url.pathname === '/partner-onboarding');
      await page.goto('/partneronboarding');
      await page.getByText('Step 1 of 5').waitFor();
      expect(await page.getByTestId('register-first').count()).toBe(0);
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await page.locator('input[name="company_name"]').inputValue()).toBe(company);
      expect(await page.locator('input[name="contact_email"]').inputValue()).toBe(email);
    });
  });

  it('a signed-in partner who already applied sees their application, not a blank one', async () => {
    await withPage(async (page) => {
      await signIn(page, demoEmail('partner'));
      await page.waitForURL((url) => url.pathname === '/partnerdashboard', { timeout: 15_000 });
      await page.goto('/partneronboarding');
      const own = page.getByTestId('own-application');
      await own.getByRole('heading', { name: 'Your application is approved' }).waitFor();
      expect(await own.getAttribute('data-status')).toBe('approved');
      expect(await page.getByText('Step 1 of 5').count()).toBe(0);
      expect(await page.getByTestId('register-first').count()).toBe(0);
      await own.getByRole('link', { name: 'Go to your dashboard' }).click();
      await page.waitForURL((url) => url.pathname === '/partnerdashboard');
    });
  });

  it('the five-step wizard submits an application and shows what comes next', async () => {
    await withPage(async (page) => {
      await registerPartner(page, `Bergen Data ${unique()}`, `bergen.${unique()}@example.test`);
      await page.getByRole('link', { name: 'Use the step-by-step onboarding wizard' }).click();
      await page.waitForURL((url) => url.pathname === '/partneronboarding');
      await page.getByText('Step 1 of 5').waitFor();
      const states = () => page.getByTestId('wizard-step').evaluateAll((steps) => steps.map((s) => s.getAttribute('data-state')));
      expect(await states()).toEqual(['active', 'inactive', 'inactive', 'inactive', 'inactive']);
      expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Next' }).click();
      await page.locator('input[name="phone_number"]').fill('+47 55 00 00 00');
      await page.locator('input[name="company_logo"]').setInputFiles({
        name: 'logo.svg',
        mimeType: 'image/svg+xml',
        buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="#0d5ea8"/></svg>'),
      });
      await page.getByText('logo.svg').waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      expect(await states()).toEqual(['completed', 'completed', 'completed', 'active', 'inactive']);
      const review = page.getByTestId('wizard-review');
      expect(await review.getByText('Not provided').count()).toBeGreaterThan(3);
      await review.getByText('+47 55 00 00 00').waitFor();
      await page.getByRole('button', { name: 'Submit Application' }).click();
      await page.getByRole('heading', { name: 'Application Submitted!' }).waitFor();
      expect(await states()).toEqual(['completed', 'completed', 'completed', 'completed', 'active']);
      for (const next of ['Application review', 'Background and reference check', 'Welcome package and account setup', 'Access to partner portal'])
        await page.getByText(next).waitFor();
      expect(await page.getByRole('button', { name: 'Back to Home' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Go to Partner Portal' }).waitFor();
    });
  });

  it('the directory lists approved partners only, searched without regard to case and filtered by region and tier', async () => {
    await withPage(async (page) => {
      await signIn(page, demoEmail('distributor'));
      await page.waitForURL((url) => url.pathname === '/distributordashboard', { timeout: 15_000 });
      await page.goto('/partnerdirectory');
      const names = () => page.getByTestId('directory-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-partner')));
      await page.getByTestId('directory-card').first().waitFor();
      expect(await names()).toEqual(expect.arrayContaining(['Kilima Tech Collective', 'Northwind Networks', 'Pampas Digital S.A.', 'Sakura Netcom K.K.']));
      expect(await names()).not.toContain('Aurora Systems Pte Ltd');
      const kilima = page.getByTestId('directory-card').filter({ hasText: 'Kilima Tech Collective' });
      for (const text of ['Helix Authorized Distributor', 'Nairobi, Kenya', 'Social enterprise', 'Not rated yet', '0 projects'])
        await kilima.getByText(text).waitFor();
      expect(await kilima.locator('img').getAttribute('src')).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);

      await page.getByPlaceholder('Search partners').fill('SAKURA');
      await expect.poll(names).toEqual(['Sakura Netcom K.K.']);
      await page.getByPlaceholder('Search partners').fill('');
      await page.getByTestId('region-filter').click();
      await page.getByRole('option', { name: 'South America' }).click();
      await expect.poll(names).toEqual(['Pampas Digital S.A.']);
      await page.getByTestId('tier-filter').click();
      await page.getByRole('option', { name: 'Exclusive' }).click();
      await page.getByText('No partners match the selected filters.').waitFor();
    }, PHONE);
  });
});
