import { pageOf } from './paging';
import type { Balance, Balances, FileLink, Fund, FundClaim, FundRequest } from '../contracts/funds';
import { fundBalance, NO_FIGURES, totalBalance, type FundBalance, type FundFigures } from '../domain/funds/balance';
import type { AllocationRule } from '../domain/funds/allocationRule';
import type { FundClaimEvent, FundClaimStatus, PAYOUT_METHODS } from '../domain/funds/claims';
import { ACTIVITY_STATUSES_FOR_DEALS, returnOnInvestment } from '../domain/funds/roi';
import type { CloseReason, FundEvent, FundStatus } from '../domain/funds/funds';
import type { FundAttachment, FundRequestEvent, FundRequestStatus } from '../domain/funds/requests';
import type { OrderEvent } from '../domain/orders/orders';
import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';

type Event = FundEvent | FundRequestEvent | FundClaimEvent | OrderEvent;
type PayoutMethod = (typeof PAYOUT_METHODS)[number];

async function addFiles(db: PoolClient, recordId: string, kind: 'attachment' | 'proof', files: FundAttachment[]) {
  if (!files.length) return;
  await db.query(
    `INSERT INTO fund_files (record_id, kind, position, file, name, type, size)
     SELECT $1, $2, (SELECT count(*) FROM fund_files WHERE record_id = $1) + position, file, name, type, size
     FROM unnest($3::text[], $4::text[], $5::text[], $6::int[]) WITH ORDINALITY AS t(file, name, type, size, position)
     ON CONFLICT DO NOTHING`,
    [recordId, kind, files.map((f) => f.file), files.map((f) => f.name), files.map((f) => f.type), files.map((f) => f.size)],
  );
}

/** Adds to one organisation's figures in a fund (creating its row when it holds no allocation). */
const moveMoney = (db: PoolClient, fundId: string, organisationId: string, changes: Partial<Record<'reserved' | 'claimed' | 'paid' | 'released', number>>) =>
  db.query(
    `INSERT INTO fund_allocations (fund_id, organisation_id, reserved_cents, claimed_cents, paid_cents, released_cents) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (fund_id, organisation_id) DO UPDATE SET reserved_cents = fund_allocations.reserved_cents + $3, claimed_cents = fund_allocations.claimed_cents + $4,
       paid_cents = fund_allocations.paid_cents + $5, released_cents = fund_allocations.released_cents + $6`,
    [fundId, organisationId, changes.reserved ?? 0, changes.claimed ?? 0, changes.paid ?? 0, changes.released ?? 0],
  );

