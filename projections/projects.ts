import type {
  Milestone,
  PartnerChoice,
  PossibleConflict,
  Project,
  ProjectHistoryEntry,
  ProjectStatistics,
  RegistrationState,
  TeamCandidate,
  TeamMember,
  ProjectListQuery,
  ProjectSortField,
} from '../contracts/projects';
import { projectListQuery } from '../contracts/projects';
import {
  nextProjectStatuses,
  projects,
  UNLINKABLE_REGISTRATIONS,
  type MilestoneStatus,
  type ProjectDetails,
  type ProjectEvent,
  type ProjectStatus,
} from '../domain/projects/projects';
import {
  DAY_MS,
  EXPIRING_SOON_DAYS,
  EXTENSION_STATUSES,
  LIVE_STATUSES,
  NEAR_MATCH_SIMILARITY,
  PROTECTING_STATUSES,
  registrationKey,
  type ExtensionStatus,
  type RegistrationKey,
  type RegistrationStatus,
} from '../domain/projects/registration';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type EventStore, type RecordedEvent } from '../platform/eventstore';
import { countOf, pageOf } from './paging';
import { personNames } from './versions';
import type { Projection } from './projection';

const DETAIL_COLUMNS = [
  'title',
  'progress',
  'value',
  'expected_closure_date',
  'country_region',
  'sales_person',
  'project_stage',
  'project_progress_remarks',
  'end_user_requirements',
  'end_user_customer_name',
  'end_user_location',
  'end_user_it_head_name',
  'end_user_contact_number',
  'end_user_email',
  'partner_company_name',
  'partner_company_location',
  'partner_email',
  'partner_contact_number',
  'fund_request_id',
] as const;

/** The fields the registration key (conflict detection) is made from. */
const KEY_COLUMNS = ['end_user_customer_name', 'end_user_email', 'end_user_location'] as const;

const detailValues = (d: ProjectDetails) => DETAIL_COLUMNS.map((column) => d[column]);

/** The partner directory's project count is the organisation's live projects, recounted on every registration and deletion. */
const recountPartnerProjects = (db: PoolClient, organisationId: string) =>
  db.query('UPDATE partners SET projects_count = (SELECT count(*) FROM projects WHERE organisation_id = $1) WHERE id = $1', [organisationId]);

