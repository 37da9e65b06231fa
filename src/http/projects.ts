import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FUND_LINK_MESSAGE,
  messageAnswer,
  PROJECT_READ_ONLY_FIELDS,
  partnerChoicesAnswer,
  projectCreateFields,
  projectCreatedAnswers,
  projectDetailShape,
  projectHistoryAnswer,
  projectListAnswer,
  projectReadAnswer,
  projectAnswer,
  projectListQuery,
  projectStatisticsAnswer,
  projectUpdateFields,
} from '../../contracts/projects';
import { isAdminRole } from '../../domain/access';
import { emptyProjectDetails, PROJECT_DETAIL_FIELDS, PROJECT_MESSAGES, projects, type ProjectDetails } from '../../domain/projects/projects';
import { pick } from '../../domain/records';
import { VERSIONED_RECORDS } from '../../domain/versionedRecords';
import { isActivityForDeals } from '../../projections/funds';
import {
  approvedPartnerName,
  approvedPartners,
  listProjects,
  projectHistoryOf,
  projectStatistics,
  projectFiltersOf,
  type ProjectRow,
} from '../../projections/projects';
import { findUser } from '../../projections/users';
import { metadataFromRequest } from '../../platform/commands/dispatch';
import { registerProject } from '../../commands/projects';
import { HttpError } from '../plugins/errors';
import { readMultipart, sendUpload, type FileRule } from '../plugins/uploads';
import { removeUpload, storeUpload } from '../../platform/uploadStorage';
import type { Services } from '../../platform/services';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { sendList } from './lists';
import { projectAccess } from './projectAccess';
import { recordAnswer, updateBody } from './records';
import { uuidParam } from './validation';
import { asOfAnswer, asOfQuery, versionsRoute } from './versions';

/** Spec 001 §5: the bill of quantities as pdf, xls, xlsx, csv, doc, docx, png, jpg or jpeg, recognised by content. */
export const BOQ_RULE: FileRule = {
  label: 'BoQ file',
  types: ['pdf', 'xls', 'xlsx', 'csv', 'doc', 'docx', 'png', 'jpg'],
  maxBytes: 10 * 1024 * 1024,
  maxCount: 1,
};

// ---- schemas ----

const projectUpdateBody = updateBody(projectUpdateFields, PROJECT_READ_ONLY_FIELDS).meta({
  example: { title: 'Campus network refresh', progress: 40, value: 125000, expected_closure_date: '2027-03-31', status: 'In Progress' },
});

// ---- field conversion ----

type DetailInput = Partial<Record<keyof typeof projectDetailShape, string | number | null | undefined>>;

function numberOf(value: string | number | null | undefined, field: string, message: string, whole: boolean): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || (typeof value === 'string' && !value.trim())) return null;
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isFinite(n) || (whole && !Number.isInteger(n))) throw new HttpError(400, 'VALIDATION_ERROR', message, [{ field, message }]);
  return n;
}

/** The fields sent, in the decider's types; fields not sent are left out. */
function detailsSent(input: DetailInput): Partial<ProjectDetails> {
  const sent: Partial<Record<keyof ProjectDetails, unknown>> = {};
  for (const field of PROJECT_DETAIL_FIELDS) {
    const value = input[field];
    if (value === undefined) continue;
    if (field === 'progress') sent.progress = numberOf(value, 'progress', PROJECT_MESSAGES.progressRange, true) ?? 0;
    else if (field === 'value') sent.value = numberOf(value, 'value', PROJECT_MESSAGES.valueRange, false);
    else if (field === 'expected_closure_date') sent[field] = typeof value === 'string' ? value.trim().slice(0, 10) || null : null;
    else sent[field] = value === null ? null : String(value);
  }
  return sent as Partial<ProjectDetails>;
}

/** The details as the row holds them; the budget, a numeric column, arrives as text. */
export const detailsOfRow = (row: ProjectRow): ProjectDetails => ({
  ...pick(row, PROJECT_DETAIL_FIELDS),
  value: row.value === null ? null : Number(row.value),
});

/**
 * The sent fields that differ from the project as read: an edit form sends every field back, and the
 * ones it left as they were must not undo another edit of them made meanwhile.
 */