/** read.funds, read.fund_allocations, read.fund_requests, read.fund_claims, read.fund_files and, from the order events, read.fund_deliveries (co-op accrual). */
export const fundsProjection: Projection = {
  name: 'funds',
  async apply(recorded: RecordedEvent, db: PoolClient) {
    const event = asDomainEvent<Event>(recorded);
    const at = recorded.metadata.occurredAt;
    const actor = recorded.metadata.actorId;
    switch (event.type) {
      // ---- co-op accrual: each delivered order, at its value ----
      case 'OrderStatusChanged.v1':
        if (event.data.status !== 'delivered') return;
        await db.query(
          `INSERT INTO fund_deliveries (order_id, organisation_id, delivered_on, value_cents)
           SELECT id, organisation_id, $2::timestamptz::date, round(total_amount * 100)::bigint FROM orders WHERE id = $1
           ON CONFLICT (order_id) DO NOTHING`,
          [event.data.orderId, at],
        );
        return;
      // ---- funds ----
      case 'FundCreated.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO funds (id, name, period_start, period_end, budget_cents, coop_share_bp, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (id) DO NOTHING`,
          [d.fundId, d.name, d.periodStart, d.periodEnd, d.budgetCents, d.coopShareBasisPoints, d.status, at],
        );
        for (const allocation of d.allocations) {
          await db.query(
            `INSERT INTO fund_allocations (fund_id, organisation_id, allocated_cents) VALUES ($1, $2, $3) ON CONFLICT (fund_id, organisation_id) DO UPDATE SET allocated_cents = $3`,
            [d.fundId, allocation.organisationId, allocation.amountCents],
          );
        }
        return;
      }
      case 'FundUpdated.v1': {
        const d = event.data;
        await db.query('UPDATE funds SET name = $2, period_start = $3, period_end = $4, budget_cents = $5, coop_share_bp = $6, updated_at = $7 WHERE id = $1', [
          d.fundId,
          d.name,
          d.periodStart,
          d.periodEnd,
          d.budgetCents,
          d.coopShareBasisPoints,
          at,
        ]);
        return;
      }
      case 'FundAllocationSet.v1':
        await db.query(
          `INSERT INTO fund_allocations (fund_id, organisation_id, allocated_cents) VALUES ($1, $2, $3) ON CONFLICT (fund_id, organisation_id) DO UPDATE SET allocated_cents = $3`,
          [event.data.fundId, event.data.organisationId, event.data.amountCents],
        );
        await db.query('UPDATE funds SET updated_at = $2 WHERE id = $1', [event.data.fundId, at]);
        return;
      case 'FundAllocationsSetByRule.v1': {
        const d = event.data;
        for (const allocation of d.allocations) {
          await db.query(
            `INSERT INTO fund_allocations (fund_id, organisation_id, allocated_cents, measured_purchases_cents) VALUES ($1, $2, $3, $4)
             ON CONFLICT (fund_id, organisation_id) DO UPDATE SET allocated_cents = $3, measured_purchases_cents = $4`,
            [d.fundId, allocation.organisationId, allocation.amountCents, allocation.purchasesCents],
          );
        }
        await db.query('UPDATE funds SET allocation_rule = $2, updated_at = $3 WHERE id = $1', [d.fundId, JSON.stringify(d.rule), at]);
        return;
      }
      case 'FundPeriodClosed.v1':
        await db.query('UPDATE funds SET status = $2, closed_at = $3, close_reason = $4, updated_at = $5 WHERE id = $1', [
          event.data.fundId,
          event.data.status,
          event.data.closedAt,
          event.data.reason,
          at,
        ]);
        return;
      case 'FundAllocationExpired.v1':
        await db.query(
          `INSERT INTO fund_allocations (fund_id, organisation_id, expired_cents) VALUES ($1, $2, $3)
           ON CONFLICT (fund_id, organisation_id) DO UPDATE SET expired_cents = fund_allocations.expired_cents + $3`,
          [event.data.fundId, event.data.organisationId, event.data.amountCents],
        );
        return;
      case 'FundReserved.v1':
        await moveMoney(db, event.data.fundId, event.data.organisationId, { reserved: event.data.amountCents });
        await db.query('UPDATE fund_requests SET reserved_cents = $2 WHERE id = $1', [event.data.requestId, event.data.amountCents]);
        return;
      case 'FundReservationClaimed.v1': {
        const d = event.data;
        await moveMoney(db, d.fundId, d.organisationId, { reserved: -(d.amountCents + d.releasedCents), claimed: d.amountCents, released: d.releasedCents });
        await db.query('UPDATE fund_requests SET reserved_cents = 0, released_cents = released_cents + $2 WHERE id = $1', [d.requestId, d.releasedCents]);
        return;
      }
      case 'FundPaid.v1':
        await moveMoney(db, event.data.fundId, event.data.organisationId, { claimed: -event.data.amountCents, paid: event.data.amountCents });
        return;
      case 'FundReservationReleased.v1':
        await moveMoney(db, event.data.fundId, event.data.organisationId, { reserved: -event.data.amountCents, released: event.data.amountCents });
        await db.query('UPDATE fund_requests SET reserved_cents = 0, released_cents = released_cents + $2 WHERE id = $1', [
          event.data.requestId,
          event.data.amountCents,
        ]);
        return;
      // ---- requests ----
      case 'FundRequestSubmitted.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO fund_requests (id, fund_id, organisation_id, company_name, submitted_by, activity_type, title, description, start_date, end_date,
             planned_cost_cents, requested_amount_cents, expected_leads, status, submitted_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) ON CONFLICT (id) DO NOTHING`,
          [
            d.requestId,
            d.fundId,
            d.organisationId,
            d.companyName,
            d.submittedBy,
            d.activityType,
            d.title,
            d.description,
            d.startDate,
            d.endDate,
            d.plannedCostCents,
            d.requestedAmountCents,
            d.expectedLeads,
            d.status,
            at,
          ],
        );
        await addFiles(db, d.requestId, 'attachment', d.attachments);
        return;
      }
      case 'FundRequestResubmitted.v1': {
        const d = event.data;
        await db.query(
          `UPDATE fund_requests SET activity_type = $2, title = $3, description = $4, start_date = $5, end_date = $6, planned_cost_cents = $7, requested_amount_cents = $8,
             expected_leads = $9, status = $10, updated_at = $11 WHERE id = $1`,
          [
            d.requestId,
            d.activityType,
            d.title,
            d.description,
            d.startDate,
            d.endDate,
            d.plannedCostCents,
            d.requestedAmountCents,
            d.expectedLeads,
            d.status,
            at,
          ],
        );
        await addFiles(db, d.requestId, 'attachment', d.attachments);
        return;
      }
      case 'FundRequestApproved.v1':
        await db.query(
          'UPDATE fund_requests SET status = $2, approved_amount_cents = $3, claim_deadline = $4, note = $5, reviewed_at = $6, reviewed_by = $7, updated_at = $6 WHERE id = $1',
          [event.data.requestId, event.data.status, event.data.approvedAmountCents, event.data.claimDeadline, event.data.note, at, actor],
        );
        return;
      case 'FundRequestRejected.v1':
      case 'FundRequestChangesRequested.v1':
        await db.query('UPDATE fund_requests SET status = $2, note = $3, reviewed_at = $4, reviewed_by = $5, updated_at = $4 WHERE id = $1', [
          event.data.requestId,
          event.data.status,
          event.data.reason,
          at,
          actor,
        ]);
        return;
      case 'FundRequestClaimed.v1':
        await db.query('UPDATE fund_requests SET status = $2, claim_id = $3, updated_at = $4 WHERE id = $1', [
          event.data.requestId,
          event.data.status,
          event.data.claimId,
          at,
        ]);
        return;
      case 'FundRequestReleased.v1':
        await db.query('UPDATE fund_requests SET status = $2, updated_at = $3 WHERE id = $1', [event.data.requestId, event.data.status, at]);
        return;
      // ---- claims ----
      case 'FundClaimSubmitted.v1': {
        const d = event.data;
        await db.query(
          `INSERT INTO fund_claims (id, request_id, fund_id, organisation_id, company_name, submitted_by, actual_cost_cents, claimed_amount_cents, approved_amount_cents,
             leads_generated, status, submitted_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) ON CONFLICT (id) DO NOTHING`,
          [
            d.claimId,
            d.requestId,
            d.fundId,
            d.organisationId,
            d.companyName,
            d.submittedBy,
            d.actualCostCents,
            d.claimedAmountCents,
            d.approvedAmountCents,
            d.leadsGenerated,
            d.status,
            at,
          ],
        );
        await addFiles(db, d.claimId, 'proof', d.proof);
        return;
      }
      case 'FundClaimProofAdded.v1':
        await db.query('UPDATE fund_claims SET status = $2, updated_at = $3 WHERE id = $1', [event.data.claimId, event.data.status, at]);
        await addFiles(db, event.data.claimId, 'proof', event.data.proof);
        return;
      case 'FundClaimApproved.v1':
        await db.query(
          'UPDATE fund_claims SET status = $2, paid_amount_cents = $3, reason = $4, reviewed_at = $5, reviewed_by = $6, updated_at = $5 WHERE id = $1',
          [event.data.claimId, event.data.status, event.data.paidAmountCents, event.data.reason, at, actor],
        );
        return;
      case 'FundClaimRejected.v1':
      case 'FundClaimMoreProofRequested.v1':
        await db.query('UPDATE fund_claims SET status = $2, reason = $3, reviewed_at = $4, reviewed_by = $5, updated_at = $4 WHERE id = $1', [
          event.data.claimId,
          event.data.status,
          event.data.reason,
          at,
          actor,
        ]);
        return;
      case 'FundClaimPaid.v1':
        await db.query('UPDATE fund_claims SET status = $2, payout_reference = $3, paid_at = $4, payout_method = $5, updated_at = $6 WHERE id = $1', [
          event.data.claimId,
          event.data.status,
          event.data.reference,
          event.data.paidAt,
          event.data.method,
          at,
        ]);
        return;
    }
  },
};

// ---- queries ----

/** Whose records a caller sees: one organisation's, or (undefined) everyone's. */
export type FundScope = { organisationId: string | undefined };

function dollars(cents: number | string): number;
function dollars(cents: number | string | null): number | null;
function dollars(cents: number | string | null) {
  return cents === null ? null : Number(cents) / 100;
}
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const day = (value: Date | string | null) => (value === null ? null : typeof value === 'string' ? value : value.toISOString().slice(0, 10));

/** The co-op accrual of one organisation in one fund: the fund's share of each order delivered in its period, rounded down per order (coopAccrualCents). */
const ACCRUED = `(SELECT coalesce(sum(floor(d.value_cents * f.coop_share_bp / 10000)), 0) FROM read.fund_deliveries d
   WHERE d.organisation_id = a.organisation_id AND d.delivered_on BETWEEN f.period_start AND f.period_end)`;

interface FiguresRow {
  fund_id: string;
  organisation_id: string;
  company_name: string | null;
  allocated_cents: string;
  accrued_cents: string;
  reserved_cents: string;
  claimed_cents: string;
  paid_cents: string;
  expired_cents: string;
  measured_purchases_cents: string | null;
}

const figuresOf = (row: FiguresRow): FundFigures => ({
  allocatedCents: Number(row.allocated_cents),
  accruedCents: Number(row.accrued_cents),
  reservedCents: Number(row.reserved_cents),
  claimedCents: Number(row.claimed_cents),
  paidCents: Number(row.paid_cents),
  expiredCents: Number(row.expired_cents),
});

/** A balance in the answers' dollars. */
export const balanceAnswer = (balance: FundBalance): Balance => ({
  allocated: balance.allocatedCents / 100,
  accrued: balance.accruedCents / 100,
  reserved: balance.reservedCents / 100,
  claimed: balance.claimedCents / 100,
  paid: balance.paidCents / 100,
  expired: balance.expiredCents / 100,
  available: balance.availableCents / 100,
});

/** Each organisation's figures in the funds asked for (every fund when none is named). */
/** The figure rows' statement over `params`: one row per allocation, with its co-op accrual. */
function figureRowsQuery(where: { fundId?: string; fundIds?: string[]; organisationId?: string }, params: unknown[]): string {
  const clauses: string[] = [];
  if (where.fundId) clauses.push(`a.fund_id = $${params.push(where.fundId)}`);
  if (where.fundIds) clauses.push(`a.fund_id = ANY($${params.push(where.fundIds)}::uuid[])`);
  if (where.organisationId) clauses.push(`a.organisation_id = $${params.push(where.organisationId)}`);
  return `SELECT a.fund_id, a.organisation_id, u.company_name, a.allocated_cents, ${ACCRUED} AS accrued_cents, a.reserved_cents, a.claimed_cents, a.paid_cents, a.expired_cents, a.measured_purchases_cents
     FROM read.fund_allocations a JOIN read.funds f ON f.id = a.fund_id LEFT JOIN read.users u ON u.id = a.organisation_id
     ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''} ORDER BY u.company_name NULLS LAST, a.organisation_id`;
}

async function figureRows(db: Queryable, where: { fundId?: string; fundIds?: string[]; organisationId?: string }): Promise<FiguresRow[]> {
  const params: unknown[] = [];
  const { rows } = await db.query<FiguresRow>(figureRowsQuery(where, params), params);
  return rows;
}

/** One organisation's balance in one fund, by the domain's definition. */
export async function organisationFundBalance(db: Queryable, fundId: string, organisationId: string): Promise<FundBalance> {
  const [row] = await figureRows(db, { fundId, organisationId });
  return row ? fundBalance(figuresOf(row)) : fundBalance(NO_FIGURES);
}

/** Each organisation's co-op accrual in one fund (what expires with the allocation at the close). */
export async function accruedByOrganisation(db: Queryable, fundId: string): Promise<Record<string, number>> {
  return Object.fromEntries((await figureRows(db, { fundId })).map((r) => [r.organisation_id, Number(r.accrued_cents)]));
}

/** Delivered purchases per organisation in `from`..`to` (days included), from the delivered orders: what an allocation rule measures. */
export async function deliveredPurchases(db: Queryable, from: string, to: string): Promise<Array<{ organisationId: string; purchasesCents: number }>> {
  const { rows } = await db.query<{ organisation_id: string; cents: string }>(
    'SELECT organisation_id, sum(value_cents) AS cents FROM read.fund_deliveries WHERE delivered_on BETWEEN $1 AND $2 GROUP BY organisation_id ORDER BY organisation_id',
    [from, to],
  );
  return rows.map((r) => ({ organisationId: r.organisation_id, purchasesCents: Number(r.cents) }));
}

/** Company names of organisations, for previews. */
export async function companyNames(db: Queryable, ids: string[]): Promise<Record<string, string | null>> {
  const { rows } = await db.query<{ id: string; company_name: string | null }>('SELECT id, company_name FROM read.users WHERE id = ANY($1::uuid[])', [ids]);
  return Object.fromEntries(rows.map((r) => [r.id, r.company_name]));
}

/** Every open fund with its period's last day, for the close's sweep. */
export async function openFunds(db: Queryable): Promise<Array<{ id: string; period_end: string }>> {
  const { rows } = await db.query<{ id: string; period_end: string }>(
    `SELECT id, period_end::text AS period_end FROM read.funds WHERE status = 'open' ORDER BY period_end, id`,
  );
  return rows;
}

/** The co-op accrual one organisation holds in one fund (what a reservation may count on besides the allocation). */
export async function accruedCents(db: Queryable, fundId: string, organisationId: string): Promise<number> {
  return (await organisationFundBalance(db, fundId, organisationId)).accruedCents;
}

interface FundRow {
  id: string;
  name: string;
  period_start: string;
  period_end: string;
  budget_cents: string;
  coop_share_bp: number;
  status: FundStatus;
  closed_at: Date | null;
  close_reason: CloseReason | null;
  allocation_rule: AllocationRule | null;
  created_at: Date;
  updated_at: Date;
}

const FUND_COLUMNS = `f.id, f.name, f.period_start::text AS period_start, f.period_end::text AS period_end, f.budget_cents, f.coop_share_bp, f.status, f.closed_at, f.close_reason, f.allocation_rule, f.created_at, f.updated_at`;

function toFundView(row: FundRow, figures: FiguresRow[]): Fund {
  const allocations = figures.map((r) => ({
    organisation_id: r.organisation_id,
    company_name: r.company_name,
    amount: Number(r.allocated_cents) / 100,
    /** The delivered purchases the latest allocation rule measured for the organisation (null when its allocation was set by hand). */
    measured_purchases: dollars(r.measured_purchases_cents),
    ...balanceAnswer(fundBalance(figuresOf(r))),
  }));
  const total = totalBalance(figures.map(figuresOf));
  return {
    id: row.id,
    name: row.name,
    period_start: row.period_start,
    period_end: row.period_end,
    budget: Number(row.budget_cents) / 100,
    coop_share_percent: row.coop_share_bp / 100,
    status: row.status,
    closed_at: row.closed_at?.toISOString() ?? null,
    close_reason: row.close_reason,
    allocation_rule: row.allocation_rule
      ? {
          kind: row.allocation_rule.kind,
          percent: row.allocation_rule.percentBasisPoints / 100,
          measured_from: row.allocation_rule.measuredFrom,
          measured_to: row.allocation_rule.measuredTo,
        }
      : null,
    allocations,
    totals: balanceAnswer(total),
    /** Committed (reserved, claimed or paid) as a share of the budget. */
    utilisation_percent:
      Number(row.budget_cents) > 0 ? Math.round(((total.reservedCents + total.claimedCents + total.paidCents) / Number(row.budget_cents)) * 1000) / 10 : 0,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
export type FundView = Fund;

export const FUND_SORT_FIELDS = ['name', 'period_start', 'period_end', 'budget', 'status', 'created_at'] as const;
const FUND_SORT_COLUMNS: Record<(typeof FUND_SORT_FIELDS)[number] | 'id', string> = {
  id: 'f.id',
  name: 'lower(f.name)',
  period_start: 'f.period_start',
  period_end: 'f.period_end',
  budget: 'f.budget_cents',
  status: 'f.status',
  created_at: 'f.created_at',
};

/** Funds, newest period first; an organisation's caller sees the funds that allocate to it or hold its money, with its own figures only. */
export async function listFunds(
  db: Queryable,
  scope: FundScope,
  filters: { status?: string; search?: string; ids?: string[] },
  page: { offset: number; limit: number; sort?: { field: keyof typeof FUND_SORT_COLUMNS; order: 'ASC' | 'DESC' } },
): Promise<{ rows: FundView[]; total: number }> {
  const params: unknown[] = [];
  const where: string[] = [];
  if (scope.organisationId)
    where.push(`EXISTS (SELECT 1 FROM read.fund_allocations a WHERE a.fund_id = f.id AND a.organisation_id = $${params.push(scope.organisationId)})`);
  if (filters.status) where.push(`f.status = $${params.push(filters.status)}`);
  if (filters.search) where.push(`f.name ILIKE $${params.push(`%${escapeLike(filters.search)}%`)}`);
  if (filters.ids) where.push(`f.id = ANY($${params.push(filters.ids)}::uuid[])`);
  const order = page.sort ? `${FUND_SORT_COLUMNS[page.sort.field]} ${page.sort.order}` : 'f.period_start DESC';
  const { rows, total } = await pageOf<FundRow>(db, {
    columns: FUND_COLUMNS,
    from: 'read.funds f',
    where: where.length ? `WHERE ${where.join(' AND ')}` : '',
    order: `${order}, f.id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
  // The page's allocations in one statement, in the order each fund lists them.
  const figures = rows.length ? await figureRows(db, { fundIds: rows.map((row) => row.id), organisationId: scope.organisationId }) : [];
  const views = rows.map((row) =>
    toFundView(
      row,
      figures.filter((figure) => figure.fund_id === row.id),
    ),
  );
  return { rows: views, total };
}

