import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let admin: Session;
let partnerA: Session;
let teamMemberA: Session;
let partnerB: Session;
let distributor: Session;
let manufacturer: Session;
const password = 'Partner2026';

beforeAll(async () => {
  t = await startTestPortal({ env: { LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '10000', JOB_BACKOFF_MS: '50' } });
  [admin, partnerA, teamMemberA, distributor, manufacturer] = await Promise.all(
    ['admin', 'partner', 'partner.user', 'distributor', 'manufacturer'].map((name) => login(t.app, `${name}@partnerhub.test`)),
  );
  // A second partner organisation with the partner's project permissions.
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
    payload: {
      full_name: 'Ingrid Berg',
      email,
      role: 'partner',
      is_active: true,
      permissions: ['Projects.Read', 'Projects.Create', 'Projects.Update', 'Orders.Read', 'Orders.Browse', 'Orders.Checkout', 'Orders.Shipping'],
    },
  });
  expect(activated.statusCode).toBe(200);
  partnerB = await login(t.app, email, password);
});
afterAll(() => t?.close());

const call = (session: Session | undefined) => as(t.app, session);
const unique = () => Math.random().toString(36).slice(2, 8);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A multipart body as a browser sends it. */
async function multipart(fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('boq_file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

async function register(session: Session, fields: Record<string, string>, file?: { name: string; type: string; bytes: Buffer }) {
  const body = await multipart({ title: `Project ${unique()}`, expected_closure_date: inDays(90), value: '1000.50', progress: '20', ...fields }, file);
  return call(session)({ method: 'POST', url: '/api/projects', ...body });
}

describe('registering', () => {
  it('a partner registers a project for its own organisation, protected for 60 days', async () => {
    const response = await register(partnerA, { title: 'Harbour campus', end_user_customer_name: `Harbour ${unique()}`, end_user_email: 'it@harbour.test' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ success: true, message: 'Project created successfully' });
    expect(body.data).toMatchObject({
      title: 'Harbour campus',
      status: 'Planning',
      progress: 20,
      value: 1000.5,
      registration_status: 'pending',
      registration_state: 'protected',
      company_name: 'Northwind Networks',
      conflict: null,
    });
    const days = (Date.parse(body.data.expires_at) - Date.parse(body.data.submitted_at)) / 86_400_000;
    expect(days).toBe(60);
  });

  it('refuses a missing title, a bad e-mail, a negative budget and unknown fields, storing nothing', async () => {
    const before = (await call(partnerA)({ method: 'GET', url: '/api/projects/stats' })).json().data.totalProjects;
    const noTitle = await register(partnerA, { title: '  ' });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().message).toBe('Title is required');
    expect((await register(partnerA, { end_user_email: 'not-an-email' })).json().message).toBe('End user email is invalid.');
    expect((await register(partnerA, { value: '-5' })).statusCode).toBe(400);
    expect((await register(partnerA, { colour: 'red' })).statusCode).toBe(400);
    expect((await call(partnerA)({ method: 'POST', url: '/api/projects', payload: { title: 'JSON' } })).statusCode).toBe(415);
    expect((await call(partnerA)({ method: 'GET', url: '/api/projects/stats' })).json().data.totalProjects).toBe(before);
  });

  it('a partner cannot register for another organisation; an admin must choose an approved partner', async () => {
    expect((await register(partnerA, { company_id: partnerB.user.id })).statusCode).toBe(403);
    expect((await register(admin, {})).json().message).toBe('Please choose a partner.');
    const forPartner = await register(admin, { company_id: partnerA.user.id });
    expect(forPartner.statusCode).toBe(201);
    expect(forPartner.json().data.company_name).toBe('Northwind Networks');
    const choice = (await call(partnerA)({ method: 'GET', url: '/api/projects/partners' })).json().data;
    expect(choice).toEqual([{ id: partnerA.user.id, company_name: 'Northwind Networks' }]);
    const adminChoice = (await call(admin)({ method: 'GET', url: '/api/projects/partners' })).json().data;
    expect(adminChoice.length).toBeGreaterThan(2);
  });
});

describe('the BoQ upload', () => {
  it('accepts a PDF and a CSV by content and serves them only to those who see the project', async () => {
    const pdf = await register(
      partnerA,
      {},
      { name: 'boq.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF') },
    );
    expect(pdf.statusCode).toBe(201);
    const id = pdf.json().data.id;
    expect(pdf.json().data.boq_file_url).toBe(`/api/projects/${id}/boq`);
    const download = await call(partnerA)({ method: 'GET', url: `/api/projects/${id}/boq` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect((await call(partnerB)({ method: 'GET', url: `/api/projects/${id}/boq` })).statusCode).toBe(404);
    const csv = await register(
      partnerA,
      {},
      { name: 'boq.csv', type: 'text/csv', bytes: Buffer.from('item,quantity,price\nHX-2400,4,1299.50\nSFP-10G,20,49.99\n') },
    );
    expect(csv.statusCode).toBe(201);
  });

  it('rejects a renamed text file', async () => {
    const response = await register(
      partnerA,
      { title: 'Renamed' },
      { name: 'boq.pdf', type: 'application/pdf', bytes: Buffer.from('These are my notes about the deal.\nNothing tabular here.\n') },
    );
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toMatch(/BoQ file must be a PDF, XLS, XLSX, CSV, DOC, DOCX, PNG, JPG file/);
  });
});

describe('conflicts', () => {
  it('flags a later registration of the same customer by another organisation; the later partner learns only that a review is open', async () => {
    const customer = `Contoso ${unique()}`;
    const first = (
      await register(partnerA, { title: 'Secret Northwind deal', end_user_customer_name: `${customer}, Ltd.`, end_user_email: 'cio@contoso.test' })
    ).json().data;
    const later = await register(partnerB, {
      title: 'Fjord bid',
      end_user_customer_name: `  ${customer.toUpperCase()} LTD `,
      end_user_email: 'buyer@Contoso.test',
    });
    expect(later.statusCode).toBe(201);
    const mine = later.json().data;
    expect(mine).toMatchObject({ registration_status: 'conflict', registration_state: 'conflict_review', conflict: { under_review: true } });
    const seenByB = JSON.stringify([
      mine,
      (await call(partnerB)({ method: 'GET', url: `/api/projects/${mine.id}` })).json(),
      (await call(partnerB)({ method: 'GET', url: '/api/projects' })).json(),
    ]);
    expect(seenByB).not.toContain('Secret Northwind deal');
    expect(seenByB).not.toContain('Northwind');
    expect(seenByB).not.toContain(first.id);

    // Admins see both side by side, conflicts first.
    const adminView = (await call(admin)({ method: 'GET', url: `/api/projects/${mine.id}` })).json().data;
    expect(adminView.conflicting_project).toMatchObject({ id: first.id, title: 'Secret Northwind deal', company_name: 'Northwind Networks' });
    expect((await call(admin)({ method: 'GET', url: `/api/projects/${first.id}` })).json().data.later_registrations.map((p: { id: string }) => p.id)).toEqual([
      mine.id,
    ]);
    const queue = (await call(admin)({ method: 'GET', url: '/api/projects?limit=5' })).json().data.projects;
    expect(queue[0].registration_status).toBe('conflict');

    // Approving both needs a note.
    expect((await call(admin)({ method: 'POST', url: `/api/projects/${mine.id}/review`, payload: { decision: 'approved' } })).statusCode).toBe(400);
    const approved = await call(admin)({
      method: 'POST',
      url: `/api/projects/${mine.id}/review`,
      payload: { decision: 'approved', reason: 'Different sites of the customer.' },
    });
    expect(approved.json().data.registration_status).toBe('approved');
  });

  it('the same customer with a different e-mail domain, or another customer, is no conflict; nor is the same organisation', async () => {
    const customer = `Fabrikam ${unique()}`;
    await register(partnerA, { end_user_customer_name: customer, end_user_email: 'a@fabrikam.test' });
    expect((await register(partnerB, { end_user_customer_name: customer, end_user_email: 'b@fabrikam-group.test' })).json().data.registration_status).toBe(
      'pending',
    );
    expect((await register(partnerB, { end_user_customer_name: `${customer} Other` })).json().data.registration_status).toBe('pending');
    expect((await register(partnerA, { end_user_customer_name: customer, end_user_email: 'c@fabrikam.test' })).json().data.registration_status).toBe('pending');
    // Without an e-mail the customer's name alone decides: Fjord's registration of it is protected.
    expect((await register(partnerA, { end_user_customer_name: customer })).json().data.registration_status).toBe('conflict');
  });

  it('a rejected registration protects nothing', async () => {
    const customer = `Tailspin ${unique()}`;
    const first = (await register(partnerA, { end_user_customer_name: customer })).json().data;
    expect(
      (await call(admin)({ method: 'POST', url: `/api/projects/${first.id}/review`, payload: { decision: 'rejected', reason: 'x'.repeat(501) } })).statusCode,
    ).toBe(400);
    const rejected = await call(admin)({
      method: 'POST',
      url: `/api/projects/${first.id}/review`,
      payload: { decision: 'rejected', reason: 'Not a real opportunity.' },
    });
    expect(rejected.json().data.registration_status).toBe('rejected');
    expect((await call(admin)({ method: 'POST', url: `/api/projects/${first.id}/review`, payload: { decision: 'approved' } })).statusCode).toBe(409);
    expect((await register(partnerB, { end_user_customer_name: customer })).json().data.registration_status).toBe('pending');
  });
});

describe('updating, status, milestones, team, extension, orders, history', () => {
  it('refuses a cleared title with a field message and changes nothing', async () => {
    const project = (await register(partnerA, { title: 'Keeps its title' })).json().data;
    for (const title of [null, '', '   ']) {
      const refused = await call(partnerA)({ method: 'PUT', url: `/api/projects/${project.id}`, payload: { ...project, title } });
      expect(refused.statusCode, `title ${JSON.stringify(title)}: ${refused.body}`).toBe(400);
      expect(refused.json().error.details).toEqual([{ field: 'title', message: 'Title is required' }]);
    }
    expect((await call(partnerA)({ method: 'GET', url: `/api/projects/${project.id}` })).json().data.title).toBe('Keeps its title');
  });

  it('updates fields, ignores read-only ones, moves the status and keeps history', async () => {
    const project = (await register(partnerA, {})).json().data;
    const updated = await call(partnerA)({
      method: 'PUT',
      url: `/api/projects/${project.id}`,
      payload: { ...project, title: 'Renamed project', progress: 55, status: 'In Progress' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ message: 'Project updated successfully', data: { title: 'Renamed project', progress: 55, status: 'In Progress' } });
    expect((await call(partnerA)({ method: 'PUT', url: `/api/projects/${project.id}`, payload: { colour: 'red' } })).statusCode).toBe(400);
    await call(partnerA)({ method: 'PUT', url: `/api/projects/${project.id}`, payload: { status: 'Completed' } });
    const refused = await call(partnerA)({ method: 'PUT', url: `/api/projects/${project.id}`, payload: { status: 'Planning' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details).toBe('Cannot change status from Completed to Planning');
    // A refused status change records nothing, not even the fields sent with it.
    expect((await call(partnerA)({ method: 'PUT', url: `/api/projects/${project.id}`, payload: { title: 'Lost', status: 'Planning' } })).statusCode).toBe(409);
    expect((await call(partnerA)({ method: 'GET', url: `/api/projects/${project.id}` })).json().data.title).toBe('Renamed project');
    const history = (await call(admin)({ method: 'GET', url: `/api/projects/${project.id}/history` })).json().data;
    expect(history.map((h: { action: string }) => h.action)).toEqual([
      expect.stringMatching(/^Registered; protected until/),
      'Details updated',
      'Status changed from Planning to In Progress',
      'Status changed from In Progress to Completed',
    ]);
    expect(history[2]).toMatchObject({ actor_name: 'Priya Shah', actor_role: 'partner' });
  });

  it('two edits of different fields sent at the same time both stand', async () => {
    const project = (await register(partnerA, { title: 'Before both edits', value: '1000' })).json().data;
    const url = `/api/projects/${project.id}`;
    const [retitled, revalued] = await Promise.all([
      call(partnerA)({ method: 'PUT', url, payload: { title: 'Retitled meanwhile' } }),
      call(admin)({ method: 'PUT', url, payload: { value: 2500 } }),
    ]);
    expect([retitled.statusCode, revalued.statusCode]).toEqual([200, 200]);
    expect((await call(partnerA)({ method: 'GET', url })).json().data).toMatchObject({ title: 'Retitled meanwhile', value: 2500 });
    // An edit form sends every field back: the ones it left as read do not undo the other edit.
    const [renamed, staged] = await Promise.all([
      call(partnerA)({ method: 'PUT', url, payload: { ...project, title: 'Renamed from the form', value: 2500 } }),
      call(admin)({ method: 'PUT', url, payload: { project_stage: 'Negotiation' } }),
    ]);
    expect([renamed.statusCode, staged.statusCode]).toEqual([200, 200]);
    expect((await call(partnerA)({ method: 'GET', url })).json().data).toMatchObject({
      title: 'Renamed from the form',
      value: 2500,
      project_stage: 'Negotiation',
    });
  });

  it('milestones inside the project dates, with the spec message otherwise', async () => {
    const project = (await register(partnerA, { expected_closure_date: inDays(30) })).json().data;
    const added = await call(partnerA)({
      method: 'POST',
      url: '/api/projects/milestones',
      payload: { project_id: project.id, name: 'Site survey', date: inDays(5), status: 'pending' },
    });
    expect(added.statusCode).toBe(201);
    const milestone = added.json().data;
    expect(milestone).toMatchObject({ project_id: project.id, name: 'Site survey', date: inDays(5), status: 'pending' });
    const outside = await call(partnerA)({
      method: 'POST',
      url: '/api/projects/milestones',
      payload: { project_id: project.id, name: 'Late', date: inDays(31) },
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toBe('Milestone date must be within project start and end date');
    expect(
      (await call(partnerA)({ method: 'PUT', url: `/api/projects/milestones/${milestone.id}`, payload: { ...milestone, status: 'completed' } })).json().data
        .status,
    ).toBe('completed');
    expect((await call(partnerA)({ method: 'GET', url: `/api/projects/${project.id}/milestones` })).json().data).toHaveLength(1);
    expect((await call(partnerB)({ method: 'GET', url: `/api/projects/milestones/${milestone.id}` })).statusCode).toBe(404);
    expect((await call(partnerB)({ method: 'DELETE', url: `/api/projects/milestones/${milestone.id}` })).statusCode).toBe(404);
    expect((await call(partnerA)({ method: 'DELETE', url: `/api/projects/milestones/${milestone.id}` })).json().message).toBe('Milestone deleted successfully');
  });

  it('team members come from the project organisation only', async () => {
    const project = (await register(partnerA, {})).json().data;
    const candidates = (await call(partnerA)({ method: 'GET', url: `/api/projects/${project.id}/team/candidates` })).json().data;
    expect(candidates.map((c: { id: string }) => c.id)).toContain(teamMemberA.user.id);
    expect((await call(partnerA)({ method: 'POST', url: `/api/projects/${project.id}/team`, payload: { user_id: teamMemberA.user.id } })).statusCode).toBe(201);
    expect((await call(partnerA)({ method: 'POST', url: `/api/projects/${project.id}/team`, payload: { user_id: teamMemberA.user.id } })).statusCode).toBe(409);
    expect((await call(partnerA)({ method: 'POST', url: `/api/projects/${project.id}/team`, payload: { user_id: partnerB.user.id } })).statusCode).toBe(400);
    const team = (await call(teamMemberA)({ method: 'GET', url: `/api/projects/${project.id}/team` })).json().data;
    expect(team).toMatchObject([{ full_name: 'Lena Fischer', role: 'partner_user' }]);
    expect((await call(partnerA)({ method: 'GET', url: `/api/projects/${project.id}` })).json().data.team_size).toBe(1);
  });

  it('one extension, requested by the owner and decided by an admin', async () => {
    const project = (await register(partnerA, {})).json().data;
    expect((await call(partnerB)({ method: 'POST', url: `/api/projects/${project.id}/extension`, payload: { reason: 'Mine' } })).statusCode).toBe(404);
    const requested = await call(partnerA)({ method: 'POST', url: `/api/projects/${project.id}/extension`, payload: { reason: 'Board meets next quarter.' } });
    expect(requested.json().data.extension_status).toBe('requested');
    expect((await call(partnerA)({ method: 'POST', url: `/api/projects/${project.id}/extension`, payload: { reason: 'Again' } })).statusCode).toBe(409);
    expect(
      (await call(partnerA)({ method: 'POST', url: `/api/projects/${project.id}/extension/decision`, payload: { decision: 'approved' } })).statusCode,
    ).toBe(403);
    const approved = (await call(admin)({ method: 'POST', url: `/api/projects/${project.id}/extension/decision`, payload: { decision: 'approved' } })).json()
      .data;
    expect((Date.parse(approved.expires_at) - Date.parse(project.expires_at)) / 86_400_000).toBe(30);
  });

  it("links the organisation's own orders only", async () => {
    const project = (await register(partnerA, {})).json().data;
    const candidates = (await call(partnerA)({ method: 'GET', url: `/api/projects/${project.id}/orders/candidates` })).json().data;
    expect(candidates.length).toBeGreaterThan(0);
    const linked = await call(partnerA)({ method: 'POST', url: `/api/projects/${project.id}/orders`, payload: { order_id: candidates[0].id } });
    expect(linked.statusCode).toBe(201);
    expect((await call(partnerA)({ method: 'GET', url: `/api/projects/${project.id}/orders` })).json().data.map((o: { id: string }) => o.id)).toEqual([
      candidates[0].id,
    ]);
    const atlasOrder = (await call(distributor)({ method: 'GET', url: '/api/orders?limit=1' })).json().data.orders[0];
    expect((await call(partnerA)({ method: 'POST', url: `/api/projects/${project.id}/orders`, payload: { order_id: atlasOrder.id } })).statusCode).toBe(400);
  });
});

describe('linking an order at checkout', () => {
  it("links the new order to one of the organisation's projects; another organisation's project is refused and no order is placed", async () => {
    const project = (await register(partnerA, {})).json().data;
    const product = (await call(partnerA)({ method: 'GET', url: '/api/products?stock=in_stock&limit=1' })).json().data[0];
    const order = (projectId: string) => ({
      estimated_delivery: inDays(10),
      items: [{ product_id: product.id, quantity: product.moq }],
      shipping_address: {
        firstName: 'Priya',
        lastName: 'Shah',
        email: 'priya@northwind.test',
        phone: '+1 206 555 0142',
        addressLine1: '410 Harbour Steps',
        city: 'Seattle',
        state: 'WA',
        zipCode: '98101',
        country: 'United States',
      },
      project_id: projectId,
    });
    const placed = await call(partnerA)({ method: 'POST', url: '/api/orders', payload: order(project.id) });
    expect(placed.statusCode).toBe(201);
    const linked = (await call(partnerA)({ method: 'GET', url: `/api/projects/${project.id}/orders` })).json().data;
    expect(linked.map((o: { id: string }) => o.id)).toEqual([placed.json().data.id]);

    const before = (await call(partnerB)({ method: 'GET', url: '/api/orders' })).json().data.total;
    const refused = await call(partnerB)({ method: 'POST', url: '/api/orders', payload: order(project.id) });
    expect(refused.statusCode).toBe(400);
    expect((await call(partnerB)({ method: 'GET', url: '/api/orders' })).json().data.total).toBe(before);
  });
});

describe('only registrations that still stand take orders', () => {
  it('a rejected registration is not offered and is refused at checkout and on the project page', async () => {
    const project = (await register(partnerA, { end_user_customer_name: `Rejected customer ${unique()}` })).json().data;
    const rejected = await call(admin)({
      method: 'POST',
      url: `/api/projects/${project.id}/review`,
      payload: { decision: 'rejected', reason: 'Not a new opportunity.' },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const linkable = (
      await call(partnerA)({ method: 'GET', url: `/api/projects?filter=${encodeURIComponent(JSON.stringify({ linkable: true }))}&range=[0,99]` })
    ).json() as Array<{ id: string; registration_status: string; status: string }>;
    expect(linkable.length).toBeGreaterThan(0);
    expect(linkable.map((p) => p.id)).not.toContain(project.id);
    expect(linkable.filter((p) => ['expired', 'rejected'].includes(p.registration_status) || p.status === 'Completed')).toEqual([]);

    const product = (await call(partnerA)({ method: 'GET', url: '/api/products?stock=in_stock&limit=1' })).json().data[0];
    const before = (await call(partnerA)({ method: 'GET', url: '/api/orders' })).json().data.total;
    const refused = await call(partnerA)({
      method: 'POST',
      url: '/api/orders',
      payload: {
        estimated_delivery: inDays(10),
        items: [{ product_id: product.id, quantity: product.moq }],
        shipping_address: {
          firstName: 'Priya',
          lastName: 'Shah',
          email: 'priya@northwind.test',
          phone: '+1 206 555 0142',
          addressLine1: '410 Harbour Steps',
          city: 'Seattle',
          state: 'WA',
          zipCode: '98101',
          country: 'United States',
        },
        project_id: project.id,
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details[0].field).toBe('project_id');
    expect((await call(partnerA)({ method: 'GET', url: '/api/orders' })).json().data.total).toBe(before);
    const candidates = (await call(partnerA)({ method: 'GET', url: `/api/projects/${project.id}/orders/candidates` })).json().data as Array<{ id: string }>;
    expect((await call(partnerA)({ method: 'POST', url: `/api/projects/${project.id}/orders`, payload: { order_id: candidates[0].id } })).statusCode).toBe(409);
  });
});

describe('role × route × own/other organisation', () => {
  let own: { id: string };
  let milestoneId: string;
  beforeAll(async () => {
    own = (await register(partnerA, { title: 'Matrix project' })).json().data;
    milestoneId = (
      await call(partnerA)({ method: 'POST', url: '/api/projects/milestones', payload: { project_id: own.id, name: 'Kick-off', date: inDays(1) } })
    ).json().data.id;
  });

  const routes = () =>
    [
      { name: 'list', method: 'GET', url: '/api/projects' },
      { name: 'read', method: 'GET', url: `/api/projects/${own.id}` },
      { name: 'milestones', method: 'GET', url: `/api/projects/${own.id}/milestones` },
      { name: 'milestone', method: 'GET', url: `/api/projects/milestones/${milestoneId}` },
      { name: 'team', method: 'GET', url: `/api/projects/${own.id}/team` },
      { name: 'update', method: 'PUT', url: `/api/projects/${own.id}`, payload: { project_stage: 'Proposal' } },
      { name: 'add milestone', method: 'POST', url: '/api/projects/milestones', payload: { project_id: own.id, name: 'Demo', date: inDays(2) } },
      { name: 'history', method: 'GET', url: `/api/projects/${own.id}/history` },
      { name: 'review', method: 'POST', url: `/api/projects/${own.id}/review`, payload: { decision: 'rejected', reason: 'Matrix check' } },
      { name: 'delete', method: 'DELETE', url: `/api/projects/${own.id}` },
    ] as const;

  /** Expected status per caller, route by route (in the order above). */
  const expected: Record<string, number[]> = {
    anonymous: [401, 401, 401, 401, 401, 401, 401, 401, 401, 401],
    distributor: [403, 403, 403, 403, 403, 403, 403, 403, 403, 403],
    teamMemberA: [200, 200, 200, 200, 200, 403, 403, 403, 403, 403],
    partnerB: [200, 404, 404, 404, 404, 404, 404, 403, 403, 403],
    manufacturer: [200, 200, 200, 200, 200, 403, 403, 403, 403, 403],
    partnerA: [200, 200, 200, 200, 200, 200, 201, 403, 403, 403],
    admin: [200, 200, 200, 200, 200, 200, 201, 200, 200, 200],
  };

  it('answers every caller as the rules say', async () => {
    const sessions: Record<string, Session | undefined> = { anonymous: undefined, distributor, teamMemberA, partnerB, manufacturer, partnerA, admin };
    const actual: Record<string, number[]> = {};
    for (const [who, session] of Object.entries(sessions)) {
      actual[who] = [];
      for (const route of routes()) {
        const response = await call(session)({ method: route.method, url: route.url, ...('payload' in route ? { payload: route.payload } : {}) });
        actual[who].push(response.statusCode);
      }
    }
    expect(actual).toEqual(expected);
  });

  it("lists only the caller's organisation's projects unless the role sees all", async () => {
    const idsOf = async (session: Session) =>
      (await call(session)({ method: 'GET', url: '/api/projects?limit=100' })).json().data.projects.map((p: { organisation_id: string }) => p.organisation_id);
    expect(new Set(await idsOf(partnerB))).toEqual(new Set([partnerB.user.id]));
    expect(new Set(await idsOf(teamMemberA))).toEqual(new Set([partnerA.user.id]));
    expect(new Set(await idsOf(manufacturer)).size).toBeGreaterThan(1);
    const ra = await call(partnerA)({
      method: 'GET',
      url: `/api/projects?sort=${encodeURIComponent('["id","ASC"]')}&range=${encodeURIComponent('[0,4]')}&filter=${encodeURIComponent('{"active":true}')}`,
    });
    expect(ra.statusCode).toBe(200);
    expect(ra.headers['content-range']).toMatch(/^projects 0-\d+\/\d+$/);
  });

  it("the partner directory counts each partner's projects", async () => {
    const directory = (await call(admin)({ method: 'GET', url: '/api/partner/partners?status=approved&limit=50' })).json().data.partners;
    const northwind = directory.find((p: { id: string }) => p.id === partnerA.user.id);
    const stats = (await call(partnerA)({ method: 'GET', url: '/api/projects/stats' })).json().data;
    expect(northwind.projects_count).toBe(stats.totalProjects);
    expect(northwind.projects_count).toBeGreaterThan(0);
  });
});

describe('reviewing several registrations at once', () => {
  const bulk = (session: Session | undefined, payload: Record<string, unknown>) => call(session)({ method: 'POST', url: '/api/projects/bulk-review', payload });
  const pending = async () =>
    (await register(partnerA, { end_user_customer_name: `Bulk ${unique()}` })).json().data as { id: string; registration_status: string };
  const read = async (id: string) =>
    (await call(admin)({ method: 'GET', url: `/api/projects/${id}` })).json().data as { registration_status: string; review_note: string | null };

  it('is for admins only', async () => {
    const project = await pending();
    for (const session of [partnerA, teamMemberA, distributor, manufacturer]) {
      const answer = await bulk(session, { ids: [project.id], decision: 'approved' });
      expect(answer.statusCode, session.user.role).toBe(403);
    }
    expect((await bulk(undefined, { ids: [project.id], decision: 'approved' })).statusCode).toBe(401);
    expect((await read(project.id)).registration_status).toBe('pending');
  });

  it('refuses a rejection without a reason, an empty or repeated list and an unknown decision, changing nothing', async () => {
    const project = await pending();
    const noReason = await bulk(admin, { ids: [project.id], decision: 'rejected', reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'reason', message: 'Please give a reason for the rejection.' }] },
    });
    expect((await bulk(admin, { ids: [], decision: 'approved' })).json().message).toBe('Choose at least one registration.');
    expect((await bulk(admin, { ids: [project.id, project.id], decision: 'approved' })).json().message).toBe('A registration is listed twice.');
    expect((await bulk(admin, { ids: [project.id], decision: 'maybe' })).statusCode).toBe(400);
    expect((await bulk(admin, { ids: [project.id], decision: 'rejected', reason: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await read(project.id)).registration_status).toBe('pending');
  });

  it('rejects each registration with the one reason and names every one it refused, with why', async () => {
    const [first, second, decided] = [await pending(), await pending(), await pending()];
    expect((await call(admin)({ method: 'POST', url: `/api/projects/${decided.id}/review`, payload: { decision: 'approved' } })).statusCode).toBe(200);
    const missing = '0b9c2f3e-1d4a-4c5b-8e6f-7a8b9c0d1e2f';
    const answer = await bulk(admin, { ids: [first.id, decided.id, missing, second.id], decision: 'rejected', reason: 'Outside the programme territory.' });
    expect(answer.statusCode, answer.body).toBe(200);
    const { message, data } = answer.json();
    expect(message).toBe('2 registrations rejected; 2 refused.');
    expect(data.succeeded).toEqual([first.id, second.id]);
    expect(data.refused).toEqual([
      { id: decided.id, code: expect.any(String), message: expect.any(String) },
      { id: missing, code: 'NOT_FOUND', message: 'Project not found.' },
    ]);
    expect(data.refused[0].code).not.toBe('INTERNAL_ERROR');
    for (const id of [first.id, second.id])
      expect(await read(id)).toMatchObject({ registration_status: 'rejected', review_note: 'Outside the programme territory.' });
    expect((await read(decided.id)).registration_status).toBe('approved');
  });

  it('approves several registrations without a note', async () => {
    const [first, second] = [await pending(), await pending()];
    const answer = await bulk(admin, { ids: [first.id, second.id], decision: 'approved' });
    expect(answer.json()).toMatchObject({ success: true, message: '2 registrations approved.', data: { succeeded: [first.id, second.id], refused: [] } });
    for (const id of [first.id, second.id]) expect((await read(id)).registration_status).toBe('approved');
  });
});

describe('sorting the list', () => {
  it('sorts by the columns of the table view, on the server, and refuses an unknown field', async () => {
    for (const [field, key] of [
      ['submitted_at', 'submitted_at'],
      ['title', 'title'],
      ['value', 'value'],
      ['company_name', 'company_name'],
    ] as const) {
      for (const order of ['ASC', 'DESC'] as const) {
        const answer = await call(admin)({
          method: 'GET',
          url: `/api/projects?sort=${encodeURIComponent(JSON.stringify([field, order]))}&range=${encodeURIComponent('[0,49]')}`,
        });
        expect(answer.statusCode, `${field} ${order}`).toBe(200);
        const values = (answer.json() as Array<Record<string, string | number | null>>).map((row) => row[key]).filter((v) => v !== null);
        expect(values.length).toBeGreaterThan(1);
        const sorted = [...values].sort((a, b) =>
          typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'en', { sensitivity: 'base' }),
        );
        if (order === 'DESC') sorted.reverse();
        if (field === 'title' || field === 'company_name')
          expect(
            values.map((v) => String(v).toLowerCase()),
            `${field} ${order}`,
          ).toEqual(sorted.map((v) => String(v).toLowerCase()));
        else expect(values, `${field} ${order}`).toEqual(sorted);
      }
    }
    expect((await call(admin)({ method: 'GET', url: `/api/projects?sort=${encodeURIComponent('["review_note","ASC"]')}` })).statusCode).toBe(400);
  });
});

describe('demo data', () => {
  it('covers every status, a conflict awaiting review and a registration expiring within a week; seeding again adds nothing', async () => {
    const { seed } = await import('../seed');
    const { rows } = await t.db.pool.query<{ title: string; status: string; registration_status: string; extension_status: string; expires_at: Date }>(
      `SELECT title, status, registration_status, extension_status, expires_at FROM read.projects WHERE created_by IN (SELECT id FROM read.users WHERE email LIKE '%.test') ORDER BY title`,
    );
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['Planning', 'In Progress', 'On Hold', 'Completed']));
    expect(rows.find((r) => r.title === 'Contoso Retail Latin America stores')?.registration_status).toBe('conflict');
    const harbour = rows.find((r) => r.title === 'Harbour Authority port Wi-Fi backbone')!;
    expect(harbour.extension_status).toBe('requested');
    expect(harbour.expires_at.getTime() - Date.now()).toBeLessThan(7 * 86_400_000);
    expect((await t.db.pool.query('SELECT 1 FROM read.project_milestones')).rowCount).toBeGreaterThan(3);
    expect((await t.db.pool.query('SELECT 1 FROM read.project_team')).rowCount).toBeGreaterThan(1);
    const before = (await t.db.pool.query('SELECT count(*)::int AS n FROM read.projects')).rows[0].n;
    await seed(t.portal.services);
    expect((await t.db.pool.query('SELECT count(*)::int AS n FROM read.projects')).rows[0].n).toBe(before);
  });
});
