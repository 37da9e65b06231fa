import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isAdminRole, seesAllOrganisations } from '../../domain/access';
import { isLinkableProject, NOT_LINKABLE_MESSAGE, PROJECT_DETAIL_FIELDS, PROJECT_MESSAGES, PROJECT_STATUSES, projects, type ProjectDetails, type ProjectEvent } from '../../domain/projects/projects';
import { EXTENSION_STATUSES, POSSIBLE_EXISTING_REGISTRATION, REGISTRATION_STATUSES } from '../../domain/projects/registration';
import { REJECTION_REASON_MAX } from '../../domain/partners/application';
import { isActivityForDeals } from '../../projections/funds';
import { findOrder, listOrders } from '../../projections/orders';
import {
  findMilestone,
  findPossibleConflicts,
  findProjectRow,
  linkedOrderIds,
  listProjects,
  milestonesOf,
  organisationUsers,
  PROJECT_SORT_FIELDS,
  projectStatistics,
  teamOf,
  toProjectView,
  type ProjectFilters,
  type ProjectRow,
  type ProjectScope,
} from '../../projections/projects';
import { findUser } from '../../projections/users';
import { metadataFromRequest, runCommand } from '../commands/dispatch';
import { registerProject } from '../commands/projects';
import { HttpError } from '../plugins/errors';
import { bulkMessage, bulkReviewBody, eachRecord } from './bulk';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { readMultipart, removeUpload, sendUpload, storeUpload, type FileRule } from '../plugins/uploads';
import type { Services } from '../services';
import { booleanFilter, listQuerySchema, sendList } from './lists';
import { recordAnswer, updateBody } from './records';
import { uuidParam } from './validation';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';

/** Spec 001 §5: the bill of quantities as pdf, xls, xlsx, csv, doc, docx, png, jpg or jpeg, recognised by content. */
export const BOQ_RULE: FileRule = { label: 'BoQ file', types: ['pdf', 'xls', 'xlsx', 'csv', 'doc', 'docx', 'png', 'jpg'], maxBytes: 10 * 1024 * 1024, maxCount: 1 };

// ---- schemas ----

const FUND_LINK_MESSAGE = 'Choose an approved marketing activity of the same organisation.';

const text = (max: number) => z.union([z.string().max(max), z.null()]).optional();
const email = (label: string) =>
  text(254).refine((value) => !value?.trim() || z.email().safeParse(value.trim()).success, `${label} is invalid.`);
const numberLike = z.union([z.number(), z.string().max(40), z.null()]).optional();

/**
 * The project's fields (spec 001 §3), as JSON or as multipart text; every one optional here, the decider
 * checks the title. A project always has a title, so it may be left out but never sent as null.
 */
const detailShape = {
  title: z.string({ error: PROJECT_MESSAGES.titleRequired }).max(200).optional(),
  expected_closure_date: text(40).refine((v) => !v?.trim() || /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/.test(v.trim()), 'Expected closure date must be a date (YYYY-MM-DD).'),
  country_region: text(120),
  sales_person: text(120),
  project_stage: text(120),
  progress: numberLike,
  project_progress_remarks: text(2000),
  end_user_requirements: text(5000),
  end_user_customer_name: text(200),
  end_user_location: text(300),
  end_user_it_head_name: text(120),
  end_user_contact_number: text(40),
  end_user_email: email('End user email'),
  partner_company_name: text(200),
  partner_company_location: text(300),
  partner_email: email('Partner email'),
  partner_contact_number: text(40),
  value: numberLike,
  fund_request_id: z.union([z.uuid(), z.literal(''), z.null()], { error: FUND_LINK_MESSAGE }).optional(),
};

const createFields = z.object({ ...detailShape, company_id: z.union([z.uuid({ error: 'Please choose a partner.' }), z.literal('')]).optional(), status: z.enum(PROJECT_STATUSES).optional() }).strict();

