import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignBody,
  convertAnswer,
  convertBody,
  declineBody,
  detailShape,
  fileAnswer,
  LEAD_READ_ONLY_FIELDS,
  leadAnswer,
  leadBody,
  leadCreatedAnswers,
  leadHistoryAnswer,
  leadImportAnswer,
  leadListAnswer,
  leadListFilters,
  leadRecordAnswer,
  leadReportsAnswer,
  leadUpdateShape,
  leadVersionsAnswer,
  moveBody,
  routableOrganisationsAnswer,
  RULE_EXAMPLE,
  RULE_READ_ONLY_FIELDS,
  ruleAnswer as ruleAnswerSchema,
  ruleCreateBody,
  ruleCreatedAnswers,
  ruleDeletedAnswer,
  ruleListAnswer,
  ruleShape,
  statusBody,
  type Lead,
  type RuleFields,
} from '../../contracts/leads';
import { seesAllOrganisations } from '../../domain/access';
import { LEAD_MESSAGES, leads, type LeadDetails, type LeadViewer } from '../../domain/leads/leads';
import { leadVersionType } from '../../domain/leads/versions';
import type { RoutingRule } from '../../domain/leads/routing';
import { leadRules, RULE_MESSAGES, RULEBOOK_ID, type RulebookCommand } from '../../domain/leads/rules';
import {
  allLeads,
  areRoutableOrganisations,
  findLead,
  findLeadDetails,
  LEAD_SORT_FIELDS,
  leadReports,
  listLeads,
  offersOf,
  routableOrganisations,
  ruleViews,
  type LeadScope,
} from '../../projections/leads';
import { statusHistoryOf } from '../../projections/statusHistory';
import { metadataFromRequest, runCommand, waitForReadModels } from '../../platform/commands/dispatch';
import { assignLead, convertLead, createLead, declineLead, importLeads, loadLead } from '../../commands/leads';
import { auditActorOf, exportFilters, recordAuditEntry, recordedWhenDone } from '../plugins/auditTrail';
import { HttpError } from '../plugins/errors';
import { readMultipart, type FileRule } from '../plugins/uploads';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { csvLines, sendCsv } from './csv';
import { booleanFilter, listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { recordAnswer, updateBody } from './records';
import { uuidParam } from './validation';
import { asOfAnswer, asOfQuery, versionsAnswer } from './versions';

const IMPORT_RULE: FileRule = { label: 'Lead file', types: ['csv'], maxBytes: 5 * 1024 * 1024, maxCount: 1 };

// ---- schemas ----

const leadUpdateBody = updateBody(leadUpdateShape, LEAD_READ_ONLY_FIELDS).meta({ example: { phone: '+44 20 7946 0001', estimated_value: 150000 } });
const ruleUpdateBody = updateBody(ruleShape, RULE_READ_ONLY_FIELDS).meta({ example: RULE_EXAMPLE });
const listQuery = listQuerySchema({ ...leadListFilters, duplicate: booleanFilter.optional() }, LEAD_SORT_FIELDS);
const importQuery = z.object({ dryRun: booleanFilter.optional(), importValid: booleanFilter.optional() }).strict();

// ---- field conversion ----

type DetailInput = Partial<{ [K in keyof typeof detailShape]: z.infer<(typeof detailShape)[K]> | undefined }>;

function detailsFrom(input: DetailInput, current?: LeadDetails): LeadDetails {
  const base: LeadDetails = current ?? {
    company: '',
    contactName: '',
    email: '',
    phone: null,
    country: null,
    region: null,
    productInterest: null,
    estimatedValue: null,
    source: 'other',
    notes: null,
  };
  const pick = <T>(value: T | undefined, fallback: T) => (value === undefined ? fallback : value);
  return {
    company: pick(input.company, base.company),
    contactName: pick(input.contact_name, base.contactName),
    email: pick(input.email, base.email),
    phone: pick(input.phone, base.phone),
    country: pick(input.country, base.country),
    region: pick(input.region, base.region),
    productInterest: pick(input.product_interest, base.productInterest),
    estimatedValue: pick(input.estimated_value, base.estimatedValue),
    source: pick(input.source, base.source),
    notes: pick(input.notes, base.notes),
  };
}

const ruleFrom = (id: string, body: RuleFields): RoutingRule => ({
  id,
  name: body.name,
  countries: body.countries ?? [],
  regions: body.regions ?? [],
  productInterests: body.product_interests ?? [],
  minValue: body.min_value ?? null,
  maxValue: body.max_value ?? null,
  method: body.method,
  organisationIds: body.organisation_ids,
  capacity: body.capacity ?? null,
});

// ---- CSV ----

const CSV_COLUMNS: Array<[header: string, value: (r: Lead) => string | number | null]> = [
  ['id', (r) => r.id],
  ['created_at', (r) => r.created_at],
  ['company', (r) => r.company],
  ['contact_name', (r) => r.contact_name],
  ['email', (r) => r.email],
  ['phone', (r) => r.phone],
  ['country', (r) => r.country],
  ['region', (r) => r.region],
  ['product_interest', (r) => r.product_interest],
  ['estimated_value', (r) => (r.estimated_value === null ? '' : r.estimated_value.toFixed(2))],
  ['source', (r) => r.source],
  ['status', (r) => r.status],
  ['organisation', (r) => r.organisation_name],
  ['rule', (r) => r.rule_name],
  ['assignment_reason', (r) => r.assignment_reason],
  ['due_at', (r) => r.due_at],
  ['accepted_at', (r) => r.accepted_at],
  ['project_id', (r) => r.project_id],
  ['status_reason', (r) => r.status_reason],
];

/**
 * A decline or lapse and the pass-on it causes are one command, recorded at the same moment: within
 * one moment, a change comes after the change whose status it starts from.
 */
function inCommandOrder<Row extends { occurred_at: string; from_status: string | null; to_status: string }>(rows: Row[]): Row[] {
  const ordered: Row[] = [];
  for (let i = 0; i < rows.length;) {
    let j = i;
    while (j < rows.length && rows[j].occurred_at === rows[i].occurred_at) j++;
    const group = rows.slice(i, j);
    let previous = ordered.at(-1)?.to_status ?? null;
    for (
      let current = group.find((row) => row.from_status === previous);
      current;
      current = group.find((row) => !ordered.includes(row) && row.from_status === previous)
    ) {
      ordered.push(current);
      previous = current.to_status;
    }
    for (const row of group) if (!ordered.includes(row)) ordered.push(row);
    i = j;
  }
  return ordered;
}

/**
 * An organisation sees that a lead was offered to it, not why (the routing reason) nor who caused it:
 * an offer after a pass-on is made by the organisation that declined.
 */
const UNSAID_ASSIGNMENT = { reason: null, actor_id: null, actor_name: null, actor_role: null };

// ---- routes ----

export async function leadRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { pool, reads } = services;
  const tags = ['leads'];

  const scopeOf = (request: FastifyRequest): LeadScope => ({
    organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId,
  });
  /** A lead never offered to the caller's organisation is answered exactly like one that does not exist. */
  const load = async (request: FastifyRequest, id: string, db: Queryable = pool): Promise<Lead> => {
    const lead = await findLead(db, id, scopeOf(request));
    if (!lead) throw new HttpError(404, 'NOT_FOUND', LEAD_MESSAGES.notFound);
    return lead;
  };
  const viewerOf = (request: FastifyRequest): LeadViewer => ({
    seesAll: seesAllOrganisations(request.principal.role),
    organisationId: request.principal.organisationId,
  });
  /**
   * The spans in which the lead was offered to the caller's organisation (null for those who see all).
   * A span opens with its own assignment and closes with the decline or lapse, which shares its moment
   * with the next organisation's assignment.
   */
  const windowsOf = async (request: FastifyRequest, id: string, db: Queryable = pool) => {
    const scope = scopeOf(request);
    if (scope.organisationId === undefined) return null;
    return (await offersOf(db, id))
      .filter((o) => o.organisation_id === scope.organisationId)
      .map((o) => ({
        from: Date.parse(o.offered_at),
        to: ['declined', 'lapsed', 'reassigned'].includes(o.outcome) && o.answered_at ? Date.parse(o.answered_at) : null,
      }));
  };
  const inWindows = (windows: Array<{ from: number; to: number | null }>, occurredAt: string, isAssignment: boolean) => {
    const at = Date.parse(occurredAt);
    return windows.some((w) => (at > w.from || (at === w.from && isAssignment)) && (w.to === null || at < w.to || (at === w.to && !isAssignment)));
  };
  const command = (request: FastifyRequest, id: string, cmd: Parameters<typeof leads.decide>[0]) =>
    runCommand(services, leads, id, cmd, metadataFromRequest(request));
  const rulebook = (request: FastifyRequest, cmd: RulebookCommand) => runCommand(services, leadRules, RULEBOOK_ID, cmd, metadataFromRequest(request));
  /** The lead as the caller sees it; those who see all leads also get its offers. */
  const viewFor = async (request: FastifyRequest, id: string, db: Queryable = pool): Promise<Lead> => {
    const lead = await load(request, id, db);
    return scopeOf(request).organisationId === undefined ? { ...lead, offers: await offersOf(db, id) } : lead;
  };

  app.get(
    '/leads',
    {
      schema: {
        tags,
        summary:
          "Leads: every lead for admins, manufacturers and support; an organisation's own and those it passed by (status lapsed or declined) for partners",
        querystring: listQuery,
        response: { 200: leadListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listLeads(
        reads,
        scopeOf(request),
        { ...q.filters, search: q.search, ids: q.ids },
        { offset: q.offset, limit: q.limit, sort: q.sort },
      );
      if (q.reactAdmin) return sendList(reply, 'leads', q, rows, total) as Lead[];
      return { success: true as const, data: { leads: rows, pagination: { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) } } };
    },
  );

  app.get(
    '/leads/export',
    {
      schema: {
        tags,
        summary: 'CSV of the leads the caller sees, with the same filters as the list',
        querystring: listQuery,
        response: { 200: fileAnswer('text/csv: a header line, then one line per lead (id, created_at, company, contact, status, organisation, …)') },
      },
    },
    async (request, reply) => {
      const q = request.query;
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="leads-${new Date().toISOString().slice(0, 10)}.csv"`);
      reply.header('cache-control', 'private, no-store');
      const recorded = () =>
        recordAuditEntry(
          services.store,
          { type: 'ExportDownloaded.v1', data: { userId: request.principal.id, export: 'leads', filters: exportFilters(request) } },
          auditActorOf(request),
        );
      return sendCsv(reply, recordedWhenDone(csvLines(CSV_COLUMNS, allLeads(reads, scopeOf(request), { ...q.filters, search: q.search })), recorded));
    },
  );

  app.get(
    '/leads/reports',
    {
      schema: {
        tags,
        summary:
          'Acceptance rate, time to accept, conversion and revenue per organisation and per source, and the ageing of open leads (an organisation: its own)',
        response: { 200: leadReportsAnswer },
      },
    },
    async (request) => ({
      success: true as const,
      data: await leadReports(reads, scopeOf(request)),
    }),
  );

  app.get(
    '/leads/organisations',
    {
      schema: {
        tags,
        summary: 'The organisations leads can be routed to (active partner and distributor accounts)',
        response: { 200: routableOrganisationsAnswer },
      },
    },
    async () => ({
      success: true as const,
      data: await routableOrganisations(reads),
    }),
  );

  app.post(
    '/leads',
    {
      schema: {
        tags,
        summary: 'Create a lead; it is flagged when it duplicates an open lead or a protected deal, otherwise routed by the rules',
        body: leadBody,
        response: leadCreatedAnswers,
      },
    },
    async (request, reply) => {
      const leadId = newRecordId(request, 'lead');
      const created = { id: leadId, location: `/api/leads/${leadId}` };
      const read = async () => recordAnswer(await viewFor(request, leadId), LEAD_MESSAGES.created);
      const earlier = await earlierCreation(services, request, leads.streamId(leadId), leadId);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      const result = await createLead(services, { leadId, details: detailsFrom(request.body), createdBy: request.principal.id }, metadataFromRequest(request));
      await waitForReadModels(services, result.position);
      return answerCreated(services, reply, created, read);
    },
  );

  app.post(
    '/leads/import',
    {
      schema: {
        tags,
        summary:
          'Import leads from a CSV file (field `file`, columns named like the fields). dryRun=true answers the per-row report; a file with bad rows stores none unless importValid=true',
        querystring: importQuery,
        consumes: ['multipart/form-data'],
        response: { 200: leadImportAnswer, 201: leadImportAnswer },
      },
    },
    async (request, reply) => {
      const form = await readMultipart(request, { file: IMPORT_RULE });
      if (Object.keys(form.fields).length)
        throw new HttpError(400, 'VALIDATION_ERROR', 'Send only the file.', [{ field: Object.keys(form.fields).join(','), message: 'Send only the file.' }]);
      const file = form.files.file?.[0];
      if (!file) throw new HttpError(400, 'VALIDATION_ERROR', 'Choose a CSV file of leads.', [{ field: 'file', message: 'Choose a CSV file of leads.' }]);
      const dryRun = request.query.dryRun ?? false;
      const { message, report } = await importLeads(
        services,
        { text: file.bytes.toString('utf8'), createdBy: request.principal.id, dryRun, importValid: request.query.importValid ?? false },
        metadataFromRequest(request),
      );
      if (!dryRun) reply.status(report.created > 0 ? 201 : 200);
      return { success: true as const, message, data: report };
    },
  );

  app.get(
    '/leads/:id',
    {
      schema: {
        tags,
        summary: 'One lead; contact details only once the caller’s organisation accepted it (with asOf: as it was at that moment)',
        params: uuidParam,
        querystring: asOfQuery,
        response: { 200: leadAnswer },
      },
    },
    async (request) => {
      if (!request.query.asOf) return recordAnswer(await viewFor(request, request.params.id, reads));
      const lead = await load(request, request.params.id, reads);
      const { type, versions } = await leadVersions(request, lead.id);
      const found = await asOfAnswer(services, type, lead.id, request.query.asOf, request.principal, LEAD_MESSAGES.notFound);
      // An organisation reads only the moments while the lead was offered to it.
      if (!versions.some((v) => v.revision === found.version)) throw new HttpError(404, 'NOT_FOUND', LEAD_MESSAGES.notFound);
      return recordAnswer(found);
    },
  );

  app.put(
    '/leads/:id',
    {
      schema: {
        tags,
        summary: "Update a lead's fields (those who create leads); fields not sent keep their value",
        params: uuidParam,
        body: leadUpdateBody,
        response: { 200: leadRecordAnswer },
      },
    },
    async (request) => {
      const lead = await load(request, request.params.id);
      const current = (await findLeadDetails(pool, lead.id))!;
      await command(request, lead.id, { type: 'UpdateLead', details: detailsFrom(request.body as DetailInput, current) });
      return recordAnswer(await viewFor(request, lead.id), LEAD_MESSAGES.updated);
    },
  );

  app.get(
    '/leads/:id/history',
    {
      schema: {
        tags,
        summary: "A lead's status history; an organisation sees the part of it while the lead was offered to it",
        params: uuidParam,
        response: { 200: leadHistoryAnswer },
      },
    },
    async (request) => {
      const lead = await load(request, request.params.id, reads);
      const history = inCommandOrder(await statusHistoryOf(reads, 'leads', lead.id));
      const windows = await windowsOf(request, lead.id, reads);
      if (!windows) return { success: true as const, data: history };
      return {
        success: true as const,
        data: history
          .filter((h) => inWindows(windows, h.occurred_at, h.to_status === 'assigned'))
          .map((h) => (h.to_status === 'assigned' ? { ...h, ...UNSAID_ASSIGNMENT } : h)),
      };
    },
  );

  /** The lead's versions as the caller may see them (GET only): an organisation, only those while it was offered the lead, with no contact unless it holds it accepted. */
  const leadVersions = async (request: FastifyRequest, id: string) => {
    const state = await loadLead(services, id);
    if (!state) throw new HttpError(404, 'NOT_FOUND', LEAD_MESSAGES.notFound);
    const type = leadVersionType(viewerOf(request), state);
    const versions = await versionsAnswer(services, type, id, request.principal, LEAD_MESSAGES.notFound);
    const windows = await windowsOf(request, id, reads);
    if (!windows) return { type, versions };
    const assignment = (eventType: string) => eventType.startsWith('LeadAssigned.');
    return {
      type,
      versions: versions
        .filter((v) => inWindows(windows, v.occurred_at, assignment(v.event_type)))
        .map((v) => (assignment(v.event_type) ? { ...v, ...UNSAID_ASSIGNMENT } : v)),
    };
  };

  app.get(
    '/leads/:id/versions',
    {
      schema: {
        tags: ['versions'],
        summary: 'The versions of a lead: who changed what and when; contact details only for those who may see them now',
        params: uuidParam,
        response: { 200: leadVersionsAnswer },
      },
    },
    async (request) => {
      const lead = await load(request, request.params.id, reads);
      return { success: true as const, data: (await leadVersions(request, lead.id)).versions };
    },
  );

  app.post(
    '/leads/:id/accept',
    {
      schema: {
        tags,
        summary: 'Accept a lead offered to your organisation, within the acceptance window',
        params: uuidParam,
        response: { 200: leadRecordAnswer },
      },
    },
    async (request) => {
      const lead = await load(request, request.params.id);
      await command(request, lead.id, { type: 'AcceptLead', actorOrganisationId: request.principal.organisationId });
      return recordAnswer(await viewFor(request, lead.id), LEAD_MESSAGES.accepted);
    },
  );

  app.post(
    '/leads/:id/decline',
    {
      schema: {
        tags,
        summary: 'Decline a lead offered to your organisation (reason required); it passes on to the next eligible organisation',
        params: uuidParam,
        body: declineBody,
        response: { 200: leadRecordAnswer },
      },
    },
    async (request) => {
      const lead = await load(request, request.params.id);
      await declineLead(
        services,
        lead.id,
        { actorOrganisationId: request.principal.organisationId, reason: request.body.reason },
        metadataFromRequest(request),
      );
      return recordAnswer(await viewFor(request, lead.id), LEAD_MESSAGES.declined);
    },
  );

  app.post(
    '/leads/:id/status',
    {
      schema: {
        tags,
        summary: 'Move an accepted lead: contacted, qualified, or disqualified (reason required)',
        params: uuidParam,
        body: statusBody,
        response: { 200: leadRecordAnswer },
      },
    },
    async (request) => {
      const lead = await load(request, request.params.id);
      await command(request, lead.id, {
        type: 'ChangeLeadStatus',
        actorOrganisationId: request.principal.organisationId,
        status: request.body.status,
        reason: request.body.reason ?? null,
      });
      return recordAnswer(await viewFor(request, lead.id), LEAD_MESSAGES.statusChanged);
    },
  );

  app.post(
    '/leads/:id/convert',
    {
      schema: {
        tags,
        summary: 'Convert an accepted lead into a deal registration (conflict detection applies); answers project_id',
        params: uuidParam,
        body: convertBody,
        response: { 201: convertAnswer },
      },
    },
    async (request, reply) => {
      const lead = await load(request, request.params.id);
      const projectId = await convertLead(
        services,
        lead.id,
        {
          actorOrganisationId: request.principal.organisationId,
          createdBy: request.principal.id,
          title: request.body.title,
          expectedClosureDate: request.body.expected_closure_date ?? null,
        },
        metadataFromRequest(request),
      );
      reply.status(201);
      return {
        success: true as const,
        message: LEAD_MESSAGES.converted,
        project_id: projectId,
        data: { project_id: projectId, lead: await viewFor(request, lead.id) },
      };
    },
  );

  app.post(
    '/leads/:id/assign',
    {
      schema: {
        tags,
        summary: 'Assign or reassign a lead to an organisation (admins); the acceptance window starts anew',
        params: uuidParam,
        body: assignBody,
        response: { 200: leadRecordAnswer },
      },
    },
    async (request) => {
      const lead = await load(request, request.params.id);
      await assignLead(services, lead.id, { organisationId: request.body.organisation_id, reason: request.body.reason ?? null }, metadataFromRequest(request));
      return recordAnswer(await viewFor(request, lead.id), LEAD_MESSAGES.assigned);
    },
  );

  // ---- routing rules ----

  /** Rules name organisations that can receive leads: active partner and distributor accounts. */
  const checkOrganisations = async (ids: string[]) => {
    if (!(await areRoutableOrganisations(pool, ids)))
      throw new HttpError(400, 'VALIDATION_ERROR', 'Choose active partner or distributor organisations.', [
        { field: 'organisation_ids', message: 'Choose active partner or distributor organisations.' },
      ]);
  };

  const ruleAnswer = async (id: string, message?: string, db: Queryable = pool) => {
    const rule = (await ruleViews(db)).find((r) => r.id === id);
    if (!rule) throw new HttpError(404, 'NOT_FOUND', RULE_MESSAGES.notFound);
    return recordAnswer(rule, message);
  };

  app.get(
    '/lead-rules',
    {
      schema: {
        tags,
        summary: 'The routing rules, in the order they are tried',
        querystring: listQuerySchema({}, ['position'] as const),
        response: { 200: ruleListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const named = q.ids ? new Set(q.ids) : undefined;
      const all = (await ruleViews(reads)).filter((rule) => !named || named.has(rule.id));
      const rows = all.slice(q.offset, q.offset + q.limit);
      if (q.reactAdmin) return sendList(reply, 'lead-rules', q, rows, all.length) as typeof rows;
      return {
        success: true as const,
        data: { rules: rows, pagination: { page: q.page, limit: q.limit, total: all.length, totalPages: Math.ceil(all.length / q.limit) } },
      };
    },
  );

  app.get('/lead-rules/:id', { schema: { tags, summary: 'One routing rule', params: uuidParam, response: { 200: ruleAnswerSchema } } }, async (request) =>
    ruleAnswer(request.params.id, undefined, reads),
  );

  app.post(
    '/lead-rules',
    {
      schema: {
        tags,
        summary: 'Add a routing rule (at `position`, by default last); it applies to leads created from now on',
        body: ruleCreateBody,
        response: ruleCreatedAnswers,
      },
    },
    async (request, reply) => {
      const id = newRecordId(request, 'lead-rule');
      const created = { id, location: `/api/lead-rules/${id}` };
      const read = () => ruleAnswer(id, RULE_MESSAGES.created);
      const earlier = await earlierCreation(services, request, leadRules.streamId(RULEBOOK_ID), id);
      if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
      const { position, ...body } = request.body;
      await checkOrganisations(body.organisation_ids);
      await rulebook(request, { type: 'AddRule', rule: ruleFrom(id, body), position: position ?? null });
      return answerCreated(services, reply, created, read);
    },
  );

  app.put(
    '/lead-rules/:id',
    {
      schema: {
        tags,
        summary: 'Change a routing rule; leads already created keep the rules they were routed by',
        params: uuidParam,
        body: ruleUpdateBody,
        response: { 200: ruleAnswerSchema },
      },
    },
    async (request) => {
      await ruleAnswer(request.params.id);
      await checkOrganisations(request.body.organisation_ids);
      await rulebook(request, { type: 'ChangeRule', rule: ruleFrom(request.params.id, request.body) });
      return ruleAnswer(request.params.id, RULE_MESSAGES.updated);
    },
  );

  app.post(
    '/lead-rules/:id/move',
    {
      schema: { tags, summary: 'Move a routing rule to a position (0 is tried first)', params: uuidParam, body: moveBody, response: { 200: ruleAnswerSchema } },
    },
    async (request) => {
      await ruleAnswer(request.params.id);
      await rulebook(request, { type: 'MoveRule', ruleId: request.params.id, position: request.body.position });
      return ruleAnswer(request.params.id, 'Routing rule moved');
    },
  );

  app.delete(
    '/lead-rules/:id',
    { schema: { tags, summary: 'Remove a routing rule', params: uuidParam, response: { 200: ruleDeletedAnswer } } },
    async (request) => {
      await ruleAnswer(request.params.id);
      await rulebook(request, { type: 'RemoveRule', ruleId: request.params.id });
      return { success: true as const, message: RULE_MESSAGES.deleted, data: { id: request.params.id } };
    },
  );
}
