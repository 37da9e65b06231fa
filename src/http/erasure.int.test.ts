import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../domain/access/api';
import { USER_MESSAGES } from '../../domain/identity/users';
import { ERASED_NAME } from '../../domain/personalData';
import { readModels } from '../../projections';
import { rebuildProjections } from '../../projections/rebuild';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let admin: Session;
let partner: Session;

beforeAll(async () => {
  t = await startTestPortal();
  [admin, partner] = await Promise.all(['admin', 'partner'].map((name) => login(t.app, `${name}@partnerhub.test`)));
});
afterAll(async () => {
  await t?.close();
});

const tag = Math.random().toString(36).slice(2, 8);
const FIRST = `Zebulon${tag}`;
const LAST = 'Quarrington-Vexley';
const NAME = `${FIRST} ${LAST}`;
const EMAIL = `zeb.${tag}@vexley-erasure.test`;
const PHONE = '+1 206 555 0199';
/** What must be gone: the name, its parts, the address (its own part too) and the phone number. */
const TRACES = [FIRST, LAST, EMAIL, `zeb.${tag}`, 'vexley-erasure', PHONE];

const call = (session: Session | undefined) => as(t.app, session);

/** The traces each table of a schema holds, as `table: trace` (every column of every row cast to text). */
async function tracesIn(schema: string): Promise<string[]> {
  const { rows: tables } = await t.db.pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`,
    [schema],
  );
  expect(tables.length).toBeGreaterThan(0);
  const found: string[] = [];
  for (const { table_name } of tables) {
    for (const trace of TRACES) {
      const { rows } = await t.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${schema}.${table_name} t WHERE strpos(lower(t::text), lower($1)) > 0`,
        [trace],
      );
      if (rows[0]!.n > 0) found.push(`${table_name}: ${trace}`);
    }
  }
  return found;
}

/** Every GET route an administrator can call, with `:id` filled in for the person's own records. */
async function tracesInAnswers(ids: { user: string; order: string; ticket: string }): Promise<string[]> {
  const found: string[] = [];
  for (const key of Object.keys(API_ROUTES)) {
    if (!key.startsWith('GET ')) continue;
    let path = key.slice(4);
    if (path.includes(':')) {
      const id = path.startsWith('/users/') ? ids.user : path.startsWith('/orders/') ? ids.order : path.startsWith('/tickets/') ? ids.ticket : null;
      if (!id || path.split(':').length > 2 || !path.includes(':id')) continue;
      path = path.replace(':id', id);
    }
    const answer = await call(admin)({ method: 'GET', url: `/api${path}` });
    expect(answer.statusCode, `${path}: ${answer.body.slice(0, 200)}`).toBeLessThan(500);
    for (const trace of TRACES) if (answer.body.toLowerCase().includes(trace.toLowerCase())) found.push(`${path}: ${trace}`);
  }
  return found;
}

