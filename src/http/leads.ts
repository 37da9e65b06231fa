import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { seesAllOrganisations } from '../../domain/access';
import { PRODUCT_CATEGORIES } from '../../domain/catalogue/catalogue';
import { importKey, importRows } from '../../domain/leads/csvImport';
import { LEAD_MESSAGES, LEAD_REGIONS, LEAD_SOURCES, LEAD_STATUSES, leads, MAX_ESTIMATED_VALUE, type LeadDetails, type LeadViewer } from '../../domain/leads/leads';
import { leadVersionType } from '../../domain/leads/versions';
import { ROUTING_METHODS, type RoutingRule } from '../../domain/leads/routing';
import { leadRules, RULE_MESSAGES, RULEBOOK_ID, type RulebookCommand } from '../../domain/leads/rules';
import { allLeads, findLead, findLeadRow, LEAD_SORT_FIELDS, leadReports, listLeads, offersOf, ruleViews, type LeadRow, type LeadScope, type LeadView } from '../../projections/leads';
import { statusHistoryOf } from '../../projections/statusHistory';
import { deterministicUuid } from '../commands/commandHandler';
import { metadataFromRequest, runCommand, waitForReadModels } from '../commands/dispatch';
import { convertLead, createLead, creationContext, dueAfter, loadLead, passOnTarget } from '../commands/leads';
import { auditActorOf, exportFilters, recordAuditEntry, recordedWhenDone } from '../plugins/auditTrail';
import { HttpError } from '../plugins/errors';
import { readMultipart, type FileRule } from '../plugins/uploads';
import type { Services } from '../services';
import { answerCreated, earlierCreation, newRecordId } from './created';
import { csvLines } from './csv';
import { booleanFilter, listQuerySchema, sendList } from './lists';
import { recordAnswer, updateBody } from './records';
import { uuidParam } from './validation';
import { asOfAnswer, asOfQuery, versionsAnswer } from './versions';

const IMPORT_RULE: FileRule = { label: 'Lead file', types: ['csv'], maxBytes: 5 * 1024 * 1024, maxCount: 1 };

// ---- schemas ----

const text = (max: number) => z.union([z.string().max(max), z.null()]).optional();
const detailShape = {
  company: z.string({ error: LEAD_MESSAGES.companyRequired }).max(200),
  contact_name: z.string({ error: LEAD_MESSAGES.contactRequired }).max(200),
  email: z.string({ error: LEAD_MESSAGES.emailRequired }).max(254),
  phone: text(40),
  country: text(2),
  region: z.enum(LEAD_REGIONS, { error: LEAD_MESSAGES.regionInvalid }).nullable().optional(),
  product_interest: z.enum(PRODUCT_CATEGORIES, { error: LEAD_MESSAGES.productInterestInvalid }).nullable().optional(),
  estimated_value: z.number({ error: LEAD_MESSAGES.valueInvalid }).min(0, LEAD_MESSAGES.valueInvalid).max(MAX_ESTIMATED_VALUE, LEAD_MESSAGES.valueInvalid).nullable().optional(),
  source: z.enum(LEAD_SOURCES, { error: LEAD_MESSAGES.sourceInvalid }),
  notes: text(2000),
};
const LEAD_EXAMPLE = {
  company: 'Contoso Ltd',
  contact_name: 'Ada Lovelace',
  email: 'ada@contoso.example',
  phone: '+44 20 7946 0000',
  country: 'GB',
  region: 'EMEA',
  product_interest: 'Managed Switches',
  estimated_value: 120000,
  source: 'web_form',
  notes: 'Asked for a campus refresh quote.',
};
const createBody = z.object(detailShape).strict().meta({ example: LEAD_EXAMPLE });

const READ_ONLY_FIELDS = [
  'id', 'contact_visible', 'status', 'status_label', 'organisation_id', 'organisation_name', 'rule_id', 'rule_name', 'assignment_method', 'assignment_reason', 'assigned_at',
  'due_at', 'accepted_at', 'duplicate_of', 'project_id', 'converted_at', 'status_reason', 'passed_count', 'created_at', 'updated_at', 'offers',
] as const;
const partialShape = Object.fromEntries(Object.entries(detailShape).map(([key, schema]) => [key, schema.optional()])) as { [K in keyof typeof detailShape]: z.ZodOptional<(typeof detailShape)[K]> };
const leadUpdateBody = updateBody(partialShape, READ_ONLY_FIELDS).meta({ example: { phone: '+44 20 7946 0001', estimated_value: 150000 } });