/** Fields of the answer that an edit form sends back unchanged: accepted and ignored. */
const READ_ONLY_FIELDS = [
  'id', 'next_statuses', 'client', 'company_id', 'organisation_id', 'company', 'company_name', 'created_by', 'created_by_name', 'boq_file', 'boq_file_url',
  'registration_status', 'registration_state', 'submitted_at', 'expires_at', 'review_note', 'reviewed_at', 'conflict', 'conflicting_project', 'later_registrations', 'possible_conflicts', 'registration_warning',
  'extension_status', 'extension_reason', 'extension_decision_note', 'extension_requested_at', 'team_size', 'milestone_count', 'created_at', 'updated_at', 'project_teams',
] as const;
const projectUpdateBody = updateBody(
  {
    ...detailShape,
    status: z.enum(PROJECT_STATUSES, { error: `Status must be one of: ${PROJECT_STATUSES.join(', ')}.` }).optional(),
    status_reason: text(500),
  },
  READ_ONLY_FIELDS,
).meta({ example: { title: 'Campus network refresh', progress: 40, value: 125000, expected_closure_date: '2027-03-31', status: 'In Progress' } });

const milestoneFields = {
  name: text(200),
  title: text(200),
  date: text(40),
  status: z.enum(['pending', 'in-progress', 'completed'], { error: 'Milestone status must be pending, in-progress or completed.' }).optional(),
};
const milestoneCreateBody = z
  .object({ project_id: z.uuid({ error: 'Project id is not valid.' }), ...milestoneFields })
  .strict()
  .meta({ example: { project_id: '5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a', name: 'Site survey', date: '2027-01-15', status: 'pending' } });
const milestoneUpdateBody = updateBody(milestoneFields, ['id', 'project_id', 'created_at', 'updated_at']).meta({ example: { name: 'Site survey', date: '2027-01-16', status: 'completed' } });

const reviewBody = z
  .object({ decision: z.enum(['approved', 'rejected'], { error: 'Decision must be approved or rejected.' }), reason: text(5000) })
  .strict()
  .meta({ example: { decision: 'rejected', reason: 'Another partner registered this customer first.' } });
const bulkBody = bulkReviewBody('registration', REJECTION_REASON_MAX, { decision: 'rejected', reason: 'The customer is already covered by a direct agreement.' });
const extensionBody = z
  .object({ reason: z.string({ error: 'Please give a reason for the extension.' }).max(5000) })
  .strict()
  .meta({ example: { reason: "The customer's board meets after the protection ends." } });
const extensionDecisionBody = z
  .object({ decision: z.enum(['approved', 'declined'], { error: 'Decision must be approved or declined.' }), reason: text(5000) })
  .strict()
  .meta({ example: { decision: 'approved', reason: 'Board date confirmed.' } });
const teamBody = z
  .object({ user_id: z.uuid({ error: 'Choose a member of your organisation.' }) })
  .strict()
  .meta({ example: { user_id: '5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a' } });
const orderBody = z
  .object({ order_id: z.uuid({ error: 'Choose one of your orders.' }) })
  .strict()
  .meta({ example: { order_id: '5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a' } });
const memberParam = z.object({ id: z.uuid({ error: 'The id in the address is not valid.' }), userId: z.uuid({ error: 'The user id in the address is not valid.' }) }).strict();
const orderParam = z.object({ id: z.uuid({ error: 'The id in the address is not valid.' }), orderId: z.uuid({ error: 'The order id in the address is not valid.' }) }).strict();

const listQuery = listQuerySchema(
  {
    status: z.enum(PROJECT_STATUSES).optional(),
    registration_status: z.enum(REGISTRATION_STATUSES).optional(),
    active: booleanFilter.optional(),
    expiring_soon: booleanFilter.optional(),
    extension_status: z.enum(EXTENSION_STATUSES).optional(),
    linkable: booleanFilter.optional(),
    organisation_id: z.uuid().optional(),
  },
  PROJECT_SORT_FIELDS,
);
type ProjectListQuery = z.output<typeof listQuery>;

