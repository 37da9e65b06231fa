import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications } from '../domain/notifications/notifications';
import { newId, runCommand } from '../platform/commands/dispatch';
import { as, login, type Session } from '../src/testing/api';
import { startTestPortal, type TestPortal } from '../src/testing/portal';
import { completeQuestionnaire } from '../src/testing/questionnaire';
import { readModels } from '.';
import { secretSchemaBeside, SECRET_SCHEMA, PROJECTED_SECRET_TABLES } from './projection';
import { createEmptyCopies, replayInto } from './rebuild';

/**
 * The property behind `npm run projections:rebuild`: whatever commands were given, in whatever order,
 * the read models the live projector kept equal the ones a replay of the whole log writes. Random
 * sequences of commands from every module are sent through the API as the roles that may send them
 * (and, for notifications, which only workers send, through the command handler); after each sequence
 * every table of `read` (and the projected secrets) is compared, by checksum, with a rebuild into a
 * scratch schema. `PROPERTY_SEED` replays a failing run, `PROPERTY_RUNS` sets how many sequences.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 60);
const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SCRATCH = 'read_property_check';

/** mulberry32: a small seeded PRNG, so a failing seed replays the same choices. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T | undefined => (items.length ? items[Math.floor(next() * items.length)] : undefined),
    /** Money with cents, the kind of amount whose sums drift in floating point. */
    cents: (max: number) => Math.floor(next() * max * 100) / 100,
  };
}
type Rng = ReturnType<typeof prng>;

let t: TestPortal;
const sessions = new Map<string, Session>();
const ROLES = {
  admin: 'admin@partnerhub.test',
  partner: 'partner@partnerhub.test',
  distributor: 'distributor@partnerhub.test',
  support: 'support@partnerhub.test',
  partner_user: 'partner.user@partnerhub.test',
} as const;
type Role = keyof typeof ROLES;

beforeAll(async () => {
  t = await startTestPortal({ processes: ['api', 'projector'] });
  for (const [role, email] of Object.entries(ROLES)) sessions.set(role, await login(t.app, email));
});
afterAll(async () => {
  await t?.db.pool.query(`DROP SCHEMA IF EXISTS ${SCRATCH} CASCADE; DROP SCHEMA IF EXISTS ${secretSchemaBeside(SCRATCH)} CASCADE`).catch(() => {});
  await t?.close();
});

