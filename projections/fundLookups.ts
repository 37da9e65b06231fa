import type { Queryable } from '../platform/db';

/**
 * Small reads of the funds read model (read.funds, read.fund_requests) for the deadline sweep and the
 * fund notices. The projection and the routes' queries are in `funds.ts`.
 */

/** Requests still holding a reservation with a claim deadline (approved or released), earliest deadline first. */
export async function requestsWithClaimDeadline(db: Queryable): Promise<Array<{ id: string; claim_deadline: string }>> {
  const { rows } = await db.query<{ id: string; claim_deadline: string }>(
    `SELECT id, claim_deadline::text AS claim_deadline FROM read.fund_requests WHERE status IN ('approved', 'released') AND reserved_cents > 0 AND claim_deadline IS NOT NULL ORDER BY claim_deadline, id`,
  );
  return rows;
}

/** The title of a fund request's activity. */
export async function fundRequestTitle(db: Queryable, requestId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ title: string }>('SELECT title FROM read.fund_requests WHERE id = $1', [requestId]);
  return rows[0]?.title;
}

export interface ClosedFundNotice {
  name: string;
  period_end: string;
  close_reason: string | null;
  /** Whether the organisation's account is active (false when it is gone). */
  active: boolean;
}

/** What an organisation is told when a fund's period closed: the fund's name, period end and why it closed, and whether the organisation's account is active. */
export async function closedFundNotice(db: Queryable, fundId: string, organisationId: string): Promise<ClosedFundNotice | undefined> {
  const { rows } = await db.query<ClosedFundNotice>(
    `SELECT f.name, f.period_end::text AS period_end, f.close_reason, coalesce((SELECT u.is_active FROM read.users u WHERE u.id = $2), false) AS active FROM read.funds f WHERE f.id = $1`,
    [fundId, organisationId],
  );
  return rows[0];
}
