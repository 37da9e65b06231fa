import type { ImportReport } from '../contracts/leads';
import { DomainError, fold, type CommandMetadata } from '../domain/decider';
import { importKey, importRows } from '../domain/leads/csvImport';
import { assertConvertible, leads, type DuplicateFinding, type LeadDetails, type LiveLead, type NextAssignment } from '../domain/leads/leads';
import { matchingRules, routeLead, type RoutingFacts, type RoutingRule } from '../domain/leads/routing';
import { emptyProjectDetails, type ProjectDetails } from '../domain/projects/projects';
import { registrationKey } from '../domain/projects/registration';
import { areRoutableOrganisations, existingLeadIds, findDuplicateLead, routingFacts, routingRules } from '../projections/leads';
import { findConflictingRegistration } from '../projections/projects';
import { findUser } from '../projections/users';
import type { Services } from '../platform/services';
import { deterministicUuid, handleCommand } from '../platform/commands/commandHandler';
import { runCommand, waitForReadModels } from '../platform/commands/dispatch';
import { registerProject } from './projects';

type Deps = Pick<Services, 'store' | 'watcher' | 'pool' | 'config'>;

/** No organisation is excluded when a lead is compared with protected deal registrations. */
const NOBODY = '00000000-0000-0000-0000-000000000000';

export const acceptanceWindowMs = (config: Services['config']) => Math.round(config.LEAD_ACCEPTANCE_WINDOW_HOURS * 60 * 60 * 1000);
export const dueAfter = (now: string, config: Services['config']) => new Date(Date.parse(now) + acceptanceWindowMs(config)).toISOString();

/** The next organisation for a lead by its own routing snapshot, with the window's due time. */
export function nextAssignment(
  routing: RoutingRule[],
  details: LeadDetails,
  facts: RoutingFacts,
  passedBy: string[],
  now: string,
  config: Services['config'],
): NextAssignment {
  const decision = routeLead(routing, details, facts, passedBy);
  return decision ? { ...decision, dueAt: dueAfter(now, config) } : null;
}

/** An open lead or a protected deal registration of the same customer. */
export async function duplicateOf(
  deps: Pick<Services, 'pool'>,
  leadId: string,
  details: Pick<LeadDetails, 'company' | 'email'>,
  now: string,
): Promise<DuplicateFinding | null> {
  const lead = await findDuplicateLead(deps.pool, details.company, details.email, leadId);
  if (lead) return { type: 'lead', id: lead.id };
  const project = await findConflictingRegistration(deps.pool, registrationKey(details.company, details.email), NOBODY, new Date(now));
  return project ? { type: 'project', id: project.id } : null;
}

export interface LeadCreation {
  leadId: string;
  details: LeadDetails;
  createdBy: string | null;
}

/**
 * What a batch of creations shares (an import): the rules and the routing facts, moved on by each
 * assignment the batch makes, and the customers created so far, so that round robin turns and
 * duplicates within one file come out as they would one lead at a time.
 */
export interface CreationContext {
  rules: RoutingRule[];
  facts: RoutingFacts;
  createdCustomers: Map<string, string>;
}

export async function creationContext(deps: Pick<Services, 'pool'>): Promise<CreationContext> {
  const [rules, facts] = await Promise.all([routingRules(deps.pool), routingFacts(deps.pool)]);
  return { rules, facts: { openLeads: { ...facts.openLeads }, lastChosen: { ...facts.lastChosen }, names: facts.names }, createdCustomers: new Map() };
}

/**
 * Creates a lead: flags it when it duplicates an open lead or a protected deal registration, and
 * otherwise routes it by the rules of this moment (kept on the lead for its pass-ons). Answers the
 * position of the appended events; the caller waits for the read models when it needs them.
 */