/** read.projects, read.project_milestones, read.project_team, read.project_orders. */
export const projectsProjection: Projection = {
  name: 'projects',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<ProjectEvent>(recorded);
    const at = recorded.metadata.occurredAt;
    const touch = (projectId: string) => db.query('UPDATE projects SET updated_at = $2 WHERE id = $1', [projectId, at]);
    switch (event.type) {
      case 'ProjectRegistered.v1': {
        const d = event.data;
        const key = registrationKey(d.details.end_user_customer_name, d.details.end_user_email, d.details.end_user_location);
        const detailParams = detailValues(d.details);
        const offset = 15;
        await db.query(
          `INSERT INTO projects (id, organisation_id, company_name, created_by, status, boq_file, registration_status, submitted_at, expires_at, conflict_with, customer_key, email_domain, created_at, updated_at, customer_words, site_key, ${DETAIL_COLUMNS.join(', ')})
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14, $15, ${DETAIL_COLUMNS.map((_, i) => `$${offset + 1 + i}`).join(', ')})
           ON CONFLICT (id) DO NOTHING`,
          [
            d.projectId,
            d.organisationId,
            d.companyName,
            d.createdBy,
            d.status,
            d.boqFile,
            d.registrationStatus,
            d.submittedAt,
            d.expiresAt,
            d.conflictWith,
            key.customerKey,
            key.emailDomain,
            at,
            key.customerWords,
            key.siteKey,
            ...detailParams,
          ],
        );
        await recountPartnerProjects(db, d.organisationId);
        return;
      }
      case 'ProjectUpdated.v1': {
        const d = event.data;
        // Only the fields the edit carried change; the registration key is made from the merged customer fields.
        const columns = DETAIL_COLUMNS.filter((column) => d.details[column] !== undefined);
        const params: unknown[] = [d.projectId, at];
        const sets = ['updated_at = $2', ...columns.map((column) => `${column} = $${params.push(d.details[column])}`)];
        if ('boqFile' in d) sets.push(`boq_file = $${params.push(d.boqFile)}`);
        if (KEY_COLUMNS.some((column) => d.details[column] !== undefined)) {
          const { rows } = await db.query<Pick<ProjectDetails, (typeof KEY_COLUMNS)[number]>>(`SELECT ${KEY_COLUMNS.join(', ')} FROM projects WHERE id = $1`, [
            d.projectId,
          ]);
          const merged = { ...rows[0], ...d.details };
          const key = registrationKey(merged.end_user_customer_name ?? null, merged.end_user_email ?? null, merged.end_user_location ?? null);
          sets.push(
            `customer_key = $${params.push(key.customerKey)}`,
            `email_domain = $${params.push(key.emailDomain)}`,
            `customer_words = $${params.push(key.customerWords)}`,
            `site_key = $${params.push(key.siteKey)}`,
          );
        }
        await db.query(`UPDATE projects SET ${sets.join(', ')} WHERE id = $1`, params);
        return;
      }
      case 'ProjectStatusChanged.v1':
        await db.query('UPDATE projects SET status = $2, progress = $3, updated_at = $4 WHERE id = $1', [
          event.data.projectId,
          event.data.status,
          event.data.progress,
          at,
        ]);
        return;
      case 'ProjectDeleted.v1':
        await db.query('DELETE FROM projects WHERE id = $1', [event.data.projectId]);
        await db.query('DELETE FROM project_milestones WHERE project_id = $1', [event.data.projectId]);
        await db.query('DELETE FROM project_team WHERE project_id = $1', [event.data.projectId]);
        await db.query('DELETE FROM project_orders WHERE project_id = $1', [event.data.projectId]);
        await recountPartnerProjects(db, event.data.organisationId);
        return;
      case 'ProjectRegistrationApproved.v1':
        await db.query(`UPDATE projects SET registration_status = 'approved', review_note = $2, reviewed_at = $3, updated_at = $3 WHERE id = $1`, [
          event.data.projectId,
          event.data.note,
          at,
        ]);
        return;
      case 'ProjectRegistrationRejected.v1':
        await db.query(`UPDATE projects SET registration_status = 'rejected', review_note = $2, reviewed_at = $3, updated_at = $3 WHERE id = $1`, [
          event.data.projectId,
          event.data.reason,
          at,
        ]);
        return;
      case 'ProjectRegistrationExpired.v1':
        await db.query(`UPDATE projects SET registration_status = 'expired', updated_at = $2 WHERE id = $1`, [event.data.projectId, at]);
        return;
      case 'ProjectExpiryReminderSent.v1':
        await db.query('UPDATE projects SET reminders_sent = array_append(reminders_sent, $2) WHERE id = $1', [
          event.data.projectId,
          `${event.data.daysBefore}@${event.data.expiresAt}`,
        ]);
        return;
      case 'ProjectExtensionRequested.v1':
        await db.query(
          `UPDATE projects SET extension_status = 'requested', extension_reason = $2, extension_requested_at = $3, updated_at = $3 WHERE id = $1`,
          [event.data.projectId, event.data.reason, at],
        );
        return;
      case 'ProjectExtensionApproved.v1':
        await db.query(`UPDATE projects SET extension_status = 'approved', expires_at = $2, extension_decision_note = $3, updated_at = $4 WHERE id = $1`, [
          event.data.projectId,
          event.data.expiresAt,
          event.data.note,
          at,
        ]);
        return;
      case 'ProjectExtensionDeclined.v1':
        await db.query(`UPDATE projects SET extension_status = 'declined', extension_decision_note = $2, updated_at = $3 WHERE id = $1`, [
          event.data.projectId,
          event.data.reason,
          at,
        ]);
        return;
      case 'ProjectMilestoneAdded.v1': {
        const m = event.data.milestone;
        await db.query(
          'INSERT INTO project_milestones (id, project_id, name, date, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (id) DO NOTHING',
          [m.id, event.data.projectId, m.name, m.date, m.status, at],
        );
        await touch(event.data.projectId);
        return;
      }
      case 'ProjectMilestoneUpdated.v1': {
        const m = event.data.milestone;
        await db.query('UPDATE project_milestones SET name = $2, date = $3, status = $4, updated_at = $5 WHERE id = $1', [m.id, m.name, m.date, m.status, at]);
        await touch(event.data.projectId);
        return;
      }
      case 'ProjectMilestoneRemoved.v1':
        await db.query('DELETE FROM project_milestones WHERE id = $1', [event.data.milestoneId]);
        await touch(event.data.projectId);
        return;
      case 'ProjectTeamMemberAdded.v1':
        await db.query('INSERT INTO project_team (project_id, user_id, added_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
          event.data.projectId,
          event.data.userId,
          at,
        ]);
        return;
      case 'ProjectTeamMemberRemoved.v1':
        await db.query('DELETE FROM project_team WHERE project_id = $1 AND user_id = $2', [event.data.projectId, event.data.userId]);
        return;
      case 'ProjectOrderLinked.v1':
        await db.query('INSERT INTO project_orders (project_id, order_id, linked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
          event.data.projectId,
          event.data.orderId,
          at,
        ]);
        return;
      case 'ProjectOrderUnlinked.v1':
        await db.query('DELETE FROM project_orders WHERE project_id = $1 AND order_id = $2', [event.data.projectId, event.data.orderId]);
        return;
    }
  },
};

