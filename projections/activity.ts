import { pageOf } from './paging';
import type { Activity } from '../contracts/activity';
import type { PoolClient, Queryable } from '../platform/db';
import type { RecordedEvent } from '../platform/eventstore';
import { meetsRequirement, type Principal } from '../domain/access';
import { ACTIVITY_REQUIREMENTS, ACTIVITY_RESOURCES, activityLineOf, teamMessage, type ActivityLine } from '../domain/audit/activity';
import { ERASED_NAME } from '../domain/personalData';
import { learn, peopleNamed, type KnownPerson } from './audit';
import type { Projection } from './projection';

/**
 * read.organisation_activity: each organisation's own timeline, and read.activity_project_titles: the
 * title of each project as its events left it, so lines quote it as it was. It reads only its own
 * tables and read.audit_people, which the audit projection keeps and applies just after it: the feed
 * reads people as the batch found them and follows the batch's registrations and renames in log order,
 * so each line names people as they were at its event, however the log is batched.
 */
/** An erased team member's lines, written before the erasure, name "Erased user" instead (a rebuild writes them so anyway). */
async function forgetMember(userId: string, db: PoolClient): Promise<void> {
  const { rows } = await db.query<{ event_id: string; event_type: string }>(
    `SELECT event_id, event_type FROM organisation_activity WHERE resource = 'team' AND record_id = $1`,
    [userId],
  );
  for (const row of rows) {
    const message = teamMessage(row.event_type, ERASED_NAME);
    if (message) await db.query('UPDATE organisation_activity SET message = $2 WHERE event_id = $1', [row.event_id, message]);
  }
}

export const activityProjection: Projection = {
  name: 'organisation_activity',
  stage: 'log',
  apply(event: RecordedEvent, db: PoolClient) {
    return this.applyBatch!([event], db);
  },
  async applyBatch(events: readonly RecordedEvent[], db: PoolClient) {
    const relevant = events.filter((e) => /^(Order|Rebate|Project|Ticket|Partner|User)/.test(e.type));
    if (relevant.length === 0) return;
    const userIds = relevant.flatMap((e) => {
      const d = e.data as { userId?: unknown; parentUserId?: unknown };
      return [d.userId, d.parentUserId].filter((v): v is string => typeof v === 'string');
    });
    const people = new Map<string, KnownPerson>(await peopleNamed(userIds, db));
    // A team line links to its owner's team screen, so it needs the owner's role; an event about a
    // member (a removal, a deactivation) names only the member.
    const owners = [...people.values()].flatMap((person) => (person.organisationId && !people.has(person.organisationId) ? [person.organisationId] : []));
    for (const [id, owner] of await peopleNamed(owners, db)) people.set(id, owner);
    const titles = await projectTitles(relevant, db);
    const context = {
      projectTitle: (id: string) => titles.known.get(id) ?? null,
      person: (id: string) => {
        const person = people.get(id);
        return person ? { ...person, role: person.role ?? '' } : null;
      },
    };
    const lines: Array<ActivityLine & { event: RecordedEvent }> = [];
    for (const event of relevant) {
      titles.learn(event);
      learn(people, event);
      const line = activityLineOf(event, context);
      if (line && /^[0-9a-f-]{36}$/i.test(line.organisationId)) lines.push({ ...line, event });
    }
    await titles.store();
    for (const event of relevant) if (event.type === 'UserErased.v1') await forgetMember((event.data as { userId: string }).userId, db);
    if (lines.length === 0) return;
    await db.query(
      `INSERT INTO organisation_activity (event_id, organisation_id, occurred_at, resource, record_id, event_type, message, link)
       SELECT event_id, organisation_id, occurred_at, resource, record_id, event_type, message, link FROM json_to_recordset($1::json)
         AS t(event_id uuid, organisation_id uuid, occurred_at timestamptz, resource text, record_id text, event_type text, message text, link text)
       ON CONFLICT (event_id) DO NOTHING`,
      [
        JSON.stringify(
          lines.map((l) => ({
            event_id: l.event.id,
            organisation_id: l.organisationId,
            occurred_at: l.event.metadata.occurredAt,
            resource: l.resource,
            record_id: l.recordId,
            event_type: l.event.type,
            message: l.message,
            link: l.link,
          })),
        ),
      ],
    );
  },
};

/** The titles of the batch's projects as known before it; `learn` follows registrations and edits in log order. */
async function projectTitles(events: readonly RecordedEvent[], db: PoolClient) {
  const ids = [
    ...new Set(
      events.flatMap((e) =>
        e.type.startsWith('Project') && typeof (e.data as { projectId?: unknown }).projectId === 'string' ? [(e.data as { projectId: string }).projectId] : [],
      ),
    ),
  ].filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  const known = new Map<string, string>();
  if (ids.length) {
    const { rows } = await db.query<{ project_id: string; title: string }>(
      'SELECT project_id::text, title FROM activity_project_titles WHERE project_id = ANY($1::uuid[])',
      [ids],
    );
    for (const row of rows) known.set(row.project_id, row.title);
  }
  const changed = new Set<string>();
  return {
    known,
    learn(event: RecordedEvent) {
      if (event.type !== 'ProjectRegistered.v1' && event.type !== 'ProjectUpdated.v1') return;
      const data = event.data as { projectId?: unknown; details?: { title?: unknown } };
      if (typeof data.projectId !== 'string' || typeof data.details?.title !== 'string' || !/^[0-9a-f-]{36}$/i.test(data.projectId)) return;
      known.set(data.projectId, data.details.title);
      changed.add(data.projectId);
    },
    async store() {
      if (changed.size === 0) return;
      const changedIds = [...changed];
      await db.query(
        `INSERT INTO activity_project_titles (project_id, title) SELECT * FROM unnest($1::uuid[], $2::text[])
         ON CONFLICT (project_id) DO UPDATE SET title = EXCLUDED.title`,
        [changedIds, changedIds.map((id) => known.get(id)!)],
      );
    },
  };
}

// ---- queries ----

export type ActivityView = Activity;

/** The kinds of lines a user may see: those whose records the user may read. */
export function visibleActivityResources(principal: Principal): string[] {
  return ACTIVITY_RESOURCES.filter((resource) => meetsRequirement(principal, ACTIVITY_REQUIREMENTS[resource]));
}

/** One page of an organisation's feed, newest first, limited to the resources given. */
export async function activityPage(
  db: Queryable,
  organisationId: string,
  resources: readonly string[],
  page: { limit: number; offset: number },
  ids?: readonly string[],
): Promise<{ rows: ActivityView[]; total: number }> {
  // Without ids, `$5::uuid[] IS NULL` holds and the organisation's index is walked as before.
  const { rows, total } = await pageOf<Omit<ActivityView, 'occurred_at'> & { occurred_at: Date }>(db, {
    columns: 'event_id AS id, organisation_id, occurred_at, resource, record_id, event_type, message, link',
    from: 'read.organisation_activity',
    where: 'WHERE organisation_id = $1 AND resource = ANY($2::text[]) AND ($3::uuid[] IS NULL OR event_id = ANY($3::uuid[]))',
    order: 'occurred_at DESC, event_id DESC',
    params: [organisationId, resources, ids ?? null],
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map((row) => ({ ...row, occurred_at: row.occurred_at.toISOString() })), total };
}
