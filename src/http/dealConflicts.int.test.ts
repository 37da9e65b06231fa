import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSSIBLE_EXISTING_REGISTRATION } from '../../domain/projects/registration';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

/**
 * Deal registrations of two partner organisations for one customer: legal forms, the same
 * organisation e-mail domain, public mail domains, the same site address and near matches.
 */

let t: TestPortal;
let admin: Session;
let partnerA: Session;
let partnerB: Session;
const password = 'Partner2026';

beforeAll(async () => {
  t = await startTestPortal();
  [admin, partnerA] = await Promise.all(['admin', 'partner'].map((name) => login(t.app, `${name}@partnerhub.test`)));
  const email = `fjord.${Date.now()}@example.test`;
  const registered = await t.app.inject({
    method: 'POST',
    url: '/api/user/register/',
    payload: { full_name: 'Ingrid Berg', email, password, company_name: 'Fjord Networks' },
  });
  const activated = await as(
    t.app,
    admin,
  )({
    method: 'PUT',
    url: `/api/users/${registered.json().data.id}`,
    payload: { full_name: 'Ingrid Berg', email, role: 'partner', is_active: true, permissions: ['Projects.Read', 'Projects.Create', 'Projects.Update'] },
  });
  expect(activated.statusCode).toBe(200);
  partnerB = await login(t.app, email, password);
});
afterAll(() => t?.close());

const unique = () => Math.random().toString(36).slice(2, 8);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function register(session: Session, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ title: `Project ${unique()}`, expected_closure_date: inDays(90), ...fields })) form.append(name, value);
  const request = new Request('http://x/', { method: 'POST', body: form });
  const response = await as(
    t.app,
    session,
  )({
    method: 'POST',
    url: '/api/projects',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}
const asAdmin = async (id: string) => (await as(t.app, admin)({ method: 'GET', url: `/api/projects/${id}` })).json().data;

describe('deal registration conflicts', () => {
  it('the Greenfield case: "… Inc." with the same e-mail domain from a second partner is a conflict, and the partner is warned without names', async () => {
    const first = await register(partnerA, { end_user_customer_name: 'Greenfield General Hospital', end_user_email: 'it@greenfield-hospital.test' });
    expect(first.registration_status).toBe('pending');
    expect(first.registration_warning).toBeNull();
    const second = await register(partnerB, {
      end_user_customer_name: 'Greenfield General Hospital Inc.',
      end_user_email: 'procurement@greenfield-hospital.test',
    });
    expect(second.registration_status).toBe('conflict');
    expect(second.registration_warning).toBe(POSSIBLE_EXISTING_REGISTRATION);
    expect(JSON.stringify(second)).not.toContain('Northwind');
    expect((await asAdmin(second.id)).conflict_with).toBe(first.id);
  });

  it('the same organisation domain alone is a conflict; the same public mail domain is not', async () => {
    const tag = unique();
    await register(partnerA, { end_user_customer_name: `Oakridge ${tag}`, end_user_email: `cto@oakridge-${tag}.test` });
    expect(
      (await register(partnerB, { end_user_customer_name: `Oakridge Campus Trust ${tag}`, end_user_email: `buyer@oakridge-${tag}.test` })).registration_status,
    ).toBe('conflict');
    await register(partnerA, { end_user_customer_name: `Alpha ${tag}`, end_user_email: `alpha.${tag}@gmail.com` });
    const other = await register(partnerB, { end_user_customer_name: `Zeta Quarry ${tag}`, end_user_email: `zeta.${tag}@gmail.com` });
    expect(other.registration_status).toBe('pending');
    expect(other.registration_warning).toBeNull();
  });

  it('the same site address alone is a conflict', async () => {
    const tag = unique();
    await register(partnerA, { end_user_customer_name: `Kestrel ${tag}`, end_user_location: `${tag} 14 Mill Lane, Bristol` });
    expect(
      (await register(partnerB, { end_user_customer_name: `Mill Lane Clinic ${tag}`, end_user_location: `${tag.toUpperCase()} 14, Mill Lane  BRISTOL` }))
        .registration_status,
    ).toBe('conflict');
  });

  it('a near match is flagged to the administrator as a possible conflict without blocking', async () => {
    const tag = unique();
    const first = await register(partnerA, { end_user_customer_name: `Riverside Memorial Hospital ${tag}` });
    const second = await register(partnerB, { end_user_customer_name: `Riverside Memorial Hosp ${tag}` });
    expect(second.registration_status).toBe('pending');
    expect(second.registration_warning).toBe(POSSIBLE_EXISTING_REGISTRATION);
    expect(second).not.toHaveProperty('possible_conflicts');
    const seen = await asAdmin(second.id);
    expect(seen.possible_conflicts.map((p: { id: string }) => p.id)).toContain(first.id);
    expect(seen.possible_conflicts[0].similarity).toBeGreaterThanOrEqual(0.5);
    // Someone else's customer of a different name is no possible conflict.
    const unrelated = await register(partnerB, { end_user_customer_name: `Quantum Bakery ${unique()}` });
    expect((await asAdmin(unrelated.id)).possible_conflicts).toEqual([]);
  });
});