// ---- queries ----

/** A row of read.projects: the partner's details as the decider keeps them, and what the read model adds. */
export interface ProjectRow extends Omit<ProjectDetails, 'value' | 'fund_request_id'> {
  id: string;
  organisation_id: string;
  company_name: string | null;
  created_by: string;
  created_by_name: string | null;
  status: ProjectStatus;
  /** numeric: pg reads it as text. */
  value: string | null;
  fund_request_id: string | null;
  boq_file: string | null;
  registration_status: RegistrationStatus;
  submitted_at: Date;
  expires_at: Date;
  conflict_with: string | null;
  review_note: string | null;
  reviewed_at: Date | null;
  extension_status: ExtensionStatus;
  extension_reason: string | null;
  extension_decision_note: string | null;
  extension_requested_at: Date | null;
  reminders_sent: string[];
  customer_key: string;
  email_domain: string | null;
  customer_words: string;
  site_key: string | null;
  team_size: number;
  milestone_count: number;
  created_at: Date;
  updated_at: Date;
}

const PROJECT_COLUMNS = `p.*, p.expected_closure_date::text AS expected_closure_date, u.full_name AS created_by_name,
  (SELECT count(*)::int FROM read.project_team t WHERE t.project_id = p.id) AS team_size,
  (SELECT count(*)::int FROM read.project_milestones m WHERE m.project_id = p.id) AS milestone_count`;
const PROJECT_FROM = 'read.projects p LEFT JOIN read.users u ON u.id = p.created_by';
/** The table the list's conditions read (the join adds the creator's name only). */
const PROJECT_COUNT_FROM = 'read.projects p';

export { EXPIRING_SOON_DAYS };

/**
 * The one definition of the project counts shown in more than one place (the Projects page's cards,
 * its tabs, the dashboards' cards and charts): SQL conditions over `read.projects p`.
 */
export const PROJECT_CONDITIONS = {
  /** Active work: every stage but Completed (the specification: only Completed is finished). */
  active: `p.status <> 'Completed'`,
  /** A registration pending or approved whose expiry falls in (now, now + EXPIRING_SOON_DAYS]. `$now` and `$soon` are parameters. */
  expiringSoon: (now: string, soon: string) => `(p.registration_status IN ('pending', 'approved') AND p.expires_at > ${now} AND p.expires_at <= ${soon})`,
} as const;

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** What the card shows of the registration: protected until a date, expiring soon, expired, rejected or under conflict review. */
export function registrationState(row: Pick<ProjectRow, 'registration_status' | 'expires_at'>, now: Date = new Date()): RegistrationState {
  if (row.registration_status === 'conflict') return 'conflict_review';
  if (row.registration_status === 'expired' || row.registration_status === 'rejected') return row.registration_status;
  if (row.expires_at.getTime() <= now.getTime()) return 'expired';
  return row.expires_at.getTime() - now.getTime() <= EXPIRING_SOON_DAYS * DAY_MS ? 'expiring_soon' : 'protected';
}