export async function findFund(db: Queryable, id: string, scope: FundScope): Promise<FundView | undefined> {
  const { rows } = await listFunds(db, scope, { ids: [id] }, { offset: 0, limit: 1 });
  return rows[0];
}

/** GET /funds/balance: per fund and in total, for one organisation (or every organisation, for admins). */
export async function balances(db: Queryable, scope: FundScope): Promise<Balances> {
  const rows = await figureRows(db, { organisationId: scope.organisationId });
  const { rows: funds } = await db.query<FundRow>(`SELECT ${FUND_COLUMNS} FROM read.funds f WHERE f.id = ANY($1::uuid[]) ORDER BY f.period_start DESC, f.id`, [
    [...new Set(rows.map((r) => r.fund_id))],
  ]);
  const perFund = funds.map((fund) => {
    const mine = rows.filter((r) => r.fund_id === fund.id);
    return {
      fund_id: fund.id,
      name: fund.name,
      period_start: fund.period_start,
      period_end: fund.period_end,
      status: fund.status,
      budget: Number(fund.budget_cents) / 100,
      ...balanceAnswer(totalBalance(mine.map(figuresOf))),
    };
  });
  return { funds: perFund, total: balanceAnswer(totalBalance(rows.map(figuresOf))) };
}

/**
 * The figures of the funds cards: the balance by the balance route's definition, and the requests and
 * claims waiting for a decision counted by the very lists the cards link to (status pending).
 */
