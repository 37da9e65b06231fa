import { pageOf } from './paging';
import type {
  ASSIGNMENT_METHODS,
  Lead,
  LeadOffer,
  LeadReportRow,
  LeadReports,
  LeadRule,
  LEAD_STANDINGS,
  OFFER_OUTCOMES,
  RoutableOrganisation,
} from '../contracts/leads';
import {
  contactVisibleTo,
  leadStatusLabel,
  OPEN_STATUSES,
  type LeadDetails,
  type LeadEvent,
  type LeadRegion,
  type LeadSource,
  type LeadStatus,
} from '../domain/leads/leads';
import type { RoutingFacts, RoutingRule } from '../domain/leads/routing';
import type { RulebookEvent } from '../domain/leads/rules';
import { customerKey, emailDomain } from '../domain/projects/registration';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';

/** read.leads, read.lead_offers and read.lead_rules. */
/** The columns a lead's details fill, in the order of the INSERT's and UPDATE's placeholders. */
const detailColumns = (d: LeadDetails) => [
  d.company,
  d.contactName,
  d.email,
  d.phone,
  d.country,
  d.region,
  d.productInterest,
  d.estimatedValue,
  d.source,
  d.notes,
  customerKey(d.company),
  emailDomain(d.email),
];

export const leadsProjection: Projection = {
  name: 'leads',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<LeadEvent | RulebookEvent>(recorded);
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'LeadCreated.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO leads (id, company, contact_name, email, phone, country, region, product_interest, estimated_value, source, notes, customer_key, email_domain,
                              status, duplicate_of_type, duplicate_of_id, created_by, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18) ON CONFLICT (id) DO NOTHING`,
          [d.leadId, ...detailColumns(d), d.status, d.duplicateOf?.type ?? null, d.duplicateOf?.id ?? null, d.createdBy, at],
        );
        return;
      }
      case 'LeadUpdated.v1': {
        const d = event.data.details;
        await db.query(
          `UPDATE leads SET company = $2, contact_name = $3, email = $4, phone = $5, country = $6, region = $7, product_interest = $8, estimated_value = $9, source = $10, notes = $11,
                            customer_key = $12, email_domain = $13, updated_at = $14 WHERE id = $1`,
          [event.data.leadId, ...detailColumns(d), at],
        );
        return;
      }
      case 'LeadAssigned.v1': {
        const d = event.data;
        // An admin's reassignment ends the previous organisation's offer or work.
        await db.query(
          `UPDATE lead_offers SET outcome = 'reassigned', answered_at = coalesce(answered_at, $2) WHERE lead_id = $1 AND outcome IN ('pending', 'accepted')`,
          [d.leadId, at],
        );
        await db.query(
          `INSERT INTO lead_offers (event_id, lead_id, organisation_id, rule_id, method, reason, offered_at, due_at, outcome) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending') ON CONFLICT DO NOTHING`,
          [recorded.id, d.leadId, d.organisationId, d.ruleId, d.method, d.reason, at, d.dueAt],
        );
        await db.query(
          `UPDATE leads SET status = 'assigned', organisation_id = $2, rule_id = $3, assignment_method = $4, assignment_reason = $5, assigned_at = $6, due_at = $7, accepted_at = NULL, updated_at = $6 WHERE id = $1`,
          [d.leadId, d.organisationId, d.ruleId, d.method, d.reason, at, d.dueAt],
        );
        return;
      }
      case 'LeadAccepted.v1':
        await db.query(`UPDATE lead_offers SET outcome = 'accepted', answered_at = $2 WHERE lead_id = $1 AND outcome = 'pending'`, [event.data.leadId, at]);
        await db.query(`UPDATE leads SET status = 'accepted', accepted_at = $2, due_at = NULL, updated_at = $2 WHERE id = $1`, [event.data.leadId, at]);
        return;
      case 'LeadDeclined.v1':
      case 'LeadLapsed.v1': {
        const outcome = event.type === 'LeadDeclined.v1' ? 'declined' : 'lapsed';
        await db.query(`UPDATE lead_offers SET outcome = $2, answered_at = $3, outcome_reason = $4 WHERE lead_id = $1 AND outcome = 'pending'`, [
          event.data.leadId,
          outcome,
          at,
          event.data.reason,
        ]);
        await db.query(
          `UPDATE leads SET status = 'unassigned', organisation_id = NULL, due_at = NULL, status_reason = $2, passed_count = passed_count + 1, updated_at = $3 WHERE id = $1`,
          [event.data.leadId, event.data.reason, at],
        );
        return;
      }
      case 'LeadStatusChanged.v1':
        await db.query(`UPDATE leads SET status = $2, status_reason = coalesce($3, status_reason), updated_at = $4 WHERE id = $1`, [
          event.data.leadId,
          event.data.status,
          event.data.reason,
          at,
        ]);
        return;
      case 'LeadConverted.v1':
        await db.query(`UPDATE leads SET status = 'converted', project_id = $2, converted_at = $3, updated_at = $3 WHERE id = $1`, [
          event.data.leadId,
          event.data.projectId,
          at,
        ]);
        return;
      case 'LeadRuleAdded.v1':
        await db.query('UPDATE lead_rules SET position = position + 1 WHERE position >= $1', [event.data.position]);
        await upsertRule(db, event.data.rule, event.data.position, at);
        return;
      case 'LeadRuleChanged.v1': {
        const { rows } = await db.query<{ position: number }>('SELECT position FROM lead_rules WHERE id = $1', [event.data.rule.id]);
        if (rows[0]) await upsertRule(db, event.data.rule, rows[0].position, at);
        return;
      }
      case 'LeadRuleRemoved.v1': {
        const { rows } = await db.query<{ position: number }>('DELETE FROM lead_rules WHERE id = $1 RETURNING position', [event.data.ruleId]);
        if (rows[0]) await db.query('UPDATE lead_rules SET position = position - 1 WHERE position > $1', [rows[0].position]);
        return;
      }
      case 'LeadRuleMoved.v1': {
        const { rows } = await db.query<{ position: number }>('SELECT position FROM lead_rules WHERE id = $1', [event.data.ruleId]);
        if (!rows[0]) return;
        const from = rows[0].position;
        const to = event.data.position;
        if (to < from) await db.query('UPDATE lead_rules SET position = position + 1 WHERE position >= $1 AND position < $2', [to, from]);
        else await db.query('UPDATE lead_rules SET position = position - 1 WHERE position > $1 AND position <= $2', [from, to]);
        await db.query('UPDATE lead_rules SET position = $2, updated_at = $3 WHERE id = $1', [event.data.ruleId, to, at]);
        return;
      }
    }
  },
};