/** Sends a request as the role, signing in again when a command ended the session; a 5xx fails the property at once. */
async function send(role: Role, request: InjectOptions): Promise<LightMyRequestResponse> {
  let response = await as(t.app, sessions.get(role))(request);
  if (response.statusCode === 401) {
    sessions.set(role, await login(t.app, ROLES[role]));
    response = await as(t.app, sessions.get(role))(request);
  }
  if (response.statusCode >= 500)
    throw new Error(`${request.method} ${request.url} as ${role} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
  return response;
}

async function multipart(fields: Record<string, string>): Promise<Pick<InjectOptions, 'payload' | 'headers'>> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

/** Ids of a read table in creation order (ids are time-ordered), so a seed picks the same records again. */
async function ids(sql: string, params: unknown[] = []): Promise<string[]> {
  return (await t.db.pool.query<{ id: string }>(sql, params)).rows.map((row) => row.id);
}
const userId = (role: Role) => sessions.get(role)!.user.id;
let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter += 1)}`;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const ADDRESS = {
  firstName: 'Priya',
  lastName: 'Shah',
  email: 'priya@northwind.test',
  phone: '+1 206 555 0142',
  addressLine1: '410 Harbour Steps',
  city: 'Seattle',
  state: 'WA',
  zipCode: '98101',
  country: 'United States',
};

type Step = (rng: Rng) => Promise<string>;

/** One kind of command per entry, each choosing its record and values with the PRNG. */
const STEPS: Record<string, Step> = {
  async placeOrder(rng) {
    const role = rng.pick(['partner', 'distributor', 'partner_user'] as const)!;
    const { rows } = await t.db.pool.query<{ id: string; moq: number; stock_quantity: number }>(
      'SELECT id, moq, stock_quantity FROM read.products WHERE stock_quantity >= moq ORDER BY id',
    );
    const lines = Array.from({ length: rng.int(1, 3) }, () => rng.pick(rows)).filter((p): p is (typeof rows)[number] => Boolean(p));
    const items = [...new Map(lines.map((p) => [p.id, { product_id: p.id, quantity: p.moq * rng.int(1, 2) }])).values()];
    const response = await send(role, {
      method: 'POST',
      url: '/api/orders',
      payload: { estimated_delivery: day(rng.int(3, 40)), notes: 'Property test', items, shipping_address: ADDRESS },
    });
    return `placeOrder as ${role} (${items.length} lines) → ${response.statusCode}`;
  },
  async changeOrderStatus(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.orders WHERE status IN ('pending', 'approved', 'shipped') ORDER BY id DESC LIMIT 20`));
    if (!id) return 'changeOrderStatus: no open order';
    const order = (await send('admin', { method: 'GET', url: `/api/orders/${id}` })).json().data as { next_statuses: string[] };
    const status = rng.pick(order.next_statuses) ?? 'approved';
    const payload =
      status === 'shipped' ? { status, carrier: 'DHL', tracking_number: `TRK${rng.int(1000, 9999)}` } : { status, notes: rng.next() < 0.5 ? null : 'Checked.' };
    const response = await send('admin', { method: 'PUT', url: `/api/orders/admin/${id}/status`, payload });
    return `changeOrderStatus ${id} → ${status}: ${response.statusCode}`;
  },
  async submitRebate(rng) {
    const amount = rng.cents(50_000).toFixed(2);
    const response = await send('partner', {
      method: 'POST',
      url: '/api/rebates/submit',
      ...(await multipart({
        product_name: rng.pick(['HX-M2424 24-Port Gigabit Managed Switch', 'HX-AP6 Wi-Fi 6 Access Point'])!,
        product_category: 'Managed Switches',
        purchase_date: day(-rng.int(1, 200)),
        invoice_number: `INV-${unique().toUpperCase()}`,
        purchase_amount: amount,
        rebate_type: 'Volume Rebate',
        description: 'Property test claim.',
      })),
    });
    return `submitRebate ${amount} → ${response.statusCode}`;
  },
  async reviewRebate(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.rebates WHERE status IN ('pending', 'processing') ORDER BY id DESC LIMIT 20`));
    if (!id) return 'reviewRebate: no open claim';
    const status = rng.pick(['processing', 'approved', 'rejected'] as const)!;
    const payload = {
      status,
      notes: status === 'rejected' ? 'Not eligible.' : 'Reviewed.',
      ...(status === 'approved' && rng.next() < 0.7 ? { rebate_amount: rng.cents(2_000) } : {}),
    };
    const response = await send('admin', { method: 'PATCH', url: `/api/rebates/admin/${id}/status`, payload });
    return `reviewRebate ${id} → ${status}: ${response.statusCode}`;
  },
  async deleteRebate(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.rebates WHERE organisation_id = $1 ORDER BY id DESC LIMIT 10`, [userId('partner')]));
    if (!id) return 'deleteRebate: none';
    return `deleteRebate ${id}: ${(await send('partner', { method: 'DELETE', url: `/api/rebates/${id}` })).statusCode}`;
  },
  async registerProject(rng) {
    const role = rng.pick(['partner', 'partner_user'] as const)!;
    const response = await send(role, {
      method: 'POST',
      url: '/api/projects',
      ...(await multipart({
        title: `Deal ${unique()}`,
        end_user_customer_name: `Customer ${rng.int(1, 6)}`,
        expected_closure_date: day(rng.int(20, 300)),
        value: rng.cents(900_000).toFixed(2),
        progress: String(rng.int(0, 100)),
      })),
    });
    return `registerProject as ${role} → ${response.statusCode}`;
  },
  async updateProject(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.projects WHERE organisation_id = $1 ORDER BY id DESC LIMIT 10`, [userId('partner')]));
    if (!id) return 'updateProject: none';
    const payload = {
      title: `Renamed ${unique()}`,
      value: rng.cents(900_000),
      progress: rng.int(0, 100),
      ...(rng.next() < 0.4 ? { status: rng.pick(['In Progress', 'Completed', 'On Hold', 'Planning'])! } : {}),
    };
    return `updateProject ${id}: ${(await send('partner', { method: 'PUT', url: `/api/projects/${id}`, payload })).statusCode}`;
  },
  async reviewProject(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.projects WHERE registration_status IN ('pending', 'conflict') ORDER BY id DESC LIMIT 10`));
    if (!id) return 'reviewProject: none pending';
    const decision = rng.pick(['approved', 'rejected'] as const)!;
    return `reviewProject ${id} ${decision}: ${(await send('admin', { method: 'POST', url: `/api/projects/${id}/review`, payload: { decision, reason: 'Reviewed by the property test.' } })).statusCode}`;
  },
  async projectMilestone(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.projects WHERE organisation_id = $1 ORDER BY id DESC LIMIT 10`, [userId('partner')]));
    if (!id) return 'projectMilestone: none';
    const payload = { project_id: id, name: `Milestone ${unique()}`, date: day(rng.int(1, 90)), status: rng.pick(['pending', 'in-progress', 'completed'])! };
    return `projectMilestone ${id}: ${(await send('partner', { method: 'POST', url: '/api/projects/milestones', payload })).statusCode}`;
  },
  async deleteProject(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.projects WHERE organisation_id = $1 ORDER BY id DESC LIMIT 10`, [userId('partner')]));
    if (!id) return 'deleteProject: none';
    return `deleteProject ${id}: ${(await send('partner', { method: 'DELETE', url: `/api/projects/${id}` })).statusCode}`;
  },
  async openTicket(rng) {
    const role = rng.pick(['partner', 'distributor'] as const)!;
    const fields = {
      title: `Issue ${unique()}`,
      description: 'The switch reboots.',
      priority: rng.pick(['Low', 'Medium', 'High'])!,
      category: rng.pick(['Technical', 'Billing', 'General'])!,
      ...(rng.next() < 0.5 ? { due_date: day(rng.int(1, 30)) } : {}),
    };
    return `openTicket as ${role}: ${(await send(role, { method: 'POST', url: '/api/tickets', ...(await multipart(fields)) })).statusCode}`;
  },
  async ticketStatus(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.tickets ORDER BY id DESC LIMIT 20`));
    if (!id) return 'ticketStatus: none';
    const status = rng.pick(['Open', 'In Progress', 'Resolved', 'Closed'])!;
    const payload = {
      status,
      comment: rng.next() < 0.5 ? 'Working on it.' : null,
      is_internal: rng.next() < 0.3,
      ...(status === 'Resolved' ? { resolution_notes: 'Fixed.' } : {}),
    };
    return `ticketStatus ${id} → ${status}: ${(await send('support', { method: 'PATCH', url: `/api/tickets/${id}/status`, payload })).statusCode}`;
  },
  async ticketComment(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.tickets WHERE organisation_id = $1 ORDER BY id DESC LIMIT 10`, [userId('partner')]));
    if (!id) return 'ticketComment: none';
    return `ticketComment ${id}: ${(await send('partner', { method: 'POST', url: `/api/tickets/${id}/comments`, payload: { comment: `Still happening ${unique()}`, is_internal: false } })).statusCode}`;
  },
  async partnerApplication(rng) {
    const email = `prop.applicant.${unique()}@example.test`;
    const company = `Property Partner ${unique()}`;
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/user/register/',
      payload: { email, password: 'Secret123', full_name: company, company_name: company },
    });
    if (registered.statusCode >= 500) throw new Error(`register answered ${registered.statusCode}`);
    const { onboardingToken, data } = registered.json() as { onboardingToken: string; data: { id: string } };
    const answers = completeQuestionnaire({ id: data.id, email, company });
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/api/partner/onboarding/questionnaire',
      headers: { authorization: `Bearer ${onboardingToken}` },
      payload: answers,
    });
    if (rng.next() < 0.3) return `partnerApplication ${data.id}: ${submitted.statusCode}, left pending`;
    const payload =
      rng.next() < 0.7 ? { status: 'approved', category: 'Helix Authorized Reseller' } : { status: 'rejected', rejection_reason: 'Outside our markets.' };
    const decided = await send('admin', { method: 'PATCH', url: `/api/partner/partners/${data.id}`, payload });
    return `partnerApplication ${data.id}: ${submitted.statusCode}, ${payload.status} ${decided.statusCode}`;
  },
  async addTeamMember(rng) {
    const owner = rng.pick(['partner', 'distributor'] as const)!;
    const payload = {
      full_name: `Member ${unique()}`,
      email: `prop.member.${unique()}@example.test`,
      password: 'Secret123',
      permissions: owner === 'partner' && rng.next() < 0.5 ? ['projects_read'] : ['orders_track'],
      is_active: true,
    };
    return `addTeamMember of ${owner}: ${(await send(owner, { method: 'POST', url: `/api/${owner}/management/sub-users`, payload })).statusCode}`;
  },
  async changeTeamMember(rng) {
    const owner = rng.pick(['partner', 'distributor'] as const)!;
    const id = rng.pick(await ids(`SELECT id FROM read.users WHERE parent_user_id = $1 AND email LIKE 'prop.%' ORDER BY id`, [userId(owner)]));
    if (!id) return `changeTeamMember of ${owner}: none`;
    const base = `/api/${owner}/management/sub-users/${id}`;
    const action = rng.pick(['remove', 'deactivate', 'permissions'] as const)!;
    if (action === 'remove') return `removeTeamMember ${id} of ${owner}: ${(await send(owner, { method: 'DELETE', url: base })).statusCode}`;
    const current = (await send(owner, { method: 'GET', url: base })).json().data as { full_name: string; email: string };
    const payload = {
      full_name: current.full_name,
      email: current.email,
      permissions: action === 'permissions' && owner === 'partner' ? ['projects_read', 'orders_track'] : ['orders_track'],
      is_active: action !== 'deactivate',
    };
    return `${action}TeamMember ${id} of ${owner}: ${(await send(owner, { method: 'PUT', url: base, payload })).statusCode}`;
  },
  async product(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.products ORDER BY id`));
    const fields = {
      name: `HX-P${unique()} Property Switch`,
      price: rng.cents(5_000).toFixed(2),
      category: 'Managed Switches',
      stock_quantity: String(rng.int(0, 500)),
      moq: String(rng.int(1, 5)),
      description: 'A switch of the property test.',
    };
    const action = id ? rng.pick(['add', 'edit', 'edit'] as const)! : 'add';
    if (action === 'add') return `addProduct: ${(await send('admin', { method: 'POST', url: '/api/products', ...(await multipart(fields)) })).statusCode}`;
    return `editProduct ${id}: ${(await send('admin', { method: 'PUT', url: `/api/products/${id}`, ...(await multipart({ ...fields, name: `HX-E${unique()} Edited` })) })).statusCode}`;
  },
  async manageUser(rng) {
    const id = rng.pick(await ids(`SELECT id FROM read.users WHERE email LIKE 'prop.%' ORDER BY id`));
    if (!id) return 'manageUser: none';
    const user = (await send('admin', { method: 'GET', url: `/api/users/${id}` })).json() as { full_name: string; email: string };
    if (!user.email) return `manageUser ${id}: gone`;
    const payload = { full_name: `${user.full_name.split(' (')[0]} (${rng.int(1, 9)})`, email: user.email, is_active: rng.next() < 0.7 };
    return `manageUser ${id}: ${(await send('admin', { method: 'PUT', url: `/api/users/${id}`, payload })).statusCode}`;
  },
  async settings(rng) {
    if (rng.next() < 0.5) {
      const payload = { phone: `+1 800 555 0${rng.int(100, 999)}`, email: 'support@partnerhub.test', hours: `Monday to Friday, ${rng.int(7, 9)}:00–18:00 CET` };
      return `supportContact: ${(await send('admin', { method: 'PUT', url: '/api/settings/support-contact', payload })).statusCode}`;
    }
    const payload = { mail: { 'ticket-opened': rng.pick([['administrators'], ['administrators', 'support'], []])! } };
    return `notificationSettings: ${(await send('admin', { method: 'PUT', url: '/api/settings/notifications', payload })).statusCode}`;
  },
  /** Notifications are sent by workers in reaction to events: here through the command handler, as the worker does. */
  async notification(rng) {
    const role = rng.pick(['partner', 'distributor', 'admin'] as const)!;
    if (rng.next() < 0.6) {
      const notificationId = newId();
      await runCommand(
        t.portal.services,
        notifications,
        notificationId,
        {
          type: 'SendNotification',
          notificationId,
          userId: userId(role),
          kind: 'order-status-changed',
          title: `Note ${unique()}`,
          body: 'Something happened.',
          link: null,
        },
        { now: new Date().toISOString(), actorId: null, actorRole: null, correlationId: notificationId, causationId: null },
      );
      return `sendNotification to ${role}`;
    }
    return `readAllNotifications as ${role}: ${(await send(role, { method: 'POST', url: '/api/notifications/read-all' })).statusCode}`;
  },
};