export async function fundCard(db: Queryable, scope: FundScope) {
  // One statement: the balance's rows, and the pending requests and claims counted with their lists' own conditions.
  const params: unknown[] = [];
  const pending: RecordFilters = { status: 'pending' };
  const requests = whereOf(REQUEST_LIST.alias, scope, pending, params, REQUEST_LIST.searchColumns);
  const claims = whereOf(CLAIM_LIST.alias, scope, pending, params, CLAIM_LIST.searchColumns);
  const figures = figureRowsQuery({ organisationId: scope.organisationId }, params);
  const { rows } = await db.query<{ pending_requests: string; pending_claims: string; figures: FiguresRow[] }>(
    `SELECT (SELECT count(*) FROM ${REQUEST_LIST.from} ${requests}) AS pending_requests,
            (SELECT count(*) FROM ${CLAIM_LIST.from} ${claims}) AS pending_claims,
            (SELECT coalesce(json_agg(a), '[]') FROM (${figures}) a) AS figures`,
    params,
  );
  const total = totalBalance(rows[0].figures.map(figuresOf));
  return { ...balanceAnswer(total), pending_requests: Number(rows[0].pending_requests), pending_claims: Number(rows[0].pending_claims) };
}

// ---- requests and claims ----

interface FileRow {
  record_id: string;
  kind: string;
  position: number;
  file: string;
  name: string;
  type: string;
  size: number;
}