async function upsertRule(db: PoolClient, rule: RoutingRule, position: number, at: string) {
  await db.query(
    `INSERT INTO lead_rules (id, position, name, countries, regions, product_interests, min_value, max_value, method, organisation_ids, capacity, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (id) DO UPDATE SET position = $2, name = $3, countries = $4, regions = $5, product_interests = $6, min_value = $7, max_value = $8, method = $9,
       organisation_ids = $10, capacity = $11, updated_at = $12`,
    [
      rule.id,
      position,
      rule.name,
      rule.countries,
      rule.regions,
      rule.productInterests,
      rule.minValue,
      rule.maxValue,
      rule.method,
      rule.organisationIds,
      rule.capacity,
      at,
    ],
  );
}

// ---- queries ----

/** Who is reading: every lead (admins, manufacturers, support), or the leads offered to one organisation. */
export interface LeadScope {
  organisationId: string | undefined;
}

export interface LeadRow {
  id: string;
  company: string;
  contact_name: string;
  email: string;
  phone: string | null;
  country: string | null;
  region: LeadRegion | null;
  product_interest: string | null;
  estimated_value: string | null;
  source: LeadSource;
  notes: string | null;
  status: LeadStatus;
  organisation_id: string | null;
  organisation_name: string | null;
  rule_id: string | null;
  rule_name: string | null;
  assignment_method: AssignmentMethod | null;
  assignment_reason: string | null;
  assigned_at: Date | null;
  due_at: Date | null;
  accepted_at: Date | null;
  duplicate_of_type: string | null;
  duplicate_of_id: string | null;
  project_id: string | null;
  converted_at: Date | null;
  status_reason: string | null;
  passed_count: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  /** For an organisation's view: how its own latest offer of this lead ended. */
  own_outcome: OfferOutcome | null;
}

