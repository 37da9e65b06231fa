import { LATEST_RATING_SQL } from './programme';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { PartnerEvent } from '../domain/partners/partners';
import { regionOfCountry } from '../domain/partners/questionnaire';
import type { Projection } from './projection';
import { ERASED_NAME, erasedValue } from '../domain/personalData';
import { partnerListQuery, type Partner, type PartnerDirectoryEntry, type PartnerHistoryEntry } from '../contracts/partners';
import { statusHistoryOf } from './statusHistory';
import { personNames } from './versions';
import { countOf, pageOf } from './paging';

/** An erased owner's application keeps its contact details only as erased, as a rebuild reads them (a partner's id is its owner's). */
async function forgetContact(userId: string, db: PoolClient): Promise<void> {
  const erased = (column: string, value: string) => `${column} = CASE WHEN ${column} IS NULL THEN NULL ELSE ${value} END`;
  await db.query(
    `UPDATE partners SET ${erased('contact_email', '$2')}, ${erased('contact_name', '$3')}, ${erased('phone_number', '$3')}, ${erased('business_address', '$3')} WHERE id = $1`,
    [userId, erasedValue('email', userId), ERASED_NAME],
  );
}

/** read.partners: every application from its first submission on; the approved ones are the partner directory. */
export const partnersProjection: Projection = {
  name: 'partners',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<PartnerEvent>(recorded);
    const at = recorded.metadata.occurredAt;
    const text = (value: string | null | undefined) => (value && value.trim() ? value.trim() : null);
    if (recorded.type === 'UserErased.v1') return forgetContact((recorded.data as { userId: string }).userId, db);
    switch (event.type) {
      case 'PartnerApplicationSubmitted.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO partners (id, user_id, status, company_name, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (id) DO NOTHING`,
          [d.partnerId, d.userId, d.status, d.companyName, at],
        );
        return;
      }
      case 'PartnerApplicationDetailsProvided.v1': {
        const d = event.data.details;
        const region = text(d.region);
        await db.query(
          `UPDATE partners SET company_name = $2, contact_email = COALESCE($3, contact_email), phone_number = COALESCE($4, phone_number),
             business_type = COALESCE($5, business_type), business_type_other = CASE WHEN $5::text IS NULL THEN business_type_other ELSE $6 END,
             business_address = $7, years_in_business = $8, certifications = $9, partner_references = $10, requested_category = $11,
             region = CASE WHEN $12::text IS NULL THEN region ELSE $12 END,
             region_source = CASE WHEN $12::text IS NULL THEN region_source ELSE 'application' END,
             company_logo = $13, application_submitted_at = $14, updated_at = $14
           WHERE id = $1`,
          [
            event.data.partnerId,
            d.company_name,
            text(d.contact_email),
            text(d.phone_number),
            text(d.business_type),
            text(d.business_type_other),
            text(d.business_address),
            text(d.years_in_business),
            text(d.certifications),
            text(d.partner_references),
            text(d.category),
            region,
            event.data.companyLogo,
            at,
          ],
        );
        return;
      }
      case 'PartnerQuestionnaireAnswered.v1': {
        const a = event.data.answers;
        const derivedRegion = regionOfCountry(a.country);
        await db.query(
          `UPDATE partners SET company_name = $2, contact_email = $3, contact_name = $4, phone_number = $5, job_title = $6, job_title_other = $7,
             website = $8, country = $9, country_other = $10, city = $11, location = $12, business_type = $13, business_type_other = $14,
             years_in_operation = $15, employees_range = $16, business_description = $17, business_description_other = $18, key_products = $19,
             target_markets = $20, target_markets_other = $21, business_registration_number = $22, tax_id = $23,
             country_of_incorporation = $24, country_of_incorporation_other = $25, annual_turnover = $26, annual_turnover_other = $27,
             turnover_currency = $28, turnover_currency_other = $29, fiscal_year_end_month = $30, are_financials_audited = $31,
             agreed_to_terms = $32,
             region = CASE WHEN region_source = 'application' THEN region ELSE $33 END,
             region_source = CASE WHEN region_source = 'application' THEN region_source WHEN $33::text IS NULL THEN NULL ELSE 'country' END,
             state_region = $35, postal_code = $36,
             questionnaire_submitted_at = $34, updated_at = $34
           WHERE id = $1`,
          [
            event.data.partnerId,
            a.company_name,
            text(a.contact_email),
            text(a.contact_name),
            text(a.phone_number),
            text(a.job_title),
            text(a.job_title_other),
            text(a.website),
            text(a.country),
            text(a.country_other),
            text(a.city),
            text(a.location),
            text(a.business_type),
            text(a.business_type_other),
            text(a.years_in_operation),
            text(a.employees_range),
            text(a.business_description),
            text(a.business_description_other),
            text(a.key_products),
            a.target_markets,
            text(a.target_markets_other),
            text(a.business_registration_number),
            text(a.tax_id),
            text(a.country_of_incorporation),
            text(a.country_of_incorporation_other),
            text(a.annual_turnover),
            text(a.annual_turnover_other),
            text(a.turnover_currency),
            text(a.turnover_currency_other),
            text(a.fiscal_year_end_month),
            text(a.are_financials_audited),
            a.agreed_to_terms === true,
            derivedRegion,
            at,
            text(a.state_region),
            text(a.postal_code),
          ],
        );
        return;
      }
      case 'PartnerApproved.v1': {
        const d = event.data;
        await db.query(
          `UPDATE partners SET status = $2, category = $3, tier = $4, granted_permissions = $5, rejection_reason = NULL, decided_at = $6, decided_by = $7, updated_at = $6 WHERE id = $1`,
          [d.partnerId, d.status, d.category, d.tier, d.permissions, at, recorded.metadata.actorId],
        );
        return;
      }
      case 'PartnerRejected.v1': {
        const d = event.data;
        await db.query(`UPDATE partners SET status = $2, rejection_reason = $3, decided_at = $4, decided_by = $5, updated_at = $4 WHERE id = $1`, [
          d.partnerId,
          d.status,
          d.reason,
          at,
          recorded.metadata.actorId,
        ]);
        return;
      }
    }
  },
};