/**
 * The project as the API answers it: the fields of spec 001 §3 (client is the end customer; company
 * is the registering partner), its registration and its team size. `conflict` carries only whether
 * the registration is under conflict review; admins get the other registration beside it (see the route).
 */
export function toProjectView(row: ProjectRow): Project {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    next_statuses: [...nextProjectStatuses(row.status)],
    progress: row.progress,
    value: row.value === null ? null : Number(row.value),
    client: row.end_user_customer_name,
    company_id: row.organisation_id,
    organisation_id: row.organisation_id,
    company: { id: row.organisation_id, company_name: row.company_name },
    company_name: row.company_name,
    created_by: row.created_by,
    created_by_name: row.created_by_name,
    expected_closure_date: row.expected_closure_date,
    country_region: row.country_region,
    sales_person: row.sales_person,
    project_stage: row.project_stage,
    project_progress_remarks: row.project_progress_remarks,
    end_user_requirements: row.end_user_requirements,
    end_user_customer_name: row.end_user_customer_name,
    end_user_location: row.end_user_location,
    end_user_it_head_name: row.end_user_it_head_name,
    end_user_contact_number: row.end_user_contact_number,
    end_user_email: row.end_user_email,
    partner_company_name: row.partner_company_name,
    partner_company_location: row.partner_company_location,
    partner_email: row.partner_email,
    partner_contact_number: row.partner_contact_number,
    fund_request_id: row.fund_request_id,
    boq_file: row.boq_file,
    boq_file_url: row.boq_file ? `/api/projects/${row.id}/boq` : null,
    registration_status: row.registration_status,
    registration_state: registrationState(row),
    submitted_at: row.submitted_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    review_note: row.review_note,
    reviewed_at: iso(row.reviewed_at),
    conflict: row.registration_status === 'conflict' ? { under_review: true } : null,
    extension_status: row.extension_status,
    extension_reason: row.extension_reason,
    extension_decision_note: row.extension_decision_note,
    extension_requested_at: iso(row.extension_requested_at),
    team_size: row.team_size,
    milestone_count: row.milestone_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
export type ProjectView = Project;

/** Whose projects a caller sees: one organisation's, or (undefined) everyone's. */
export type ProjectScope = { organisationId: string | undefined };

export async function findProjectRow(db: Queryable, id: string, scope: ProjectScope): Promise<ProjectRow | undefined> {
  const params: unknown[] = [id];
  let where = 'p.id = $1';
  if (scope.organisationId) where += ` AND p.organisation_id = $${params.push(scope.organisationId)}`;
  const { rows } = await db.query<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM ${PROJECT_FROM} WHERE ${where}`, params);
  return rows[0];
}

export interface ProjectFilters {
  /** Only these projects (react-admin's getMany). */
  ids?: string[];
  status?: string;
  registration_status?: string;
  active?: boolean;
  /** Registrations pending or approved expiring within EXPIRING_SOON_DAYS of `now`. */
  expiring_soon?: boolean;
  extension_status?: (typeof EXTENSION_STATUSES)[number];
  /** Projects an order may be linked to (not completed, registration neither expired nor rejected). */
  linkable?: boolean;
  organisation_id?: string;
  search?: string;
  /** The moment `expiring_soon` is counted from (now unless a test pins it). */
  now?: Date;
}

/** The admins' review queue: conflicts, then registrations awaiting review, then extension requests, then the rest. */
const REVIEW_PRIORITY = `(CASE WHEN p.registration_status = 'conflict' THEN 3 WHEN p.registration_status = 'pending' THEN 2 WHEN p.extension_status = 'requested' THEN 1 ELSE 0 END)`;
const sortExpression = (field: ProjectSortField) => (field === 'review_priority' ? REVIEW_PRIORITY : `p.${field}`);

function projectWhere(scope: ProjectScope, filters: ProjectFilters) {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (scope.organisationId) where.push(`p.organisation_id = ${param(scope.organisationId)}`);
  if (filters.ids) where.push(`p.id = ANY(${param(filters.ids)}::uuid[])`);
  if (filters.organisation_id) where.push(`p.organisation_id = ${param(filters.organisation_id)}`);
  if (filters.status) where.push(`p.status = ${param(filters.status)}`);
  if (filters.registration_status) where.push(`p.registration_status = ${param(filters.registration_status)}`);
  if (filters.active !== undefined) where.push(filters.active ? PROJECT_CONDITIONS.active : `NOT (${PROJECT_CONDITIONS.active})`);
  if (filters.extension_status) where.push(`p.extension_status = ${param(filters.extension_status)}`);
  if (filters.expiring_soon !== undefined) {
    const now = filters.now ?? new Date();
    const condition = PROJECT_CONDITIONS.expiringSoon(param(now), param(new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS)));
    where.push(filters.expiring_soon ? condition : `NOT ${condition}`);
  }
  if (filters.linkable) where.push(`p.status <> 'Completed' AND p.registration_status <> ALL(${param([...UNLINKABLE_REGISTRATIONS])}::text[])`);
  if (filters.search) {
    const pattern = param(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(p.title ILIKE ${pattern} OR p.end_user_customer_name ILIKE ${pattern} OR p.company_name ILIKE ${pattern} OR p.id::text ILIKE ${pattern})`);
  }
  return { clause: where.length ? `WHERE ${where.join(' AND ')}` : '', params, param };
}