const projectFiltersOf = (q: ProjectListQuery): ProjectFilters => ({
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
export async function projectListTotal(db: Services['pool'], scope: ProjectScope, filter: Readonly<Record<string, unknown>>): Promise<number> {
  const q = listQuery.parse({ filter: JSON.stringify(filter), range: '[0,0]' });
  return (await listProjects(db, scope, projectFiltersOf(q), { offset: 0, limit: 1 })).total;
}

// ---- field conversion ----

type DetailInput = Partial<Record<keyof typeof detailShape, string | number | null | undefined>>;

function numberOf(value: string | number | null | undefined, field: string, message: string, whole: boolean): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || (typeof value === 'string' && !value.trim())) return null;
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isFinite(n) || (whole && !Number.isInteger(n))) throw new HttpError(400, 'VALIDATION_ERROR', message, [{ field, message }]);
  return n;
}

/** The given fields laid over the current ones (none when registering); fields not sent keep their value. */
function detailsFrom(input: DetailInput, current: ProjectDetails | undefined): ProjectDetails {
  const merged = { ...(current ?? emptyDetails()) } as Record<string, unknown>;
  for (const field of PROJECT_DETAIL_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    if (field === 'progress') merged.progress = numberOf(value, 'progress', PROJECT_MESSAGES.progressRange, true) ?? 0;
    else if (field === 'value') merged.value = numberOf(value, 'value', PROJECT_MESSAGES.valueRange, false);
    else if (field === 'expected_closure_date') merged[field] = typeof value === 'string' ? value.trim().slice(0, 10) || null : null;
    else merged[field] = value === null ? null : String(value);
  }
  return merged as unknown as ProjectDetails;
}

const emptyDetails = (): ProjectDetails => ({ ...(Object.fromEntries(PROJECT_DETAIL_FIELDS.map((f) => [f, null])) as unknown as ProjectDetails), title: '', progress: 0 });

export const detailsOfRow = (row: ProjectRow): ProjectDetails =>
  Object.fromEntries(PROJECT_DETAIL_FIELDS.map((f) => [f, f === 'value' ? (row.value === null ? null : Number(row.value)) : row[f]])) as unknown as ProjectDetails;

function zodDetails(issues: z.core.$ZodIssue[]) {
  const details = issues.map((issue) => ({ field: issue.code === 'unrecognized_keys' ? issue.keys.join(',') : String(issue.path[0] ?? 'request'), message: issue.message }));
  return new HttpError(400, 'VALIDATION_ERROR', details[0]?.message ?? 'The request is not valid.', details);
}

// ---- history ----

type Recorded = ProjectEvent & { id: string; metadata: { actorId: string | null; actorRole: string | null; occurredAt: string } };