// ---- queries ----

export interface PartnerRow {
  id: string;
  user_id: string;
  status: 'pending' | 'approved' | 'rejected';
  company_name: string;
  company_logo: string | null;
  contact_email: string | null;
  contact_name: string | null;
  phone_number: string | null;
  website: string | null;
  job_title: string | null;
  job_title_other: string | null;
  country: string | null;
  country_other: string | null;
  city: string | null;
  location: string | null;
  state_region: string | null;
  postal_code: string | null;
  business_address: string | null;
  region: string | null;
  region_source: string | null;
  business_type: string | null;
  business_type_other: string | null;
  years_in_business: string | null;
  years_in_operation: string | null;
  employees_range: string | null;
  business_description: string | null;
  business_description_other: string | null;
  key_products: string | null;
  target_markets: string[];
  target_markets_other: string | null;
  certifications: string | null;
  partner_references: string | null;
  business_registration_number: string | null;
  tax_id: string | null;
  country_of_incorporation: string | null;
  country_of_incorporation_other: string | null;
  annual_turnover: string | null;
  annual_turnover_other: string | null;
  turnover_currency: string | null;
  turnover_currency_other: string | null;
  fiscal_year_end_month: string | null;
  are_financials_audited: string | null;
  agreed_to_terms: boolean;
  requested_category: string | null;
  category: string | null;
  tier: string | null;
  granted_permissions: string[];
  rating: string | null;
  /** The rating the partner programme's latest scorecard gives (see `ratingOf` in projections/programme.ts). */
  scorecard_rating?: string | null;
  projects_count: number;
  rejection_reason: string | null;
  application_submitted_at: Date | null;
  questionnaire_submitted_at: Date | null;
  decided_at: Date | null;
  decided_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const logoUrl = (name: string | null) => (name ? `/uploads/${name}` : null);

/**
 * What anyone allowed into the partner directory sees of an approved partner: the directory card and
 * the public profile, never the financial answers, the decision's details or the applicant's account.
 */
export function toPartnerDirectoryView(row: PartnerRow): PartnerDirectoryEntry {
  return {
    id: row.id,
    company_name: row.company_name,
    status: row.status,
    region: row.region,
    tier: row.tier,
    category: row.category,
    business_type: row.business_type,
    business_type_other: row.business_type_other,
    city: row.city,
    country: row.country,
    country_other: row.country_other,
    rating: ratingOfRow(row),
    projects_count: row.projects_count,
    company_logo: row.company_logo,
    company_logo_url: logoUrl(row.company_logo),
    contact_email: row.contact_email,
    phone_number: row.phone_number,
    website: row.website,
    location: row.location,
    state_region: row.state_region,
    postal_code: row.postal_code,
    business_description: row.business_description,
    business_description_other: row.business_description_other,
    key_products: row.key_products,
    target_markets: row.target_markets,
    target_markets_other: row.target_markets_other,
    employees_range: row.employees_range,
    years_in_operation: row.years_in_operation,
    certifications: row.certifications,
    created_at: row.created_at.toISOString(),
  };
}
export type PartnerDirectoryView = PartnerDirectoryEntry;

/** The whole application, for administrators (and the applicant's own organisation). */
export function toPartnerView(row: PartnerRow): Partner {
  const {
    region_source: _source,
    rating: _rating,
    scorecard_rating: _scorecardRating,
    application_submitted_at,
    questionnaire_submitted_at,
    decided_at,
    created_at,
    updated_at,
    ...rest
  } = row;
  return {
    ...rest,
    rating: ratingOfRow(row),
    company_logo_url: logoUrl(row.company_logo),
    application_submitted_at: iso(application_submitted_at),
    questionnaire_submitted_at: iso(questionnaire_submitted_at),
    decided_at: iso(decided_at),
    created_at: created_at.toISOString(),
    updated_at: updated_at.toISOString(),
  };
}
export type PartnerView = Partner;

export async function findPartner(db: Queryable, id: string): Promise<PartnerRow | undefined> {
  const { rows } = await db.query<PartnerRow>(`SELECT * FROM ${RATED_PARTNERS} WHERE id = $1`, [id]);
  return rows[0];
}

/** Why the applicant's application was rejected, when it was. */
export async function rejectionReasonOf(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ rejection_reason: string | null }>(
    `SELECT rejection_reason FROM read.partners WHERE user_id = $1 AND status = 'rejected' ORDER BY decided_at DESC LIMIT 1`,
    [userId],
  );
  return rows[0]?.rejection_reason ?? null;
}