/**
 * Newest first unless asked otherwise. With `conflictsFirst` (the admins' review queue) registrations
 * under conflict review come first.
 */
export async function listProjects(
  db: Queryable,
  scope: ProjectScope,
  filters: ProjectFilters,
  page: { offset: number; limit: number; sort?: { field: ProjectSortField; order: 'ASC' | 'DESC' }; conflictsFirst?: boolean },
): Promise<{ rows: ProjectView[]; total: number }> {
  const { clause, params } = projectWhere(scope, filters);
  const first = page.conflictsFirst ? `(p.registration_status = 'conflict') DESC, ` : '';
  const order = page.sort ? `${first}${sortExpression(page.sort.field)} ${page.sort.order} NULLS LAST, p.created_at DESC` : `${first}p.created_at DESC`;
  const { rows, total } = await pageOf<ProjectRow>(db, {
    columns: PROJECT_COLUMNS,
    from: PROJECT_FROM,
    where: clause,
    order: `${order}, p.id`,
    params,
    countFrom: PROJECT_COUNT_FROM,
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map(toProjectView), total };
}

/** The summary cards: active projects (not Completed) and the total value of the projects the caller sees, plus registration counts. */
export async function projectStatistics(db: Queryable, scope: ProjectScope, now: Date = new Date()): Promise<ProjectStatistics> {
  const { clause, params, param } = projectWhere(scope, {});
  const soon = param(new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS));
  const at = param(now);
  const { rows } = await db.query<Record<string, string>>(
    `SELECT count(*) AS total,
            count(*) FILTER (WHERE ${PROJECT_CONDITIONS.active}) AS active,
            count(*) FILTER (WHERE NOT (${PROJECT_CONDITIONS.active})) AS completed,
            coalesce(sum(p.value), 0) AS total_value,
            count(*) FILTER (WHERE p.registration_status = 'conflict') AS conflicts,
            count(*) FILTER (WHERE p.registration_status = 'pending') AS pending_review,
            count(*) FILTER (WHERE p.extension_status = 'requested') AS extension_requests,
            count(*) FILTER (WHERE ${PROJECT_CONDITIONS.expiringSoon(at, soon)}) AS expiring_soon
     FROM read.projects p ${clause}`,
    params,
  );
  const r = rows[0];
  return {
    totalProjects: Number(r.total),
    activeProjects: Number(r.active),
    completedProjects: Number(r.completed),
    totalValue: Number(r.total_value),
    conflicts: Number(r.conflicts),
    pendingReview: Number(r.pending_review),
    extensionRequests: Number(r.extension_requests),
    expiringSoon: Number(r.expiring_soon),
  };
}

/**
 * The earliest protected registration of another organisation for the same deal (see
 * `compareRegistrations`: the same organisation e-mail domain, the same site address, or the same
 * customer unless both give different organisation domains); undefined when there is none.
 */