type AssignmentMethod = (typeof ASSIGNMENT_METHODS)[number];
type OfferOutcome = (typeof OFFER_OUTCOMES)[number];
type LeadStanding = (typeof LEAD_STANDINGS)[number];

/** The lead as the API answers it, with contact details only for those who may see them (domain/leads contactVisibleTo). */
export type LeadView = Lead;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toLeadView(row: LeadRow, scope: LeadScope): LeadView {
  const viewer = { seesAll: scope.organisationId === undefined, organisationId: scope.organisationId ?? null };
  const holds = viewer.seesAll || row.organisation_id === viewer.organisationId;
  const visible = contactVisibleTo({ status: row.status, organisationId: row.organisation_id }, viewer);
  // An organisation the lead passed by sees only that: its own outcome, not where the lead went.
  // (An offer still pending or accepted always holds the lead: a pass-on or reassignment ends it first.)
  const status: LeadStanding = holds ? row.status : row.own_outcome === 'declined' || row.own_outcome === 'reassigned' ? row.own_outcome : 'lapsed';
  return {
    id: row.id,
    company: row.company,
    contact_name: visible ? row.contact_name : null,
    email: visible ? row.email : null,
    phone: visible ? row.phone : null,
    contact_visible: visible,
    country: row.country,
    region: row.region,
    product_interest: row.product_interest,
    estimated_value: row.estimated_value === null ? null : Number(row.estimated_value),
    source: row.source,
    notes: holds ? row.notes : null,
    status,
    status_label: status === 'lapsed' ? 'Lapsed' : status === 'declined' ? 'Declined' : status === 'reassigned' ? 'Reassigned' : leadStatusLabel(status),
    organisation_id: holds ? row.organisation_id : null,
    organisation_name: holds ? row.organisation_name : null,
    rule_id: viewer.seesAll ? row.rule_id : null,
    rule_name: viewer.seesAll ? row.rule_name : null,
    assignment_method: holds ? row.assignment_method : null,
    assignment_reason: viewer.seesAll ? row.assignment_reason : null,
    assigned_at: holds ? iso(row.assigned_at) : null,
    due_at: holds ? iso(row.due_at) : null,
    accepted_at: holds ? iso(row.accepted_at) : null,
    duplicate_of: viewer.seesAll && row.duplicate_of_type && row.duplicate_of_id ? { type: row.duplicate_of_type, id: row.duplicate_of_id } : null,
    project_id: holds ? row.project_id : null,
    converted_at: holds ? iso(row.converted_at) : null,
    status_reason: holds ? row.status_reason : null,
    passed_count: viewer.seesAll ? row.passed_count : 0,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const LEAD_SORT_FIELDS = ['created_at', 'updated_at', 'company', 'status', 'estimated_value', 'due_at', 'source', 'region', 'country'] as const;
export type LeadSortField = (typeof LEAD_SORT_FIELDS)[number] | 'id';

export interface LeadFilters {
  status?: string;
  organisation_id?: string;
  source?: string;
  region?: string;
  country?: string;
  product_interest?: string;
  project_id?: string;
  duplicate?: boolean;
  min_age_days?: number;
  max_age_days?: number;
  search?: string;
  ids?: string[];
}

/** `$n` placeholders for the scope: the leads offered to one organisation (any outcome), or all. */
function whereOf(scope: LeadScope, filters: LeadFilters, now: Date): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const where: string[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (scope.organisationId !== undefined) where.push(`(l.organisation_id = ${p(scope.organisationId)} OR own.outcome IS NOT NULL)`);
  if (filters.status) {
    // An organisation's lapsed and declined leads are its own outcomes, not the lead's status.
    if (scope.organisationId !== undefined && ['lapsed', 'declined', 'reassigned'].includes(filters.status))
      where.push(`own.outcome = ${p(filters.status)} AND l.organisation_id IS DISTINCT FROM own.organisation_id`);
    else where.push(`l.status = ${p(filters.status)}${scope.organisationId !== undefined ? ` AND l.organisation_id = own.organisation_id` : ''}`);
  }
  if (filters.organisation_id) where.push(`l.organisation_id = ${p(filters.organisation_id)}`);
  if (filters.source) where.push(`l.source = ${p(filters.source)}`);
  if (filters.region) where.push(`l.region = ${p(filters.region)}`);
  if (filters.country) where.push(`l.country = ${p(filters.country.toUpperCase())}`);
  if (filters.product_interest) where.push(`l.product_interest = ${p(filters.product_interest)}`);
  if (filters.project_id) where.push(`l.project_id = ${p(filters.project_id)}`);
  if (filters.duplicate !== undefined) where.push(filters.duplicate ? 'l.duplicate_of_id IS NOT NULL' : 'l.duplicate_of_id IS NULL');
  if (filters.min_age_days !== undefined) where.push(`l.created_at <= ${p(now)}::timestamptz - make_interval(days => ${p(filters.min_age_days)})`);
  if (filters.max_age_days !== undefined) where.push(`l.created_at > ${p(now)}::timestamptz - make_interval(days => ${p(filters.max_age_days)})`);
  if (filters.search) {
    const like = p(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    // Contact names and addresses are searched only by those who may see them.
    where.push(
      scope.organisationId === undefined ? `(l.company ILIKE ${like} OR l.contact_name ILIKE ${like} OR l.email ILIKE ${like})` : `l.company ILIKE ${like}`,
    );
  }
  if (filters.ids) where.push(`l.id = ANY(${p(filters.ids)}::uuid[])`);
  return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

function fromOf(scope: LeadScope, params: unknown[]): string {
  const own =
    scope.organisationId === undefined
      ? `LEFT JOIN LATERAL (SELECT NULL::text AS outcome, NULL::uuid AS organisation_id) own ON true`
      : `LEFT JOIN LATERAL (SELECT o.outcome, o.organisation_id FROM read.lead_offers o WHERE o.lead_id = l.id AND o.organisation_id = $${params.push(scope.organisationId)}
           ORDER BY o.offered_at DESC LIMIT 1) own ON true`;
  return `read.leads l
    LEFT JOIN read.users org ON org.id = l.organisation_id
    LEFT JOIN read.lead_rules r ON r.id = l.rule_id
    ${own}`;
}

const COLUMNS = `l.*, org.company_name AS organisation_name, r.name AS rule_name, own.outcome AS own_outcome`;

export async function listLeads(
  db: Queryable,
  scope: LeadScope,
  filters: LeadFilters,
  page: { offset: number; limit: number; sort?: { field: LeadSortField; order: 'ASC' | 'DESC' } },
  now = new Date(),
): Promise<{ rows: LeadView[]; total: number }> {
  const params: unknown[] = [];
  const from = fromOf(scope, params);
  const where = whereOf(scope, filters, now);
  // The scope's own parameter comes first; the filters' placeholders are renumbered after it.
  const shift = params.length;
  const whereSql = where.sql.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + shift}`);
  params.push(...where.params);
  const sort = page.sort ?? { field: 'created_at', order: 'DESC' };
  const order = `l.${sort.field} ${sort.order} NULLS LAST, l.id ${sort.order}`;
  const { rows, total } = await pageOf<LeadRow>(db, { columns: COLUMNS, from, where: whereSql, order, params, offset: page.offset, limit: page.limit });
  return { rows: rows.map((row) => toLeadView(row, scope)), total };
}

/** Every lead the caller sees with the filters, in pages, for the CSV export. */
export async function* allLeads(db: Queryable, scope: LeadScope, filters: LeadFilters): AsyncGenerator<LeadView> {
  const size = 500;
  for (let offset = 0; ; offset += size) {
    const { rows } = await listLeads(db, scope, filters, { offset, limit: size });
    yield* rows;
    if (rows.length < size) return;
  }
}

/** One lead as the scope may see it; undefined when it was never offered to the caller's organisation. */
export async function findLead(db: Queryable, id: string, scope: LeadScope): Promise<LeadView | undefined> {
  const { rows } = await listLeads(db, scope, { ids: [id] }, { offset: 0, limit: 1 });
  return rows[0];
}

/** The lead whole, for commands (contact details included): only for the server's own use. */
export async function findLeadRow(db: Queryable, id: string): Promise<LeadRow | undefined> {
  const params: unknown[] = [];
  const from = fromOf({ organisationId: undefined }, params);
  const { rows } = await db.query<LeadRow>(`SELECT ${COLUMNS} FROM ${from} WHERE l.id = $1`, [id]);
  return rows[0];
}

/** The lead's own fields as the read model holds them (contact details included): what an update starts from. */
export async function findLeadDetails(db: Queryable, id: string): Promise<LeadDetails | undefined> {
  const row = await findLeadRow(db, id);
  if (!row) return undefined;
  return {
    company: row.company,
    contactName: row.contact_name,
    email: row.email,
    phone: row.phone,
    country: row.country,
    region: row.region,
    productInterest: row.product_interest,
    estimatedValue: row.estimated_value === null ? null : Number(row.estimated_value),
    source: row.source,
    notes: row.notes,
  };
}

/** Which of these ids are leads already (an import's repeated rows). */
export async function existingLeadIds(db: Queryable, ids: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM read.leads WHERE id = ANY($1::uuid[])', [ids]);
  return new Set(rows.map((r) => r.id));
}

const ROUTABLE = `role IN ('partner', 'distributor') AND parent_user_id IS NULL AND is_active`;

/** The organisations leads can be routed to: active partner and distributor accounts, by name. */
export async function routableOrganisations(db: Queryable): Promise<RoutableOrganisation[]> {
  const { rows } = await db.query<RoutableOrganisation>(
    `SELECT id, coalesce(company_name, full_name) AS name, role FROM read.users WHERE ${ROUTABLE} ORDER BY 2`,
  );
  return rows;
}

/** Whether every one of these ids is an organisation leads can be routed to. */
export async function areRoutableOrganisations(db: Queryable, ids: string[]): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM read.users WHERE id = ANY($1::uuid[]) AND ${ROUTABLE}`, [ids]);
  return rows.length >= new Set(ids).size;
}

export type LeadOfferView = LeadOffer;

export async function offersOf(db: Queryable, leadId: string): Promise<LeadOffer[]> {
  const { rows } = await db.query<Omit<LeadOffer, 'offered_at' | 'due_at' | 'answered_at'> & { offered_at: Date; due_at: Date; answered_at: Date | null }>(
    `SELECT o.organisation_id, u.company_name AS organisation_name, o.rule_id, o.method, o.reason, o.offered_at, o.due_at, o.outcome, o.answered_at, o.outcome_reason
     FROM read.lead_offers o LEFT JOIN read.users u ON u.id = o.organisation_id WHERE o.lead_id = $1 ORDER BY o.offered_at, o.event_id`,
    [leadId],
  );
  return rows.map((r) => ({ ...r, offered_at: r.offered_at.toISOString(), due_at: r.due_at.toISOString(), answered_at: iso(r.answered_at) }));
}

// ---- routing ----

interface RuleRow {
  id: string;
  position: number;
  name: string;
  countries: string[];
  regions: LeadRegion[];
  product_interests: string[];
  min_value: string | null;
  max_value: string | null;
  method: RoutingRule['method'];
  organisation_ids: string[];
  capacity: number | null;
  updated_at: Date;
}

const toRule = (row: RuleRow): RoutingRule => ({
  id: row.id,
  name: row.name,
  countries: row.countries,
  regions: row.regions,
  productInterests: row.product_interests,
  minValue: row.min_value === null ? null : Number(row.min_value),
  maxValue: row.max_value === null ? null : Number(row.max_value),
  method: row.method,
  organisationIds: row.organisation_ids,
  capacity: row.capacity,
});

export async function routingRules(db: Queryable): Promise<RoutingRule[]> {
  const { rows } = await db.query<RuleRow>('SELECT * FROM read.lead_rules ORDER BY position');
  return rows.map(toRule);
}

/** The rules as the API answers them (snake case, with their position and the organisations' names). */
export async function ruleViews(db: Queryable): Promise<LeadRule[]> {
  const { rows } = await db.query<RuleRow & { organisation_names: Array<string | null> }>(
    `SELECT r.*, coalesce((SELECT array_agg(coalesce(u.company_name, u.full_name) ORDER BY x.n) FROM unnest(r.organisation_ids) WITH ORDINALITY x(id, n) LEFT JOIN read.users u ON u.id = x.id), '{}') AS organisation_names
     FROM read.lead_rules r ORDER BY r.position`,
  );
  return rows.map((r) => ({
    id: r.id,
    position: r.position,
    name: r.name,
    countries: r.countries,
    regions: r.regions,
    product_interests: r.product_interests,
    min_value: r.min_value === null ? null : Number(r.min_value),
    max_value: r.max_value === null ? null : Number(r.max_value),
    method: r.method,
    organisation_ids: r.organisation_ids,
    organisation_names: r.organisation_names,
    capacity: r.capacity,
    updated_at: r.updated_at.toISOString(),
  }));
}

/** What routing needs to know now: open leads per organisation and each rule's last choice. */
export async function routingFacts(db: Queryable): Promise<RoutingFacts & { names: Record<string, string> }> {
  const [open, last, names] = await Promise.all([
    db.query<{ organisation_id: string; n: string }>(
      `SELECT organisation_id, count(*) AS n FROM read.leads WHERE organisation_id IS NOT NULL AND status = ANY($1) GROUP BY organisation_id`,
      [[...OPEN_STATUSES]],
    ),
    db.query<{ rule_id: string; organisation_id: string }>(
      `SELECT DISTINCT ON (rule_id) rule_id, organisation_id FROM read.lead_offers WHERE rule_id IS NOT NULL ORDER BY rule_id, offered_at DESC, event_id DESC`,
    ),
    db.query<{ id: string; name: string }>(
      `SELECT id, coalesce(company_name, full_name) AS name FROM read.users WHERE id IN (SELECT unnest(organisation_ids) FROM read.lead_rules)`,
    ),
  ]);
  return {
    openLeads: Object.fromEntries(open.rows.map((r) => [r.organisation_id, Number(r.n)])),
    lastChosen: Object.fromEntries(last.rows.map((r) => [r.rule_id, r.organisation_id])),
    names: Object.fromEntries(names.rows.map((r) => [r.id, r.name])),
  };
}

/** An open lead of the same customer (company and e-mail domain compared as deal registrations are). */
export async function findDuplicateLead(db: Queryable, company: string, email: string, exceptId: string): Promise<{ id: string } | undefined> {
  const key = customerKey(company);
  if (!key) return undefined;
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM read.leads WHERE customer_key = $1 AND id <> $2 AND status NOT IN ('converted', 'disqualified')
       AND ($3::text IS NULL OR email_domain IS NULL OR email_domain = $3) ORDER BY created_at, id LIMIT 1`,
    [key, exceptId, emailDomain(email)],
  );
  return rows[0];
}

// ---- reports ----

const rate = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

/** One line of the lead report, by organisation or by source, as Postgres answers its counts (bigint and numeric as text). */
type ReportRow = {
  key: string;
  leads: string;
  offers: string;
  accepted: string;
  declined: string;
  lapsed: string;
  hours: string | null;
  converted: string;
  revenue: string;
};

/**
 * Acceptance, time to accept, conversion and revenue per organisation and per source, and the ageing
 * of open leads, over what the scope sees (one organisation's offers, or all).
 */
export async function leadReports(db: Queryable, scope: LeadScope): Promise<LeadReports> {
  const own = scope.organisationId ?? null;
  const { rows: offers } = await db.query<ReportRow & { name: string }>(
    `WITH o AS (SELECT * FROM read.lead_offers WHERE $1::uuid IS NULL OR organisation_id = $1),
          revenue AS (SELECT l.id AS lead_id, l.organisation_id, coalesce(sum(ord.total_amount) FILTER (WHERE ord.status = 'delivered'), 0) AS amount
                      FROM read.leads l JOIN read.project_orders po ON po.project_id = l.project_id JOIN read.orders ord ON ord.id = po.order_id
                      WHERE l.status = 'converted' GROUP BY l.id, l.organisation_id)
     SELECT o.organisation_id::text AS key, coalesce(u.company_name, u.full_name, o.organisation_id::text) AS name,
            count(DISTINCT o.lead_id) AS leads, count(*) AS offers,
            count(*) FILTER (WHERE o.outcome = 'accepted') AS accepted,
            count(*) FILTER (WHERE o.outcome = 'declined') AS declined, count(*) FILTER (WHERE o.outcome = 'lapsed') AS lapsed,
            avg(extract(epoch FROM o.answered_at - o.offered_at) / 3600) FILTER (WHERE o.outcome = 'accepted') AS hours,
            (SELECT count(*) FROM read.leads l WHERE l.organisation_id = o.organisation_id AND l.status = 'converted') AS converted,
            (SELECT coalesce(sum(r.amount), 0) FROM revenue r WHERE r.organisation_id = o.organisation_id) AS revenue
     FROM o LEFT JOIN read.users u ON u.id = o.organisation_id
     GROUP BY o.organisation_id, u.company_name, u.full_name ORDER BY 2`,
    [own],
  );
  const { rows: sources } = await db.query<ReportRow>(
    `WITH l AS (SELECT * FROM read.leads WHERE $1::uuid IS NULL OR id IN (SELECT lead_id FROM read.lead_offers WHERE organisation_id = $1)),
          o AS (SELECT * FROM read.lead_offers WHERE $1::uuid IS NULL OR organisation_id = $1)
     SELECT l.source AS key, count(DISTINCT l.id) AS leads, count(o.event_id) AS offers,
            count(o.event_id) FILTER (WHERE o.outcome = 'accepted') AS accepted, count(o.event_id) FILTER (WHERE o.outcome = 'declined') AS declined,
            count(o.event_id) FILTER (WHERE o.outcome = 'lapsed') AS lapsed,
            avg(extract(epoch FROM o.answered_at - o.offered_at) / 3600) FILTER (WHERE o.outcome = 'accepted') AS hours,
            count(DISTINCT l.id) FILTER (WHERE l.status = 'converted' AND ($1::uuid IS NULL OR l.organisation_id = $1)) AS converted,
            (SELECT coalesce(sum(ord.total_amount), 0) FROM read.leads x JOIN read.project_orders po ON po.project_id = x.project_id JOIN read.orders ord ON ord.id = po.order_id
              WHERE x.source = l.source AND x.status = 'converted' AND ord.status = 'delivered' AND ($1::uuid IS NULL OR x.organisation_id = $1)) AS revenue
     FROM l LEFT JOIN o ON o.lead_id = l.id GROUP BY l.source ORDER BY l.source`,
    [own],
  );
  const { rows: ageing } = await db.query<{ bucket: string; status: string; n: string }>(
    `SELECT CASE WHEN now() - created_at < interval '2 days' THEN 'under 2 days' WHEN now() - created_at < interval '7 days' THEN '2–7 days'
                 WHEN now() - created_at < interval '30 days' THEN '7–30 days' ELSE 'over 30 days' END AS bucket, status, count(*) AS n
     FROM read.leads WHERE status IN ('unassigned', 'assigned', 'accepted', 'contacted', 'qualified') AND ($1::uuid IS NULL OR organisation_id = $1)
     GROUP BY 1, 2`,
    [own],
  );
  const row = (r: ReportRow, name: string): LeadReportRow => {
    const accepted = Number(r.accepted);
    return {
      key: r.key,
      name,
      leads: Number(r.leads),
      offers: Number(r.offers),
      accepted,
      declined: Number(r.declined),
      lapsed: Number(r.lapsed),
      acceptance_rate: rate(accepted, accepted + Number(r.declined) + Number(r.lapsed)),
      avg_hours_to_accept: r.hours === null ? null : Math.round(Number(r.hours) * 10) / 10,
      converted: Number(r.converted),
      conversion_rate: rate(Number(r.converted), accepted),
      revenue: Number(r.revenue),
    };
  };
  const BUCKETS = ['under 2 days', '2–7 days', '7–30 days', 'over 30 days'];
  return {
    by_organisation: offers.map((r) => row(r, r.name)),
    by_source: sources.map((r) => row(r, r.key)),
    ageing: BUCKETS.map((bucket) => ({
      bucket,
      unassigned: Number(ageing.find((a) => a.bucket === bucket && a.status === 'unassigned')?.n ?? 0),
      awaiting: Number(ageing.find((a) => a.bucket === bucket && a.status === 'assigned')?.n ?? 0),
      working: ageing.filter((a) => a.bucket === bucket && ['accepted', 'contacted', 'qualified'].includes(a.status)).reduce((sum, a) => sum + Number(a.n), 0),
    })),
  };
}