const declineBody = z
  .object({ reason: z.string({ error: LEAD_MESSAGES.reasonRequired }).max(500) })
  .strict()
  .meta({ example: { reason: 'Outside our territory.' } });
const statusBody = z
  .object({ status: z.enum(['contacted', 'qualified', 'disqualified'], { error: 'Status must be contacted, qualified or disqualified.' }), reason: text(500) })
  .strict()
  .meta({ example: { status: 'contacted', reason: null } });
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const convertBody = z
  .object({
    title: z.string({ error: 'Title is required' }).max(200),
    expected_closure_date: z.union([z.string().regex(DAY, 'Expected closure date must be a date (YYYY-MM-DD).'), z.null()]).optional(),
  })
  .strict()
  .meta({ example: { title: 'Contoso campus refresh', expected_closure_date: '2027-03-31' } });
const assignBody = z
  .object({ organisation_id: z.uuid({ error: 'Choose an organisation.' }), reason: text(500) })
  .strict()
  .meta({ example: { organisation_id: '5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a', reason: 'Key account of this partner.' } });

const ruleShape = {
  name: z.string({ error: RULE_MESSAGES.nameRequired }).max(200),
  countries: z.array(z.string().max(2)).max(300).optional(),
  regions: z.array(z.enum(LEAD_REGIONS, { error: RULE_MESSAGES.regionInvalid })).max(LEAD_REGIONS.length).optional(),
  product_interests: z.array(z.enum(PRODUCT_CATEGORIES, { error: RULE_MESSAGES.interestInvalid })).max(PRODUCT_CATEGORIES.length).optional(),
  min_value: z.number().min(0, RULE_MESSAGES.valueRange).max(MAX_ESTIMATED_VALUE, RULE_MESSAGES.valueRange).nullable().optional(),
  max_value: z.number().min(0, RULE_MESSAGES.valueRange).max(MAX_ESTIMATED_VALUE, RULE_MESSAGES.valueRange).nullable().optional(),
  method: z.enum(ROUTING_METHODS, { error: RULE_MESSAGES.methodInvalid }),
  organisation_ids: z.array(z.uuid({ error: 'Each organisation id must be a valid id.' }), { error: RULE_MESSAGES.organisationsRequired }).min(1, RULE_MESSAGES.organisationsRequired).max(200),
  capacity: z.number().int(RULE_MESSAGES.capacityInvalid).min(1, RULE_MESSAGES.capacityInvalid).nullable().optional(),
};
const RULE_EXAMPLE = { name: 'EMEA switches', countries: [], regions: ['EMEA'], product_interests: ['Managed Switches'], min_value: 0, max_value: 500000, method: 'round_robin', organisation_ids: ['5f0c8a9e-2f4b-4c1d-9a7e-3b6d2c1e0f9a'], capacity: 20 };
const ruleCreateBody = z
  .object({ ...ruleShape, position: z.number().int().min(0, RULE_MESSAGES.positionInvalid).optional() })
  .strict()
  .meta({ example: RULE_EXAMPLE });
const ruleUpdateBody = updateBody(ruleShape, ['id', 'position', 'organisation_names', 'updated_at']).meta({ example: RULE_EXAMPLE });
const moveBody = z
  .object({ position: z.number({ error: RULE_MESSAGES.positionInvalid }).int(RULE_MESSAGES.positionInvalid).min(0, RULE_MESSAGES.positionInvalid) })
  .strict()
  .meta({ example: { position: 0 } });

const listQuery = listQuerySchema(
  {
    status: z.enum([...LEAD_STATUSES, 'lapsed', 'declined', 'reassigned']).optional(),
    organisation_id: z.uuid({ error: 'Organisation id is not valid.' }).optional(),
    source: z.enum(LEAD_SOURCES).optional(),
    region: z.enum(LEAD_REGIONS).optional(),
    country: z.string().regex(/^[A-Za-z]{2}$/, 'Country is a two-letter ISO code.').optional(),
    product_interest: z.enum(PRODUCT_CATEGORIES).optional(),
    project_id: z.uuid({ error: 'Project id is not valid.' }).optional(),
    duplicate: booleanFilter.optional(),
    min_age_days: z.coerce.number().int().min(0).max(3650).optional(),
    max_age_days: z.coerce.number().int().min(1).max(3650).optional(),
  },
  LEAD_SORT_FIELDS,
);
const importQuery = z.object({ dryRun: booleanFilter.optional(), importValid: booleanFilter.optional() }).strict();

