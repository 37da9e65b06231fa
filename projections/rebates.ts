import { pageOf } from './paging';
import { centsToAmount } from '../domain/money';
import { nextRebateStatuses, rebateStatusLabel, type RebateEvent } from '../domain/rebates/rebates';
import { daysRemainingIn, quarterOf, REBATE_TIERS, rebateProgress, suggestedRebateCents, tierFor, type RebateProgress } from '../domain/rebates/tiers';
import { rebateAdminListQuery, type RebateOverview, type RebateSortField, type RebateStats, type RebateView } from '../contracts/rebates';
import { listTiers, standingOf, tierInForceAt } from './programme';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';

/** read.rebates and read.rebate_documents. */
export const rebatesProjection: Projection = {
  name: 'rebates',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<RebateEvent>(recorded);
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'RebateSubmitted.v1': {
        const d = event.data;
        const inserted = await db.query(
          `INSERT INTO rebates (id, organisation_id, company_name, submitted_by, product_name, product_category, purchase_date, invoice_number, purchase_amount,
                                rebate_type, description, status, document_count, submitted_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::bigint / 100.0, $10, $11, $12, $13, $14, $14) ON CONFLICT (id) DO NOTHING`,
          [
            d.rebateId,
            d.organisationId,
            d.companyName,
            d.submittedBy,
            d.productName,
            d.productCategory,
            d.purchaseDate,
            d.invoiceNumber,
            d.purchaseAmountCents,
            d.rebateType,
            d.description,
            d.status,
            d.documents.length,
            at,
          ],
        );
        if (!inserted.rowCount || !d.documents.length) return;
        await db.query(
          `INSERT INTO rebate_documents (rebate_id, position, file, name, type, size)
           SELECT $1, position, file, name, type, size FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) WITH ORDINALITY AS t(file, name, type, size, position)
           ON CONFLICT DO NOTHING`,
          [d.rebateId, d.documents.map((x) => x.file), d.documents.map((x) => x.name), d.documents.map((x) => x.type), d.documents.map((x) => x.size)],
        );
        return;
      }
      case 'RebateProcessingStarted.v1':
        await db.query('UPDATE rebates SET status = $2, notes = coalesce($3, notes), updated_at = $4 WHERE id = $1', [
          event.data.rebateId,
          event.data.status,
          event.data.reason,
          at,
        ]);
        return;
      case 'RebateApproved.v1':
        await db.query(
          'UPDATE rebates SET status = $2, rebate_amount = $3::bigint / 100.0, notes = $4, reviewed_at = $5, reviewed_by = $6, updated_at = $5 WHERE id = $1',
          [event.data.rebateId, event.data.status, event.data.rebateAmountCents, event.data.notes, at, recorded.metadata.actorId],
        );
        return;
      case 'RebateRejected.v1':
        await db.query('UPDATE rebates SET status = $2, rejection_reason = $3, notes = $3, reviewed_at = $4, reviewed_by = $5, updated_at = $4 WHERE id = $1', [
          event.data.rebateId,
          event.data.status,
          event.data.reason,
          at,
          recorded.metadata.actorId,
        ]);
        return;
      case 'RebateDeleted.v1':
        await db.query('DELETE FROM rebate_documents WHERE rebate_id = $1', [event.data.rebateId]);
        await db.query('DELETE FROM rebates WHERE id = $1', [event.data.rebateId]);
        return;
    }
  },
};

// ---- queries ----

/** Whose rebates a caller sees: one organisation's, or (undefined) everyone's. */
export type RebateScope = { organisationId: string | undefined };

interface RebateRow {
  id: string;
  organisation_id: string;
  company_name: string | null;
  submitted_by: string;
  submitted_by_name: string | null;
  product_name: string;
  product_category: string;
  purchase_date: string;
  invoice_number: string;
  purchase_amount: string;
  rebate_type: string;
  description: string;
  status: string;
  rebate_amount: string | null;
  notes: string | null;
  rejection_reason: string | null;
  document_count: number;
  submitted_at: Date;
  reviewed_at: Date | null;
  reviewed_by: string | null;
  reviewed_by_name: string | null;
  updated_at: Date;
  matched_order_id: string | null;
  matched_order_number: string | null;
  matched_by: 'invoice' | 'product_and_amount' | null;
  quarter_purchases: string;
  programme_tier: { name: string; rate: number } | null;
  /** The claim's documents in order, read with the claim (one statement per answer). */
  documents: DocumentRow[];
}

