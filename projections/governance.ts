import { agreementStatus, agreementTerm, orderGovernanceStatus, rebateProgramme } from '../domain/governance/governance';
import { ROLE_LABELS, isRole } from '../domain/access';
import type { Queryable } from '../platform/db';
import type { Governance } from '../contracts/governance';
import { supportContact } from './settings';

const toCents = (amount: string | number) => Math.round(Number(amount) * 100);
const day = (value: Date | null) => value?.toISOString().slice(0, 10) ?? null;

/**
 * Partnership governance of one organisation, from the read models of accounts, partner
 * applications, orders, team members and rebates. No own tables: every figure is a query.
 */
export async function governanceOf(db: Queryable, organisationId: string, now: Date = new Date()): Promise<Governance | undefined> {
  const account = await db.query<{
    id: string;
    full_name: string;
    email: string;
    role: string;
    company_name: string | null;
    is_active: boolean;
    created_at: Date;
  }>('SELECT id, full_name, email, role, company_name, is_active, created_at FROM read.users WHERE id = $1 AND parent_user_id IS NULL', [organisationId]);
  const owner = account.rows[0];
  if (!owner) return undefined;

  const application = await db.query<{
    status: string;
    company_name: string;
    category: string | null;
    tier: string | null;
    region: string | null;
    decided_at: Date | null;
    decided_by: string | null;
    application_submitted_at: Date | null;
  }>(
    'SELECT status, company_name, category, tier, region, decided_at, decided_by, application_submitted_at FROM read.partners WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1',
    [organisationId],
  );
  const partner = application.rows[0];
  // Without an application (an account an administrator opened), the agreement starts with the account.
  const approvedOn = partner ? (partner.status === 'approved' ? day(partner.decided_at) : null) : day(owner.created_at);
  const status = agreementStatus({ applicationStatus: partner?.status ?? null, accountActive: owner.is_active });
  const term = approvedOn && status === 'Active' ? agreementTerm(approvedOn, now) : null;

  const orders = await db.query<{
    id: string;
    order_number: string;
    status: string;
    total_amount: string;
    item_count: number;
    created_at: Date;
    estimated_delivery: Date;
    delivered_at: Date | null;
  }>(
    `SELECT id, order_number, status, total_amount, item_count, created_at, estimated_delivery, delivered_at FROM read.orders WHERE organisation_id = $1 ORDER BY created_at DESC, id LIMIT 50`,
    [organisationId],
  );
  const orderCounts = await db.query<{ status: string; n: string; value: string }>(
    'SELECT status, count(*) AS n, coalesce(sum(total_amount), 0) AS value FROM read.orders WHERE organisation_id = $1 GROUP BY status',
    [organisationId],
  );

  const members = await db.query<{
    id: string;
    full_name: string;
    email: string;
    role: string;
    is_active: boolean;
    invitation_expires_at: Date | null;
    created_at: Date;
  }>(
    `SELECT id, full_name, email, role, is_active, invitation_expires_at, created_at FROM read.users WHERE id = $1 OR parent_user_id = $1 ORDER BY parent_user_id IS NOT NULL, full_name, id`,
    [organisationId],
  );
  const manager = partner?.decided_by
    ? (await db.query<{ full_name: string; email: string }>('SELECT full_name, email FROM read.users WHERE id = $1', [partner.decided_by])).rows[0]
    : undefined;

  const year = now.getUTCFullYear();
  const quarters = await db.query<{ key: string; purchases: string; rebates: string }>(
    `SELECT to_char(purchase_date, 'YYYY') || '-Q' || to_char(purchase_date, 'Q') AS key, sum(purchase_amount) AS purchases, coalesce(sum(rebate_amount), 0) AS rebates
     FROM read.rebates WHERE organisation_id = $1 AND status = 'approved' AND purchase_date BETWEEN $2 AND $3 GROUP BY 1`,
    [organisationId, `${year - 1}-10-01`, `${year}-12-31`],
  );
  const pending = await db.query<{ n: string; amount: string }>(
    `SELECT count(*) AS n, coalesce(sum(purchase_amount), 0) AS amount FROM read.rebates WHERE organisation_id = $1 AND status IN ('pending', 'processing')`,
    [organisationId],
  );
  const programme = rebateProgramme(
    now,
    Object.fromEntries(quarters.rows.map((q) => [q.key, { purchasesCents: toCents(q.purchases), rebatesCents: toCents(q.rebates) }])),
  );

  const memberStatus = (m: { is_active: boolean; invitation_expires_at: Date | null }) =>
    m.invitation_expires_at ? 'Pending' : m.is_active ? 'Active' : 'Inactive';
  return {
    organisation_id: organisationId,
    company_name: partner?.company_name ?? owner.company_name ?? owner.full_name,
    agreement: {
      status,
      kind: owner.role === 'distributor' ? 'Distributor agreement' : 'Partner agreement',
      tier: partner?.tier ?? null,
      category: partner?.category ?? null,
      region: partner?.region ?? null,
      applied_on: day(partner?.application_submitted_at ?? null),
      approved_on: approvedOn,
      term_start: term?.termStart ?? null,
      renewal_date: term?.renewalDate ?? null,
      days_to_renewal: term?.daysToRenewal ?? null,
      certificate: status === 'Active' ? `${programme.currentTier.name} Level ${owner.role === 'distributor' ? 'Distributor' : 'Partner'}` : null,
    },
    orders: {
      counts: Object.fromEntries(orderCounts.rows.map((r) => [r.status, Number(r.n)])),
      total_value: orderCounts.rows.filter((r) => r.status !== 'cancelled').reduce((sum, r) => sum + toCents(r.value), 0) / 100,
      recent: orders.rows.map((o) => ({
        id: o.id,
        order_number: o.order_number,
        status: o.status,
        display_status: orderGovernanceStatus(o.status),
        total_amount: Number(o.total_amount),
        item_count: o.item_count,
        created_at: o.created_at.toISOString(),
        estimated_delivery: day(o.estimated_delivery),
        delivered_at: o.delivered_at?.toISOString() ?? null,
      })),
    },
    account_team: {
      members: members.rows.map((m) => ({
        id: m.id,
        full_name: m.full_name,
        email: m.email,
        role: isRole(m.role) ? ROLE_LABELS[m.role] : m.role,
        is_owner: m.id === organisationId,
        status: memberStatus(m),
        joined_on: day(m.created_at),
      })),
      partner_manager: manager ? { full_name: manager.full_name, email: manager.email } : null,
      support: await supportContact(db),
    },
    rebate_programme: {
      year: programme.year,
      annual_target: programme.annualTargetCents / 100,
      annual_purchases: programme.annualPurchasesCents / 100,
      annual_rebates: programme.annualRebatesCents / 100,
      annual_percentage: programme.annualPercentage,
      current_tier: programme.currentTier.name,
      current_rate_percent: programme.currentTier.ratePercent,
      pending_claims: Number(pending.rows[0]!.n),
      pending_purchase_amount: Number(pending.rows[0]!.amount),
      quarters: programme.quarters.map((q) => ({
        label: q.label,
        start: q.start,
        end: q.end,
        target_tier: q.targetTier,
        target: q.targetCents / 100,
        purchases: q.purchasesCents / 100,
        rebates: q.rebatesCents / 100,
        percentage: q.percentage,
        reached_tier: q.reachedTier,
        status: q.status,
      })),
      ladder: programme.ladder.map((t) => ({ name: t.name, quarterly_purchases: t.quarterlyPurchasesCents / 100, rate_percent: t.ratePercent })),
    },
  };
}

export type { Governance };