/**
 * Columns left out of the comparison, each for its reason:
 * - checkpoints.updated_at: the wall-clock moment the checkpoint was written (by the live projector, or
 *   at the end of the rebuild); the positions beside it are compared.
 */
const EXCLUDED_COLUMNS: Record<string, string[]> = { checkpoints: ['updated_at'] };

/** Every compared table with its row expression (the live columns, minus the excluded ones), read once: a rebuild copies the live tables' columns. */
let compared: Array<{ label: string; name: string; secret: boolean; row: string }> | undefined;
async function comparedTables() {
  if (compared) return compared;
  const { rows } = await t.db.pool.query<{ schema: string; name: string; columns: string[] }>(
    `SELECT table_schema AS schema, table_name AS name, array_agg(column_name::text ORDER BY ordinal_position) AS columns FROM information_schema.columns
     WHERE (table_schema = 'read' OR (table_schema = $1 AND table_name = ANY($2::text[]))) GROUP BY 1, 2 ORDER BY 1, 2`,
    [SECRET_SCHEMA, PROJECTED_SECRET_TABLES],
  );
  compared = rows.map((table) => ({
    label: `${table.schema}.${table.name}`,
    name: table.name,
    secret: table.schema === SECRET_SCHEMA,
    row: `row(${table.columns
      .filter((c) => !(EXCLUDED_COLUMNS[table.name] ?? []).includes(c))
      .map((c) => `t."${c}"`)
      .join(', ')})::text`,
  }));
  return compared;
}