/** What an event of the project's stream did, in words, for the History tab. */
function describeEvent(event: ProjectEvent): { action: string; category: 'status' | 'registration' | 'extension' | 'project' | 'milestone' | 'team' | 'order'; reason: string | null } {
  switch (event.type) {
    case 'ProjectRegistered.v1':
      return { action: event.data.registrationStatus === 'conflict' ? 'Registered; flagged as a conflict with an earlier registration' : `Registered; protected until ${event.data.expiresAt.slice(0, 10)}`, category: 'registration', reason: null };
    case 'ProjectUpdated.v1':
      return { action: 'Details updated', category: 'project', reason: null };
    case 'ProjectStatusChanged.v1':
      return { action: `Status changed from ${event.data.previousStatus} to ${event.data.status}`, category: 'status', reason: event.data.reason };
    case 'ProjectDeleted.v1':
      return { action: 'Deleted', category: 'project', reason: null };
    case 'ProjectRegistrationApproved.v1':
      return { action: event.data.previousRegistrationStatus === 'conflict' ? 'Registration approved despite the conflict' : 'Registration approved', category: 'registration', reason: event.data.note };
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

// ---- routes ----

export async function projectRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, config } = services;
  // Who may call each route is the access table's (domain/access/api.ts), enforced before the handler;
  // the handlers add the record scope.
  const tags = ['projects'];

  const scopeOf = (request: FastifyRequest): ProjectScope => ({ organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId });
  /** A project the caller may not see is answered exactly like one that does not exist. */
  const load = async (request: FastifyRequest, id: string): Promise<ProjectRow> => {
    const row = await findProjectRow(pool, id, scopeOf(request));
    if (!row) throw new HttpError(404, 'NOT_FOUND', PROJECT_MESSAGES.notFound);
    return row;
  };
  /** Changing a project: admins any, everyone else only their own organisation's (manufacturers and support read all, change none). */
  const loadForChange = async (request: FastifyRequest, id: string): Promise<ProjectRow> => {
    const row = await load(request, id);
    if (!isAdminRole(request.principal.role) && row.organisation_id !== request.principal.organisationId) throw new HttpError(404, 'NOT_FOUND', PROJECT_MESSAGES.notFound);
    return row;
  };
  /** A deal may name only an approved marketing activity (fund request) of its own organisation. */
  const checkFundLink = async (requestId: string | null | undefined, organisationId: string) => {
    if (requestId && !(await isActivityForDeals(pool, requestId, organisationId))) throw new HttpError(400, 'VALIDATION_ERROR', FUND_LINK_MESSAGE, [{ field: 'fund_request_id', message: FUND_LINK_MESSAGE }]);
  };

  /**
   * Another organisation's project is refused before its body is read, so a caller learns nothing
   * from validation answers about records that are not theirs.
   */
  const ownProject = {
    preValidation: async (request: FastifyRequest) => {
      const id = (request.params as { id?: unknown }).id;
      if (typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) await loadForChange(request, id);
    },
  };

  /**
   * The project as this caller may see it. Admins also get the registration it collides with and the
   * later registrations that collide with it, side by side; the partner learns only that a review is open.
   */
  const viewFor = async (request: FastifyRequest, id: string) => {
    const row = await load(request, id);
    const possible = row.registration_status === 'pending' || row.registration_status === 'approved' || row.registration_status === 'conflict'
      ? await findPossibleConflicts(pool, { customerKey: row.customer_key, emailDomain: row.email_domain, siteKey: row.site_key, customerWords: row.customer_words }, row.organisation_id, new Date(), row.id)
      : [];
    // The registering partner is warned without being told whose registration it may meet.
    const view = { ...toProjectView(row), registration_warning: row.registration_status === 'conflict' || possible.length > 0 ? POSSIBLE_EXISTING_REGISTRATION : null };
    if (!isAdminRole(request.principal.role)) return view;
    const other = row.conflict_with ? await findProjectRow(pool, row.conflict_with, { organisationId: undefined }) : undefined;
    const { rows: later } = await pool.query<{ id: string }>(`SELECT id FROM read.projects WHERE conflict_with = $1 ORDER BY submitted_at`, [row.id]);
    const laterRows = (await Promise.all(later.map((r) => findProjectRow(pool, r.id, { organisationId: undefined })))).filter((r): r is ProjectRow => Boolean(r));
    return { ...view, conflict_with: row.conflict_with, conflicting_project: other ? toProjectView(other) : null, later_registrations: laterRows.map(toProjectView), possible_conflicts: possible };
  };

  const command = (request: FastifyRequest, id: string, cmd: Parameters<typeof projects.decide>[0]) => runCommand(services, projects, id, cmd, metadataFromRequest(request));

  app.get('/projects', { schema: { tags, summary: "Projects: the caller's organisation's, or all for admins, manufacturers and support; admins see conflicts first", querystring: listQuery } }, async (request, reply) => {
    const q = request.query;
    const { rows, total } = await listProjects(
      pool,
      scopeOf(request),
      projectFiltersOf(q),
      { offset: q.offset, limit: q.limit, sort: q.sort, conflictsFirst: isAdminRole(request.principal.role) && !q.sort },
    );
    return sendList(reply, 'projects', q, rows, total);
  });

  app.get('/projects/stats', { schema: { tags, summary: 'Summary cards: active projects, total value, registrations awaiting review' } }, async (request) => ({
    success: true,
    data: await projectStatistics(pool, scopeOf(request)),
  }));

  /** The create form's partner choice: admins pick any approved partner; a partner registers for its own organisation only. */
  app.get('/projects/partners', { schema: { tags, summary: 'The partners a project may be registered for by the caller' } }, async (request) => {
    if (isAdminRole(request.principal.role)) {
      const { rows } = await pool.query<{ id: string; company_name: string }>(`SELECT id, company_name FROM read.partners WHERE status = 'approved' ORDER BY company_name, id`);
      return { success: true, data: rows };
    }
    const organisation = await findUser(pool, request.principal.organisationId);
    return { success: true, data: [{ id: request.principal.organisationId, company_name: organisation?.company_name ?? request.principal.companyName ?? request.principal.fullName }] };
  });

  app.get('/projects/:id', { schema: { tags, summary: 'One project (with asOf: as it was at that moment)', params: uuidParam, querystring: asOfQuery } }, async (request) => {
    if (!request.query.asOf) return recordAnswer(await viewFor(request, request.params.id));
    const row = await load(request, request.params.id);
    return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.projects, row.id, request.query.asOf, request.principal, PROJECT_MESSAGES.notFound));
  });

  versionsRoute(app, services, { path: '/projects', type: VERSIONED_RECORDS.projects, params: uuidParam, notFound: PROJECT_MESSAGES.notFound, visible: async (request, id) => (await load(request, id)).id });

  app.post(
    '/projects',
    { schema: { tags, summary: 'Register a project (multipart: the project fields and an optional boq_file)', consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      const form = await readMultipart(request, { boq_file: BOQ_RULE });
      const single: Record<string, string> = {};
      for (const [name, value] of Object.entries(form.fields)) {
        if (Array.isArray(value)) throw new HttpError(400, 'VALIDATION_ERROR', `Send ${name} once.`, [{ field: name, message: `Send ${name} once.` }]);
        single[name] = value;
      }
      const parsed = createFields.safeParse(single);
      if (!parsed.success) throw zodDetails(parsed.error.issues);
      const { company_id, status, ...fields } = parsed.data;
      const { principal } = request;
      const admin = isAdminRole(principal.role);
      let organisationId = principal.organisationId;
      let companyName: string | null;
      if (admin) {
        if (!company_id) throw new HttpError(400, 'VALIDATION_ERROR', 'Please choose a partner.', [{ field: 'company_id', message: 'Please choose a partner.' }]);
        const { rows } = await pool.query<{ company_name: string }>(`SELECT company_name FROM read.partners WHERE id = $1 AND status = 'approved'`, [company_id]);
        if (!rows[0]) throw new HttpError(400, 'VALIDATION_ERROR', 'Choose an approved partner.', [{ field: 'company_id', message: 'Choose an approved partner.' }]);
        organisationId = company_id;
        companyName = rows[0].company_name;
      } else {
        if (company_id && company_id !== principal.organisationId && company_id !== principal.id) {
          throw new HttpError(403, 'FORBIDDEN', 'Projects can only be registered for your own organisation.', [{ field: 'company_id', message: 'Leave this out or send your own organisation.' }]);
        }
        companyName = (await findUser(pool, organisationId))?.company_name ?? principal.companyName;
      }
      const details = detailsFrom(fields, undefined);
      await checkFundLink(details.fund_request_id, organisationId);
      const projectId = newRecordId(request, 'project');
      const created = { id: projectId, location: `/api/projects/${projectId}` };
      const read = async () => recordAnswer(await viewFor(request, projectId), PROJECT_MESSAGES.created);
      const earlier = await earlierCreation(services, request, projects.streamId(projectId), projectId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      const metadata = metadataFromRequest(request);
      const boq = form.files.boq_file?.[0];
      const stored = boq ? await storeUpload(config.UPLOAD_DIR, boq, 'private') : null;
      try {
        await registerProject(services, { projectId, organisationId, companyName, createdBy: principal.id, details, boqFile: stored }, metadata);
        if (status && status !== 'Planning') await command(request, projectId, { type: 'ChangeProjectStatus', status, reason: null });
      } catch (error) {
        if (stored) await removeUpload(config.UPLOAD_DIR, stored, 'private');
        throw error;
      }
      return answerCreated(services, reply, created, read);
    },
  );

  app.put('/projects/:id', { ...ownProject, schema: { tags, summary: "Update a project's fields and, with `status`, move its work status", params: uuidParam, body: projectUpdateBody } }, async (request) => {
    const row = await loadForChange(request, request.params.id);
    const body = request.body;
    const input = Object.fromEntries(PROJECT_DETAIL_FIELDS.map((f) => [f, body[f]])) as DetailInput;
    const details = detailsFrom(input, detailsOfRow(row));
    if ((details.fund_request_id || null) !== row.fund_request_id) await checkFundLink(details.fund_request_id, row.organisation_id);
    await command(request, row.id, { type: 'UpdateProject', details, status: body.status, reason: body.status_reason ?? null });
    return recordAnswer(await viewFor(request, row.id), PROJECT_MESSAGES.updated);
  });

  app.delete(
    '/projects/:id',
    { schema: { tags, summary: 'Delete a project (Projects.Update and Projects.Delete)', params: uuidParam } },
    async (request) => {
      const row = await loadForChange(request, request.params.id);
      await command(request, row.id, { type: 'DeleteProject' });
      return { success: true, message: PROJECT_MESSAGES.deleted };
    },
  );

  app.get('/projects/:id/history', { schema: { tags, summary: "A project's history: every status, registration and extension change, who and why (admins)", params: uuidParam } }, async (request) => {
    const events = (await services.store.readStream(projects.streamId(request.params.id))) as unknown as Recorded[];
    if (events.length === 0) throw new HttpError(404, 'NOT_FOUND', PROJECT_MESSAGES.notFound);
    const actorIds = [...new Set(events.map((e) => e.metadata.actorId).filter((a): a is string => Boolean(a)))];
    const { rows } = await pool.query<{ id: string; full_name: string }>('SELECT id::text, full_name FROM read.users WHERE id::text = ANY($1)', [actorIds]);
    const names = new Map(rows.map((r) => [r.id, r.full_name]));
    return {
      success: true,
      data: events.map((event) => {
        const described = describeEvent(event);
        return {
          id: event.id,
          record_type: 'projects',
          record_id: request.params.id,
          event_type: event.type,
          category: described.category,
          action: described.action,
          reason: described.reason,
          from_status: event.type === 'ProjectStatusChanged.v1' ? event.data.previousStatus : null,
          to_status: event.type === 'ProjectStatusChanged.v1' || event.type === 'ProjectRegistered.v1' ? event.data.status : null,
          actor_id: event.metadata.actorId,
          actor_name: event.metadata.actorId ? (names.get(event.metadata.actorId) ?? null) : null,
          actor_role: event.metadata.actorRole,
          occurred_at: event.metadata.occurredAt,
        };
      }),
    };
  });

  app.get('/projects/:id/boq', { schema: { tags, summary: "The project's bill of quantities (only to those who may see the project)", params: uuidParam } }, async (request, reply) => {
    const row = await load(request, request.params.id);
    if (!row.boq_file) throw new HttpError(404, 'NOT_FOUND', 'This project has no BoQ file.');
    return sendUpload(reply, config.UPLOAD_DIR, row.boq_file, 'private', `boq-${row.id.slice(0, 8)}`);
  });

  // ---- the registration ----

  app.post('/projects/:id/review', { ...ownProject, schema: { tags, summary: 'Approve or reject a registration (admins; a reason is required to reject, a note to approve a conflict)', params: uuidParam, body: reviewBody } }, async (request) => {
    const row = await load(request, request.params.id);
    await command(request, row.id, { type: 'ReviewRegistration', decision: request.body.decision, reason: request.body.reason ?? null });
    return { success: true, message: request.body.decision === 'approved' ? 'Registration approved' : 'Registration rejected', data: await viewFor(request, row.id) };
  });

  app.post(
    '/projects/bulk-review',
    {
      schema: {
        tags,
        summary: 'Approve or reject several registrations with one reason (admins): one review per registration; the answer lists which were done and which were refused and why',
        body: bulkBody,
      },
    },
    async (request) => {
      const { ids, decision, reason } = request.body;
      const outcome = await eachRecord(ids, request.log, async (id) => {
        const row = await load(request, id);
        await command(request, row.id, { type: 'ReviewRegistration', decision, reason: reason ?? null });
      });
      return { success: true, message: bulkMessage(outcome, ['registration', 'registrations'], decision), data: outcome };
    },
  );

  app.post('/projects/:id/extension', { ...ownProject, schema: { tags, summary: 'Request the one 30-day extension of a registration, before it expires', params: uuidParam, body: extensionBody } }, async (request) => {
    const row = await loadForChange(request, request.params.id);
    await command(request, row.id, { type: 'RequestExtension', reason: request.body.reason });
    return { success: true, message: 'Extension requested. An administrator will review it.', data: await viewFor(request, row.id) };
  });

  app.post(
    '/projects/:id/extension/decision',
    { ...ownProject, schema: { tags, summary: 'Approve (moves the expiry by 30 days) or decline (reason required) an extension request (admins)', params: uuidParam, body: extensionDecisionBody } },
    async (request) => {
      const row = await load(request, request.params.id);
      await command(request, row.id, { type: 'DecideExtension', decision: request.body.decision, reason: request.body.reason ?? null, extensionMs: config.DEAL_REGISTRATION_EXTENSION_MS });
      return { success: true, message: request.body.decision === 'approved' ? 'Extension approved' : 'Extension declined', data: await viewFor(request, row.id) };
    },
  );

  // ---- team ----

  app.get('/projects/:id/team', { schema: { tags, summary: "The project's team (project_teams)", params: uuidParam } }, async (request) => {
    const row = await load(request, request.params.id);
    return { success: true, data: await teamOf(pool, row.id) };
  });

  app.get('/projects/:id/team/candidates', { schema: { tags, summary: "Active users of the project's organisation who may join its team", params: uuidParam } }, async (request) => {
    const row = await loadForChange(request, request.params.id);
    const members = new Set((await teamOf(pool, row.id)).map((m) => m.user_id));
    return { success: true, data: (await organisationUsers(pool, row.organisation_id)).filter((u) => !members.has(u.id)) };
  });

  app.post('/projects/:id/team', { ...ownProject, schema: { tags, summary: "Add a user of the project's organisation to its team", params: uuidParam, body: teamBody } }, async (request, reply) => {
    const row = await loadForChange(request, request.params.id);
    const candidates = await organisationUsers(pool, row.organisation_id);
    if (!candidates.some((u) => u.id === request.body.user_id)) {
      throw new HttpError(400, 'VALIDATION_ERROR', "Only active users of the project's organisation can join its team.", [{ field: 'user_id', message: 'Choose a member of the organisation.' }]);
    }
    await command(request, row.id, { type: 'AddTeamMember', userId: request.body.user_id });
    reply.status(201);
    return { success: true, message: 'Team member added', data: await teamOf(pool, row.id) };
  });

  app.delete('/projects/:id/team/:userId', { ...ownProject, schema: { tags, summary: 'Remove a member from the project team', params: memberParam } }, async (request) => {
    const row = await loadForChange(request, request.params.id);
    await command(request, row.id, { type: 'RemoveTeamMember', userId: request.params.userId });
    return { success: true, message: 'Team member removed', data: await teamOf(pool, row.id) };
  });

  // ---- orders ----

  const ordersOf = async (row: ProjectRow) => {
    const ids = await linkedOrderIds(pool, row.id);
    return (await Promise.all(ids.map((id) => findOrder(pool, id, { organisationId: row.organisation_id })))).filter(Boolean);
  };

  app.get('/projects/:id/orders', { schema: { tags, summary: "The orders linked to the project", params: uuidParam } }, async (request) => {
    const row = await load(request, request.params.id);
    return { success: true, data: await ordersOf(row) };
  });

  app.get('/projects/:id/orders/candidates', { schema: { tags, summary: "The organisation's orders not yet linked to the project", params: uuidParam } }, async (request) => {
    const row = await loadForChange(request, request.params.id);
    const linked = new Set(await linkedOrderIds(pool, row.id));
    const { rows } = await listOrders(pool, { organisationId: row.organisation_id }, {}, { offset: 0, limit: 100 });
    return { success: true, data: rows.filter((o) => !linked.has(o.id)) };
  });

  app.post('/projects/:id/orders', { ...ownProject, schema: { tags, summary: "Link one of the organisation's orders to the project", params: uuidParam, body: orderBody } }, async (request, reply) => {
    const row = await loadForChange(request, request.params.id);
    const order = await findOrder(pool, request.body.order_id, { organisationId: row.organisation_id });
    if (!order) throw new HttpError(400, 'VALIDATION_ERROR', "Only the organisation's own orders can be linked.", [{ field: 'order_id', message: 'Choose one of the organisation’s orders.' }]);
    if (!isLinkableProject(row)) throw new HttpError(409, 'CONFLICT', NOT_LINKABLE_MESSAGE);
    await command(request, row.id, { type: 'LinkOrder', orderId: order.id });
    reply.status(201);
    return { success: true, message: 'Order linked to the project', data: await ordersOf(row) };
  });

  app.delete('/projects/:id/orders/:orderId', { ...ownProject, schema: { tags, summary: 'Unlink an order from the project', params: orderParam } }, async (request) => {
    const row = await loadForChange(request, request.params.id);
    await command(request, row.id, { type: 'UnlinkOrder', orderId: request.params.orderId });
    return { success: true, message: 'Order unlinked from the project', data: await ordersOf(row) };
  });

  // ---- milestones (spec 001 §7) ----

  app.get('/projects/:id/milestones', { schema: { tags, summary: "The project's milestones, by date", params: uuidParam } }, async (request) => {
    const row = await load(request, request.params.id);
    return { success: true, data: await milestonesOf(pool, row.id) };
  });

  const loadMilestone = async (request: FastifyRequest, id: string, forChange: boolean) => {
    const milestone = await findMilestone(pool, id);
    if (!milestone) throw new HttpError(404, 'NOT_FOUND', PROJECT_MESSAGES.milestoneNotFound);
    const project = await (forChange ? loadForChange : load)(request, milestone.project_id).catch(() => {
      throw new HttpError(404, 'NOT_FOUND', PROJECT_MESSAGES.milestoneNotFound);
    });
    return { milestone, project };
  };

  app.post('/projects/milestones', { schema: { tags, summary: 'Add a milestone (project_id, name, date, status)', body: milestoneCreateBody } }, async (request, reply) => {
    const body = request.body;
    const row = await loadForChange(request, body.project_id);
    const milestoneId = newRecordId(request, 'milestone');
    const created = { id: milestoneId, location: `/api/projects/milestones/${milestoneId}` };
    const read = async () => recordAnswer((await findMilestone(pool, milestoneId))!, 'Milestone created successfully');
    const earlier = await earlierCreation(services, request, projects.streamId(row.id), milestoneId);
    if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
    await command(request, row.id, { type: 'AddMilestone', milestoneId, name: body.name ?? body.title ?? '', date: body.date ?? '', status: body.status ?? 'pending' });
    return answerCreated(services, reply, created, read);
  });

  app.get('/projects/milestones/:id', { schema: { tags, summary: 'One milestone', params: uuidParam } }, async (request) => {
    const { milestone } = await loadMilestone(request, request.params.id, false);
    return recordAnswer(milestone);
  });

  app.put('/projects/milestones/:id', { schema: { tags, summary: 'Update a milestone (fields not sent keep their value)', params: uuidParam, body: milestoneUpdateBody } }, async (request) => {
    const { milestone, project } = await loadMilestone(request, request.params.id, true);
    const body = request.body;
    await command(request, project.id, {
      type: 'UpdateMilestone',
      milestoneId: milestone.id,
      name: body.name ?? body.title ?? milestone.name,
      date: body.date ?? milestone.date,
      status: body.status ?? milestone.status,
    });
    return recordAnswer((await findMilestone(pool, milestone.id))!, 'Milestone updated successfully');
  });

  app.delete('/projects/milestones/:id', { schema: { tags, summary: 'Remove a milestone', params: uuidParam } }, async (request) => {
    const { milestone, project } = await loadMilestone(request, request.params.id, true);
    await command(request, project.id, { type: 'RemoveMilestone', milestoneId: milestone.id });
    return { success: true, message: 'Milestone deleted successfully' };
  });

}