export interface PartnerListFilters {
  ids?: string[];
  status?: string;
  region?: string;
  tier?: string;
  category?: string;
  search?: string;
  /** Directory search looks at company name, business type and region; admins also find by contact. */
  searchContacts?: boolean;
}

/** The partners with the rating of their organisation's latest scorecard, which the directory shows over the stored one. */
const RATED_PARTNERS = `(SELECT p.*, ${LATEST_RATING_SQL('p.user_id')} AS scorecard_rating FROM read.partners p) rated_partners`;
const ratingOfRow = (row: Pick<PartnerRow, 'rating' | 'scorecard_rating'>) => {
  const value = row.scorecard_rating ?? row.rating;
  return value === null || value === undefined ? null : Number(value);
};

export type PartnerSortField = 'id' | 'company_name' | 'created_at' | 'updated_at' | 'status' | 'region' | 'tier' | 'category' | 'rating' | 'projects_count';

/** The partner list's conditions: the same for its pages and for its total. */
function partnerWhere(filters: PartnerListFilters): { clause: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (filters.ids) where.push(`id = ANY(${param(filters.ids)}::uuid[])`);
  if (filters.status) where.push(`status = ${param(filters.status)}`);
  if (filters.region) where.push(`lower(region) = lower(${param(filters.region)})`);
  if (filters.tier) where.push(`lower(tier) = lower(${param(filters.tier)})`);
  if (filters.category) where.push(`lower(category) = lower(${param(filters.category)})`);
  if (filters.search) {
    const pattern = param(`%${filters.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const columns = ['company_name', 'business_type', 'business_type_other', 'region', ...(filters.searchContacts ? ['contact_email', 'contact_name'] : [])];
    where.push(`(${columns.map((column) => `${column} ILIKE ${pattern}`).join(' OR ')})`);
  }
  return { clause: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

/** The conditions read the partners alone: the latest scorecard rating is looked up for a page's rows. */
const PARTNER_COUNT_FROM = 'read.partners';

export async function listPartners(
  db: Queryable,
  filters: PartnerListFilters,
  page: { offset: number; limit: number; sort?: { field: PartnerSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: PartnerRow[]; total: number }> {
  const { clause, params } = partnerWhere(filters);
  const sortColumn = page.sort?.field === 'rating' ? 'coalesce(scorecard_rating, rating)' : page.sort?.field;
  const order = page.sort ? `${sortColumn} ${page.sort.order} NULLS LAST, created_at DESC` : 'created_at DESC';
  return pageOf<PartnerRow>(db, {
    columns: '*',
    from: RATED_PARTNERS,
    countFrom: PARTNER_COUNT_FROM,
    where: clause,
    order: `${order}, id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
}

/** True once the applicant has sent the onboarding questionnaire. */
export async function questionnaireSubmitted(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM read.partners WHERE user_id = $1 AND questionnaire_submitted_at IS NOT NULL', [userId]);
  return rows.length > 0;
}

/**
 * An application's history: its status changes as every module keeps them (read.status_history), and
 * between them the application's other steps (details, questionnaire) from its stream, each in words.
 */
export async function partnerHistoryOf(db: Queryable, partnerId: string, stream: readonly RecordedEvent[]): Promise<PartnerHistoryEntry[]> {
  const changes = new Map((await statusHistoryOf(db, 'partners', partnerId)).map((change) => [change.id, change]));
  const names = await personNames(
    db,
    stream.filter((event) => !changes.has(event.id)).map((event) => event.metadata.actorId),
  );
  let status: string | null = null;
  return stream.map((recorded) => {
    const { action, details } = describePartnerEvent(asDomainEvent<PartnerEvent>(recorded));
    const change = changes.get(recorded.id);
    if (change) {
      status = change.to_status;
      return { ...change, record_type: 'partners' as const, action, details };
    }
    const { actorId, actorRole, occurredAt } = recorded.metadata;
    return {
      id: recorded.id,
      record_type: 'partners' as const,
      record_id: partnerId,
      event_type: recorded.type,
      action,
      details,
      from_status: null,
      to_status: status,
      reason: null,
      actor_id: actorId,
      actor_name: actorId ? (names.get(actorId) ?? null) : null,
      actor_role: actorRole,
      occurred_at: occurredAt,
    };
  });
}

/** What an event of the application's stream did, in words. */
function describePartnerEvent(event: PartnerEvent): { action: string; details: Record<string, unknown> | null } {
  switch (event.type) {
    case 'PartnerApplicationSubmitted.v1':
      return { action: 'Application submitted', details: { company_name: event.data.companyName } };
    case 'PartnerApplicationDetailsProvided.v1':
      return {
        action: 'Company information and qualifications provided',
        details: { region: event.data.details.region || null, company_logo: event.data.companyLogo },
      };
    case 'PartnerQuestionnaireAnswered.v1':
      return { action: 'Onboarding questionnaire answered', details: { company_name: event.data.answers.company_name } };
    case 'PartnerApproved.v1':
      return {
        action: `Approved as ${event.data.category}`,
        details: { category: event.data.category, tier: event.data.tier, permissions: event.data.permissions },
      };
    case 'PartnerRejected.v1':
      return { action: 'Rejected', details: null };
  }
}

/** The total GET /partner/partners answers under a react-admin `filter`: every application for admins, the directory (approved only) for others. */
export async function partnerListTotal(db: Queryable, admin: boolean, filter: Readonly<Record<string, unknown>>): Promise<number> {
  const q = partnerListQuery.parse({ filter: JSON.stringify(filter), range: '[0,0]' });
  if (!admin && q.filters.status && q.filters.status !== 'approved') return 0;
  const status = admin ? q.filters.status : 'approved';
  const { clause, params } = partnerWhere({
    ids: q.ids,
    status,
    region: q.filters.region,
    tier: q.filters.tier,
    category: q.filters.category,
    search: q.search,
    searchContacts: admin,
  });
  return countOf(db, { from: PARTNER_COUNT_FROM, where: clause, params });
}
