import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { LEAD_MESSAGES, leads } from '../../domain/leads/leads';
import { handleCommand } from '../../platform/commands/commandHandler';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let admin: Session;
let partner: Session;
let sakura: Session;
let manufacturer: Session;
let support: Session;

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  [admin, partner, sakura, manufacturer, support] = await Promise.all(
    ['admin@partnerhub.test', 'partner@partnerhub.test', 'kenji.mori@sakura-netcom.test', 'manufacturer@partnerhub.test', 'support@partnerhub.test'].map(
      (email) => login(t.app, email),
    ),
  );
});
afterAll(() => t?.close());

const call = (session: Session) => as(t.app, session);
let counter = 0;
const uniqueCompany = (name: string) => `${name} ${Date.now().toString(36)}${(counter++).toString(36)}`;
const lead = (overrides: Record<string, unknown> = {}) => {
  const company = uniqueCompany('Contoso');
  return {
    company,
    contact_name: 'Ada Lovelace',
    email: `ada@${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`,
    phone: '+44 20 7946 0000',
    country: 'US',
    region: 'Americas',
    product_interest: 'Managed Switches',
    estimated_value: 50000,
    source: 'web_form',
    ...overrides,
  };
};
const create = async (overrides: Record<string, unknown> = {}, session = admin) => {
  const response = await call(session)({ method: 'POST', url: '/api/leads', payload: lead(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
};
const northwindId = () => partner.user.id;

async function csvUpload(csv: string, query = '') {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'leads.csv');
  const request = new Request('http://x/', { method: 'POST', body: form });
  return call(admin)({
    method: 'POST',
    url: `/api/leads/import${query}`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  });
}

describe('creating and routing', () => {
  it('routes a lead by the first matching rule and records the rule and the reason', async () => {
    const created = await create();
    expect(created).toMatchObject({
      status: 'assigned',
      organisation_id: northwindId(),
      rule_name: 'Americas to Northwind',
      assignment_method: 'named',
      duplicate_of: null,
    });
    expect(created.assignment_reason).toMatch(/Rule "Americas to Northwind" \(region Americas\): named organisation Northwind Networks/);
    expect(Date.parse(created.due_at) - Date.parse(created.assigned_at)).toBe(48 * 60 * 60 * 1000);
  });

  it('leaves a lead no rule matches in the unassigned queue', async () => {
    const created = await create({ region: null, country: null });
    expect(created).toMatchObject({ status: 'unassigned', organisation_id: null, rule_id: null });
    const queue = await call(admin)({ method: 'GET', url: '/api/leads?status=unassigned&limit=100' });
    expect(queue.json().data.leads.map((l: { id: string }) => l.id)).toContain(created.id);
  });

  it('flags a duplicate of an open lead (same company and e-mail domain) and does not route it', async () => {
    const first = await create();
    const second = await create({ company: first.company.toUpperCase() + '.', email: `bob@${first.email.split('@')[1]}` });
    expect(second).toMatchObject({ status: 'unassigned', organisation_id: null, duplicate_of: { type: 'lead', id: first.id } });
  });

  it('creates a lead with the documented example, also without a country', async () => {
    const example = {
      company: 'Contoso Ltd',
      contact_name: 'Ada Lovelace',
      email: 'ada@contoso.example',
      phone: '+44 20 7946 0000',
      country: 'GB',
      region: 'EMEA',
      product_interest: 'Managed Switches',
      estimated_value: 120000,
      source: 'web_form',
      notes: 'Asked for a campus refresh quote.',
    };
    for (const payload of [example, { ...example, country: null }]) {
      const response = await call(admin)({ method: 'POST', url: '/api/leads', payload });
      expect(response.statusCode, response.body).toBe(201);
    }
  });

  it('refuses bad fields with the field named', async () => {
    const response = await call(admin)({ method: 'POST', url: '/api/leads', payload: lead({ email: 'nobody' }) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: { details: [{ field: 'email', message: LEAD_MESSAGES.emailInvalid }] } });
  });

  it('lets only those holding Leads.Create create leads', async () => {
    expect((await call(partner)({ method: 'POST', url: '/api/leads', payload: lead() })).statusCode).toBe(403);
    expect((await call(support)({ method: 'POST', url: '/api/leads', payload: lead() })).statusCode).toBe(403);
    await create({}, manufacturer);
  });
});

describe('answering a lead', () => {
  it('hides the contact until the organisation accepts, then shows it; other organisations never see the lead', async () => {
    const created = await create();
    const before = (await call(partner)({ method: 'GET', url: `/api/leads/${created.id}` })).json().data;
    expect(before).toMatchObject({ status: 'assigned', contact_name: null, email: null, phone: null, contact_visible: false, company: created.company });
    expect((await call(sakura)({ method: 'GET', url: `/api/leads/${created.id}` })).statusCode).toBe(404);
    expect((await call(sakura)({ method: 'POST', url: `/api/leads/${created.id}/accept` })).statusCode).toBe(404);
    const accepted = await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/accept` });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data).toMatchObject({ status: 'accepted', contact_name: 'Ada Lovelace', email: created.email, contact_visible: true });
    const again = await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/accept` });
    expect(again.statusCode).toBe(409);
  });

  it('needs a reason to decline, then passes the lead on; the decliner sees only that it declined', async () => {
    await call(admin)({
      method: 'POST',
      url: '/api/lead-rules',
      payload: { name: 'Test: Oceania in turns', countries: ['NZ'], method: 'round_robin', organisation_ids: [northwindId(), sakura.user.id], position: 0 },
    });
    const created = await create({ country: 'NZ', region: 'APAC' });
    const holder = created.organisation_id === northwindId() ? partner : sakura;
    const other = holder === partner ? sakura : partner;
    const missing = await call(holder)({ method: 'POST', url: `/api/leads/${created.id}/decline`, payload: {} });
    expect(missing.statusCode).toBe(400);
    const blank = await call(holder)({ method: 'POST', url: `/api/leads/${created.id}/decline`, payload: { reason: '  ' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe(LEAD_MESSAGES.reasonRequired);
    const declined = await call(holder)({ method: 'POST', url: `/api/leads/${created.id}/decline`, payload: { reason: 'Outside our territory.' } });
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().data).toMatchObject({ status: 'declined', contact_name: null, organisation_id: null });
    const passedOn = (await call(admin)({ method: 'GET', url: `/api/leads/${created.id}` })).json().data;
    expect(passedOn).toMatchObject({ status: 'assigned', organisation_id: other.user.id, passed_count: 1 });
    expect(passedOn.offers.map((o: { outcome: string }) => o.outcome)).toEqual(['declined', 'pending']);
    const list = (await call(holder)({ method: 'GET', url: '/api/leads?status=declined&limit=100' })).json().data.leads;
    expect(list.find((l: { id: string }) => l.id === created.id)).toMatchObject({ status: 'declined', email: null });
  });
});

describe('working and converting', () => {
  it('moves accepted → contacted → qualified, converts into a protected deal registration linked both ways, and refuses a second conversion', async () => {
    const created = await create({ estimated_value: 75000 });
    await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/accept` });
    const skipBack = await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/status`, payload: { status: 'disqualified' } });
    expect(skipBack.statusCode).toBe(400);
    for (const status of ['contacted', 'qualified']) {
      const moved = await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/status`, payload: { status } });
      expect(moved.json().data.status).toBe(status);
    }
    const converted = await call(partner)({
      method: 'POST',
      url: `/api/leads/${created.id}/convert`,
      payload: { title: 'Contoso campus', expected_closure_date: '2027-03-31' },
    });
    expect(converted.statusCode, converted.body).toBe(201);
    const projectId = converted.json().data.project_id;
    expect(converted.json().project_id).toBe(projectId);
    const project = (await call(partner)({ method: 'GET', url: `/api/projects/${projectId}` })).json().data;
    expect(project).toMatchObject({
      title: 'Contoso campus',
      end_user_customer_name: created.company,
      end_user_email: created.email,
      value: 75000,
      registration_status: 'pending',
      organisation_id: northwindId(),
    });
    expect((await call(partner)({ method: 'GET', url: `/api/leads/${created.id}` })).json().data).toMatchObject({ status: 'converted', project_id: projectId });
    const byProject = (await call(partner)({ method: 'GET', url: `/api/leads?project_id=${projectId}` })).json().data.leads;
    expect(byProject.map((l: { id: string }) => l.id)).toEqual([created.id]);
    const twice = await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/convert`, payload: { title: 'Again' } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('LEAD_CONVERTED');
  });

  it('applies the deal conflict rule: a lead of a customer another organisation protects converts into a registration under conflict review', async () => {
    const company = uniqueCompany('Fabrikam');
    const domain = `${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`;
    const registered = await call(sakura)({
      method: 'POST',
      url: '/api/projects',
      payload: (() => {
        const boundary = 'x-boundary';
        return `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nFabrikam rollout\r\n--${boundary}\r\nContent-Disposition: form-data; name="end_user_customer_name"\r\n\r\n${company}\r\n--${boundary}\r\nContent-Disposition: form-data; name="end_user_email"\r\n\r\nit@${domain}\r\n--${boundary}--\r\n`;
      })(),
      headers: { 'content-type': 'multipart/form-data; boundary=x-boundary' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const created = await create({ company, email: `buyer@${domain}` });
    expect(created).toMatchObject({ status: 'unassigned', duplicate_of: { type: 'project', id: registered.json().data.id } });
    const assigned = await call(admin)({
      method: 'POST',
      url: `/api/leads/${created.id}/assign`,
      payload: { organisation_id: northwindId(), reason: 'Northwind knows the customer.' },
    });
    expect(assigned.json().data).toMatchObject({
      status: 'assigned',
      organisation_id: northwindId(),
      assignment_method: 'manual',
      assignment_reason: 'Northwind knows the customer.',
    });
    await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/accept` });
    const converted = await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/convert`, payload: { title: 'Fabrikam for Northwind' } });
    expect(converted.statusCode, converted.body).toBe(201);
    const project = (await call(admin)({ method: 'GET', url: `/api/projects/${converted.json().data.project_id}` })).json().data;
    expect(project.registration_status).toBe('conflict');
  });

  it('lets only admins assign', async () => {
    const created = await create({ region: null, country: null });
    expect((await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/assign`, payload: { organisation_id: northwindId() } })).statusCode).toBe(403);
    const notOrganisation = await call(admin)({ method: 'POST', url: `/api/leads/${created.id}/assign`, payload: { organisation_id: admin.user.id } });
    expect(notOrganisation.statusCode).toBe(400);
  });
});

describe('lists, history and export', () => {
  it('filters by status, source and region, in both list shapes', async () => {
    const created = await create({ source: 'partner_referral', region: 'Americas' });
    const envelope = (await call(admin)({ method: 'GET', url: '/api/leads?source=partner_referral&region=Americas&status=assigned&limit=100' })).json();
    expect(envelope.data.leads.map((l: { id: string }) => l.id)).toContain(created.id);
    expect(
      envelope.data.leads.every(
        (l: { source: string; region: string; status: string }) => l.source === 'partner_referral' && l.region === 'Americas' && l.status === 'assigned',
      ),
    ).toBe(true);
    const reactAdmin = await call(admin)({
      method: 'GET',
      url: `/api/leads?filter=${encodeURIComponent(JSON.stringify({ organisation_id: northwindId() }))}&range=[0,9]&sort=["created_at","DESC"]`,
    });
    expect(reactAdmin.headers['content-range']).toMatch(/^leads 0-\d+\/\d+$/);
    expect(reactAdmin.json().every((l: { organisation_id: string }) => l.organisation_id === northwindId())).toBe(true);
    const bad = await call(admin)({ method: 'GET', url: '/api/leads?status=won' });
    expect(bad.statusCode).toBe(400);
  });

  it("shows an organisation only its own part of a lead's history", async () => {
    await call(admin)({
      method: 'POST',
      url: '/api/lead-rules',
      payload: { name: 'Test: Fiji in turns', countries: ['FJ'], method: 'round_robin', organisation_ids: [northwindId(), sakura.user.id], position: 0 },
    });
    const created = await create({ country: 'FJ', region: 'APAC' });
    const holder = created.organisation_id === northwindId() ? partner : sakura;
    const other = holder === partner ? sakura : partner;
    await call(holder)({ method: 'POST', url: `/api/leads/${created.id}/decline`, payload: { reason: 'Too far.' } });
    await call(other)({ method: 'POST', url: `/api/leads/${created.id}/accept` });
    const full = (await call(admin)({ method: 'GET', url: `/api/leads/${created.id}/history` })).json().data;
    expect(full.map((h: { to_status: string }) => h.to_status)).toEqual(['unassigned', 'assigned', 'unassigned', 'assigned', 'accepted']);
    const own = (await call(other)({ method: 'GET', url: `/api/leads/${created.id}/history` })).json().data;
    expect(own.map((h: { to_status: string }) => h.to_status)).toEqual(['assigned', 'accepted']);
    const passed = (await call(holder)({ method: 'GET', url: `/api/leads/${created.id}/history` })).json().data;
    expect(passed.map((h: { to_status: string }) => h.to_status)).toEqual(['assigned', 'unassigned']);
  });

  it('exports CSV without the contact details the caller may not see', async () => {
    const created = await create();
    const csv = (await call(partner)({ method: 'GET', url: '/api/leads/export?status=assigned' })).body;
    const line = csv.split('\r\n').find((l) => l.startsWith(created.id))!;
    expect(line).toContain(created.company);
    expect(line).not.toContain(created.email);
    expect((await call(admin)({ method: 'GET', url: '/api/leads/export?status=assigned' })).body).toContain(created.email);
  });
});

describe('versions and history keep the contact private', () => {
  /** The window closes as the worker would close it: LapseLead at the due time, returning the lead to the queue. */
  async function lapse(id: string, dueAt: string) {
    const metadata = { now: dueAt, actorId: null, actorRole: 'system', correlationId: randomUUID(), causationId: null };
    const result = await handleCommand(t.portal.services.store, leads, id, { type: 'LapseLead', dueAt, next: null }, metadata);
    expect(result.events.map((e) => e.type)).toEqual(['LeadLapsed.v1']);
    await t.portal.services.watcher.waitFor(result.position!);
  }
  const read = async (session: Session, url: string) => {
    const response = await call(session)({ method: 'GET', url });
    expect(response.statusCode, response.body).toBe(200);
    return response.body;
  };
  const versionsOf = async (session: Session, id: string) =>
    JSON.parse(await read(session, `/api/leads/${id}/versions`)).data as Array<{
      revision: number;
      occurred_at: string;
      event_type: string;
      changes: Array<{ field: string }>;
    }>;

  it('shows the contact in versions to admins and to the organisation holding the lead accepted, never to one awaiting, declining or letting it lapse', async () => {
    await call(admin)({
      method: 'POST',
      url: '/api/lead-rules',
      payload: { name: 'Test: Samoa in turns', countries: ['WS'], method: 'round_robin', organisation_ids: [northwindId(), sakura.user.id], position: 0 },
    });
    const created = await create({ country: 'WS', region: 'APAC' });
    const holder = created.organisation_id === northwindId() ? partner : sakura;
    const other = holder === partner ? sakura : partner;
    const email = created.email as string;

    const all = await versionsOf(admin, created.id);
    expect(all.map((v) => v.event_type)).toEqual(['LeadCreated.v1', 'LeadAssigned.v1']);
    expect(JSON.stringify(all)).toContain(email);
    // Awaiting an answer: the offer is visible, the contact is not.
    const awaiting = await read(holder, `/api/leads/${created.id}/versions`);
    expect(JSON.parse(awaiting).data.map((v: { event_type: string }) => v.event_type)).toEqual(['LeadAssigned.v1']);
    expect(awaiting).not.toContain(email);
    expect(awaiting).not.toContain('Ada Lovelace');

    const declined = await call(holder)({ method: 'POST', url: `/api/leads/${created.id}/decline`, payload: { reason: 'Not our field.' } });
    expect(declined.statusCode, declined.body).toBe(200);
    expect((await call(other)({ method: 'POST', url: `/api/leads/${created.id}/accept` })).statusCode).toBe(200);

    const accepted = await read(other, `/api/leads/${created.id}/versions`);
    expect(JSON.parse(accepted).data.map((v: { event_type: string }) => v.event_type)).toEqual(['LeadAssigned.v1', 'LeadAccepted.v1']);
    // Who declined before is not the new holder's business: not the reason, not the person.
    expect(accepted).not.toContain('Not our field.');
    expect(accepted).not.toContain(holder.user.id);
    const acceptedHistory = await read(other, `/api/leads/${created.id}/history`);
    expect(acceptedHistory).not.toContain('Not our field.');
    expect(acceptedHistory).not.toContain(holder.user.id);
    const acceptedAt = JSON.parse(accepted).data[1].occurred_at;
    expect(JSON.parse(await read(other, `/api/leads/${created.id}?asOf=${encodeURIComponent(acceptedAt)}`)).data).toMatchObject({
      status: 'accepted',
      email,
      contact_name: 'Ada Lovelace',
    });
    for (const url of [`/api/leads/${created.id}/versions`, `/api/leads/${created.id}/history`]) {
      const body = await read(holder, url);
      expect(body, url).not.toContain(email);
      expect(body, url).not.toContain('Ada Lovelace');
      expect(body, url).not.toContain('+44 20 7946 0000');
      expect(body, url).not.toContain(other.user.id);
    }
    const decliner = JSON.parse(await read(holder, `/api/leads/${created.id}/versions`)).data;
    expect(decliner.map((v: { event_type: string }) => v.event_type)).toEqual(['LeadAssigned.v1', 'LeadDeclined.v1']);
    // As of its own moments only, and without the contact; the moments after it passed the lead on are not its to read.
    const asOf = await read(holder, `/api/leads/${created.id}?asOf=${encodeURIComponent(decliner[0].occurred_at)}`);
    expect(JSON.parse(asOf).data).toMatchObject({ status: 'assigned', email: null, contact_name: null });
    const afterItsTime = await call(holder)({ method: 'GET', url: `/api/leads/${created.id}?asOf=${encodeURIComponent(acceptedAt)}` });
    expect(afterItsTime.statusCode).toBe(404);
    expect(afterItsTime.body).not.toContain(email);
    expect(JSON.parse(await read(admin, `/api/leads/${created.id}?asOf=${encodeURIComponent(all[0].occurred_at)}`)).data).toMatchObject({
      company: created.company,
      email,
      contact_name: 'Ada Lovelace',
    });
  });

  it('shows an organisation that let a lead lapse no contact in its versions or history, even of the time it held it', async () => {
    const created = await create();
    expect(created.organisation_id).toBe(northwindId());
    await lapse(created.id, created.due_at);
    for (const url of [`/api/leads/${created.id}/versions`, `/api/leads/${created.id}/history`, `/api/leads/${created.id}`]) {
      const body = await read(partner, url);
      expect(body, url).not.toContain(created.email);
      expect(body, url).not.toContain('Ada Lovelace');
    }
    const own = await versionsOf(partner, created.id);
    expect(own.map((v) => v.event_type)).toEqual(['LeadAssigned.v1', 'LeadLapsed.v1']);
    const held = JSON.parse(await read(partner, `/api/leads/${created.id}?asOf=${encodeURIComponent(own[0].occurred_at)}`)).data;
    expect(held).toMatchObject({ status: 'assigned', email: null, contact_name: null, phone: null });
    // Ids in past versions are for administrators; an organisation reads labels.
    expect(held).not.toHaveProperty('organisation_id');
    expect(await read(admin, `/api/leads/${created.id}/versions`)).toContain(created.email);
    expect((await call(sakura)({ method: 'GET', url: `/api/leads/${created.id}/versions` })).statusCode).toBe(404);
  });
});

describe('reports', () => {
  it('answers acceptance, time to accept, conversion and revenue per organisation and per source; an organisation sees its own row only', async () => {
    const created = await create({ source: 'campaign' });
    await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/accept` });
    const converted = await call(partner)({ method: 'POST', url: `/api/leads/${created.id}/convert`, payload: { title: 'Report deal' } });
    const projectId = converted.json().data.project_id;
    const candidates = (await call(partner)({ method: 'GET', url: `/api/projects/${projectId}/orders/candidates` })).json().data as Array<{
      id: string;
      status: string;
      total_amount: number;
    }>;
    const delivered = candidates.find((o) => o.status === 'delivered')!;
    expect((await call(partner)({ method: 'POST', url: `/api/projects/${projectId}/orders`, payload: { order_id: delivered.id } })).statusCode).toBe(201);
    const all = (await call(admin)({ method: 'GET', url: '/api/leads/reports' })).json().data;
    const northwind = all.by_organisation.find((r: { key: string }) => r.key === northwindId());
    expect(northwind.converted).toBeGreaterThanOrEqual(2);
    expect(northwind.accepted).toBeGreaterThanOrEqual(northwind.converted);
    expect(northwind.acceptance_rate).toBeGreaterThan(0);
    expect(northwind.avg_hours_to_accept).toBeGreaterThanOrEqual(0);
    expect(northwind.conversion_rate).toBe(Math.round((northwind.converted / northwind.accepted) * 1000) / 10);
    // The delivered orders linked to the deals the leads became.
    expect(northwind.revenue).toBeGreaterThanOrEqual(Number(delivered.total_amount));
    expect(all.by_source.find((r: { key: string }) => r.key === 'campaign').revenue).toBeGreaterThanOrEqual(Number(delivered.total_amount));
    expect(all.by_source.map((r: { key: string }) => r.key)).toEqual(expect.arrayContaining(['campaign', 'web_form', 'event']));
    expect(all.ageing.map((a: { bucket: string }) => a.bucket)).toEqual(['under 2 days', '2–7 days', '7–30 days', 'over 30 days']);
    const own = (await call(partner)({ method: 'GET', url: '/api/leads/reports' })).json().data;
    expect(own.by_organisation.map((r: { key: string }) => r.key)).toEqual([northwindId()]);
  });
});

describe('routing rules', () => {
  it('adds, orders, changes and removes rules (admins only); a change applies to new leads only', async () => {
    const payload = { name: 'Test: Brazil to Sakura', countries: ['BR'], method: 'named', organisation_ids: [sakura.user.id] };
    expect((await call(partner)({ method: 'POST', url: '/api/lead-rules', payload })).statusCode).toBe(403);
    const added = await call(admin)({ method: 'POST', url: '/api/lead-rules', payload: { ...payload, position: 0 } });
    expect(added.statusCode, added.body).toBe(201);
    const ruleId = added.json().data.id;
    const before = await create({ country: 'BR', region: 'Americas' });
    expect(before).toMatchObject({ organisation_id: sakura.user.id, rule_id: ruleId });

    const changed = await call(admin)({ method: 'PUT', url: `/api/lead-rules/${ruleId}`, payload: { ...payload, organisation_ids: [northwindId()] } });
    expect(changed.statusCode, changed.body).toBe(200);
    const after = await create({ country: 'BR', region: 'Americas' });
    expect(after.organisation_id).toBe(northwindId());
    expect((await call(admin)({ method: 'GET', url: `/api/leads/${before.id}` })).json().data.organisation_id).toBe(sakura.user.id);

    const moved = await call(admin)({ method: 'POST', url: `/api/lead-rules/${ruleId}/move`, payload: { position: 3 } });
    expect(moved.json().data.position).toBe(3);
    const rules = (await call(admin)({ method: 'GET', url: '/api/lead-rules?limit=100' })).json().data.rules;
    expect(rules.map((r: { position: number }) => r.position)).toEqual(rules.map((_: unknown, i: number) => i));
    expect(rules[3].id).toBe(ruleId);

    const bad = await call(admin)({
      method: 'POST',
      url: '/api/lead-rules',
      payload: { ...payload, method: 'named', organisation_ids: [northwindId(), sakura.user.id] },
    });
    expect(bad.statusCode).toBe(400);
    expect((await call(admin)({ method: 'DELETE', url: `/api/lead-rules/${ruleId}` })).statusCode).toBe(200);
    expect((await call(admin)({ method: 'GET', url: `/api/lead-rules/${ruleId}` })).statusCode).toBe(404);
  });
});

describe('CSV import', () => {
  const header = 'company,contact_name,email,phone,country,region,product_interest,estimated_value,source,notes';
  const batch = Date.now().toString(36);
  const rows = Array.from(
    { length: 1000 },
    (_, i) =>
      `Import ${batch} Company ${i},Person ${i},person${i}@import-${batch}-${i}.example,+1 555 ${String(i).padStart(4, '0')},,,Managed Switches,${1000 + i},event,"Row ${i}, from the fair"`,
  );
  const BAD = {
    17: 'Import Bad,Nobody,not-an-email,,,,,,event,',
    500: ',No Company,x@y.example,,,,,,event,',
    998: 'Import Bad 3,Someone,someone@bad3.example,,,Mars,,,event,',
  } as Record<number, string>;
  const file = [header, ...rows.map((row, i) => BAD[i] ?? row)].join('\r\n');
  const countOf = async () =>
    Number((await t.portal.services.pool.query(`SELECT count(*) AS n FROM read.leads WHERE company LIKE $1`, [`Import ${batch}%`])).rows[0].n);

  it('previews a 1,000-row file with 3 bad rows: exactly those rows are listed, and nothing is stored', async () => {
    const preview = await csvUpload(file, '?dryRun=true');
    expect(preview.statusCode, preview.body).toBe(200);
    const data = preview.json().data;
    expect(data).toMatchObject({ dry_run: true, total: 1000, valid: 997, invalid: 3, already_imported: 0, created: 0 });
    const invalid = data.rows.filter((r: { status: string }) => r.status === 'invalid');
    expect(invalid.map((r: { line: number }) => r.line)).toEqual([19, 502, 1000]);
    expect(invalid.map((r: { errors: Array<{ field: string }> }) => r.errors[0].field)).toEqual(['email', 'company', 'region']);
    expect(await countOf()).toBe(0);
  });

  it('stores none of a file with bad rows unless asked to import the good ones', async () => {
    const refused = await csvUpload(file);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('IMPORT_HAS_ERRORS');
    expect(refused.json().error.details.map((d: { line: number }) => d.line)).toEqual([19, 502, 1000]);
    expect(await countOf()).toBe(0);

    const imported = await csvUpload(file, '?importValid=true');
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json().data).toMatchObject({ created: 997, invalid: 3 });
    expect(await countOf()).toBe(997);
    const found = (await call(admin)({ method: 'GET', url: `/api/leads?search=${encodeURIComponent(`Import ${batch} Company 42`)}&limit=100` })).json().data
      .leads;
    const one = found.find((l: { company: string }) => l.company === `Import ${batch} Company 42`);
    expect(one).toMatchObject({ contact_name: 'Person 42', estimated_value: 1042, source: 'event', notes: 'Row 42, from the fair', status: 'unassigned' });
  }, 120_000);

  it('creates no duplicates when the same file comes again', async () => {
    const again = await csvUpload(file, '?importValid=true');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({ created: 0, already_imported: 997 });
    expect(await countOf()).toBe(997);
  }, 120_000);

  it('refuses a file that is not a lead list', async () => {
    const response = await csvUpload('name,colour\nx,red\n', '?dryRun=true');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/Unknown columns: name, colour/);
  });
});