describe('erasing a person', () => {
  it('leaves no trace of their name, e-mail or phone in read tables, answers, exports or the backup, after a rebuild too; their order and ticket remain, by "Erased user"', async () => {
    // A team member of the partner, with everything the partner may give, places an order and opens a ticket.
    const grantable = (await call(partner)({ method: 'GET', url: '/api/permissions' })).json().data as Array<{ name: string }>;
    const created = await call(partner)({
      method: 'POST',
      url: '/api/partner/management/sub-users',
      payload: { full_name: NAME, email: EMAIL, password: 'Erase-me-2026!', permissions: grantable.map((p) => p.name) },
    });
    expect(created.statusCode, created.body).toBe(201);
    const personId = created.json().data.id as string;
    const person = await login(t.app, EMAIL, 'Erase-me-2026!');

    const products = (await call(admin)({ method: 'GET', url: '/api/products?limit=50' })).json().data as Array<{
      id: string;
      stock_quantity: number;
      moq?: number;
      min_order_quantity?: number;
    }>;
    const product = products.find((p) => p.stock_quantity > 20)!;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const order = await call(person)({
      method: 'POST',
      url: '/api/orders',
      payload: {
        estimated_delivery: tomorrow,
        notes: 'Erasure test order',
        items: [{ product_id: product.id, quantity: product.moq ?? product.min_order_quantity ?? 1 }],
        shipping_address: {
          firstName: FIRST,
          lastName: LAST,
          email: EMAIL,
          phone: PHONE,
          addressLine1: '410 Harbour Steps',
          city: 'Seattle',
          state: 'WA',
          zipCode: '98101',
          country: 'United States',
        },
      },
    });
    expect(order.statusCode, order.body).toBe(201);
    const orderId = order.json().data.id as string;
    const form = new FormData();
    form.append('title', 'Erasure test ticket');
    form.append('description', 'The uplink port flaps every few minutes.');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const ticket = await call(person)({
      method: 'POST',
      url: '/api/tickets',
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type')! },
    });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const ticketId = ticket.json().data.id as string;
    const ids = { user: personId, order: orderId, ticket: ticketId };

    // The search finds the person before the erasure (so it can find them at all).
    expect(await tracesIn('read')).toEqual(expect.arrayContaining([`users: ${FIRST}`, `users: ${EMAIL}`]));
    expect((await call(admin)({ method: 'GET', url: '/api/settings/backup/events' })).body).toContain(EMAIL);
    // The log itself holds the personal fields only encrypted.
    const atRest = await t.db.pool.query(`SELECT type FROM events WHERE strpos(lower(data::text), lower($1)) > 0 OR strpos(data::text, $2) > 0`, [EMAIL, LAST]);
    expect(atRest.rows).toEqual([]);

    // Refusals first: nothing is erased by them.
    expect((await call(partner)({ method: 'POST', url: `/api/users/${personId}/erase`, payload: { reason: 'Asked to' } })).statusCode).toBe(403);
    const noReason = await call(admin)({ method: 'POST', url: `/api/users/${personId}/erase`, payload: { reason: '  ' } });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toContain(USER_MESSAGES.eraseReasonRequired);
    const self = await call(admin)({ method: 'POST', url: `/api/users/${admin.user.id}/erase`, payload: { reason: 'Testing' } });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toBe(USER_MESSAGES.notYourself);
    expect((await call(admin)({ method: 'GET', url: `/api/users/${personId}` })).json().data.full_name).toBe(NAME);

    const erased = await call(admin)({
      method: 'POST',
      url: `/api/users/${personId}/erase`,
      payload: { reason: 'Former contact asked for erasure (ticket 4411)' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const again = await call(admin)({ method: 'POST', url: `/api/users/${personId}/erase`, payload: { reason: 'Twice' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(USER_MESSAGES.alreadyErased);

    // At once: the person reads as erased, has no credentials and is signed out.
    expect((await call(admin)({ method: 'GET', url: `/api/users/${personId}` })).json().data).toMatchObject({ full_name: ERASED_NAME, is_active: false });
    expect((await t.db.pool.query('SELECT 1 FROM secret.user_credentials WHERE user_id = $1', [personId])).rowCount).toBe(0);
    expect((await call(person)({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect(await tracesIn('read')).toEqual([]);

    // The audit log says who erased whom, when and why.
    const audit = await call(admin)({ method: 'GET', url: `/api/audit?filter=${encodeURIComponent(JSON.stringify({ event_type: 'UserErased.v1' }))}` });
    expect(audit.statusCode, audit.body).toBe(200);
    // A react-admin filter: the answer is the rows themselves.
    const line = (audit.json() as Array<Record<string, unknown>>).find((l) => l.record_id === personId);
    expect(line).toMatchObject({ actor_name: 'Alex Morgan', record_type: 'users' });
    expect(String(line!.summary)).toContain('Former contact asked for erasure (ticket 4411)');
    expect(line!.occurred_at).toBeTruthy();

    // A rebuild replays the whole log: nothing of the person comes back.
    await rebuildProjections(t.portal.services.store, t.portal.services.pool, readModels);
    expect(await tracesIn('read')).toEqual([]);
    expect(await tracesIn('secret')).toEqual([]);
    expect(await tracesInAnswers(ids)).toEqual([]);
    const backup = (await call(admin)({ method: 'GET', url: '/api/settings/backup/events' })).body;
    expect(TRACES.filter((trace) => backup.toLowerCase().includes(trace.toLowerCase()))).toEqual([]);

    // The order and the ticket remain, by "Erased user".
    const kept = (await call(admin)({ method: 'GET', url: `/api/orders/${orderId}` })).json().data;
    expect(kept).toMatchObject({ id: orderId, placed_by_name: ERASED_NAME });
    const keptTicket = await call(admin)({ method: 'GET', url: `/api/tickets/${ticketId}` });
    expect(keptTicket.statusCode).toBe(200);
    expect(keptTicket.body).toContain(ERASED_NAME);
    expect((await call(admin)({ method: 'GET', url: `/api/users/${personId}` })).json().data.full_name).toBe(ERASED_NAME);

    // Signing in with the old address is refused like any unknown address (and audited as typed, like any other).
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: EMAIL, password: 'Erase-me-2026!' } })).statusCode).toBe(401);
  }, 180_000);

  it("erasing a partner's owner leaves no trace of the application's contact in the read tables or the backup", async () => {
    const { rows } = await t.db.pool.query<{ id: string; contact_email: string; contact_name: string | null; phone_number: string | null }>(
      `SELECT p.id, p.contact_email, p.contact_name, p.phone_number FROM read.partners p JOIN read.users u ON u.id = p.id
       WHERE p.contact_email IS NOT NULL AND p.phone_number IS NOT NULL AND u.role = 'partner' AND u.email <> 'partner@partnerhub.test' ORDER BY p.created_at LIMIT 1`,
    );
    expect(rows).toHaveLength(1);
    const partner = rows[0]!;
    // The address only: a demo phone number may also stand in free text (references), which is not erased.
    const traces = [partner.contact_email];
    const holding = async () => {
      const found: string[] = [];
      for (const trace of traces) {
        const { rows: hits } = await t.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM read.partners p WHERE p.id = $2 AND strpos(lower(p::text), lower($1)) > 0`,
          [trace, partner.id],
        );
        if (hits[0]!.n > 0) found.push(trace);
      }
      return found;
    };
    expect(await holding()).toEqual(traces);

    const erased = await call(admin)({
      method: 'POST',
      url: `/api/users/${partner.id}/erase`,
      payload: { reason: 'The partnership ended; the owner asked for erasure' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await holding()).toEqual([]);
    const row = (await t.db.pool.query('SELECT contact_email, contact_name FROM read.partners WHERE id = $1', [partner.id])).rows[0];
    expect(row).toMatchObject({ contact_email: `erased-${partner.id}@erased.invalid` });
    const backup = (await call(admin)({ method: 'GET', url: '/api/settings/backup/events' })).body.toLowerCase();
    expect(backup).not.toContain(partner.contact_email.toLowerCase());
  });
});