export async function createLead(deps: Deps, input: LeadCreation, metadata: CommandMetadata, context?: CreationContext) {
  const ctx = context ?? (await creationContext(deps));
  const key = registrationKey(input.details.company, input.details.email);
  const sameFile = ctx.createdCustomers.get(`${key.customerKey}|${key.emailDomain ?? ''}`);
  const duplicate: DuplicateFinding | null =
    sameFile && sameFile !== input.leadId ? { type: 'lead', id: sameFile } : await duplicateOf(deps, input.leadId, input.details, metadata.now);
  const routing = matchingRules(ctx.rules, input.details);
  const assignment = duplicate ? null : nextAssignment(routing, input.details, ctx.facts, [], metadata.now, deps.config);
  const result = await handleCommand(deps.store, leads, input.leadId, { type: 'CreateLead', ...input, duplicateOf: duplicate, routing, assignment }, metadata);
  if (result.events.length > 0) {
    ctx.createdCustomers.set(`${key.customerKey}|${key.emailDomain ?? ''}`, input.leadId);
    if (assignment && result.events.some((e) => e.type === 'LeadAssigned.v1')) {
      (ctx.facts.openLeads as Record<string, number>)[assignment.organisationId] = (ctx.facts.openLeads[assignment.organisationId] ?? 0) + 1;
      if (assignment.ruleId) (ctx.facts.lastChosen as Record<string, string>)[assignment.ruleId] = assignment.organisationId;
    }
  }
  return result;
}

/** The lead's state from its own stream (the record of truth for commands). */
export async function loadLead(deps: Pick<Services, 'store'>, leadId: string): Promise<LiveLead | undefined> {
  const events = await deps.store.readStream(leads.streamId(leadId));
  const state = fold(leads, events as never);
  return state.status === 'none' ? undefined : state;
}

/** The next organisation for a lead that is being passed on (declined or lapsed) now. */
export async function passOnTarget(deps: Deps, lead: LiveLead, passingOrganisation: string, now: string): Promise<NextAssignment> {
  const facts = await routingFacts(deps.pool);
  return nextAssignment(lead.routing, lead.details, facts, [...lead.passedBy, passingOrganisation], now, deps.config);
}

/** The deal registration's fields, prefilled from the lead. */
export function dealFromLead(lead: LiveLead, title: string, expectedClosureDate: string | null, partnerCompanyName: string | null): ProjectDetails {
  return {
    ...emptyProjectDetails(),
    title,
    expected_closure_date: expectedClosureDate,
    country_region: [lead.details.country, lead.details.region].filter(Boolean).join(', ') || null,
    progress: 0,
    end_user_requirements:
      [lead.details.productInterest ? `Interested in ${lead.details.productInterest}.` : null, lead.details.notes].filter(Boolean).join(' ') || null,
    end_user_customer_name: lead.details.company,
    end_user_it_head_name: lead.details.contactName,
    end_user_contact_number: lead.details.phone,
    end_user_email: lead.details.email,
    partner_company_name: partnerCompanyName,
    value: lead.details.estimatedValue,
    project_progress_remarks: `Converted from lead ${lead.id}.`,
  };
}

/**
 * Converts a lead into a deal registration: the registration goes through the projects module's own
 * command (conflict detection applies), then the lead records it. The registration's id derives from
 * the lead, so a retried or concurrent conversion registers one deal and converts the lead once.
 */
export async function convertLead(
  deps: Deps,
  leadId: string,
  input: { actorOrganisationId: string | null; createdBy: string; title: string; expectedClosureDate: string | null },
  metadata: CommandMetadata,
) {
  const lead = await loadLead(deps, leadId);
  assertConvertible(lead ?? { status: 'none' }, input.actorOrganisationId, metadata);
  const organisationId = lead!.organisationId!;
  const organisation = await findUser(deps.pool, organisationId);
  const projectId = deterministicUuid(`lead-conversion:${leadId}`);
  await registerProject(
    deps,
    {
      projectId,
      organisationId,
      companyName: organisation?.company_name ?? null,
      createdBy: input.createdBy,
      details: dealFromLead(lead!, input.title, input.expectedClosureDate, organisation?.company_name ?? null),
      boqFile: null,
    },
    metadata,
  );
  await runCommand(deps, leads, leadId, { type: 'ConvertLead', actorOrganisationId: input.actorOrganisationId, projectId }, metadata);
  return projectId;
}

