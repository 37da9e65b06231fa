import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { badgePng } from '../seed/partners';
import { demoUserId } from '../seed/identity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import type { QuestionnaireAnswers } from '../../domain/partners/questionnaire';
import { completeQuestionnaire } from '../testing/questionnaire';

let t: TestPortal;
let admin: Session;
let uploadDir: string;

beforeAll(async () => {
  t = await startTestPortal({
    env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000', UPLOAD_DIR: path.join(process.env.TMPDIR ?? '/tmp', `partnerhub-uploads-${Date.now()}`) },
  });
  uploadDir = t.portal.services.config.UPLOAD_DIR;
  admin = await login(t.app, 'admin@partnerhub.test');
});
afterAll(async () => {
  await t?.close();
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true });
});

const asAdmin = (options: Parameters<ReturnType<typeof as>>[0]) => as(t.app, admin)(options);
const PASSWORD = 'Welcome2026';

interface Applicant {
  id: string;
  email: string;
  token: string;
  company: string;
}

let counter = 0;
async function register(company = `Fjord Networks ${++counter}`): Promise<Applicant> {
  const email = `applicant.${Date.now()}.${++counter}@example.test`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/register/',
    payload: { email, password: PASSWORD, full_name: company, company_name: company },
  });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json();
  return { id: body.data.id, email, token: body.onboardingToken, company };
}

const answers = completeQuestionnaire;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function submitQuestionnaire(applicant: Applicant, overrides: Partial<QuestionnaireAnswers> & { user_id?: string } = {}, token = applicant.token) {
  return t.app.inject({ method: 'POST', url: '/api/partner/onboarding/questionnaire', headers: bearer(token), payload: answers(applicant, overrides) });
}

