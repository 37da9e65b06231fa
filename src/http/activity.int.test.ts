import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meetsRequirement } from '../../domain/access';
import { ACTIVITY_REQUIREMENTS, type ActivityResource } from '../../domain/audit/activity';
import { as, login, type Session } from '../testing/api';
import { startTestPortal, type TestPortal } from '../testing/portal';

let t: TestPortal;
let admin: Session;
let support: Session;

interface FeedLine {
  id: string;
  organisation_id: string;
  occurred_at: string;
  resource: ActivityResource;
  event_type: string;
  message: string;
  link: string | null;
}

/** Texts the organisations must never read: every internal ticket note, reviewer's note and administrator's remark in the log. */
async function privateTexts(): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ text: string }>(
    `SELECT data->>'comment' AS text FROM events WHERE type = 'TicketCommented.v1' AND (data->>'isInternal')::boolean
     UNION ALL SELECT data->'comment'->>'comment' FROM events WHERE type IN ('TicketStatusChanged.v1', 'TicketAssigned.v1') AND (data->'comment'->>'isInternal')::boolean
     UNION ALL SELECT data->>'notes' FROM events WHERE type = 'RebateApproved.v1' AND data->>'notes' IS NOT NULL
     UNION ALL SELECT data->>'note' FROM events WHERE type LIKE 'Project%' AND data->>'note' IS NOT NULL
     UNION ALL SELECT data->>'reason' FROM events WHERE type IN ('OrderStatusChanged.v1', 'RebateRejected.v1', 'ProjectRegistrationRejected.v1') AND data->>'reason' IS NOT NULL`,
  );
  return rows.map((r) => r.text).filter((text) => text && text.length >= 8);
}

async function wholeFeed(session: Session): Promise<FeedLine[]> {
  const lines: FeedLine[] = [];
  for (let page = 1; ; page++) {
    const response = await as(t.app, session)({ method: 'GET', url: `/api/activity?page=${page}&limit=100` });
    expect(response.statusCode, response.body).toBe(200);
    const { activity, totalPages } = response.json().data as { activity: FeedLine[]; totalPages: number };
    lines.push(...activity);
    if (page >= totalPages) return lines;
  }
}

beforeAll(async () => {
  // The demo world's six months of history: every line of every feed is checked against it.
  t = await startTestPortal({ env: { DEMO_HISTORY_DAYS: '182' } });
  [admin, support] = await Promise.all([login(t.app, 'admin@partnerhub.test'), login(t.app, 'support@partnerhub.test')]);
  // Fresh private texts on top of the seeded ones: an internal note on a Northwind ticket and a reviewer's note on an approval.
  const partner = await login(t.app, 'partner@partnerhub.test');
  const tickets = (await as(t.app, partner)({ method: 'GET', url: '/api/tickets?limit=1' })).json().data.tickets as Array<{ id: string }>;
  const note = await as(
    t.app,
    support,
  )({
    method: 'POST',
    url: `/api/tickets/${tickets[0].id}/comments`,
    payload: { comment: 'INTERNAL: customer is on credit hold, do not promise dates.', is_internal: true },
  });
  expect(note.statusCode, note.body).toBeLessThan(300);
  const reply = await as(
    t.app,
    support,
  )({ method: 'POST', url: `/api/tickets/${tickets[0].id}/comments`, payload: { comment: 'We have shipped the replacement.', is_internal: false } });
  expect(reply.statusCode, reply.body).toBeLessThan(300);
}, 600_000);
afterAll(async () => {
  await t?.close();
});

describe('GET /api/activity', () => {
  const callers = [
    'partner@partnerhub.test',
    'partner.user@partnerhub.test',
    'distributor@partnerhub.test',
    'distributor.user@partnerhub.test',
    'aisha.khan@northwind.test',
    'ivan.petrov@atlas-distribution.test',
  ];

  it.each(callers)('%s sees only its own organisation, only what its permissions cover, and no private note', async (email) => {
    const session = await login(t.app, email);
    const feed = await wholeFeed(session);
    const organisationId = (await as(t.app, session)({ method: 'GET', url: '/api/auth/me' })).json().user.parent_user_id ?? session.user.id;
    const secrets = await privateTexts();
    expect(secrets.length).toBeGreaterThan(0);
    const { rows: events } = await t.db.pool.query<{ event_id: string; type: string; data: Record<string, unknown> }>(
      'SELECT event_id, type, data FROM events WHERE event_id = ANY($1::uuid[])',
      [feed.map((l) => l.id)],
    );
    const byId = new Map(events.map((e) => [e.event_id, e]));
    const { rows: team } = await t.db.pool.query<{ id: string }>('SELECT id::text FROM read.users WHERE parent_user_id = $1', [organisationId]);
    const members = new Set(team.map((m) => m.id));
    for (const line of feed) {
      expect(line.organisation_id).toBe(organisationId);
      expect(meetsRequirement(session.user, ACTIVITY_REQUIREMENTS[line.resource]), `${email} may not see ${line.resource}: ${line.message}`).toBe(true);
      const event = byId.get(line.id)!;
      expect(event, `line ${line.message} comes from an event`).toBeDefined();
      // The event itself names the organisation: as the record's owner, as a new member's parent, or as the approved partner.
      const data = event.data as { organisationId?: string; parentUserId?: string | null; userId?: string };
      const named = data.organisationId ?? data.parentUserId ?? (event.type === 'PartnerApproved.v1' ? data.userId : undefined);
      if (named !== undefined) expect(named).toBe(organisationId);
      else expect(members.has(data.userId ?? '')).toBe(true);
      expect(event.type === 'TicketCommented.v1' && (event.data as { isInternal?: boolean }).isInternal).toBeFalsy();
      for (const secret of secrets) expect(line.message).not.toContain(secret);
    }
    // Newest first.
    const times = feed.map((l) => Date.parse(l.occurred_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("gives an organisation's owner the lines a real portal user expects", async () => {
    const partner = await login(t.app, 'partner@partnerhub.test');
    const feed = await wholeFeed(partner);
    const messages = feed.map((l) => l.message);
    expect(feed.length).toBeGreaterThan(5);
    expect(messages.some((m) => /^Team member added: /.test(m))).toBe(true);
    expect(messages.some((m) => /^New reply on support ticket /.test(m))).toBe(true);
  });

  it('filters by permission at read time: a team member without rebates or support permissions sees no such line', async () => {
    const member = await login(t.app, 'partner.user@partnerhub.test');
    const feed = await wholeFeed(member);
    expect(feed.some((l) => ['rebates', 'tickets', 'team'].includes(l.resource))).toBe(false);
  });

  it('pages newest first in both list shapes', async () => {
    const partner = await login(t.app, 'partner@partnerhub.test');
    const first = await as(t.app, partner)({ method: 'GET', url: '/api/activity?range=[0,4]' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toHaveLength(5);
    expect(first.headers['content-range']).toMatch(/^activity 0-4\/\d+$/);
    const second = await as(t.app, partner)({ method: 'GET', url: '/api/activity?page=2&limit=5' });
    expect(second.json().data.activity[0].id).not.toBe(first.json()[0].id);
  });

  it('is refused to staff roles that belong to no organisation', async () => {
    for (const email of ['support@partnerhub.test', 'manufacturer@partnerhub.test']) {
      const session = await login(t.app, email);
      expect((await as(t.app, session)({ method: 'GET', url: '/api/activity' })).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/activity' })).statusCode).toBe(401);
    expect(admin).toBeDefined();
  });
});