/** One checksum per table (row count and md5 of its rows as text, in the order of that text), in one query. */
async function checksums(schema: string): Promise<Map<string, string>> {
  const tables = await comparedTables();
  const { rows } = await t.db.pool.query<{ name: string; sum: string }>(
    tables
      .map(
        (table) =>
          `SELECT '${table.label}' AS name, count(*) || ':' || coalesce(md5(string_agg(r, E'\\n' ORDER BY r)), '') AS sum FROM (SELECT ${table.row} AS r FROM ${table.secret ? secretSchemaBeside(schema) : schema}.${table.name} t) rows`,
      )
      .join('\nUNION ALL\n'),
  );
  return new Map(rows.map((row) => [row.name, row.sum]));
}

/** The rows only one side has, to show in a failure. */
async function differences(label: string): Promise<string> {
  const table = (await comparedTables()).find((candidate) => candidate.label === label)!;
  const live = `${table.secret ? SECRET_SCHEMA : 'read'}.${table.name}`;
  const rebuilt = `${table.secret ? secretSchemaBeside(SCRATCH) : SCRATCH}.${table.name}`;
  const { rows } = await t.db.pool.query<{ side: string; r: string }>(
    `(SELECT 'live only' AS side, r FROM (SELECT ${table.row} AS r FROM ${live} t EXCEPT ALL SELECT ${table.row} FROM ${rebuilt} t) a LIMIT 5)
     UNION ALL (SELECT 'rebuild only', r FROM (SELECT ${table.row} AS r FROM ${rebuilt} t EXCEPT ALL SELECT ${table.row} FROM ${live} t) b LIMIT 5)`,
  );
  return rows.map((row) => `    ${row.side}: ${row.r.slice(0, 400)}`).join('\n');
}