async function multipart(fields: Record<string, string>, file?: { bytes: Buffer; name: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('company_logo', new Blob([file.bytes]), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

async function submitApplication(token: string, fields: Record<string, string>, file?: { bytes: Buffer; name: string }) {
  const body = await multipart(fields, file);
  return t.app.inject({
    method: 'POST',
    url: '/api/partner/onboarding',
    headers: { ...bearer(token), 'content-type': body.contentType },
    payload: body.payload,
  });
}

const storedLogos = async () => (await readdir(path.join(uploadDir, 'public')).catch(() => [] as string[])).sort();

async function pendingApplicant() {
  const applicant = await register();
  expect((await submitQuestionnaire(applicant)).statusCode).toBe(201);
  return applicant;
}

const approve = (
  id: string,
  payload: Record<string, unknown> = { status: 'approved', category: 'Helix Authorized Distributor', permissions: ['Projects.Read', 'Orders.Track'] },
  method: 'PATCH' | 'PUT' = 'PATCH',
) => asAdmin({ method, url: `/api/partner/partners/${id}`, payload });

describe('submitting an application', () => {
  it('the registered applicant submits the questionnaire with the onboarding token: 201, pending, in the admin list at once', async () => {
    const applicant = await register();
    const response = await submitQuestionnaire(applicant);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Questionnaire submitted! Wait for Admin approval',
      data: { id: applicant.id, status: 'pending', city: 'Oslo', region: 'Europe' },
    });

    const pending = (await asAdmin({ method: 'GET', url: '/api/partner/partners?status=pending&limit=100' })).json().data.partners;
    expect(pending.map((p: { id: string }) => p.id)).toContain(applicant.id);

    // The account registered under the company's name now carries the questionnaire's contact person.
    await vi.waitFor(
      async () =>
        expect((await asAdmin({ method: 'GET', url: `/api/users/${applicant.id}` })).json().data).toMatchObject({
          full_name: 'Ingrid Berg',
          company_name: applicant.company,
          email: applicant.email,
        }),
      { timeout: 10_000, interval: 100 },
    );

    const history = (await asAdmin({ method: 'GET', url: `/api/partner/partners/${applicant.id}/history` })).json().data;
    expect(history).toEqual([
      expect.objectContaining({
        action: 'Application submitted',
        from_status: null,
        to_status: 'pending',
        actor_id: applicant.id,
        actor_name: 'Ingrid Berg',
        actor_role: 'partner',
      }),
      expect.objectContaining({ action: 'Onboarding questionnaire answered', to_status: 'pending' }),
    ]);
  });

  it('the wizard application arrives as multipart with a logo checked by content, served from the uploads area', async () => {
    const applicant = await register();
    const png = badgePng('#0d5ea8', '#90caf9');
    const response = await submitApplication(
      applicant.token,
      {
        company_name: applicant.company,
        contact_email: applicant.email,
        region: 'Europe',
        business_type: 'Partnership',
        certifications: 'ISO 9001',
        user_id: applicant.id,
      },
      { bytes: png, name: 'logo.bin' },
    );
    expect(response.statusCode, response.body).toBe(201);
    const data = response.json().data;
    expect(data).toMatchObject({ status: 'pending', region: 'Europe', business_type: 'Partnership', certifications: 'ISO 9001' });
    expect(data.company_logo).toMatch(/^[0-9a-f-]{36}\.png$/);
    const served = await t.app.inject({ method: 'GET', url: data.company_logo_url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);

    // A later questionnaire keeps the applicant's chosen region; empty company-info fields are accepted.
    expect((await submitQuestionnaire(applicant, { country: 'Kenya' })).json().data.region).toBe('Europe');
    expect((await submitApplication(applicant.token, {})).statusCode).toBe(201);
  });

  it('refuses a text file renamed .png with 415 and stores nothing', async () => {
    const applicant = await register();
    const before = await storedLogos();
    const response = await submitApplication(
      applicant.token,
      { company_name: applicant.company },
      { bytes: Buffer.from('just some text, not an image'), name: 'logo.png' },
    );
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    expect(await storedLogos()).toEqual(before);
    expect((await asAdmin({ method: 'GET', url: `/api/partner/partners/${applicant.id}` })).statusCode).toBe(404);
  });

  it('refuses a logo over 5 MB with 413', async () => {
    const applicant = await register();
    const response = await submitApplication(
      applicant.token,
      { company_name: applicant.company },
      { bytes: Buffer.concat([badgePng('#000000', '#ffffff'), Buffer.alloc(5 * 1024 * 1024)]), name: 'big.png' },
    );
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe('Company logo must be at most 5 MB.');
  });

  it('a refused application removes the logo it had stored', async () => {
    const applicant = await register();
    const before = await storedLogos();
    const response = await submitApplication(
      applicant.token,
      { company_name: applicant.company, region: 'Atlantis' },
      { bytes: badgePng('#000000', '#ffffff'), name: 'a.png' },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([{ field: 'region', message: expect.stringContaining('Region must be one of') }]);
    expect(await storedLogos()).toEqual(before);
  });

  it('answers every missing mandatory answer with the specification message', async () => {
    const applicant = await register();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/partner/onboarding/questionnaire',
      headers: bearer(applicant.token),
      payload: { user_id: applicant.id },
    });
    expect(response.statusCode).toBe(400);
    const details = response.json().error.details as Array<{ field: string; message: string }>;
    expect(response.json().message).toBe('Company name is required');
    expect(details).toContainEqual({ field: 'business_description', message: 'Business activities are required' });
    expect(details).toContainEqual({ field: 'are_financials_audited', message: 'Please select if financials are audited' });
    expect(details).toContainEqual({ field: 'agreed_to_terms', message: 'You must agree to the terms and conditions' });

    const other = await submitQuestionnaire(applicant, { annual_turnover: 'Other' });
    expect(other.statusCode).toBe(400);
    expect(other.json().error.details).toEqual([{ field: 'annual_turnover_other', message: 'Please specify your annual turnover' }]);

    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/partner/onboarding/questionnaire',
      headers: bearer(applicant.token),
      payload: { ...answers(applicant), favourite_colour: 'blue' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Unknown field: favourite_colour. Remove it and try again.');
  });
});

describe('who may submit', () => {
  it('refuses an application submitted for another user (403), with either form', async () => {
    const mallory = await register();
    const victim = await pendingApplicant();
    const forged = await submitQuestionnaire(mallory, { user_id: victim.id, company_name: 'Hijacked Ltd' });
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({
      success: false,
      error: { code: 'FORBIDDEN', message: 'You can only submit or change your own partner application.' },
    });
    const forgedWizard = await submitApplication(mallory.token, { company_name: 'Hijacked Ltd', user_id: victim.id });
    expect(forgedWizard.statusCode).toBe(403);
    expect((await asAdmin({ method: 'GET', url: `/api/partner/partners/${victim.id}` })).json().data.company_name).toBe(victim.company);
  });

  it('needs the onboarding token of a partner applicant', async () => {
    const applicant = await register();
    const none = await t.app.inject({ method: 'POST', url: '/api/partner/onboarding/questionnaire', payload: answers(applicant) });
    expect(none.statusCode).toBe(401);
    const tampered = await submitQuestionnaire(applicant, {}, `${applicant.token.slice(0, -4)}abcd`);
    expect(tampered.statusCode).toBe(401);
    // An admin's access token is not an applicant's.
    const byAdmin = await submitQuestionnaire(applicant, { user_id: undefined }, admin.accessToken);
    expect(byAdmin.statusCode).toBe(403);
    // The onboarding token opens nothing else.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(applicant.token) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/partner/partners', headers: bearer(applicant.token) })).statusCode).toBe(401);
  });

  it('a decided application can no longer be changed by its applicant (409)', async () => {
    const applicant = await pendingApplicant();
    await asAdmin({
      method: 'PATCH',
      url: `/api/partner/partners/${applicant.id}`,
      payload: { status: 'rejected', rejection_reason: 'Duplicate application' },
    });
    const again = await submitQuestionnaire(applicant);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This partner application was rejected and can no longer be changed.');
  });
});

describe('approving and rejecting', () => {
  it('an admin approves: category and permissions recorded, the account activated with exactly those permissions', async () => {
    const applicant = await pendingApplicant();
    const pendingLogin = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: applicant.email, password: PASSWORD } });
    expect(pendingLogin.statusCode).toBe(403);
    expect(pendingLogin.json().message).toContain('awaiting approval');

    const response = await approve(
      applicant.id,
      { status: 'approved', category: 'Helix Exclusive Distributor', permissions: ['Projects.Read', 'Orders.Track', 'Support.Read'] },
      'PUT',
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Partner approved',
      data: {
        partner: {
          id: applicant.id,
          status: 'approved',
          category: 'Helix Exclusive Distributor',
          tier: 'Exclusive',
          granted_permissions: ['Projects.Read', 'Orders.Track', 'Support.Read'],
        },
        user: { id: applicant.id, permissions: ['Projects.Read', 'Orders.Track', 'Support.Read'] },
      },
    });

    const session = await vi.waitFor(() => login(t.app, applicant.email, PASSWORD), { timeout: 10_000, interval: 100 });
    expect(session.user.role).toBe('partner');
    expect(session.user.permissions.sort()).toEqual(['Orders.Track', 'Projects.Read', 'Support.Read']);

    const history = (await asAdmin({ method: 'GET', url: `/api/partner/partners/${applicant.id}/history` })).json().data;
    expect(history.at(-1)).toMatchObject({
      action: 'Approved as Helix Exclusive Distributor',
      from_status: 'pending',
      to_status: 'approved',
      actor_id: admin.user.id,
      actor_name: 'Alex Morgan',
      actor_role: 'admin',
    });
    expect(Number.isNaN(Date.parse(history.at(-1).occurred_at))).toBe(false);

    // The account's own history says why it became active.
    const accountHistory = (await asAdmin({ method: 'GET', url: `/api/users/${applicant.id}/history` })).json().data;
    expect(accountHistory.at(-1)).toMatchObject({
      to_status: 'active',
      actor_name: 'Alex Morgan',
      reason: 'Partner application approved (Helix Exclusive Distributor)',
    });
  });

  it.each([
    [
      'Helix Authorized Distributor',
      ['Projects.Read', 'Projects.Create', 'Orders.Track', 'Orders.Browse', 'Orders.Checkout', 'Orders.Shipping', 'Support.Read', 'Learning.Read'],
    ],
    [
      'Helix Value Added Distributor',
      [
        'Projects.Read',
        'Projects.Create',
        'Projects.Update',
        'Orders.Track',
        'Orders.Browse',
        'Orders.Checkout',
        'Orders.Shipping',
        'Rebates.Read',
        'Rebates.Overview',
        'Support.Read',
        'Leads.Read',
        'Leads.Update',
        'MDF.Read',
        'Learning.Read',
      ],
    ],
  ])('an approval that names no permissions grants the defaults of %s', async (category, expected) => {
    const applicant = await pendingApplicant();
    const response = await approve(applicant.id, { status: 'approved', category });
    expect(response.statusCode, response.body).toBe(200);
    expect([...response.json().data.partner.granted_permissions].sort()).toEqual([...expected].sort());
  });

  it('approving twice answers 409; rejecting an approved partner answers 409', async () => {
    const applicant = await pendingApplicant();
    expect((await approve(applicant.id)).statusCode).toBe(200);
    const twice = await approve(applicant.id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ success: false, message: 'This partner application has already been approved.', error: { code: 'CONFLICT' } });
    const reject = await asAdmin({
      method: 'PATCH',
      url: `/api/partner/partners/${applicant.id}`,
      payload: { status: 'rejected', rejection_reason: 'Changed our mind' },
    });
    expect(reject.statusCode).toBe(409);
    expect(reject.json().message).toBe('An approved partner cannot be rejected.');
  });

  it.each([
    ['a 501-character reason', 'x'.repeat(501), 'The reason must be at most 500 characters.'],
    ['a blank reason', '   \n  ', 'Please give a reason for the rejection.'],
  ])('refuses %s with 400', async (_, reason, message) => {
    const applicant = await pendingApplicant();
    const response = await asAdmin({
      method: 'PATCH',
      url: `/api/partner/partners/${applicant.id}`,
      payload: { status: 'rejected', rejection_reason: reason },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, error: { code: 'VALIDATION_ERROR', details: [{ field: 'rejection_reason', message }] } });
    expect((await asAdmin({ method: 'GET', url: `/api/partner/partners/${applicant.id}` })).json().data.status).toBe('pending');
  });

  it('an admin rejects with a reason the applicant reads when signing in', async () => {
    const applicant = await pendingApplicant();
    const reason = 'We could not verify your business registration number.';
    const response = await asAdmin({
      method: 'PUT',
      url: `/api/partner/partners/${applicant.id}`,
      payload: { status: 'rejected', rejection_reason: `  ${reason}  ` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Partner rejected successfully',
      data: { partner: { status: 'rejected', rejection_reason: reason } },
    });
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: applicant.email, password: PASSWORD } });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json()).toMatchObject({ error: { code: 'ACCOUNT_INACTIVE' }, message: `Your partner application was not approved: ${reason}` });
    const history = (await asAdmin({ method: 'GET', url: `/api/partner/partners/${applicant.id}/history` })).json().data;
    expect(history.at(-1)).toMatchObject({ action: 'Rejected', to_status: 'rejected', reason, actor_name: 'Alex Morgan' });
  });

  it.each([
    [{ status: 'approved', category: 'Gold', permissions: [] }, 'category'],
    [{ status: 'approved', category: 'Helix Authorized Distributor', permissions: ['Users.Delete'] }, 'permissions'],
    [{ status: 'approved', category: 'Helix Authorized Distributor', tier: 'x' }, 'tier'],
    [{ status: 'pending' }, 'status'],
    [{ status: 'rejected' }, 'rejection_reason'],
  ])('refuses the decision %o (400, %s)', async (payload, field) => {
    const applicant = await pendingApplicant();
    const response = await asAdmin({ method: 'PATCH', url: `/api/partner/partners/${applicant.id}`, payload });
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .error.details.map((d: { field: string }) => d.field)
        .join(' '),
    ).toContain(field);
  });

  it('unknown and malformed ids', async () => {
    expect((await approve('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await asAdmin({ method: 'GET', url: '/api/partner/partners/42' })).statusCode).toBe(400);
  });
});

describe('reading', () => {
  it('admins list every application in both shapes, searching without regard to case', async () => {
    const all = (await asAdmin({ method: 'GET', url: '/api/partner/partners?limit=100' })).json().data;
    expect(new Set(all.partners.map((p: { status: string }) => p.status))).toEqual(new Set(['pending', 'approved', 'rejected']));
    expect(all.partners[0]).toHaveProperty('tax_id');

    const found = (await asAdmin({ method: 'GET', url: '/api/partner/partners?search=pAmPaS' })).json().data.partners;
    expect(found.map((p: { company_name: string }) => p.company_name)).toEqual(['Pampas Digital S.A.']);
    const byType = (await asAdmin({ method: 'GET', url: '/api/partner/partners?search=SOCIAL%20ENTERPRISE' })).json().data.partners;
    expect(byType.map((p: { company_name: string }) => p.company_name)).toEqual(['Kilima Tech Collective']);

    const ra = await asAdmin({
      method: 'GET',
      url: `/api/partner/partners?sort=${encodeURIComponent('["company_name","ASC"]')}&range=${encodeURIComponent('[0,1]')}&filter=${encodeURIComponent('{"status":"approved","q":"ASIA"}')}`,
    });
    expect(ra.statusCode).toBe(200);
    expect(ra.json().map((p: { company_name: string }) => p.company_name)).toEqual(['Sakura Netcom K.K.']);
    expect(ra.headers['content-range']).toBe('partners 0-0/1');
  });

  it('holders of Partners.Read see the directory: approved partners only, without private answers', async () => {
    const distributor = await login(t.app, 'distributor@partnerhub.test');
    const list = (await as(t.app, distributor)({ method: 'GET', url: '/api/partner/partners?limit=100' })).json().data.partners;
    expect(list.length).toBeGreaterThanOrEqual(4);
    expect(list.every((p: { status: string }) => p.status === 'approved')).toBe(true);
    for (const hidden of ['tax_id', 'annual_turnover', 'business_registration_number', 'rejection_reason', 'granted_permissions', 'user_id'])
      expect(list[0]).not.toHaveProperty(hidden);
    expect(list.find((p: { company_name: string }) => p.company_name === 'Kilima Tech Collective')).toMatchObject({
      business_type: 'Other',
      business_type_other: 'Social enterprise',
      city: 'Nairobi',
      country: 'Kenya',
      region: 'Africa',
      tier: 'Authorized',
      projects_count: 0,
    });

    const filtered = (await as(t.app, distributor)({ method: 'GET', url: '/api/partner/partners?region=asia&tier=exclusive' })).json().data.partners;
    expect(filtered.map((p: { company_name: string }) => p.company_name)).toEqual(['Sakura Netcom K.K.']);
    expect((await as(t.app, distributor)({ method: 'GET', url: '/api/partner/partners?status=pending' })).json().data.total).toBe(0);

    const pendingId = demoUserId('wei.lim@aurora-systems.test');
    expect((await as(t.app, distributor)({ method: 'GET', url: `/api/partner/partners/${pendingId}` })).statusCode).toBe(404);
    const approvedOne = await as(t.app, distributor)({ method: 'GET', url: `/api/partner/partners/${demoUserId('kenji.mori@sakura-netcom.test')}` });
    expect(approvedOne.statusCode).toBe(200);
    expect(approvedOne.json().data).not.toHaveProperty('tax_id');
  });

  it('a partner sees its own record but not the directory without Partners.Read', async () => {
    const partner = await login(t.app, 'partner@partnerhub.test');
    expect((await as(t.app, partner)({ method: 'GET', url: '/api/partner/partners' })).statusCode).toBe(403);
    const own = await as(t.app, partner)({ method: 'GET', url: `/api/partner/partners/${partner.user.id}` });
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ company_name: 'Northwind Networks', status: 'approved', category: 'Helix Value Added Distributor' });
    expect((await as(t.app, partner)({ method: 'GET', url: `/api/partner/partners/${demoUserId('kenji.mori@sakura-netcom.test')}` })).statusCode).toBe(403);
  });
});