// ---- field conversion ----

type DetailInput = Partial<{ [K in keyof typeof detailShape]: z.infer<(typeof detailShape)[K]> | undefined }>;

function detailsFrom(input: DetailInput, current?: LeadDetails): LeadDetails {
  const base: LeadDetails = current ?? { company: '', contactName: '', email: '', phone: null, country: null, region: null, productInterest: null, estimatedValue: null, source: 'other', notes: null };
  const pick = <T,>(value: T | undefined, fallback: T) => (value === undefined ? fallback : value);
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

const detailsOfRow = (row: LeadRow): LeadDetails => ({
  company: row.company,
  contactName: row.contact_name,
  email: row.email,
  phone: row.phone,
  country: row.country,
  region: row.region as LeadDetails['region'],
  productInterest: row.product_interest,
  estimatedValue: row.estimated_value === null ? null : Number(row.estimated_value),
  source: row.source as LeadDetails['source'],
  notes: row.notes,
});

const ruleFrom = (id: string, body: z.infer<z.ZodObject<typeof ruleShape>>): RoutingRule => ({
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

const CSV_COLUMNS: Array<[header: string, value: (r: LeadView) => string | number | null]> = [
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
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j < rows.length && rows[j].occurred_at === rows[i].occurred_at) j++;
    const group = rows.slice(i, j);
    let previous = ordered.at(-1)?.to_status ?? null;
    for (let current = group.find((row) => row.from_status === previous); current; current = group.find((row) => !ordered.includes(row) && row.from_status === previous)) {
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
  const { pool, config } = services;
  const tags = ['leads'];

  const scopeOf = (request: FastifyRequest): LeadScope => ({ organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId });
  /** A lead never offered to the caller's organisation is answered exactly like one that does not exist. */
  const load = async (request: FastifyRequest, id: string): Promise<LeadView> => {
    const lead = await findLead(pool, id, scopeOf(request));
    if (!lead) throw new HttpError(404, 'NOT_FOUND', LEAD_MESSAGES.notFound);
    return lead;
  };
  const viewerOf = (request: FastifyRequest): LeadViewer => ({ seesAll: seesAllOrganisations(request.principal.role), organisationId: request.principal.organisationId });
  /**
   * The spans in which the lead was offered to the caller's organisation (null for those who see all).
   * A span opens with its own assignment and closes with the decline or lapse, which shares its moment
   * with the next organisation's assignment.
   */
  const windowsOf = async (request: FastifyRequest, id: string) => {
    const scope = scopeOf(request);
    if (scope.organisationId === undefined) return null;
    return (await offersOf(pool, id))
      .filter((o) => o.organisation_id === scope.organisationId)
      .map((o) => ({ from: Date.parse(o.offered_at), to: ['declined', 'lapsed', 'reassigned'].includes(o.outcome) && o.answered_at ? Date.parse(o.answered_at) : null }));
  };
  const inWindows = (windows: Array<{ from: number; to: number | null }>, occurredAt: string, isAssignment: boolean) => {
    const at = Date.parse(occurredAt);
    return windows.some((w) => (at > w.from || (at === w.from && isAssignment)) && (w.to === null || at < w.to || (at === w.to && !isAssignment)));
  };
  const command = (request: FastifyRequest, id: string, cmd: Parameters<typeof leads.decide>[0]) => runCommand(services, leads, id, cmd, metadataFromRequest(request));
  const rulebook = (request: FastifyRequest, cmd: RulebookCommand) => runCommand(services, leadRules, RULEBOOK_ID, cmd, metadataFromRequest(request));
  /** The lead as the caller sees it; those who see all leads also get its offers. */
  const viewFor = async (request: FastifyRequest, id: string) => {
    const lead = await load(request, id);
    return scopeOf(request).organisationId === undefined ? { ...lead, offers: await offersOf(pool, id) } : lead;
  };

  app.get('/leads', { schema: { tags, summary: "Leads: every lead for admins, manufacturers and support; an organisation's own and those it passed by (status lapsed or declined) for partners", querystring: listQuery } }, async (request, reply) => {
    const q = request.query;
    const { rows, total } = await listLeads(pool, scopeOf(request), { ...q.filters, search: q.search, ids: q.ids }, { offset: q.offset, limit: q.limit, sort: q.sort });
    if (q.reactAdmin) return sendList(reply, 'leads', q, rows, total);
    return { success: true, data: { leads: rows, pagination: { page: q.page, limit: q.limit, total, totalPages: Math.ceil(total / q.limit) } } };
  });

  app.get('/leads/export', { schema: { tags, summary: 'CSV of the leads the caller sees, with the same filters as the list', querystring: listQuery } }, async (request, reply) => {
    const q = request.query;
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="leads-${new Date().toISOString().slice(0, 10)}.csv"`);
    reply.header('cache-control', 'private, no-store');
    const recorded = () => recordAuditEntry(services.store, { type: 'ExportDownloaded.v1', data: { userId: request.principal.id, export: 'leads', filters: exportFilters(request) } }, auditActorOf(request));
    return reply.send(Readable.from(recordedWhenDone(csvLines(CSV_COLUMNS, allLeads(pool, scopeOf(request), { ...q.filters, search: q.search })), recorded)));
  });

  app.get('/leads/reports', { schema: { tags, summary: "Acceptance rate, time to accept, conversion and revenue per organisation and per source, and the ageing of open leads (an organisation: its own)" } }, async (request) => ({
    success: true,
    data: await leadReports(pool, scopeOf(request)),
  }));

  app.get('/leads/organisations', { schema: { tags, summary: 'The organisations leads can be routed to (active partner and distributor accounts)' } }, async () => {
    const { rows } = await pool.query<{ id: string; name: string; role: string }>(
      `SELECT id, coalesce(company_name, full_name) AS name, role FROM read.users WHERE role IN ('partner', 'distributor') AND parent_user_id IS NULL AND is_active ORDER BY 2`,
    );
    return { success: true, data: rows };
  });

  app.post('/leads', { schema: { tags, summary: 'Create a lead; it is flagged when it duplicates an open lead or a protected deal, otherwise routed by the rules', body: createBody } }, async (request, reply) => {
    const leadId = newRecordId(request, 'lead');
    const created = { id: leadId, location: `/api/leads/${leadId}` };
    const read = async () => recordAnswer(await viewFor(request, leadId), LEAD_MESSAGES.created);
    const earlier = await earlierCreation(services, request, leads.streamId(leadId), leadId);
    if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
    const result = await createLead(services, { leadId, details: detailsFrom(request.body), createdBy: request.principal.id }, metadataFromRequest(request));
    await waitForReadModels(services, result.position);
    return answerCreated(services, reply, created, read);
  });

  app.post(
    '/leads/import',
    { schema: { tags, summary: 'Import leads from a CSV file (field `file`, columns named like the fields). dryRun=true answers the per-row report; a file with bad rows stores none unless importValid=true', querystring: importQuery, consumes: ['multipart/form-data'] } },
    async (request, reply) => {
      const form = await readMultipart(request, { file: IMPORT_RULE });
      if (Object.keys(form.fields).length) throw new HttpError(400, 'VALIDATION_ERROR', 'Send only the file.', [{ field: Object.keys(form.fields).join(','), message: 'Send only the file.' }]);
      const file = form.files.file?.[0];
      if (!file) throw new HttpError(400, 'VALIDATION_ERROR', 'Choose a CSV file of leads.', [{ field: 'file', message: 'Choose a CSV file of leads.' }]);
      const rows = importRows(file.bytes.toString('utf8')).map((row) => ({ ...row, leadId: row.details ? deterministicUuid(importKey(row.details)) : null }));
      const ids = rows.flatMap((row) => (row.leadId ? [row.leadId] : []));
      const { rows: stored } = await pool.query<{ id: string }>('SELECT id FROM read.leads WHERE id = ANY($1::uuid[])', [ids]);
      const existing = new Set(stored.map((r) => r.id));
      const seen = new Set<string>();
      const report = rows.map((row) => {
        const repeated = row.leadId !== null && (existing.has(row.leadId) || seen.has(row.leadId));
        if (row.leadId) seen.add(row.leadId);
        return {
          line: row.line,
          status: row.errors.length ? 'invalid' : repeated ? 'already_imported' : 'valid',
          company: row.details?.company ?? row.company,
          email: row.details?.email ?? null,
          lead_id: row.leadId,
          errors: row.errors,
        };
      });
      const counts = { total: report.length, valid: report.filter((r) => r.status === 'valid').length, invalid: report.filter((r) => r.status === 'invalid').length, already_imported: report.filter((r) => r.status === 'already_imported').length };
      if (request.query.dryRun) return { success: true, message: `${counts.valid} of ${counts.total} rows can be imported.`, data: { dry_run: true, ...counts, created: 0, rows: report } };
      if (counts.invalid > 0 && !request.query.importValid) {
        const details = report.filter((r) => r.status === 'invalid').flatMap((r) => r.errors.map((e) => ({ line: r.line, field: e.field, message: e.message })));
        throw new HttpError(400, 'IMPORT_HAS_ERRORS', `${counts.invalid} of ${counts.total} rows have errors; nothing was imported. Correct them, or import only the valid rows.`, details);
      }
      const metadata = metadataFromRequest(request);
      const context = await creationContext(services);
      let last: Awaited<ReturnType<typeof createLead>>['position'];
      let created = 0;
      for (const [index, row] of rows.entries()) {
        if (report[index].status !== 'valid' || !row.details || !row.leadId) continue;
        const result = await createLead(services, { leadId: row.leadId, details: row.details, createdBy: request.principal.id }, metadata, context);
        if (result.position) {
          last = result.position;
          created += 1;
        }
      }
      if (last) await waitForReadModels(services, last);
      reply.status(created > 0 ? 201 : 200);
      return { success: true, message: `${created} lead${created === 1 ? '' : 's'} imported.`, data: { dry_run: false, ...counts, created, rows: report } };
    },
  );

  app.get('/leads/:id', { schema: { tags, summary: 'One lead; contact details only once the caller’s organisation accepted it (with asOf: as it was at that moment)', params: uuidParam, querystring: asOfQuery } }, async (request) => {
    if (!request.query.asOf) return recordAnswer(await viewFor(request, request.params.id));
    const lead = await load(request, request.params.id);
    const { type, versions } = await leadVersions(request, lead.id);
    const found = await asOfAnswer(services, type, lead.id, request.query.asOf, request.principal, LEAD_MESSAGES.notFound);
    // An organisation reads only the moments while the lead was offered to it.
    if (!versions.some((v) => v.revision === found.version)) throw new HttpError(404, 'NOT_FOUND', LEAD_MESSAGES.notFound);
    return recordAnswer(found);
  });

  app.put('/leads/:id', { schema: { tags, summary: "Update a lead's fields (those who create leads); fields not sent keep their value", params: uuidParam, body: leadUpdateBody } }, async (request) => {
    await load(request, request.params.id);
    const row = (await findLeadRow(pool, request.params.id))!;
    await command(request, row.id, { type: 'UpdateLead', details: detailsFrom(request.body as DetailInput, detailsOfRow(row)) });
    return recordAnswer(await viewFor(request, row.id), LEAD_MESSAGES.updated);
  });

  app.get('/leads/:id/history', { schema: { tags, summary: "A lead's status history; an organisation sees the part of it while the lead was offered to it", params: uuidParam } }, async (request) => {
    const lead = await load(request, request.params.id);
    const history = inCommandOrder(await statusHistoryOf(pool, 'leads', lead.id));
    const windows = await windowsOf(request, lead.id);
    if (!windows) return { success: true, data: history };
    return { success: true, data: history.filter((h) => inWindows(windows, h.occurred_at, h.to_status === 'assigned')).map((h) => (h.to_status === 'assigned' ? { ...h, ...UNSAID_ASSIGNMENT } : h)) };
  });

  /** The lead's versions as the caller may see them: an organisation, only those while it was offered the lead, with no contact unless it holds it accepted. */
  const leadVersions = async (request: FastifyRequest, id: string) => {
    const state = await loadLead(services, id);
    if (!state) throw new HttpError(404, 'NOT_FOUND', LEAD_MESSAGES.notFound);
    const type = leadVersionType(viewerOf(request), state);
    const versions = await versionsAnswer(services, type, id, request.principal, LEAD_MESSAGES.notFound);
    const windows = await windowsOf(request, id);
    if (!windows) return { type, versions };
    const assignment = (eventType: string) => eventType.startsWith('LeadAssigned.');
    return {
      type,
      versions: versions.filter((v) => inWindows(windows, v.occurred_at, assignment(v.event_type))).map((v) => (assignment(v.event_type) ? { ...v, ...UNSAID_ASSIGNMENT } : v)),
    };
  };

  app.get('/leads/:id/versions', { schema: { tags: ['versions'], summary: 'The versions of a lead: who changed what and when; contact details only for those who may see them now', params: uuidParam } }, async (request) => {
    const lead = await load(request, request.params.id);
    return { success: true, data: (await leadVersions(request, lead.id)).versions };
  });

  app.post('/leads/:id/accept', { schema: { tags, summary: 'Accept a lead offered to your organisation, within the acceptance window', params: uuidParam } }, async (request) => {
    const lead = await load(request, request.params.id);
    await command(request, lead.id, { type: 'AcceptLead', actorOrganisationId: request.principal.organisationId });
    return recordAnswer(await viewFor(request, lead.id), LEAD_MESSAGES.accepted);
  });

  app.post('/leads/:id/decline', { schema: { tags, summary: 'Decline a lead offered to your organisation (reason required); it passes on to the next eligible organisation', params: uuidParam, body: declineBody } }, async (request) => {
    const lead = await load(request, request.params.id);
    const state = await loadLead(services, lead.id);
    const passing = state?.organisationId ?? request.principal.organisationId;
    const next = state ? await passOnTarget(services, state, passing, new Date().toISOString()) : null;
    await command(request, lead.id, { type: 'DeclineLead', actorOrganisationId: request.principal.organisationId, reason: request.body.reason, next });
    return recordAnswer(await viewFor(request, lead.id), LEAD_MESSAGES.declined);
  });

  app.post('/leads/:id/status', { schema: { tags, summary: 'Move an accepted lead: contacted, qualified, or disqualified (reason required)', params: uuidParam, body: statusBody } }, async (request) => {
    const lead = await load(request, request.params.id);
    await command(request, lead.id, { type: 'ChangeLeadStatus', actorOrganisationId: request.principal.organisationId, status: request.body.status, reason: request.body.reason ?? null });
    return recordAnswer(await viewFor(request, lead.id), LEAD_MESSAGES.statusChanged);
  });

  app.post(
    '/leads/:id/convert',
    { schema: { tags, summary: 'Convert an accepted lead into a deal registration (conflict detection applies); answers project_id', params: uuidParam, body: convertBody } },
    async (request, reply) => {
      const lead = await load(request, request.params.id);
      const projectId = await convertLead(
        services,
        lead.id,
        { actorOrganisationId: request.principal.organisationId, createdBy: request.principal.id, title: request.body.title, expectedClosureDate: request.body.expected_closure_date ?? null },
        metadataFromRequest(request),
      );
      reply.status(201);
      return { success: true, message: LEAD_MESSAGES.converted, project_id: projectId, data: { project_id: projectId, lead: await viewFor(request, lead.id) } };
    },
  );

  app.post('/leads/:id/assign', { schema: { tags, summary: 'Assign or reassign a lead to an organisation (admins); the acceptance window starts anew', params: uuidParam, body: assignBody } }, async (request) => {
    const lead = await load(request, request.params.id);
    const { rows } = await pool.query(`SELECT 1 FROM read.users WHERE id = $1 AND role IN ('partner', 'distributor') AND parent_user_id IS NULL AND is_active`, [request.body.organisation_id]);
    if (!rows[0]) throw new HttpError(400, 'VALIDATION_ERROR', 'Choose an active partner or distributor organisation.', [{ field: 'organisation_id', message: 'Choose an active partner or distributor organisation.' }]);
    const metadata = metadataFromRequest(request);
    await runCommand(
      services,
      leads,
      lead.id,
      { type: 'AssignLead', assignment: { organisationId: request.body.organisation_id, ruleId: null, method: 'manual', reason: request.body.reason?.trim() || 'Assigned by an administrator', dueAt: dueAfter(metadata.now, config) } },
      metadata,
    );
    return recordAnswer(await viewFor(request, lead.id), LEAD_MESSAGES.assigned);
  });

  // ---- routing rules ----

  /** Rules name organisations that can receive leads: active partner and distributor accounts. */
  const checkOrganisations = async (ids: string[]) => {
    const { rows } = await pool.query<{ id: string }>(`SELECT id FROM read.users WHERE id = ANY($1::uuid[]) AND role IN ('partner', 'distributor') AND parent_user_id IS NULL AND is_active`, [ids]);
    if (rows.length < new Set(ids).size) throw new HttpError(400, 'VALIDATION_ERROR', 'Choose active partner or distributor organisations.', [{ field: 'organisation_ids', message: 'Choose active partner or distributor organisations.' }]);
  };

  const ruleAnswer = async (id: string, message?: string) => {
    const rule = (await ruleViews(pool)).find((r) => r.id === id);
    if (!rule) throw new HttpError(404, 'NOT_FOUND', RULE_MESSAGES.notFound);
    return recordAnswer(rule, message);
  };

  app.get('/lead-rules', { schema: { tags, summary: 'The routing rules, in the order they are tried', querystring: listQuerySchema({}, ['position'] as const) } }, async (request, reply) => {
    const q = request.query;
    const named = q.ids ? new Set(q.ids) : undefined;
    const all = (await ruleViews(pool)).filter((rule) => !named || named.has(rule.id));
    const rows = all.slice(q.offset, q.offset + q.limit);
    if (q.reactAdmin) return sendList(reply, 'lead-rules', q, rows, all.length);
    return { success: true, data: { rules: rows, pagination: { page: q.page, limit: q.limit, total: all.length, totalPages: Math.ceil(all.length / q.limit) } } };
  });

  app.get('/lead-rules/:id', { schema: { tags, summary: 'One routing rule', params: uuidParam } }, async (request) => ruleAnswer(request.params.id));

  app.post('/lead-rules', { schema: { tags, summary: 'Add a routing rule (at `position`, by default last); it applies to leads created from now on', body: ruleCreateBody } }, async (request, reply) => {
    const id = newRecordId(request, 'lead-rule');
    const created = { id, location: `/api/lead-rules/${id}` };
    const read = () => ruleAnswer(id, RULE_MESSAGES.created);
    const earlier = await earlierCreation(services, request, leadRules.streamId(RULEBOOK_ID), id);
    if (earlier) return answerCreated(services, reply, { ...created, earlier }, read);
    const { position, ...body } = request.body;
    await checkOrganisations(body.organisation_ids);
    await rulebook(request, { type: 'AddRule', rule: ruleFrom(id, body), position: position ?? null });
    return answerCreated(services, reply, created, read);
  });

  app.put('/lead-rules/:id', { schema: { tags, summary: 'Change a routing rule; leads already created keep the rules they were routed by', params: uuidParam, body: ruleUpdateBody } }, async (request) => {
    await ruleAnswer(request.params.id);
    await checkOrganisations(request.body.organisation_ids);
    await rulebook(request, { type: 'ChangeRule', rule: ruleFrom(request.params.id, request.body) });
    return ruleAnswer(request.params.id, RULE_MESSAGES.updated);
  });

  app.post('/lead-rules/:id/move', { schema: { tags, summary: 'Move a routing rule to a position (0 is tried first)', params: uuidParam, body: moveBody } }, async (request) => {
    await ruleAnswer(request.params.id);
    await rulebook(request, { type: 'MoveRule', ruleId: request.params.id, position: request.body.position });
    return ruleAnswer(request.params.id, 'Routing rule moved');
  });

  app.delete('/lead-rules/:id', { schema: { tags, summary: 'Remove a routing rule', params: uuidParam } }, async (request) => {
    await ruleAnswer(request.params.id);
    await rulebook(request, { type: 'RemoveRule', ruleId: request.params.id });
    return { success: true, message: RULE_MESSAGES.deleted, data: { id: request.params.id } };
  });
}