const fileView =
  (base: string) =>
  (f: FileRow): FileLink => ({ name: f.name, type: f.type, size: f.size, url: `${base}/${f.file}` });

interface RequestRow {
  id: string;
  fund_id: string;
  fund_name: string;
  organisation_id: string;
  company_name: string | null;
  submitted_by: string;
  activity_type: string;
  title: string;
  description: string;
  start_date: string;
  end_date: string;
  planned_cost_cents: string;
  requested_amount_cents: string;
  expected_leads: number;
  status: FundRequestStatus;
  approved_amount_cents: string | null;
  claim_deadline: string | null;
  reserved_cents: string;
  released_cents: string;
  claim_id: string | null;
  claim_status: FundClaimStatus | null;
  note: string | null;
  deals: number;
  pipeline_cents: string;
  revenue_cents: string;
  paid_cents: string;
  submitted_at: Date;
  reviewed_at: Date | null;
  updated_at: Date;
}

/**
 * An activity's outcome (domain/funds/roi.ts): the deals naming it (rejected registrations are no
 * pipeline), the delivered orders linked to them (each order once), and what was paid out for it.
 */
const ACTIVITY_OUTCOME = `(SELECT count(*)::int FROM read.projects p WHERE p.fund_request_id = r.id AND p.registration_status <> 'rejected') AS deals,
  (SELECT coalesce(sum(round(p.value * 100)), 0)::bigint FROM read.projects p WHERE p.fund_request_id = r.id AND p.registration_status <> 'rejected') AS pipeline_cents,
  (SELECT coalesce(sum(round(o.total_amount * 100)), 0)::bigint FROM read.orders o WHERE o.status = 'delivered' AND o.id IN (
     SELECT po.order_id FROM read.project_orders po JOIN read.projects p ON p.id = po.project_id WHERE p.fund_request_id = r.id AND p.registration_status <> 'rejected')) AS revenue_cents,
  CASE WHEN c.status = 'paid' THEN c.paid_amount_cents ELSE 0 END AS paid_cents`;