/** Declines a lead for the caller's organisation; the same command passes it on to the next eligible organisation. */
export async function declineLead(
  deps: Deps,
  leadId: string,
  input: { actorOrganisationId: string; reason: string },
  metadata: CommandMetadata,
): Promise<void> {
  const state = await loadLead(deps, leadId);
  const passing = state?.organisationId ?? input.actorOrganisationId;
  const next = state ? await passOnTarget(deps, state, passing, new Date().toISOString()) : null;
  await runCommand(deps, leads, leadId, { type: 'DeclineLead', actorOrganisationId: input.actorOrganisationId, reason: input.reason, next }, metadata);
}

const NOT_ROUTABLE = 'Choose an active partner or distributor organisation.';

/** Assigns (or reassigns) a lead to an organisation by hand; its acceptance window starts anew. */
export async function assignLead(
  deps: Deps,
  leadId: string,
  input: { organisationId: string; reason: string | null },
  metadata: CommandMetadata,
): Promise<void> {
  if (!(await areRoutableOrganisations(deps.pool, [input.organisationId])))
    throw new DomainError('invalid', 'VALIDATION_ERROR', NOT_ROUTABLE, [{ field: 'organisation_id', message: NOT_ROUTABLE }]);
  const assignment = {
    organisationId: input.organisationId,
    ruleId: null,
    method: 'manual' as const,
    reason: input.reason?.trim() || 'Assigned by an administrator',
    dueAt: dueAfter(metadata.now, deps.config),
  };
  await runCommand(deps, leads, leadId, { type: 'AssignLead', assignment }, metadata);
}

/**
 * Imports the rows of a CSV file of leads, each as one creation (so round robin turns and
 * duplicates come out as they would one lead at a time). A row's lead id derives from its fields,
 * so a file imported twice creates nothing the second time. With `dryRun` nothing is created; a
 * file with bad rows creates nothing unless `importValid` asks for the valid rows.
 */
export async function importLeads(
  deps: Deps,
  input: { text: string; createdBy: string; dryRun: boolean; importValid: boolean },
  metadata: CommandMetadata,
): Promise<{ message: string; report: ImportReport }> {
  const rows = importRows(input.text).map((row) => ({ ...row, leadId: row.details ? deterministicUuid(importKey(row.details)) : null }));
  const existing = await existingLeadIds(
    deps.pool,
    rows.flatMap((row) => (row.leadId ? [row.leadId] : [])),
  );
  const seen = new Set<string>();
  const report = rows.map((row) => {
    const repeated = row.leadId !== null && (existing.has(row.leadId) || seen.has(row.leadId));
    if (row.leadId) seen.add(row.leadId);
    return {
      line: row.line,
      status: row.errors.length ? ('invalid' as const) : repeated ? ('already_imported' as const) : ('valid' as const),
      company: row.details?.company ?? row.company,
      email: row.details?.email ?? null,
      lead_id: row.leadId,
      errors: row.errors,
    };
  });
  const counts = {
    total: report.length,
    valid: report.filter((r) => r.status === 'valid').length,
    invalid: report.filter((r) => r.status === 'invalid').length,
    already_imported: report.filter((r) => r.status === 'already_imported').length,
  };
  if (input.dryRun)
    return { message: `${counts.valid} of ${counts.total} rows can be imported.`, report: { dry_run: true, ...counts, created: 0, rows: report } };
  if (counts.invalid > 0 && !input.importValid) {
    const details = report.filter((r) => r.status === 'invalid').flatMap((r) => r.errors.map((e) => ({ line: r.line, field: e.field, message: e.message })));
    throw new DomainError(
      'invalid',
      'IMPORT_HAS_ERRORS',
      `${counts.invalid} of ${counts.total} rows have errors; nothing was imported. Correct them, or import only the valid rows.`,
      details,
    );
  }
  const context = await creationContext(deps);
  let last: Awaited<ReturnType<typeof createLead>>['position'];
  let created = 0;
  for (const [index, row] of rows.entries()) {
    if (report[index].status !== 'valid' || !row.details || !row.leadId) continue;
    const result = await createLead(deps, { leadId: row.leadId, details: row.details, createdBy: input.createdBy }, metadata, context);
    if (result.position) {
      last = result.position;
      created += 1;
    }
  }
  if (last) await waitForReadModels(deps, last);
  return { message: `${created} lead${created === 1 ? '' : 's'} imported.`, report: { dry_run: false, ...counts, created, rows: report } };
}
