import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';
import { lengthenAuditLog } from '../testing/auditLog';
import { AUDIT_MESSAGES, auditCountWindow } from './audit';

let t: TestPortal;
let admin: Session;
let partner: Session;

interface AuditLine {
  id: string;
  occurred_at: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_role: string | null;
  record_type: string;
  record_id: string;
  organisation_id: string | null;
  event_type: string;
  summary: string;
}

const get = (session: Session, url: string) => as(t.app, session)({ method: 'GET', url });
const list = async (url: string): Promise<AuditLine[]> => {
  const response = await get(admin, url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const eventually = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  for (let i = 0; ; i++) {
    const value = await read();
    if (done(value) || i > 100) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

beforeAll(async () => {
  t = await startTestPortal();
  [admin, partner] = await Promise.all([login(t.app, 'admin@partnerhub.test'), login(t.app, 'partner@partnerhub.test')]);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/audit', () => {
  it('lists every event of the log, newest first, with actor name and role, record and summary', async () => {
    const { rows } = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    const totalOf = (response: { headers: Record<string, unknown> }) => Number(/\/(\d+)$/.exec(response.headers['content-range'] as string)![1]);
    // The sign-ins just made are projected a moment later.
    const first = await eventually(
      () => get(admin, '/api/audit?range=[0,24]'),
      (response) => totalOf(response) >= Math.min(rows[0].n, auditCountWindow(0, 25)),
    );
    expect(first.statusCode).toBe(200);
    expect(totalOf(first)).toBe(Math.min(rows[0].n, auditCountWindow(0, 25)));
    const lines: AuditLine[] = first.json();
    expect(lines).toHaveLength(25);
    const times = lines.map((l) => Date.parse(l.occurred_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const placed = await list('/api/audit?filter={"event_type":"OrderPlaced.v1"}&range=[0,0]');
    expect(placed[0]).toMatchObject({
      record_type: 'orders',
      event_type: 'OrderPlaced.v1',
      summary: expect.stringMatching(/^Order ORD-\S+ placed \(\$[\d,.]+\)$/),
    });
    expect(placed[0].organisation_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('records sign-ins and failed sign-ins, never the password', async () => {
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'partner@partnerhub.test', password: 'not-the-password-42' },
    });
    expect(wrong.statusCode).toBe(401);
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@example.test', password: 'whatever-123' } });
    expect(unknown.statusCode).toBe(401);
    await login(t.app, 'partner@partnerhub.test');
    const failed = await eventually(
      () => list('/api/audit?filter={"event_type":"SignInFailed.v1"}'),
      (rows) => rows.length >= 2,
    );
    expect(failed.map((l) => l.summary)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Failed sign-in for partner@partnerhub.test: wrong e-mail address or password'),
        expect.stringContaining('Failed sign-in for nobody@example.test'),
      ]),
    );
    expect(failed.find((l) => l.summary.includes('partner@'))).toMatchObject({
      record_type: 'users',
      record_id: partner.user.id,
      organisation_id: partner.user.id,
    });
    const signIns = await list(`/api/audit?filter={"event_type":"SignInSucceeded.v1","actor_id":"${partner.user.id}"}`);
    expect(signIns[0]).toMatchObject({
      actor_name: 'Priya Shah',
      actor_role: 'partner',
      summary: expect.stringMatching(/^Signed in as partner@partnerhub.test/),
    });
    const { rows } = await t.db.pool.query(`SELECT 1 FROM events WHERE data::text LIKE '%not-the-password-42%'`);
    expect(rows).toHaveLength(0);
  });

  it('records password and permission changes', async () => {
    const member = await login(t.app, 'partner.user@partnerhub.test');
    const changed = await as(
      t.app,
      member,
    )({ method: 'POST', url: '/api/auth/change-password', payload: { currentPassword: 'Demo2026!', newPassword: 'Another2026!x' } });
    if (changed.statusCode !== 200) throw new Error(changed.body);
    const passwords = await list(`/api/audit?filter={"event_type":"UserPasswordChanged.v1","record_id":"${member.user.id}"}`);
    expect(passwords[0]).toMatchObject({ actor_name: 'Lena Fischer', summary: 'Password of Lena Fischer changed' });
    expect(JSON.stringify(passwords)).not.toMatch(/argon2/);
    const permissions = await list('/api/audit?filter={"event_type":"UserPermissionsChanged.v1"}');
    for (const line of permissions) expect(line.summary).toMatch(/^Permissions of .+ changed/);
  });

  it('accepts every record type its own lines carry as a filter (fundClaims and programmeTiers among them)', async () => {
    const { rows } = await t.db.pool.query<{ record_type: string }>('SELECT DISTINCT record_type FROM read.audit_log');
    expect(rows.map((r) => r.record_type)).toEqual(expect.arrayContaining(['fundClaims', 'programmeTiers']));
    for (const { record_type } of rows) {
      const lines = await list(`/api/audit?filter=${encodeURIComponent(JSON.stringify({ record_type }))}&range=[0,9]`);
      expect(lines.length, record_type).toBeGreaterThan(0);
      expect(
        lines.every((l) => l.record_type === record_type),
        record_type,
      ).toBe(true);
    }
  });

  it('filters by actor, record type, event type, organisation and time range, each narrowing the list', async () => {
    const all = await list('/api/audit?range=[0,99]');
    const sample = all.find((l) => l.organisation_id && l.actor_id)!;
    const checks: Array<[string, (l: AuditLine) => boolean]> = [
      [`"actor_id":"${sample.actor_id}"`, (l) => l.actor_id === sample.actor_id],
      [`"record_type":"${sample.record_type}"`, (l) => l.record_type === sample.record_type],
      [`"event_type":"${sample.event_type}"`, (l) => l.event_type === sample.event_type],
      [`"organisation_id":"${sample.organisation_id}"`, (l) => l.organisation_id === sample.organisation_id],
      [`"from":"${sample.occurred_at}","to":"${sample.occurred_at}"`, (l) => l.occurred_at === sample.occurred_at],
    ];
    for (const [filter, holds] of checks) {
      const rows = await list(`/api/audit?filter={${filter}}&range=[0,99]`);
      expect(rows.length, filter).toBeGreaterThan(0);
      expect(rows.every(holds), filter).toBe(true);
      expect(rows.map((r) => r.id)).toContain(sample.id);
    }
    const day = sample.occurred_at.slice(0, 10);
    const thatDay = await list(`/api/audit?filter={"from":"${day}","to":"${day}"}&range=[0,99]`);
    expect(thatDay.every((l) => l.occurred_at.startsWith(day))).toBe(true);
    const spec = await get(admin, `/api/audit?event_type=${sample.event_type}&limit=5`);
    expect(spec.json().data.audit.every((l: AuditLine) => l.event_type === sample.event_type)).toBe(true);
  });

  it('counts a window of lines past the page, says when the count stopped there, and moves the window with the pages', async () => {
    // A log longer than the first page's window.
    const lines = await lengthenAuditLog(t, 1_200);
    expect(lines).toBeGreaterThan(auditCountWindow(0, 25) + 100);
    const first = await get(admin, '/api/audit?page=1&limit=25');
    expect(first.json().data).toMatchObject({ total: auditCountWindow(0, 25), total_capped: true });
    expect(first.headers['x-total-capped']).toBe('true');
    const asReactAdmin = await get(admin, '/api/audit?range=[0,24]');
    expect(asReactAdmin.headers['content-range']).toBe(`audit 0-24/${auditCountWindow(0, 25)}`);
    expect(asReactAdmin.headers['x-total-capped']).toBe('true');
    expect(asReactAdmin.headers['access-control-expose-headers']).toMatch(/X-Total-Capped/);
    // Deeper pages count further: the window ends a thousand lines past the page, or at the log's end.
    const deeper = await get(admin, '/api/audit?page=21&limit=50');
    const window = auditCountWindow(1_000, 50);
    expect(window).toBe(2_050);
    expect(deeper.json().data).toMatchObject({ total: Math.min(lines, window), total_capped: lines > window });
    // A filter that matches fewer lines than the window is counted exactly, and says so.
    const narrow = await get(admin, '/api/audit?range=[0,24]&filter={"record_type":"settings"}');
    const { rows: settings } = await t.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM read.audit_log WHERE record_type = 'settings'");
    expect(settings[0].n).toBeLessThan(auditCountWindow(0, 25));
    expect(narrow.headers['content-range']).toBe(`audit 0-${Math.min(settings[0].n, 25) - 1}/${settings[0].n}`);
    expect(narrow.headers['x-total-capped']).toBeUndefined();
  });

  it('pages by keyset with next_cursor: no line twice, none skipped, in time order', async () => {
    const direct = await list('/api/audit?range=[0,59]');
    const walked: AuditLine[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 3; i++) {
      const response = await get(admin, `/api/audit?limit=20${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.statusCode).toBe(200);
      walked.push(...response.json().data.audit);
      cursor = response.json().data.next_cursor;
      expect(response.headers['x-next-cursor']).toBe(cursor);
    }
    expect(walked.map((l) => l.id)).toEqual(direct.map((l) => l.id));
  });

  it('refuses bad filters, bad cursors and pages past the offset limit with clear messages', async () => {
    const cases: Array<[string, RegExp]> = [
      ['/api/audit?filter={"actor_id":"nope"}', /Filter is not valid/],
      ['/api/audit?filter={"from":"yesterday"}', /date/],
      ['/api/audit?filter={"from":"2026-02-01","to":"2026-01-01"}', /start of the time range/],
      ['/api/audit?cursor=bm9wZQ', /cursor is not valid/],
      ['/api/audit?page=500&limit=100', /Pages stop after/],
      ['/api/audit?color=red', /.+/],
    ];
    for (const [url, message] of cases) {
      const response = await get(admin, url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(message);
    }
    expect(AUDIT_MESSAGES.tooDeep).toMatch(/10,000/);
  });

  it('is for admins only', async () => {
    for (const email of ['partner@partnerhub.test', 'support@partnerhub.test', 'manufacturer@partnerhub.test', 'distributor@partnerhub.test']) {
      const session = await login(t.app, email);
      expect((await get(session, '/api/audit')).statusCode, email).toBe(403);
      expect((await get(session, '/api/audit/export.csv')).statusCode, email).toBe(403);
    }
  });
});

describe('GET /api/audit/export.csv', () => {
  it('exports exactly the filtered lines as CSV and records the export in the log', async () => {
    const filter = encodeURIComponent('{"record_type":"orders"}');
    const response = await get(admin, `/api/audit/export.csv?filter=${filter}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('time,actor_id,actor_name,actor_role,record_type,record_id,organisation_id,event_type,summary,event_id,api_key_id,api_key_name');
    const { rows } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM read.audit_log WHERE record_type = 'orders'`);
    expect(lines).toHaveLength(rows[0].n + 1);
    expect(lines.slice(1).every((line) => line.split(',')[4] === 'orders')).toBe(true);
    const exports = await eventually(
      () => list('/api/audit?filter={"event_type":"ExportDownloaded.v1"}'),
      (r) => r[0]?.summary.startsWith('Exported audit log') === true,
    );
    expect(exports[0]).toMatchObject({
      actor_id: admin.user.id,
      record_type: 'exports',
      summary: expect.stringContaining('Exported audit log as CSV (filter={"record_type":"orders"})'),
    });
  });

  it('records the rebates export too', async () => {
    const response = await get(partner, '/api/rebates/export');
    expect(response.statusCode).toBe(200);
    const exports = await eventually(
      () => list(`/api/audit?filter={"event_type":"ExportDownloaded.v1","actor_id":"${partner.user.id}"}`),
      (r) => r.length > 0,
    );
    expect(exports[0]).toMatchObject({ record_id: 'rebates', organisation_id: partner.user.id, actor_name: 'Priya Shah' });
  });
});

describe('the audit log is a read model', () => {
  it('is rebuilt from the event log, sign-ins included', async () => {
    const before = (await t.db.pool.query('SELECT * FROM read.audit_log ORDER BY event_id')).rows;
    const { rebuildProjections } = await import('../../projections/rebuild');
    const { readModels } = await import('../../projections');
    await rebuildProjections(t.portal.services.store, t.db.pool, readModels);
    const after = (await t.db.pool.query('SELECT * FROM read.audit_log ORDER BY event_id')).rows;
    expect(after.length).toBeGreaterThanOrEqual(before.length);
    const afterById = new Map(after.map((row) => [row.event_id, row]));
    for (const row of before) expect(afterById.get(row.event_id)).toEqual(row);
    expect(after.some((row) => row.event_type === 'SignInSucceeded.v1')).toBe(true);
    // Passwords still work after the credentials were rebuilt beside the read models.
    await login(t.app, 'partner@partnerhub.test');
  });
});