function changedDetails(sent: Partial<ProjectDetails>, current: ProjectDetails): Partial<ProjectDetails> {
  return Object.fromEntries(Object.entries(sent).filter(([field, value]) => (value ?? null) !== (current[field as keyof ProjectDetails] ?? null)));
}

function zodDetails(issues: z.core.$ZodIssue[]) {
  const details = issues.map((issue) => ({
    field: issue.code === 'unrecognized_keys' ? issue.keys.join(',') : String(issue.path[0] ?? 'request'),
    message: issue.message,
  }));
  return new HttpError(400, 'VALIDATION_ERROR', details[0]?.message ?? 'The request is not valid.', details);
}

// ---- routes ----

/** The project records: list, cards, one project, registering, editing, deleting, history and the BoQ file. */
export async function projectRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads, config } = services;
  const { scopeOf, load, loadForChange, ownProject, viewFor, command } = projectAccess(services);
  const tags = ['projects'];

  /** A deal may name only an approved marketing activity (fund request) of its own organisation. */
  const checkFundLink = async (requestId: string | null | undefined, organisationId: string) => {
    if (requestId && !(await isActivityForDeals(pool, requestId, organisationId)))
      throw new HttpError(400, 'VALIDATION_ERROR', FUND_LINK_MESSAGE, [{ field: 'fund_request_id', message: FUND_LINK_MESSAGE }]);
  };

  app.get(
    '/projects',
    {
      schema: {
        tags,
        summary: "Projects: the caller's organisation's, or all for admins, manufacturers and support; admins see conflicts first",
        querystring: projectListQuery,
        response: { 200: projectListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listProjects(reads, scopeOf(request), projectFiltersOf(q), {
        offset: q.offset,
        limit: q.limit,
        sort: q.sort,
        conflictsFirst: isAdminRole(request.principal.role) && !q.sort,
      });
      return sendList(reply, 'projects', q, rows, total) as z.infer<typeof projectListAnswer>;
    },
  );

  app.get(
    '/projects/stats',
    { schema: { tags, summary: 'Summary cards: active projects, total value, registrations awaiting review', response: { 200: projectStatisticsAnswer } } },
    async (request) => ({
      success: true as const,
      data: await projectStatistics(reads, scopeOf(request)),
    }),
  );

  /** The create form's partner choice: admins pick any approved partner; a partner registers for its own organisation only. */
  app.get(
    '/projects/partners',
    { schema: { tags, summary: 'The partners a project may be registered for by the caller', response: { 200: partnerChoicesAnswer } } },
    async (request) => {
      if (isAdminRole(request.principal.role)) return { success: true as const, data: await approvedPartners(reads) };
      const organisation = await findUser(reads, request.principal.organisationId);
      return {
        success: true as const,
        data: [
          { id: request.principal.organisationId, company_name: organisation?.company_name ?? request.principal.companyName ?? request.principal.fullName },
        ],
      };
    },
  );

  app.get(
    '/projects/:id',
    {
      schema: {
        tags,
        summary: 'One project (with asOf: as it was at that moment)',
        params: uuidParam,
        querystring: asOfQuery,
        response: { 200: projectReadAnswer },
      },
    },
    async (request) => {
      if (!request.query.asOf) return recordAnswer(await viewFor(request, request.params.id, reads));
      const row = await load(request, request.params.id, reads);
      return recordAnswer(await asOfAnswer(services, VERSIONED_RECORDS.projects, row.id, request.query.asOf, request.principal, PROJECT_MESSAGES.notFound));
    },
  );

  versionsRoute(app, services, {
    path: '/projects',
    type: VERSIONED_RECORDS.projects,
    params: uuidParam,
    notFound: PROJECT_MESSAGES.notFound,
    visible: async (request, id) => (await load(request, id, reads)).id,
  });

  app.post(
    '/projects',
    {
      schema: {
        tags,
        summary: 'Register a project (multipart: the project fields and an optional boq_file)',
        consumes: ['multipart/form-data'],
        response: projectCreatedAnswers,
      },
    },
    async (request, reply) => {
      const form = await readMultipart(request, { boq_file: BOQ_RULE });
      const single: Record<string, string> = {};
      for (const [name, value] of Object.entries(form.fields)) {
        if (Array.isArray(value)) throw new HttpError(400, 'VALIDATION_ERROR', `Send ${name} once.`, [{ field: name, message: `Send ${name} once.` }]);
        single[name] = value;
      }
      const parsed = projectCreateFields.safeParse(single);
      if (!parsed.success) throw zodDetails(parsed.error.issues);
      const { company_id, status, ...fields } = parsed.data;
      const { principal } = request;
      const admin = isAdminRole(principal.role);
      let organisationId = principal.organisationId;
      let companyName: string | null;
      if (admin) {
        if (!company_id)
          throw new HttpError(400, 'VALIDATION_ERROR', 'Please choose a partner.', [{ field: 'company_id', message: 'Please choose a partner.' }]);
        const partnerName = await approvedPartnerName(pool, company_id);
        if (partnerName === undefined)
          throw new HttpError(400, 'VALIDATION_ERROR', 'Choose an approved partner.', [{ field: 'company_id', message: 'Choose an approved partner.' }]);
        organisationId = company_id;
        companyName = partnerName;
      } else {
        if (company_id && company_id !== principal.organisationId && company_id !== principal.id) {
          throw new HttpError(403, 'FORBIDDEN', 'Projects can only be registered for your own organisation.', [
            { field: 'company_id', message: 'Leave this out or send your own organisation.' },
          ]);
        }
        companyName = (await findUser(pool, organisationId))?.company_name ?? principal.companyName;
      }
      const details: ProjectDetails = { ...emptyProjectDetails(), ...detailsSent(fields) };
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

  app.put(
    '/projects/:id',
    {
      ...ownProject,
      schema: {
        tags,
        summary: "Update a project's fields and, with `status`, move its work status",
        params: uuidParam,
        body: projectUpdateBody,
        response: { 200: projectAnswer },
      },
    },
    async (request) => {
      const row = await loadForChange(request, request.params.id);
      const body = request.body;
      const changes = changedDetails(detailsSent(body), detailsOfRow(row));
      if (changes.fund_request_id !== undefined && (changes.fund_request_id || null) !== row.fund_request_id)
        await checkFundLink(changes.fund_request_id, row.organisation_id);
      await command(request, row.id, { type: 'UpdateProject', details: changes, status: body.status, reason: body.status_reason ?? null });
      return recordAnswer(await viewFor(request, row.id), PROJECT_MESSAGES.updated);
    },
  );

  app.delete(
    '/projects/:id',
    { schema: { tags, summary: 'Delete a project (Projects.Update and Projects.Delete)', params: uuidParam, response: { 200: messageAnswer } } },
    async (request) => {
      const row = await loadForChange(request, request.params.id);
      await command(request, row.id, { type: 'DeleteProject' });
      return { success: true as const, message: PROJECT_MESSAGES.deleted };
    },
  );

  app.get(
    '/projects/:id/history',
    {
      schema: {
        tags,
        summary: "A project's history: every status, registration and extension change, who and why (admins)",
        params: uuidParam,
        response: { 200: projectHistoryAnswer },
      },
    },
    async (request) => {
      const history = await projectHistoryOf(services.store, reads, request.params.id);
      if (!history) throw new HttpError(404, 'NOT_FOUND', PROJECT_MESSAGES.notFound);
      return { success: true as const, data: history };
    },
  );

  app.get(
    '/projects/:id/boq',
    {
      schema: {
        tags,
        summary: "The project's bill of quantities (only to those who may see the project)",
        params: uuidParam,
        response: { 200: z.string().describe('The BoQ file as uploaded (pdf, spreadsheet, document or image), with its own content type') },
      },
    },
    async (request, reply) => {
      const row = await load(request, request.params.id, reads);
      if (!row.boq_file) throw new HttpError(404, 'NOT_FOUND', 'This project has no BoQ file.');
      return sendUpload(reply, config.UPLOAD_DIR, row.boq_file, 'private', `boq-${row.id.slice(0, 8)}`);
    },
  );
}