interface DocumentRow {
  rebate_id: string;
  position: number;
  file: string;
  name: string;
  type: string;
  size: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A claim matches one of its organisation's orders when the invoice number is the order number, or
 * when a delivered order holds the product (names containing each other, any case) at the claimed
 * amount (the order's total or that line's total). The invoice match wins.
 */
const REBATE_FROM = `read.rebates r
  LEFT JOIN read.users s ON s.id = r.submitted_by
  LEFT JOIN read.users v ON v.id = r.reviewed_by
  LEFT JOIN LATERAL (
    SELECT o.id, o.order_number, CASE WHEN upper(o.order_number) = r.invoice_number THEN 'invoice' ELSE 'product_and_amount' END AS matched_by
    FROM read.orders o
    WHERE o.organisation_id = r.organisation_id
      AND (upper(o.order_number) = r.invoice_number
        OR (o.status = 'delivered' AND EXISTS (
              SELECT 1 FROM read.order_items i
              WHERE i.order_id = o.id
                AND (strpos(lower(i.product_name), lower(r.product_name)) > 0 OR strpos(lower(r.product_name), lower(i.product_name)) > 0)
                AND (i.line_total = r.purchase_amount OR o.total_amount = r.purchase_amount))))
    ORDER BY (upper(o.order_number) = r.invoice_number) DESC, o.created_at DESC
    LIMIT 1
  ) m ON true`;

/** The organisation's approved purchases in the claim's purchase quarter: they set the rate suggested to the reviewer. */
const REBATE_COLUMNS = `r.id, r.organisation_id, r.company_name, r.submitted_by, s.full_name AS submitted_by_name, r.product_name, r.product_category,
  r.purchase_date::text AS purchase_date, r.invoice_number, r.purchase_amount, r.rebate_type, r.description, r.status, r.rebate_amount, r.notes,
  r.rejection_reason, r.document_count, r.submitted_at, r.reviewed_at, r.reviewed_by, v.full_name AS reviewed_by_name, r.updated_at,
  m.id AS matched_order_id, m.order_number AS matched_order_number, m.matched_by,
  (SELECT coalesce(sum(a.purchase_amount), 0) FROM read.rebates a
    WHERE a.organisation_id = r.organisation_id AND a.status = 'approved' AND date_trunc('quarter', a.purchase_date) = date_trunc('quarter', r.purchase_date)) AS quarter_purchases,
  (SELECT json_build_object('name', v.name, 'rate', (v.benefits->>'rebate_rate_percent')::numeric) FROM read.programme_tier_periods tp
    JOIN read.programme_tier_versions v ON v.tier_id = tp.tier_id AND v.valid_from <= r.submitted_at AND (v.valid_to IS NULL OR v.valid_to > r.submitted_at)
    WHERE tp.organisation_id = r.organisation_id AND tp.from_at <= r.submitted_at AND (tp.to_at IS NULL OR tp.to_at > r.submitted_at)
    ORDER BY tp.from_at DESC LIMIT 1) AS programme_tier,
  (SELECT coalesce(json_agg(d ORDER BY d.position), '[]') FROM read.rebate_documents d WHERE d.rebate_id = r.id) AS documents`;

const toCents = (amount: string | number) => Math.round(Number(amount) * 100);

export const rebateDocumentUrl = (rebateId: string, file: string) => `/api/rebates/${rebateId}/attachments/${file}`;

/** The claim as the API answers it: the fields of spec 002 §3, and what the reviewer needs beside them. */
export function toRebateView(row: RebateRow): RebateView {
  const attachments = row.documents.map((d) => ({ file: d.file, name: d.name, type: d.type, size: d.size, url: rebateDocumentUrl(row.id, d.file) }));
  // The tier the organisation holds before this claim counts: only approved claims make up the quarter's purchases.
  // The partner programme's tier in force when the claim was submitted, with that tier's rate as it was then; an
  // organisation the programme has not evaluated yet keeps the quarterly ladder's tier (its purchases before this claim).
  const ladder = tierFor(toCents(row.quarter_purchases));
  const tier = row.programme_tier
    ? { name: row.programme_tier.name, ratePercent: Number(row.programme_tier.rate) }
    : { name: ladder.name, ratePercent: ladder.ratePercent };
  const rate = tier.ratePercent;
  return {
    id: row.id,
    product_name: row.product_name,
    product_category: row.product_category,
    purchase_date: row.purchase_date,
    invoice_number: row.invoice_number,
    purchase_amount: Number(row.purchase_amount),
    rebate_type: row.rebate_type,
    description: row.description,
    attachments,
    status: row.status,
    status_label: rebateStatusLabel(row.status),
    next_statuses: [...nextRebateStatuses(row.status)],
    rebate_amount: row.rebate_amount === null ? null : Number(row.rebate_amount),
    notes: row.notes,
    rejection_reason: row.rejection_reason,
    submitted_date: row.submitted_at.toISOString(),
    created_at: row.submitted_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
    reviewed_by: row.reviewed_by,
    reviewed_by_name: row.reviewed_by_name,
    organisation_id: row.organisation_id,
    company_name: row.company_name,
    partner: { id: row.organisation_id, company_name: row.company_name },
    submitted_by: row.submitted_by,
    submitted_by_name: row.submitted_by_name,
    document_count: row.document_count,
    // The match's id, number and kind come from one order row: all set or all null.
    matched_order:
      row.matched_order_id && row.matched_order_number && row.matched_by
        ? { id: row.matched_order_id, order_number: row.matched_order_number, matched_by: row.matched_by }
        : null,
    match_note: row.matched_order_number ? `matches order ${row.matched_order_number}` : null,
    suggested_rate: rate,
    suggested_tier: tier.name,
    suggested_rebate_amount: centsToAmount(suggestedRebateCents(toCents(row.purchase_amount), rate)),
  };
}

/** One claim within the caller's scope; undefined when it does not exist or is not theirs. */
export async function findRebate(db: Queryable, id: string, scope: RebateScope): Promise<RebateView | undefined> {
  const params: unknown[] = [id];
  const own = scope.organisationId ? ` AND r.organisation_id = $${params.push(scope.organisationId)}` : '';
  const { rows } = await db.query<RebateRow>(`SELECT ${REBATE_COLUMNS} FROM ${REBATE_FROM} WHERE r.id = $1${own}`, params);
  if (!rows[0]) return undefined;
  return toRebateView(rows[0]);
}

/** A stored document of a claim the caller may see; undefined otherwise. */
export async function findRebateDocument(db: Queryable, rebateId: string, file: string, scope: RebateScope): Promise<DocumentRow | undefined> {
  const params: unknown[] = [rebateId, file];
  const own = scope.organisationId ? ` AND r.organisation_id = $${params.push(scope.organisationId)}` : '';
  const { rows } = await db.query<DocumentRow>(
    `SELECT d.* FROM read.rebate_documents d JOIN read.rebates r ON r.id = d.rebate_id WHERE d.rebate_id = $1 AND d.file = $2${own}`,
    params,
  );
  return rows[0];
}

export interface RebateFilters {
  /** Only these claims (react-admin's getMany). */
  ids?: string[];
  status?: string;
  organisation_id?: string;
  product_category?: string;
  rebate_type?: string;
  /** Submitted on or after / on or before, YYYY-MM-DD (UTC). */
  date_from?: string;
  date_to?: string;
  /** Pending or processing: awaiting a decision. */
  open?: boolean;
  search?: string;
}

const SORT_COLUMNS: Readonly<Record<RebateSortField, string>> = {
  id: 'r.id',
  submitted_date: 'r.submitted_at',
  created_at: 'r.submitted_at',
  purchase_date: 'r.purchase_date',
  purchase_amount: 'r.purchase_amount',
  rebate_amount: 'r.rebate_amount',
  status: 'r.status',
  company_name: 'r.company_name',
  invoice_number: 'r.invoice_number',
  product_name: 'lower(r.product_name)',
};

function whereOf(scope: RebateScope, filters: RebateFilters, params: unknown[]): string {
  const param = (value: unknown) => `$${params.push(value)}`;
  const where: string[] = [];
  if (scope.organisationId) where.push(`r.organisation_id = ${param(scope.organisationId)}`);
  if (filters.ids) where.push(`r.id = ANY(${param(filters.ids)}::uuid[])`);
  if (filters.status) where.push(`r.status = ${param(filters.status)}`);
  if (filters.organisation_id) where.push(`r.organisation_id = ${param(filters.organisation_id)}`);
  if (filters.product_category) where.push(`r.product_category = ${param(filters.product_category)}`);
  if (filters.rebate_type) where.push(`r.rebate_type = ${param(filters.rebate_type)}`);
  if (filters.open !== undefined) where.push(`${filters.open ? '' : 'NOT '}(r.status IN ('pending', 'processing'))`);
  // Days are UTC days, whatever the database session's time zone (docs/decisions.md, "Figures that agree").
  if (filters.date_from) where.push(`r.submitted_at >= (${param(filters.date_from)}::date)::timestamp AT TIME ZONE 'UTC'`);
  if (filters.date_to) where.push(`r.submitted_at < (${param(filters.date_to)}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  if (filters.search) {
    const pattern = param(`%${escapeLike(filters.search)}%`);
    where.push(`(r.invoice_number ILIKE ${pattern} OR r.product_name ILIKE ${pattern} OR r.company_name ILIKE ${pattern} OR r.id::text ILIKE ${pattern})`);
  }
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

/** Newest first unless asked otherwise. */
export async function listRebates(
  db: Queryable,
  scope: RebateScope,
  filters: RebateFilters,
  page: { offset: number; limit: number; sort?: { field: RebateSortField; order: 'ASC' | 'DESC' } },
): Promise<{ rows: RebateView[]; total: number }> {
  const params: unknown[] = [];
  const clause = whereOf(scope, filters, params);
  const order = page.sort ? `${SORT_COLUMNS[page.sort.field]} ${page.sort.order} NULLS LAST, r.submitted_at DESC` : 'r.submitted_at DESC';
  const { rows, total } = await pageOf<RebateRow>(db, {
    columns: REBATE_COLUMNS,
    from: REBATE_FROM,
    countFrom: 'read.rebates r',
    where: clause,
    order: `${order}, r.id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map(toRebateView), total };
}

/** Every claim the filters select, a page at a time (for the CSV export). */
export async function* allRebates(
  db: Queryable,
  scope: RebateScope,
  filters: RebateFilters,
  sort?: { field: RebateSortField; order: 'ASC' | 'DESC' },
): AsyncGenerator<RebateView> {
  const size = 500;
  for (let offset = 0; ; offset += size) {
    const { rows } = await listRebates(db, scope, filters, { offset, limit: size, sort });
    yield* rows;
    if (rows.length < size) return;
  }
}

// ---- figures: overview, stats, progress ----

export interface RebateFigures {
  counts: { total: number; pending: number; processing: number; approved: number; rejected: number };
  /** Awaiting a decision (pending or processing). */
  awaiting: { count: number; purchaseCents: number };
  allTime: { purchasesCents: number; rebatesCents: number };
  /** Null when the scope is every organisation: tiers belong to one organisation. */
  progress: RebateProgress | null;
  quarter: { purchasesCents: number; rebatesCents: number; label: string; start: string; end: string };
  /** Approved purchases and rebates by month of purchase, for the quarter's three months. */
  months: Array<{ month: string; purchasesCents: number; rebatesCents: number }>;
}

/**
 * The figures of the Overview and Progress tabs. A purchase counts in the quarter of its purchase
 * date, once its claim is approved; `now` picks the quarter.
 */
export async function rebateFigures(db: Queryable, scope: RebateScope, now: Date | string): Promise<RebateFigures> {
  const quarter = quarterOf(now);
  const params: unknown[] = [quarter.start, quarter.end];
  const where = scope.organisationId ? `WHERE organisation_id = $${params.push(scope.organisationId)}` : '';
  const { rows } = await db.query<Record<string, string>>(
    `SELECT count(*) AS total,
            count(*) FILTER (WHERE status = 'pending') AS pending,
            count(*) FILTER (WHERE status = 'processing') AS processing,
            count(*) FILTER (WHERE status = 'approved') AS approved,
            count(*) FILTER (WHERE status = 'rejected') AS rejected,
            coalesce(sum(purchase_amount) FILTER (WHERE status IN ('pending', 'processing')), 0) AS awaiting_purchase,
            coalesce(sum(purchase_amount) FILTER (WHERE status = 'approved'), 0) AS purchases,
            coalesce(sum(rebate_amount) FILTER (WHERE status = 'approved'), 0) AS rebates,
            coalesce(sum(purchase_amount) FILTER (WHERE status = 'approved' AND purchase_date BETWEEN $1 AND $2), 0) AS quarter_purchases,
            coalesce(sum(rebate_amount) FILTER (WHERE status = 'approved' AND purchase_date BETWEEN $1 AND $2), 0) AS quarter_rebates,
            -- The quarter's months ride along as JSON: one statement for the whole card.
            (SELECT coalesce(json_agg(m), '[]') FROM (
               SELECT to_char(purchase_date, 'YYYY-MM') AS month, sum(purchase_amount) AS purchases, coalesce(sum(rebate_amount), 0) AS rebates
               FROM read.rebates ${where ? `${where} AND` : 'WHERE'} status = 'approved' AND purchase_date BETWEEN $1 AND $2
               GROUP BY 1) m) AS monthly
     FROM read.rebates ${where}`,
    params,
  );
  const r = rows[0];
  const monthly = r.monthly as unknown as Array<{ month: string; purchases: number; rebates: number }>;
  const byMonth = new Map(monthly.map((m) => [m.month, m]));
  const quarterPurchases = toCents(r.quarter_purchases);
  const quarterRebates = toCents(r.quarter_rebates);
  return {
    counts: {
      total: Number(r.total),
      pending: Number(r.pending),
      processing: Number(r.processing),
      approved: Number(r.approved),
      rejected: Number(r.rejected),
    },
    awaiting: { count: Number(r.pending) + Number(r.processing), purchaseCents: toCents(r.awaiting_purchase) },
    allTime: { purchasesCents: toCents(r.purchases), rebatesCents: toCents(r.rebates) },
    progress: scope.organisationId ? rebateProgress({ now, purchasesCents: quarterPurchases, rebatesCents: quarterRebates }) : null,
    quarter: { purchasesCents: quarterPurchases, rebatesCents: quarterRebates, label: quarter.label, start: quarter.start, end: quarter.end },
    months: quarter.months.map((month) => ({
      month,
      purchasesCents: toCents(byMonth.get(month)?.purchases ?? 0),
      rebatesCents: toCents(byMonth.get(month)?.rebates ?? 0),
    })),
  };
}

// ---- the Overview and statistics answers ----

const amount = centsToAmount;
const MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' });

/**
 * The partner programme's side of the Overview: the organisation's tier in force, the next tier and what it still
 * needs, and the ladder's rebate rates. Null for an organisation the programme has not evaluated yet, whose claims
 * follow the quarterly ladder (the same rule as each claim's suggestion in toRebateView).
 */
export interface OverviewProgramme {
  tier: string;
  next: string | null;
  rate: number;
  missing: string | null;
  tiers: Array<{ name: string; rate: number }>;
}

export async function overviewProgramme(db: Queryable, organisationId: string | null, now: Date): Promise<OverviewProgramme | null> {
  if (!organisationId || !(await tierInForceAt(db, organisationId, now))) return null;
  const standing = await standingOf(db, organisationId, now);
  if (!standing) return null;
  const tiers = await listTiers(db);
  return {
    tier: standing.tier.name,
    next: standing.next_tier?.name ?? null,
    rate: standing.benefits.rebate_rate_percent,
    missing: standing.missing_sentence,
    tiers: tiers.map((t) => ({ name: t.name, rate: t.benefits.rebate_rate_percent })),
  };
}

/**
 * The Overview tab (spec 002 §3, Rebate dashboard overview), computed for the quarter holding `now`. The tier and rate
 * are the partner programme's when the organisation holds a programme tier (`tier_source: 'programme'`: no quarterly
 * purchase target then, since the programme's requirements decide the next tier), else the quarterly ladder's.
 */
export function toOverview(figures: RebateFigures, now: Date, programme: OverviewProgramme | null = null): RebateOverview {
  const ladder = figures.progress;
  const p = programme ? undefined : ladder;
  const quarter = quarterOf(now);
  return {
    scope: ladder ? 'organisation' : 'all',
    tier_source: programme ? ('programme' as const) : ladder ? ('quarterly' as const) : null,
    quarterly_progress: { percentage: p?.percentage ?? null, current: amount(figures.quarter.purchasesCents), target: p ? amount(p.targetCents) : null },
    quarterly_target: { target: p ? amount(p.targetCents) : null, current: amount(figures.quarter.purchasesCents) },
    current_tier: programme ? { tier: programme.tier, next: programme.next } : { tier: p?.currentTier.name ?? null, next: p?.nextTier?.name ?? null },
    /** What the next programme tier still needs ("$18,400 more delivered purchases"), null otherwise. */
    next_tier_missing: programme?.missing ?? null,
    pending_rebates: { count: figures.awaiting.count, total: amount(figures.awaiting.purchaseCents) },
    summary_counts: figures.counts,
    financial_summary: {
      total_purchase: amount(figures.allTime.purchasesCents),
      total_rebate: amount(figures.allTime.rebatesCents),
      quarterly_purchase: amount(figures.quarter.purchasesCents),
      quarterly_rebate: amount(figures.quarter.rebatesCents),
    },
    quarter: {
      label: quarter.label,
      progress_label: `${quarter.label} Progress`,
      start: quarter.start,
      end: quarter.end,
      days_remaining: daysRemainingIn(quarter, now),
    },
    rate: programme ? programme.rate : (p?.ratePercent ?? null),
    remaining_to_next_tier: p ? amount(p.remainingToNextTierCents) : null,
    monthly: figures.months.map((m) => ({
      month: m.month,
      label: MONTH.format(new Date(`${m.month}-01T00:00:00.000Z`)),
      purchases: amount(m.purchasesCents),
      rebates: amount(m.rebatesCents),
    })),
    tiers: programme
      ? programme.tiers.map((t) => ({ name: t.name, threshold: null, rate: t.rate }))
      : REBATE_TIERS.map((t) => ({ name: t.name, threshold: amount(t.quarterlyPurchasesCents), rate: t.ratePercent })),
  };
}

/** GET /rebates/stats/user (spec 002 §3, Rebate stats), and the dashboards' rebateProgress. */
export function toStats(figures: RebateFigures, now: Date): RebateStats {
  const p = figures.progress;
  const quarter = quarterOf(now);
  return {
    totalRebateAmount: amount(figures.allTime.rebatesCents),
    quarterlyTarget: p ? amount(p.targetCents) : null,
    currentTier: p?.currentTier.name ?? null,
    nextTier: p?.nextTier?.name ?? null,
    nextTierTarget: p?.nextTier ? amount(p.nextTier.quarterlyPurchasesCents) : null,
    quarterlyPurchases: amount(figures.quarter.purchasesCents),
    quarterlyRebates: amount(figures.quarter.rebatesCents),
    progressPercentage: p?.percentage ?? null,
    remainingToNextTier: p ? amount(p.remainingToNextTierCents) : null,
    rebateRate: p?.ratePercent ?? null,
    quarterLabel: quarter.label,
    daysRemaining: daysRemainingIn(quarter, now),
    pendingCount: figures.awaiting.count,
  };
}

/** The total GET /rebates/admin/all answers under a react-admin `filter` (the dashboards' cards count with it). */
export async function rebateListTotal(db: Queryable, scope: RebateScope, filter: Readonly<Record<string, unknown>>): Promise<number> {
  const q = rebateAdminListQuery.parse({ filter: JSON.stringify(filter), range: '[0,0]' });
  // The list's own conditions over the claims alone: a card needs the count, not a row's order match.
  const params: unknown[] = [];
  const clause = whereOf(scope, { ...q.filters, ids: q.ids, search: q.search }, params);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM read.rebates r ${clause}`, params);
  return rows[0].n;
}