const REQUEST_COLUMNS = `r.id, r.fund_id, f.name AS fund_name, r.organisation_id, r.company_name, r.submitted_by, r.activity_type, r.title, r.description,
  r.start_date::text AS start_date, r.end_date::text AS end_date, r.planned_cost_cents, r.requested_amount_cents, r.expected_leads, r.status,
  r.approved_amount_cents, r.claim_deadline::text AS claim_deadline, r.reserved_cents, r.released_cents, r.claim_id, c.status AS claim_status, r.note,
  ${ACTIVITY_OUTCOME},
  r.submitted_at, r.reviewed_at, r.updated_at`;
const REQUEST_FROM = `read.fund_requests r JOIN read.funds f ON f.id = r.fund_id LEFT JOIN read.fund_claims c ON c.id = r.claim_id`;

function toRequestView(row: RequestRow, files: FileRow[]): FundRequest {
  return {
    id: row.id,
    fund_id: row.fund_id,
    fund_name: row.fund_name,
    organisation_id: row.organisation_id,
    company_name: row.company_name,
    submitted_by: row.submitted_by,
    activity_type: row.activity_type,
    title: row.title,
    description: row.description,
    start_date: row.start_date,
    end_date: row.end_date,
    planned_cost: dollars(row.planned_cost_cents),
    requested_amount: dollars(row.requested_amount_cents),
    expected_leads: row.expected_leads,
    status: row.status,
    approved_amount: dollars(row.approved_amount_cents),
    claim_deadline: day(row.claim_deadline),
    reserved: dollars(row.reserved_cents),
    released: dollars(row.released_cents),
    claim_id: row.claim_id,
    claim_status: row.claim_status,
    note: row.note,
    deals: row.deals,
    pipeline: dollars(row.pipeline_cents),
    revenue: dollars(row.revenue_cents),
    paid: dollars(row.paid_cents),
    roi: returnOnInvestment(Number(row.revenue_cents), Number(row.paid_cents)),
    attachments: files.map(fileView(`/api/fund-requests/${row.id}/attachments`)),
    submitted_at: row.submitted_at.toISOString(),
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
  };
}
export type FundRequestView = FundRequest;

