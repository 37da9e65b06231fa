import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKET_MESSAGES } from '../../domain/tickets/tickets';
import { demoTicketId } from '../seed/tickets';
import { demoOrderId } from '../seed/orders';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

// A real SMTP server: what reaches the partner's mailbox is checked for internal notes.
const received: Array<{ to: string[]; raw: string }> = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') });
      callback();
    });
  },
});

let t: TestPortal;
let admin: Session;
let partner: Session;
let teamMember: Session;
let distributor: Session;
let support: Session;
let jordan: Session;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await startTestPortal({ env: { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`, JOB_BACKOFF_MS: '50' } });
  [admin, partner, teamMember, distributor, support, jordan] = await Promise.all(
    ['admin', 'partner', 'partner.user', 'distributor', 'support', 'jordan.lee'].map((name) => login(t.app, `${name}@partnerhub.test`)),
  );
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const call = (session: Session | undefined) => as(t.app, session);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

/** A multipart body as a browser sends it. */
async function multipart(fields: Record<string, string | string[]>, files: Array<{ name: string; filename: string; bytes: Buffer; type: string }> = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of ([] as string[]).concat(value)) form.append(name, v);
  for (const file of files) form.append(file.name, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

async function openAs(session: Session, fields: Record<string, string | string[]>, files: Parameters<typeof multipart>[1] = []) {
  return call(session)({ method: 'POST', url: '/api/tickets', ...(await multipart(fields, files)) });
}

const waitFor = async <T>(probe: () => Promise<T | undefined | false>, what: string, ms = 15_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

describe('opening a ticket', () => {
  it('opens with the defaults, a ticket number, a service-level due time and a private attachment', async () => {
    const before = Date.now();
    const response = await openAs(
      partner,
      {
        title: ' Switch fan is loud ',
        description: 'The fan of the HX-M2408 runs at full speed.',
        tags: ' fan, , noise ',
        initial_comment: 'Started yesterday.',
      },
      [{ name: 'attachments', filename: 'photo-log.pdf', bytes: PDF, type: 'application/pdf' }],
    );
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body.message).toBe(TICKET_MESSAGES.created);
    const ticket = body.data;
    expect(ticket.ticket_id).toMatch(/^TCK-\d{4}-\d{6}$/);
    expect(ticket).toMatchObject({
      title: 'Switch fan is loud',
      priority: 'Medium',
      category: 'General',
      status: 'Open',
      tags: ['fan', 'noise'],
      initial_comment: 'Started yesterday.',
      assigned_to: null,
    });
    expect(ticket.creator.full_name).toBe('Priya Shah');
    const due = Date.parse(ticket.due_date) - before;
    expect(due).toBeGreaterThanOrEqual(72 * 3_600_000 - 5_000);
    expect(due).toBeLessThanOrEqual(72 * 3_600_000 + 60_000);
    expect(ticket.attachments).toHaveLength(1);
    const url = ticket.attachments[0].url;

    // The attachment: for the partner's organisation and support, not for another organisation or signed out.
    expect((await call(partner)({ method: 'GET', url })).statusCode).toBe(200);
    expect((await call(teamMember)({ method: 'GET', url })).statusCode).toBe(403); // no Support.Read
    expect((await call(support)({ method: 'GET', url })).headers['content-type']).toBe('application/pdf');
    expect((await call(distributor)({ method: 'GET', url })).statusCode).toBe(404);
    expect((await call(undefined)({ method: 'GET', url })).statusCode).toBe(401);
  });

  it("refuses a blank title or description with the spec's messages and keeps nothing", async () => {
    const before = (await call(partner)({ method: 'GET', url: '/api/tickets/statistics' })).json().data.total;
    const noTitle = await openAs(partner, { title: '  ', description: 'x' });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().error.message).toBe('Title is required');
    const noDescription = await openAs(partner, { title: 'x' });
    expect(noDescription.json().error.message).toBe('Description is required');
    expect((await openAs(partner, { title: 'x', description: 'y', priority: 'Urgent' })).statusCode).toBe(400);
    expect((await openAs(partner, { title: 'x', description: 'y', due_date: '2001-01-01' })).json().error.message).toBe(TICKET_MESSAGES.dueDateInPast);
    expect((await openAs(partner, { title: 'x', description: 'y', unknown: 'z' })).statusCode).toBe(400);
    expect((await call(partner)({ method: 'GET', url: '/api/tickets/statistics' })).json().data.total).toBe(before);
  });

  it('checks attachments by content, and lets only staff choose an assignee', async () => {
    const fake = await openAs(partner, { title: 'x', description: 'y' }, [
      { name: 'attachments', filename: 'report.pdf', bytes: Buffer.from('MZ not a pdf at all'), type: 'application/pdf' },
    ]);
    expect(fake.statusCode).toBe(415);
    const chosen = await openAs(partner, { title: 'x', description: 'y', assigned_to: jordan.user.id });
    expect(chosen.statusCode).toBe(403);
    const staff = await openAs(support, {
      title: 'Internal lab test',
      description: 'Reproduce HX-311',
      priority: 'High',
      category: 'Bug Report',
      assigned_to: jordan.user.id,
      due_date: '2099-01-01',
    });
    expect(staff.statusCode, staff.body).toBe(201);
    expect(staff.json().data).toMatchObject({
      assigned_to: jordan.user.id,
      assignee: { full_name: 'Jordan Lee' },
      due_date: '2099-01-01T23:59:59.999Z',
      priority: 'High',
    });
    // Support staff must choose who works the case: a clear 400, nothing recorded.
    const before = (await call(support)({ method: 'GET', url: '/api/tickets?range=[0,0]' })).headers['content-range'];
    const unassigned = await openAs(support, { title: 'Nobody chosen', description: 'y' });
    expect(unassigned.statusCode).toBe(400);
    expect(unassigned.json().error.message).toBe(TICKET_MESSAGES.assigneeRequired);
    expect(unassigned.json().error.details).toEqual([{ field: 'assigned_to', message: TICKET_MESSAGES.assigneeRequired }]);
    expect((await openAs(admin, { title: 'Nobody chosen', description: 'y' })).statusCode).toBe(400);
    expect((await call(support)({ method: 'GET', url: '/api/tickets?range=[0,0]' })).headers['content-range']).toBe(before);
    const notStaff = await openAs(support, { title: 'x', description: 'y', assigned_to: partner.user.id });
    expect(notStaff.json().error.message).toBe(TICKET_MESSAGES.assigneeNotStaff);
  });
});

describe('lists and record scope', () => {
  it('answers data.tickets, data.statistics and data.pagination.total_pages with pages of 10, only of the own organisation', async () => {
    const response = await call(partner)({ method: 'GET', url: '/api/tickets?page=1&limit=10' });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.tickets.length).toBeGreaterThan(0);
    expect(data.tickets.every((ticket: { organisation_id: string }) => ticket.organisation_id === partner.user.id)).toBe(true);
    expect(Object.keys(data.statistics)).toEqual(expect.arrayContaining(['total', 'open', 'in_progress', 'resolved', 'closed']));
    expect(data.pagination.total_pages).toBe(Math.max(1, Math.ceil(data.statistics.total / 10)));
    const open = (await call(partner)({ method: 'GET', url: '/api/tickets?status=Open&priority=Low' })).json().data.tickets;
    expect(open.every((ticket: { status: string; priority: string }) => ticket.status === 'Open' && ticket.priority === 'Low')).toBe(true);
  });

  it("never shows another organisation's ticket; support sees every organisation", async () => {
    const atlas = demoTicketId('atlas-portal-access');
    expect((await call(partner)({ method: 'GET', url: `/api/tickets/${atlas}` })).statusCode).toBe(404);
    expect((await call(partner)({ method: 'POST', url: `/api/tickets/${atlas}/comments`, payload: { comment: 'hi' } })).statusCode).toBe(404);
    expect((await call(distributor)({ method: 'GET', url: `/api/tickets/${atlas}` })).statusCode).toBe(200);
    const all = (await call(support)({ method: 'GET', url: '/api/tickets?limit=100' })).json().data.tickets;
    expect(new Set(all.map((ticket: { organisation_id: string }) => ticket.organisation_id)).size).toBeGreaterThanOrEqual(3);
  });

  it('gives the support queue sorted by due time, filtered by assignee and organisation, react-admin style', async () => {
    const response = await call(support)({
      method: 'GET',
      url: `/api/tickets?sort=${encodeURIComponent('["due_at","ASC"]')}&range=${encodeURIComponent('[0,49]')}&filter=${encodeURIComponent(JSON.stringify({ organisation_id: distributor.user.id }))}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-range']).toMatch(/^tickets 0-\d+\/\d+$/);
    const rows = response.json() as Array<{ due_date: string; organisation_id: string; status: string }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.organisation_id === distributor.user.id)).toBe(true);
    // Tickets still being worked first, each group by due time.
    const active = (row: { status: string }) => ['Open', 'In Progress'].includes(row.status);
    expect(rows.map(active)).toEqual([...rows.map(active)].sort().reverse());
    const activeDue = rows.filter(active).map((row) => row.due_date);
    expect(activeDue).toEqual([...activeDue].sort());
    expect(rows.some((row) => !active(row))).toBe(true);
    const mine = (
      await call(support)({ method: 'GET', url: `/api/tickets?filter=${encodeURIComponent(JSON.stringify({ assigned_to: jordan.user.id }))}` })
    ).json() as Array<{ assigned_to: string }>;
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((row) => row.assigned_to === jordan.user.id)).toBe(true);
  });

  it('offers the assignee list and the support figures to those who work tickets only', async () => {
    const assignees = (await call(support)({ method: 'GET', url: '/api/tickets/assignees' })).json().data as Array<{ role: string; full_name: string }>;
    expect(assignees.map((a) => a.full_name)).toEqual(expect.arrayContaining(['Jordan Lee', 'Samuel Reyes', 'Alex Morgan']));
    expect(assignees.every((a) => ['support', 'admin', 'administrator'].includes(a.role))).toBe(true);
    expect((await call(partner)({ method: 'GET', url: '/api/tickets/assignees' })).statusCode).toBe(403);
    const figures = (await call(support)({ method: 'GET', url: '/api/tickets/dashboard' })).json().data;
    expect(figures).toMatchObject({
      totalTickets: { count: expect.any(Number), active: expect.any(Number) },
      urgentTickets: { highPriority: expect.any(Number), overdue: expect.any(Number) },
    });
    expect(figures.todayStats.created).toBeGreaterThan(0);
    expect((await call(partner)({ method: 'GET', url: '/api/tickets/dashboard' })).statusCode).toBe(403);
  });
});