/** Empties the copies for the next replay: a few hundred rows each, which DELETE removes faster than TRUNCATE makes new files. */
async function emptyCopies(): Promise<void> {
  const tables = await comparedTables();
  await t.db.pool.query(tables.map((table) => `DELETE FROM ${table.secret ? secretSchemaBeside(SCRATCH) : SCRATCH}.${table.name}`).join('; '));
}

async function caughtUp(): Promise<void> {
  const { store, watcher } = t.portal.services;
  expect(await watcher.waitFor(await store.headPosition(), 30_000)).toBe(true);
}

describe('the live read models equal a rebuild', () => {
  it(`after each of ${RUNS} random command sequences from every module (seed ${SEED})`, async () => {
    // The copies are made once (the read tables' columns, keys and unique indexes) and emptied before each replay.
    await createEmptyCopies(t.db.pool, SCRATCH);
    const rng = prng(SEED);
    const kinds = Object.keys(STEPS);
    const started = Date.now();
    let commands = 0;
    for (let run = 1; run <= RUNS; run += 1) {
      const log: string[] = [];
      const tc = Date.now();
      for (let n = rng.int(1, 5); n > 0; n -= 1) {
        const kind = rng.pick(kinds)!;
        log.push(await STEPS[kind](rng));
        commands += 1;
      }
      const t0 = Date.now();
      await caughtUp();
      const t1 = Date.now();
      const batchSize = rng.pick([50, 2000])!;
      await emptyCopies();
      const t15 = Date.now();
      await replayInto(t.portal.services.store, t.db.pool, readModels, SCRATCH, batchSize);
      const t2 = Date.now();
      const [live, rebuilt] = await Promise.all([checksums('read'), checksums(SCRATCH)]);
      if (process.env.PROPERTY_VERBOSE)
        console.log(
          `${run}: ${(await t.db.pool.query('SELECT count(*) AS n FROM events')).rows[0].n} events, commands ${t0 - tc}ms wait ${t1 - t0}ms empty ${t15 - t1}ms replay ${t2 - t15}ms (batches of ${batchSize}) checksums ${Date.now() - t2}ms | ${log.join('; ')}`,
        );
      const drifted = [...live].filter(([table, sum]) => rebuilt.get(table) !== sum).map(([table]) => table);
      if (drifted.length) {
        const details = await Promise.all(drifted.map(async (table) => `  ${table}:\n${await differences(table)}`));
        expect.fail(
          `PROPERTY_SEED=${SEED}: after sequence ${run} the live read models differ from a rebuild in ${drifted.join(', ')}\n  commands: ${log.join('; ')}\n${details.join('\n')}`,
        );
      }
    }
    console.log(`rebuild equals live: ${RUNS} sequences, ${commands} commands, seed ${SEED}, ${Math.round((Date.now() - started) / 1000)} s`);
    // Each sequence replays the whole log into every read model; with every module's demo data that is minutes, not seconds.
  }, 1_800_000);
});