export const REQUEST_SORT_FIELDS = [
  'submitted_at',
  'start_date',
  'end_date',
  'requested_amount',
  'approved_amount',
  'claim_deadline',
  'status',
  'title',
  'company_name',
] as const;
const REQUEST_SORT_COLUMNS: Record<(typeof REQUEST_SORT_FIELDS)[number] | 'id', string> = {
  id: 'r.id',
  submitted_at: 'r.submitted_at',
  start_date: 'r.start_date',
  end_date: 'r.end_date',
  requested_amount: 'r.requested_amount_cents',
  approved_amount: 'r.approved_amount_cents',
  claim_deadline: 'r.claim_deadline',
  status: 'r.status',
  title: 'lower(r.title)',
  company_name: 'r.company_name',
};

export interface RecordFilters {
  status?: string;
  fund_id?: string;
  organisation_id?: string;
  search?: string;
  ids?: string[];
}

function whereOf(alias: string, scope: FundScope, filters: RecordFilters, params: unknown[], searchColumns: string[]): string {
  const where: string[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (scope.organisationId) where.push(`${alias}.organisation_id = ${param(scope.organisationId)}`);
  if (filters.status) where.push(`${alias}.status = ${param(filters.status)}`);
  if (filters.fund_id) where.push(`${alias}.fund_id = ${param(filters.fund_id)}`);
  if (filters.organisation_id) where.push(`${alias}.organisation_id = ${param(filters.organisation_id)}`);
  if (filters.ids) where.push(`${alias}.id = ANY(${param(filters.ids)}::uuid[])`);
  if (filters.search) {
    const pattern = param(`%${escapeLike(filters.search)}%`);
    where.push(`(${searchColumns.map((c) => `${c} ILIKE ${pattern}`).join(' OR ')})`);
  }
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

/** How a list of requests or claims is read: its columns and joins, what search looks in, what it sorts by, and its view. */
interface RecordList<Row, View, SortField extends string> {
  alias: 'r' | 'c';
  columns: string;
  from: string;
  searchColumns: string[];
  sortColumns: Record<SortField, string>;
  toView: (row: Row, files: FileRow[]) => View;
}
type PageOf<SortField extends string> = { offset: number; limit: number; sort?: { field: SortField; order: 'ASC' | 'DESC' } };

/** Oldest first by default: the review queue's order. */
async function listRecords<Row extends { id: string }, View, SortField extends string>(
  db: Queryable,
  list: RecordList<Row, View, SortField>,
  scope: FundScope,
  filters: RecordFilters,
  page: PageOf<SortField>,
): Promise<{ rows: View[]; total: number }> {
  const params: unknown[] = [];
  const { alias } = list;
  const clause = whereOf(alias, scope, filters, params, list.searchColumns);
  const order = page.sort ? `${list.sortColumns[page.sort.field]} ${page.sort.order} NULLS LAST` : `${alias}.submitted_at ASC`;
  // Each record's files ride on its row: one statement per answer.
  const { rows, total } = await pageOf<Row & { files: FileRow[] }>(db, {
    columns: `${list.columns}, (SELECT coalesce(json_agg(f ORDER BY f.position), '[]') FROM read.fund_files f WHERE f.record_id = ${alias}.id) AS files`,
    from: list.from,
    where: clause,
    order: `${order}, ${alias}.id`,
    params,
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map((row) => list.toView(row, row.files)), total };
}

const REQUEST_LIST: RecordList<RequestRow, FundRequest, keyof typeof REQUEST_SORT_COLUMNS> = {
  alias: 'r',
  columns: REQUEST_COLUMNS,
  from: REQUEST_FROM,
  searchColumns: ['r.title', 'r.company_name', 'r.id::text'],
  sortColumns: REQUEST_SORT_COLUMNS,
  toView: toRequestView,
};

export function listFundRequests(db: Queryable, scope: FundScope, filters: RecordFilters, page: PageOf<keyof typeof REQUEST_SORT_COLUMNS>) {
  return listRecords(db, REQUEST_LIST, scope, filters, page);
}

/** Whether a deal registration of the organisation may name this request as the activity that produced it. */
export async function isActivityForDeals(db: Queryable, requestId: string, organisationId: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM read.fund_requests WHERE id = $1 AND organisation_id = $2 AND status = ANY($3::text[])', [
    requestId,
    organisationId,
    ACTIVITY_STATUSES_FOR_DEALS,
  ]);
  return rows.length > 0;
}

export async function findFundRequest(db: Queryable, id: string, scope: FundScope): Promise<FundRequestView | undefined> {
  return (await listFundRequests(db, scope, { ids: [id] }, { offset: 0, limit: 1 })).rows[0];
}

interface ClaimRow {
  id: string;
  request_id: string;
  request_title: string;
  fund_id: string;
  organisation_id: string;
  company_name: string | null;
  submitted_by: string;
  actual_cost_cents: string;
  claimed_amount_cents: string;
  approved_amount_cents: string;
  leads_generated: number;
  status: FundClaimStatus;
  paid_amount_cents: string | null;
  reason: string | null;
  payout_reference: string | null;
  paid_at: string | null;
  payout_method: PayoutMethod | null;
  claim_deadline: string | null;
  submitted_at: Date;
  reviewed_at: Date | null;
  updated_at: Date;
}

const CLAIM_COLUMNS = `c.id, c.request_id, r.title AS request_title, c.fund_id, c.organisation_id, c.company_name, c.submitted_by, c.actual_cost_cents, c.claimed_amount_cents,
  c.approved_amount_cents, c.leads_generated, c.status, c.paid_amount_cents, c.reason, c.payout_reference, c.paid_at::text AS paid_at, c.payout_method,
  r.claim_deadline::text AS claim_deadline, c.submitted_at, c.reviewed_at, c.updated_at`;
const CLAIM_FROM = `read.fund_claims c JOIN read.fund_requests r ON r.id = c.request_id`;

function toClaimView(row: ClaimRow, files: FileRow[]): FundClaim {
  return {
    id: row.id,
    request_id: row.request_id,
    request_title: row.request_title,
    fund_id: row.fund_id,
    organisation_id: row.organisation_id,
    company_name: row.company_name,
    submitted_by: row.submitted_by,
    actual_cost: dollars(row.actual_cost_cents),
    claimed_amount: dollars(row.claimed_amount_cents),
    approved_amount: dollars(row.approved_amount_cents),
    leads_generated: row.leads_generated,
    status: row.status,
    paid_amount: dollars(row.paid_amount_cents),
    reason: row.reason,
    // A payout records its reference, day and method together (FundClaimPaid.v1).
    payout:
      row.payout_reference && row.paid_at && row.payout_method ? { reference: row.payout_reference, paid_at: row.paid_at, method: row.payout_method } : null,
    claim_deadline: day(row.claim_deadline),
    proof: files.map(fileView(`/api/fund-claims/${row.id}/proof`)),
    submitted_at: row.submitted_at.toISOString(),
    reviewed_at: row.reviewed_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
  };
}
export type FundClaimView = FundClaim;

export const CLAIM_SORT_FIELDS = ['submitted_at', 'claimed_amount', 'approved_amount', 'paid_amount', 'status', 'company_name'] as const;
const CLAIM_SORT_COLUMNS: Record<(typeof CLAIM_SORT_FIELDS)[number] | 'id', string> = {
  id: 'c.id',
  submitted_at: 'c.submitted_at',
  claimed_amount: 'c.claimed_amount_cents',
  approved_amount: 'c.approved_amount_cents',
  paid_amount: 'c.paid_amount_cents',
  status: 'c.status',
  company_name: 'c.company_name',
};

const CLAIM_LIST: RecordList<ClaimRow, FundClaim, keyof typeof CLAIM_SORT_COLUMNS> = {
  alias: 'c',
  columns: CLAIM_COLUMNS,
  from: CLAIM_FROM,
  searchColumns: ['r.title', 'c.company_name', 'c.id::text'],
  sortColumns: CLAIM_SORT_COLUMNS,
  toView: toClaimView,
};

export function listFundClaims(db: Queryable, scope: FundScope, filters: RecordFilters, page: PageOf<keyof typeof CLAIM_SORT_COLUMNS>) {
  return listRecords(db, CLAIM_LIST, scope, filters, page);
}

export async function findFundClaim(db: Queryable, id: string, scope: FundScope): Promise<FundClaimView | undefined> {
  return (await listFundClaims(db, scope, { ids: [id] }, { offset: 0, limit: 1 })).rows[0];
}

/** A stored file of a request or claim the caller may see; undefined otherwise. */
export async function findFundFile(
  db: Queryable,
  recordId: string,
  kind: 'attachment' | 'proof',
  file: string,
  scope: FundScope,
): Promise<FileRow | undefined> {
  const table = kind === 'attachment' ? 'read.fund_requests' : 'read.fund_claims';
  const params: unknown[] = [recordId, kind, file];
  const own = scope.organisationId ? ` AND x.organisation_id = $${params.push(scope.organisationId)}` : '';
  const { rows } = await db.query<FileRow>(
    `SELECT d.* FROM read.fund_files d JOIN ${table} x ON x.id = d.record_id WHERE d.record_id = $1 AND d.kind = $2 AND d.file = $3${own}`,
    params,
  );
  return rows[0];
}

/** Approved requests whose claim deadline has passed and whose reservation is still held (the worker's sweep). */
export async function lapsedReservations(db: Queryable, today: string): Promise<Array<{ id: string; fund_id: string; claim_deadline: string }>> {
  const { rows } = await db.query<{ id: string; fund_id: string; claim_deadline: string }>(
    `SELECT id, fund_id, claim_deadline::text AS claim_deadline FROM read.fund_requests
     WHERE status IN ('approved', 'released') AND reserved_cents > 0 AND claim_deadline < $1::date ORDER BY claim_deadline LIMIT 500`,
    [today],
  );
  return rows;
}