export async function findConflictingRegistration(db: Queryable, key: RegistrationKey, organisationId: string, now: Date): Promise<{ id: string } | undefined> {
  if (!key.customerKey && !key.emailDomain && !key.siteKey) return undefined;
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM read.projects
     WHERE organisation_id <> $2 AND registration_status = ANY($3) AND expires_at > $4
       AND ((customer_key = $1 AND $1 <> '' AND ($5::text IS NULL OR email_domain IS NULL OR email_domain = $5))
            OR ($5::text IS NOT NULL AND email_domain = $5)
            OR ($6::text IS NOT NULL AND site_key = $6))
     ORDER BY submitted_at, id LIMIT 1`,
    [key.customerKey, organisationId, [...PROTECTING_STATUSES], now, key.emailDomain, key.siteKey ?? null],
  );
  return rows[0];
}

export type { PossibleConflict };

/**
 * Live registrations of other organisations that may be the same deal without being certainly so: a
 * customer name similar by pg_trgm (NEAR_MATCH_SIMILARITY or more), or the same name under different
 * organisation e-mail domains. Certain matches (`findConflictingRegistration`) are left out. Most similar first.
 */
export async function findPossibleConflicts(
  db: Queryable,
  key: RegistrationKey,
  organisationId: string,
  now: Date,
  exceptId?: string,
): Promise<PossibleConflict[]> {
  if (!key.customerWords) return [];
  const { rows } = await db.query<PossibleConflict & { similarity: string }>(
    `SELECT id, title, company_name, end_user_customer_name, registration_status, similarity(customer_words, $1) AS similarity
     FROM read.projects
     WHERE organisation_id <> $2 AND registration_status = ANY($3) AND expires_at > $4 AND ($7::uuid IS NULL OR id <> $7)
       AND (customer_words % $1 OR customer_key = $8)
       AND similarity(customer_words, $1) >= $5
       AND NOT ($6::text IS NOT NULL AND email_domain = $6)
       AND NOT (customer_key = $8 AND ($6::text IS NULL OR email_domain IS NULL))
       AND NOT ($9::text IS NOT NULL AND site_key = $9)
     ORDER BY similarity(customer_words, $1) DESC, submitted_at LIMIT 5`,
    [
      key.customerWords,
      organisationId,
      [...LIVE_STATUSES],
      now,
      NEAR_MATCH_SIMILARITY,
      key.emailDomain,
      exceptId ?? null,
      key.customerKey,
      key.siteKey ?? null,
    ],
  );
  return rows.map((r) => ({ ...r, similarity: Math.round(Number(r.similarity) * 100) / 100 }));
}

export type MilestoneView = Milestone;

const MILESTONE_SELECT = `SELECT id, project_id, name, date::text AS date, status, created_at, updated_at FROM read.project_milestones`;
type MilestoneRow = Omit<MilestoneView, 'title' | 'status' | 'created_at' | 'updated_at'> & { status: MilestoneStatus; created_at: Date; updated_at: Date };
const toMilestoneView = (row: MilestoneRow): MilestoneView => ({
  ...row,
  title: row.name,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export async function milestonesOf(db: Queryable, projectId: string): Promise<MilestoneView[]> {
  const { rows } = await db.query<MilestoneRow>(`${MILESTONE_SELECT} WHERE project_id = $1 ORDER BY date, created_at, id`, [projectId]);
  return rows.map(toMilestoneView);
}

export async function findMilestone(db: Queryable, milestoneId: string): Promise<MilestoneView | undefined> {
  const { rows } = await db.query<MilestoneRow>(`${MILESTONE_SELECT} WHERE id = $1`, [milestoneId]);
  return rows[0] ? toMilestoneView(rows[0]) : undefined;
}

/** project_teams of spec 001 §3: the member's name, e-mail and role. */
export async function teamOf(db: Queryable, projectId: string): Promise<TeamMember[]> {
  const { rows } = await db.query<{ user_id: string; full_name: string; email: string; role: string; added_at: Date }>(
    `SELECT t.user_id, u.full_name, u.email, u.role, t.added_at FROM read.project_team t JOIN read.users u ON u.id = t.user_id WHERE t.project_id = $1 ORDER BY t.added_at, u.full_name`,
    [projectId],
  );
  return rows.map((r) => ({
    id: r.user_id,
    user_id: r.user_id,
    full_name: r.full_name,
    email: r.email,
    role: r.role,
    user: { id: r.user_id, full_name: r.full_name, email: r.email, role: r.role },
    added_at: r.added_at.toISOString(),
  }));
}

/** The active accounts of an organisation: the organisation's own account and its team members. */
export async function organisationUsers(db: Queryable, organisationId: string): Promise<TeamCandidate[]> {
  const { rows } = await db.query<{ id: string; full_name: string; email: string; role: string }>(
    `SELECT id, full_name, email, role FROM read.users WHERE (id = $1 OR parent_user_id = $1) AND is_active ORDER BY (id = $1) DESC, full_name`,
    [organisationId],
  );
  return rows;
}

export async function linkedOrderIds(db: Queryable, projectId: string): Promise<string[]> {
  const { rows } = await db.query<{ order_id: string }>('SELECT order_id FROM read.project_orders WHERE project_id = $1 ORDER BY linked_at', [projectId]);
  return rows.map((r) => r.order_id);
}

/** Live registrations (pending, under conflict review or approved): the expiry sweep schedules their jobs again. */
/**
 * Who hears of news about a project: the owning organisation's account and the user who registered the project, the
 * active ones, in id order, each with the project's title.
 */
export async function projectRecipients(db: Queryable, organisationId: string, projectId: string): Promise<Array<{ id: string; title: string }>> {
  const { rows } = await db.query<{ id: string; title: string }>(
    `SELECT u.id, coalesce(p.title, 'your project') AS title FROM read.users u LEFT JOIN read.projects p ON p.id = $2
     WHERE u.is_active AND (u.id = $1 OR u.id = p.created_by) ORDER BY u.id`,
    [organisationId, projectId],
  );
  return rows;
}

export async function liveRegistrations(db: Queryable): Promise<Array<{ id: string; expires_at: Date; reminders_sent: string[] }>> {
  const { rows } = await db.query<{ id: string; expires_at: Date; reminders_sent: string[] }>(
    `SELECT id, expires_at, reminders_sent FROM read.projects WHERE registration_status IN ('pending', 'conflict', 'approved') ORDER BY expires_at`,
  );
  return rows;
}

/** The later registrations of other organisations flagged as colliding with this one, oldest first. */
export async function laterRegistrations(db: Queryable, projectId: string): Promise<ProjectRow[]> {
  const { rows } = await db.query<ProjectRow>(`SELECT ${PROJECT_COLUMNS} FROM ${PROJECT_FROM} WHERE p.conflict_with = $1 ORDER BY p.submitted_at`, [projectId]);
  return rows;
}

/** The partners an administrator may register a project for: the approved ones, by name. */
export async function approvedPartners(db: Queryable): Promise<PartnerChoice[]> {
  const { rows } = await db.query<PartnerChoice>(`SELECT id, company_name FROM read.partners WHERE status = 'approved' ORDER BY company_name, id`);
  return rows;
}

/** An approved partner's name; undefined when there is no such approved partner. */
export async function approvedPartnerName(db: Queryable, partnerId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ company_name: string }>(`SELECT company_name FROM read.partners WHERE id = $1 AND status = 'approved'`, [partnerId]);
  return rows[0]?.company_name;
}

// ---- history ----

/** What an event of the project's stream did, in words, for the History tab. */
function describeEvent(event: ProjectEvent): Pick<ProjectHistoryEntry, 'action' | 'category' | 'reason'> {
  switch (event.type) {
    case 'ProjectRegistered.v1':
      return {
        action:
          event.data.registrationStatus === 'conflict'
            ? 'Registered; flagged as a conflict with an earlier registration'
            : `Registered; protected until ${event.data.expiresAt.slice(0, 10)}`,
        category: 'registration',
        reason: null,
      };
    case 'ProjectUpdated.v1':
      return { action: 'Details updated', category: 'project', reason: null };
    case 'ProjectStatusChanged.v1':
      return { action: `Status changed from ${event.data.previousStatus} to ${event.data.status}`, category: 'status', reason: event.data.reason };
    case 'ProjectDeleted.v1':
      return { action: 'Deleted', category: 'project', reason: null };
    case 'ProjectRegistrationApproved.v1':
      return {
        action: event.data.previousRegistrationStatus === 'conflict' ? 'Registration approved despite the conflict' : 'Registration approved',
        category: 'registration',
        reason: event.data.note,
      };
    case 'ProjectRegistrationRejected.v1':
      return { action: 'Registration rejected', category: 'registration', reason: event.data.reason };
    case 'ProjectRegistrationExpired.v1':
      return { action: 'Registration expired', category: 'registration', reason: null };
    case 'ProjectExpiryReminderSent.v1':
      return { action: `Expiry reminder sent (${event.data.daysBefore} days before)`, category: 'registration', reason: null };
    case 'ProjectExtensionRequested.v1':
      return { action: 'Extension requested', category: 'extension', reason: event.data.reason };
    case 'ProjectExtensionApproved.v1':
      return { action: `Extension approved; protected until ${event.data.expiresAt.slice(0, 10)}`, category: 'extension', reason: event.data.note };
    case 'ProjectExtensionDeclined.v1':
      return { action: 'Extension declined', category: 'extension', reason: event.data.reason };
    case 'ProjectMilestoneAdded.v1':
      return { action: `Milestone added: ${event.data.milestone.name}`, category: 'milestone', reason: null };
    case 'ProjectMilestoneUpdated.v1':
      return { action: `Milestone updated: ${event.data.milestone.name} (${event.data.milestone.status})`, category: 'milestone', reason: null };
    case 'ProjectMilestoneRemoved.v1':
      return { action: 'Milestone removed', category: 'milestone', reason: null };
    case 'ProjectTeamMemberAdded.v1':
      return { action: 'Team member added', category: 'team', reason: null };
    case 'ProjectTeamMemberRemoved.v1':
      return { action: 'Team member removed', category: 'team', reason: null };
    case 'ProjectOrderLinked.v1':
      return { action: 'Order linked', category: 'order', reason: null };
    case 'ProjectOrderUnlinked.v1':
      return { action: 'Order unlinked', category: 'order', reason: null };
  }
}

/**
 * A project's history in the status history's rows (statusHistoryOf), oldest first, with the actor's
 * current name. A project's history tells more than its status changes (registration, extension,
 * content, milestones, team, orders), so it is read from the project's own stream; undefined when the
 * project never existed.
 */
export async function projectHistoryOf(store: Pick<EventStore, 'readStream'>, db: Queryable, projectId: string): Promise<ProjectHistoryEntry[] | undefined> {
  const events = await store.readStream(projects.streamId(projectId));
  if (events.length === 0) return undefined;
  const names = await personNames(
    db,
    events.map((e) => e.metadata.actorId),
  );
  return events.map((recorded) => {
    const event = asDomainEvent<ProjectEvent>(recorded); // the projects stream holds only project events
    return {
      id: recorded.id,
      record_type: 'projects' as const,
      record_id: projectId,
      event_type: event.type,
      ...describeEvent(event),
      from_status: event.type === 'ProjectStatusChanged.v1' ? event.data.previousStatus : null,
      to_status: event.type === 'ProjectStatusChanged.v1' || event.type === 'ProjectRegistered.v1' ? event.data.status : null,
      actor_id: recorded.metadata.actorId,
      actor_name: recorded.metadata.actorId ? (names.get(recorded.metadata.actorId) ?? null) : null,
      actor_role: recorded.metadata.actorRole,
      occurred_at: recorded.metadata.occurredAt,
    };
  });
}

/** The filters of a list query, as the read model takes them. */
export const projectFiltersOf = (q: ProjectListQuery): ProjectFilters => ({
  ids: q.ids,
  status: q.filters.status,
  registration_status: q.filters.registration_status,
  active: q.filters.active,
  expiring_soon: q.filters.expiring_soon,
  extension_status: q.filters.extension_status,
  linkable: q.filters.linkable,
  organisation_id: q.filters.organisation_id,
  search: q.search,
});

/** The total GET /projects answers under a react-admin `filter`, for the same scope (the dashboards' cards count with it). */
export async function projectListTotal(db: Queryable, scope: ProjectScope, filter: Readonly<Record<string, unknown>>): Promise<number> {
  const q = projectListQuery.parse({ filter: JSON.stringify(filter), range: '[0,0]' });
  const { clause, params } = projectWhere(scope, projectFiltersOf(q));
  return countOf(db, { from: PROJECT_COUNT_FROM, where: clause, params });
}