describe('working a ticket: internal notes stay internal', () => {
  it('support assigns, notes internally, replies and resolves; the partner sees the reply and never the note', async () => {
    const NOTE = 'INTERNAL-ONLY: customer is on the watch list';
    const STATUS_NOTE = 'INTERNAL-STATUS: waiting on R&D';
    const REPLY = 'Please update to firmware 4.2.1.';
    const opened = (
      await openAs(partner, { title: 'Link flaps on port 3', description: 'Port 3 goes up and down.', priority: 'High', category: 'Technical' })
    ).json().data;
    const url = `/api/tickets/${opened.id}`;

    const missing = await call(support)({ method: 'PATCH', url: `${url}/assign`, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe('Please select a user to assign this ticket to');
    expect((await call(partner)({ method: 'PATCH', url: `${url}/assign`, payload: { assigned_to: jordan.user.id } })).statusCode).toBe(403);
    const assigned = await call(support)({ method: 'PATCH', url: `${url}/assign`, payload: { assigned_to: jordan.user.id, comment: 'Jordan, yours.' } });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json().data.assignee.full_name).toBe('Jordan Lee');

    expect((await call(partner)({ method: 'POST', url: `${url}/comments`, payload: { comment: 'sneaky', is_internal: true } })).statusCode).toBe(403);
    expect((await call(partner)({ method: 'POST', url: `${url}/comments`, payload: { comment: '   ' } })).json().error.message).toBe(
      TICKET_MESSAGES.commentRequired,
    );
    expect((await call(jordan)({ method: 'POST', url: `${url}/comments`, payload: { comment: NOTE, is_internal: true } })).statusCode).toBe(201);
    expect(
      (await call(jordan)({ method: 'PATCH', url: `${url}/status`, payload: { status: 'In Progress', comment: STATUS_NOTE, is_internal: true } })).statusCode,
    ).toBe(200);
    expect((await call(jordan)({ method: 'POST', url: `${url}/comments`, payload: { comment: REPLY, is_internal: false } })).statusCode).toBe(201);
    expect((await call(partner)({ method: 'PATCH', url: `${url}/status`, payload: { status: 'Closed' } })).statusCode).toBe(403);
    const resolved = await call(jordan)({
      method: 'PATCH',
      url: `${url}/status`,
      payload: { status: 'Resolved', comment: 'Fixed by 4.2.1', is_internal: false, resolution_notes: 'Firmware update' },
    });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().data).toMatchObject({ status: 'Resolved', resolution_notes: 'Firmware update' });

    // Support sees everything, the partner everything but the internal entries, on every route that returns comments.
    const staffView = (await call(support)({ method: 'GET', url })).json().data;
    expect(staffView.comments.map((c: { comment: string }) => c.comment)).toEqual(expect.arrayContaining([NOTE, STATUS_NOTE, REPLY, 'Jordan, yours.']));
    const answers = [
      JSON.stringify((await call(partner)({ method: 'GET', url })).json()),
      JSON.stringify((await call(partner)({ method: 'GET', url: `${url}/comments` })).json()),
      JSON.stringify((await call(partner)({ method: 'GET', url: `${url}/history` })).json()),
      JSON.stringify((await call(partner)({ method: 'GET', url: '/api/tickets?limit=100' })).json()),
      (await call(partner)({ method: 'POST', url: `${url}/comments`, payload: { comment: 'Thanks!' } })).body,
    ];
    for (const answer of answers) {
      expect(answer).not.toContain('INTERNAL-');
      expect(answer).not.toContain('Jordan, yours.');
    }
    expect(answers[0]).toContain(REPLY);
    const partnerView = JSON.parse(answers[0]).data;
    expect(partnerView.comments.every((c: { is_internal: boolean }) => !c.is_internal)).toBe(true);
    expect(partnerView.comment_count).toBe(partnerView.comments.length);
    const history = JSON.parse(answers[2]).data as Array<{ to_status: string; reason: string | null }>;
    expect(history.map((h) => h.to_status)).toEqual(['Open', 'In Progress', 'Resolved']);
    expect(history[1].reason).toBeNull();

    // Notifications and e-mails: the partner hears of the reply and the resolution, never of the note.
    const partnerNotifications = await waitFor(async () => {
      const list = (await call(partner)({ method: 'GET', url: '/api/notifications?limit=100' })).json();
      const text = JSON.stringify(list);
      return text.includes('Fixed by 4.2.1') && text.includes(REPLY) ? text : undefined;
    }, 'the partner notifications');
    expect(partnerNotifications).not.toContain('INTERNAL-');
    const mails = await waitFor(async () => {
      const toPartner = received.filter((mail) => mail.to.includes('partner@partnerhub.test') && mail.raw.includes(opened.ticket_id));
      return toPartner.length >= 2 ? toPartner : undefined;
    }, 'the e-mails to the partner');
    for (const mail of mails) expect(mail.raw).not.toContain('INTERNAL-');
    // Jordan hears of the assignment; support staff heard of the new ticket.
    await waitFor(
      async () =>
        JSON.stringify((await call(jordan)({ method: 'GET', url: '/api/notifications?limit=100' })).json()).includes(
          `Ticket ${opened.ticket_id} is assigned to you`,
        ),
      'the assignment notification',
    );
    await waitFor(
      async () =>
        JSON.stringify((await call(support)({ method: 'GET', url: '/api/notifications?limit=100' })).json()).includes(`New ticket ${opened.ticket_id}`),
      'the new-ticket notification',
    );
  });

  it('updates ignoring read-only fields, refuses unknown ones, and deletes for those with Support.Delete', async () => {
    const opened = (await openAs(distributor, { title: 'Update me', description: 'Before' })).json().data;
    const url = `/api/tickets/${opened.id}`;
    const record = (await call(support)({ method: 'GET', url })).json();
    const updated = await call(support)({ method: 'PUT', url, payload: { ...record, title: 'Updated', priority: 'Critical', tags: 'a,b' } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ title: 'Updated', priority: 'Critical', tags: ['a', 'b'] });
    expect((await call(support)({ method: 'PUT', url, payload: { bogus: 1 } })).statusCode).toBe(400);
    expect((await call(distributor)({ method: 'PUT', url, payload: { title: 'mine' } })).statusCode).toBe(403);
    expect((await call(support)({ method: 'DELETE', url })).statusCode).toBe(403); // support holds no Support.Delete
    const deleted = await call(admin)({ method: 'DELETE', url });
    expect(deleted.statusCode).toBe(200);
    expect((await call(admin)({ method: 'GET', url })).statusCode).toBe(404);
  });
});