describe('who may decide', () => {
  const pendingId = () => demoUserId('marc.tremblay@cascade-integrators.test');

  it.each(['partner', 'distributor', 'manufacturer', 'support', 'partner.user', 'distributor.user'])(
    'a %s approving, rejecting or reading the history gets 403',
    async (who) => {
      const session = await login(t.app, `${who}@partnerhub.test`);
      for (const [method, url, payload] of [
        ['PATCH', `/api/partner/partners/${pendingId()}`, { status: 'approved', category: 'Helix Authorized Distributor', permissions: [] }],
        ['PUT', `/api/partner/partners/${pendingId()}`, { status: 'rejected', rejection_reason: 'No' }],
        ['GET', `/api/partner/partners/${pendingId()}/history`, undefined],
      ] as const) {
        const response = await as(t.app, session)({ method, url, payload });
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().error.code).toBe('INSUFFICIENT_PERMISSIONS');
      }
      expect((await asAdmin({ method: 'GET', url: `/api/partner/partners/${pendingId()}` })).json().data.status).toBe('pending');
    },
  );

  it('signed out, every reading and deciding route answers 401', async () => {
    for (const [method, url] of [
      ['GET', '/api/partner/partners'],
      ['GET', `/api/partner/partners/${pendingId()}`],
      ['GET', `/api/partner/partners/${pendingId()}/history`],
      ['PATCH', `/api/partner/partners/${pendingId()}`],
      ['PUT', `/api/partner/partners/${pendingId()}`],
    ] as const) {
      expect((await t.app.inject({ method, url, payload: { status: 'rejected', rejection_reason: 'x' } })).statusCode, `${method} ${url}`).toBe(401);
    }
  });
});