describe('warranty checks and returns', () => {
  it('gives every shipped unit a serial number, shown on the order', async () => {
    const order = (await call(partner)({ method: 'GET', url: `/api/orders/${demoOrderId('northwind-1')}` })).json().data;
    expect(order.serial_numbers).toHaveLength(24);
    expect(order.serial_numbers[0].serial_number).toBe(`${order.order_number.replace('ORD-', 'SN-')}-01001`);
    const pending = (await call(partner)({ method: 'GET', url: `/api/orders/${demoOrderId('northwind-4')}` })).json().data;
    expect(pending.serial_numbers).toEqual([]);
  });

  it("looks a serial number up within the caller's organisation and records every check", async () => {
    const order = (await call(partner)({ method: 'GET', url: `/api/orders/${demoOrderId('northwind-1')}` })).json().data;
    const serial = order.serial_numbers[0].serial_number as string;
    const countChecks = async () => Number((await t.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM read.warranty_checks')).rows[0].n);
    const before = await countChecks();
    const found = await call(partner)({ method: 'POST', url: '/api/warranty/checks', payload: { serial_number: serial.toLowerCase() } });
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({
      found: true,
      message: 'This unit is under warranty.',
      data: { serial_number: serial, order_number: order.order_number, product_name: order.serial_numbers[0].product_name, under_warranty: true },
    });
    expect(Date.parse(found.json().data.warranty_ends_at)).toBeGreaterThan(Date.now());
    const elsewhere = await call(distributor)({ method: 'POST', url: '/api/warranty/checks', payload: { serial_number: serial } });
    expect(elsewhere.json()).toMatchObject({ found: false, message: `No shipped unit with serial number ${serial} was found.`, data: null });
    expect((await call(partner)({ method: 'POST', url: '/api/warranty/checks', payload: { serial_number: '  ' } })).statusCode).toBe(400);
    expect(await countChecks()).toBe(before + 2);
  });

  it('opens an RMA ticket linked to the order and unit, which support sees', async () => {
    const order = (await call(partner)({ method: 'GET', url: `/api/orders/${demoOrderId('northwind-1')}` })).json().data;
    const serial = order.serial_numbers[2].serial_number as string;
    expect((await call(distributor)({ method: 'POST', url: '/api/tickets/rma', payload: { serial_number: serial } })).statusCode).toBe(404);
    const created = await call(partner)({
      method: 'POST',
      url: '/api/tickets/rma',
      payload: { serial_number: serial, description: 'Dead on arrival after the firmware update.' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().message).toBe(TICKET_MESSAGES.rmaCreated);
    const ticket = created.json().data;
    expect(ticket).toMatchObject({ category: 'RMA', priority: 'High', rma: { serial_number: serial, order_id: order.id, order_number: order.order_number } });
    const seen = (await call(support)({ method: 'GET', url: `/api/tickets/${ticket.id}` })).json().data;
    expect(seen.rma.serial_number).toBe(serial);
  });
});

describe('the resources library', () => {
  it('lists and serves each document only to the roles it was published to', async () => {
    const forPartner = (await call(partner)({ method: 'GET', url: '/api/resources?limit=100' })).json().data.resources as Array<{
      title: string;
      url: string;
      roles: string[];
    }>;
    const forDistributor = (await call(distributor)({ method: 'GET', url: '/api/resources?limit=100' })).json().data.resources as Array<{
      title: string;
      url: string;
    }>;
    expect(forPartner.map((r) => r.title)).toContain('HX-M2424 datasheet');
    expect(forPartner.map((r) => r.title)).not.toContain('Distributor price list Q4 2026');
    const priceList = forDistributor.find((r) => r.title === 'Distributor price list Q4 2026')!;
    expect(priceList).toBeDefined();
    const file = await call(distributor)({ method: 'GET', url: priceList.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await call(partner)({ method: 'GET', url: priceList.url })).statusCode).toBe(404);
    // Not published to team members: the same answer as a file that does not exist.
    expect((await call(teamMember)({ method: 'GET', url: priceList.url })).statusCode).toBe(404);
    expect((await call(admin)({ method: 'GET', url: priceList.url })).statusCode).toBe(200);
    const searched = (await call(distributor)({ method: 'GET', url: '/api/resources?search=firmware' })).json().data.resources as Array<{ title: string }>;
    expect(searched.map((r) => r.title)).toEqual(['Firmware 4.2.1 release notes']);
  });

  it('administrators publish (checked by content) and remove documents; nobody else may', async () => {
    const form = (fields: Record<string, string>, bytes: Buffer = PDF) =>
      multipart(fields, [{ name: 'file', filename: 'notes.pdf', bytes, type: 'application/pdf' }]);
    expect(
      (await call(support)({ method: 'POST', url: '/api/resources', ...(await form({ title: 'x', category: 'Other', roles: 'partner' })) })).statusCode,
    ).toBe(403);
    const noRoles = await call(admin)({ method: 'POST', url: '/api/resources', ...(await form({ title: 'x', category: 'Other' })) });
    expect(noRoles.json().error.message).toBe('Choose at least one role that may download this resource.');
    expect(
      (
        await call(admin)({
          method: 'POST',
          url: '/api/resources',
          ...(await form({ title: 'x', category: 'Other', roles: 'partner' }, Buffer.from('not a pdf'))),
        })
      ).statusCode,
    ).toBe(415);
    const published = await call(admin)({
      method: 'POST',
      url: '/api/resources',
      ...(await form({ title: 'Partner onboarding kit', category: 'Manual', roles: 'partner, support' })),
    });
    expect(published.statusCode, published.body).toBe(201);
    const resource = published.json().data;
    expect(resource.roles).toEqual(['partner', 'support']);
    expect((await call(partner)({ method: 'GET', url: resource.url })).statusCode).toBe(200);
    expect((await call(admin)({ method: 'DELETE', url: `/api/resources/${resource.id}` })).statusCode).toBe(200);
    expect((await call(partner)({ method: 'GET', url: resource.url })).statusCode).toBe(404);
  });
});

describe('the support contact setting', () => {
  it('is shown to those who reach the Support Center and changed by administrators only', async () => {
    const shown = (await call(partner)({ method: 'GET', url: '/api/settings/support-contact' })).json().data;
    expect(shown).toMatchObject({ phone: '+1 800 555 0199', email: 'support@partnerhub.test' });
    expect((await call(support)({ method: 'PUT', url: '/api/settings/support-contact', payload: { ...shown, phone: '+44 20 7946 0000' } })).statusCode).toBe(
      403,
    );
    const bad = await call(admin)({ method: 'PUT', url: '/api/settings/support-contact', payload: { ...shown, email: 'nope' } });
    expect(bad.json().error.message).toBe('Email is invalid.');
    const saved = await call(admin)({
      method: 'PUT',
      url: '/api/settings/support-contact',
      payload: { phone: '+44 20 7946 0000', email: 'help@partnerhub.test', hours: '24/7', updated_at: 'ignored' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call(distributor)({ method: 'GET', url: '/api/settings/support-contact' })).json().data).toEqual({
      phone: '+44 20 7946 0000',
      email: 'help@partnerhub.test',
      hours: '24/7',
    });
    // Public contact details: team members read them too.
    expect((await call(teamMember)({ method: 'GET', url: '/api/settings/support-contact' })).statusCode).toBe(200);
  });
});
