import type {
  EvaluationRun,
  ProgrammeCard,
  Standing,
  StandingRow as StandingListRow,
  StandingEvent as StandingHistoryEntry,
  Tier,
  TierRef,
  RequirementProgress,
} from '../contracts/programme';
import type { Scorecard, ScorecardDetail, RankBand } from '../contracts/scorecards';
import { type RequirementKind } from '../domain/programme/criteria';
import {
  measureAll,
  measureKey,
  nextQuarterStart,
  type Benefits,
  type Measured,
  type Measures,
  type Requirement,
  type RunEvent,
  type StandingEvent,
  type TierEvent,
} from '../domain/programme/programme';

import type { PoolClient, Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import { certifiedPeopleByOrganisation } from './learning';
import type { Projection } from './projection';
import { pageOf } from './paging';
import { isUuid } from '../domain/ids';

/**
 * The partner programme's read models: tiers (with every version's benefits from the moment it held),
 * each organisation's standing, the tier in force over time, the history of changes, evaluation runs,
 * and the scorecards (one row per organisation and quarter, recomputed from the other record models
 * whenever a record of the organisation changes; it runs after them, so it reads their batch's state).
 */

// ---- measures: how each requirement kind is measured from the read models ----

/**
 * One kind's values for every organisation with any (or for `organisationId` alone), over the
 * `windowMonths` months ending at `asOf`.
 */
export type Measure = (db: Queryable, asOf: Date, windowMonths: number, organisationId?: string) => Promise<Map<string, number>>;

/**
 * `sql` reads $1 (asOf) and $2 (the window), and is given the condition that picks the organisations:
 * `organisation_id = $3` for one, none for all. Two texts rather than `$3 IS NULL OR …`, because a
 * statement's plan is kept and reused, and a plan made for either value would not suit the other.
 */
const byOrganisation = async (db: Queryable, sql: (organisations: string) => string, asOf: Date, windowMonths: number, organisationId: string | undefined) => {
  const values: unknown[] = [asOf.toISOString(), `${windowMonths} months`];
  const condition = organisationId ? `organisation_id = $${values.push(organisationId)}::uuid` : 'TRUE';
  const { rows } = await db.query<{ org: string; value: string }>(sql(condition), values);
  return new Map(rows.map((row) => [row.org, Number(row.value)]));
};

/** A won deal: a registration whose first linked order (not cancelled) was placed; won when that order was. */
const FIRST_ORDER = `(SELECT min(o.created_at) FROM read.project_orders po JOIN read.orders o ON o.id = po.order_id WHERE po.project_id = p.id AND o.status <> 'cancelled')`;

/** Every requirement kind's measure (keyed like `CRITERIA`, so a kind without one fails the type check). */
export const MEASURES: Record<RequirementKind, Measure> = {
  delivered_purchases: (db, asOf, months, organisationId) =>
    byOrganisation(
      db,
      (organisations) => `SELECT organisation_id::text AS org, round(sum(total_amount) * 100) AS value FROM read.orders
       WHERE status = 'delivered' AND delivered_at <= $1::timestamptz AND delivered_at > $1::timestamptz - $2::interval AND ${organisations} GROUP BY 1`,
      asOf,
      months,
      organisationId,
    ),
  deals_won: (db, asOf, months, organisationId) =>
    byOrganisation(
      db,
      (
        organisations,
      ) => `SELECT organisation_id::text AS org, count(*) AS value FROM (SELECT p.organisation_id, ${FIRST_ORDER} AS won_at FROM read.projects p WHERE ${organisations}) w
       WHERE won_at <= $1::timestamptz AND won_at > $1::timestamptz - $2::interval GROUP BY 1`,
      asOf,
      months,
      organisationId,
    ),
  deals_approved: (db, asOf, months, organisationId) =>
    byOrganisation(
      db,
      (organisations) => `SELECT organisation_id::text AS org, count(*) AS value FROM read.projects
       WHERE registration_status IN ('approved', 'expired') AND reviewed_at <= $1::timestamptz AND reviewed_at > $1::timestamptz - $2::interval AND ${organisations} GROUP BY 1`,
      asOf,
      months,
      organisationId,
    ),
  leads_converted: (db, asOf, months, organisationId) =>
    byOrganisation(
      db,
      (organisations) => `SELECT organisation_id::text AS org, count(*) AS value FROM read.leads
       WHERE organisation_id IS NOT NULL AND converted_at <= $1::timestamptz AND converted_at > $1::timestamptz - $2::interval AND ${organisations} GROUP BY 1`,
      asOf,
      months,
      organisationId,
    ),
  lead_acceptance_rate: (db, asOf, months, organisationId) =>
    byOrganisation(
      db,
      (
        organisations,
      ) => `SELECT organisation_id::text AS org, round(100.0 * count(*) FILTER (WHERE outcome IN ('accepted', 'reassigned') AND answered_at IS NOT NULL) / count(*), 1) AS value
       FROM read.lead_offers WHERE offered_at <= $1::timestamptz AND offered_at > $1::timestamptz - $2::interval AND outcome <> 'pending' AND ${organisations} GROUP BY 1`,
      asOf,
      months,
      organisationId,
    ),
  // People holding a valid certification at `asOf`: a certification counts while it runs, whatever the window.
  certified_people: (db, asOf, _months, organisationId) => certifiedPeopleByOrganisation(db, asOf, organisationId),
};

/** The values every requirement of the ladder needs, for every organisation, as of `asOf`. */
export async function measureOrganisations(db: Queryable, requirements: Requirement[], asOf: Date, organisationId?: string): Promise<Map<string, Measures>> {
  const wanted = [...new Map(requirements.map((r) => [measureKey(r), r]))];
  const measured = await Promise.all(wanted.map(([, requirement]) => MEASURES[requirement.kind](db, asOf, requirement.window_months, organisationId)));
  const result = new Map<string, Measures>();
  wanted.forEach(([key], i) => {
    for (const [org, value] of measured[i]) result.set(org, { ...(result.get(org) ?? {}), [key]: value });
  });
  return result;
}

// ---- projection ----

const refOf = (row: { tier_id: string; tier_name: string; tier_rank: number }): TierRef => ({ id: row.tier_id, name: row.tier_name, rank: row.tier_rank });

async function startPeriod(db: PoolClient, eventId: string, organisationId: string, tier: TierRef, at: string) {
  await db.query('UPDATE programme_tier_periods SET to_at = $2 WHERE organisation_id = $1 AND to_at IS NULL', [organisationId, at]);
  await db.query(
    'INSERT INTO programme_tier_periods (event_id, organisation_id, tier_id, tier_name, tier_rank, from_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING',
    [eventId, organisationId, tier.id, tier.name, tier.rank, at],
  );
}

async function addHistory(
  db: PoolClient,
  recorded: RecordedEvent,
  organisationId: string,
  entry: {
    kind: string;
    from?: TierRef | null;
    to?: TierRef | null;
    quarter?: string | null;
    reason?: string | null;
    measured?: Measures;
    missing?: Measured[];
  },
) {
  await db.query(
    `INSERT INTO programme_history (event_id, organisation_id, at, kind, from_tier, to_tier, quarter, reason, measured, missing) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
    [
      recorded.id,
      organisationId,
      recorded.metadata.occurredAt,
      entry.kind,
      entry.from ? JSON.stringify(entry.from) : null,
      entry.to ? JSON.stringify(entry.to) : null,
      entry.quarter ?? null,
      entry.reason ?? null,
      JSON.stringify(entry.measured ?? {}),
      JSON.stringify(entry.missing ?? []),
    ],
  );
}

const bumpStanding = (db: PoolClient, organisationId: string, at: string, set: string, params: unknown[]) =>
  db.query(`UPDATE programme_standings SET ${set}, version = version + 1, updated_at = $2 WHERE organisation_id = $1`, [organisationId, at, ...params]);

async function applyProgrammeEvent(recorded: RecordedEvent, db: PoolClient) {
  const event = asDomainEvent<TierEvent | StandingEvent | RunEvent>(recorded);
  const at = recorded.metadata.occurredAt;
  switch (event.type) {
    case 'ProgrammeTierCreated.v1': {
      const d = event.data;
      await db.query(
        `INSERT INTO programme_tiers (id, name, rank, description, requirements, benefits, version, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $7) ON CONFLICT DO NOTHING`,
        [d.tierId, d.name, d.rank, d.description, JSON.stringify(d.requirements), JSON.stringify(d.benefits), at],
      );
      await db.query(
        `INSERT INTO programme_tier_versions (tier_id, version, name, rank, benefits, valid_from) VALUES ($1, 1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
        [d.tierId, d.name, d.rank, JSON.stringify(d.benefits), at],
      );
      return;
    }
    case 'ProgrammeTierUpdated.v1': {
      const { tierId, changes } = event.data;
      const { rows } = await db.query<{ version: number }>(
        `UPDATE programme_tiers SET name = coalesce($2, name), rank = coalesce($3, rank), description = coalesce($4, description), requirements = coalesce($5, requirements),
           benefits = coalesce($6, benefits), version = version + 1, updated_at = $7 WHERE id = $1 RETURNING version`,
        [
          tierId,
          changes.name ?? null,
          changes.rank ?? null,
          changes.description ?? null,
          changes.requirements ? JSON.stringify(changes.requirements) : null,
          changes.benefits ? JSON.stringify(changes.benefits) : null,
          at,
        ],
      );
      if (!rows[0]) return;
      await db.query('UPDATE programme_tier_versions SET valid_to = $2 WHERE tier_id = $1 AND valid_to IS NULL', [tierId, at]);
      await db.query(
        `INSERT INTO programme_tier_versions (tier_id, version, name, rank, benefits, valid_from) SELECT id, version, name, rank, benefits, $2 FROM programme_tiers WHERE id = $1 ON CONFLICT DO NOTHING`,
        [tierId, at],
      );
      if (changes.name !== undefined || changes.rank !== undefined) {
        await db.query(
          'UPDATE programme_standings SET tier_name = t.name, tier_rank = t.rank FROM programme_tiers t WHERE t.id = $1 AND programme_standings.tier_id = t.id',
          [tierId],
        );
        await db.query(
          'UPDATE programme_tier_periods SET tier_name = t.name, tier_rank = t.rank FROM programme_tiers t WHERE t.id = $1 AND programme_tier_periods.tier_id = t.id',
          [tierId],
        );
      }
      return;
    }
    case 'PartnerTierChanged.v1': {
      const d = event.data;
      const existing = await db.query<{ override: unknown }>('SELECT override FROM programme_standings WHERE organisation_id = $1', [d.organisationId]);
      if (!existing.rows[0]) {
        await db.query(
          `INSERT INTO programme_standings (organisation_id, tier_id, tier_name, tier_rank, since, measured_tier, measured, version, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $5)`,
          [d.organisationId, d.toTier.id, d.toTier.name, d.toTier.rank, at, JSON.stringify(d.toTier), JSON.stringify(d.measured)],
        );
        await startPeriod(db, recorded.id, d.organisationId, d.toTier, at);
      } else if (existing.rows[0].override) {
        await bumpStanding(db, d.organisationId, at, 'measured_tier = $3, measured = $4, at_risk = NULL, at_risk_since = NULL', [
          JSON.stringify(d.toTier),
          JSON.stringify(d.measured),
        ]);
      } else {
        await bumpStanding(
          db,
          d.organisationId,
          at,
          'tier_id = $3, tier_name = $4, tier_rank = $5, since = $2, measured_tier = $6, measured = $7, at_risk = NULL, at_risk_since = NULL',
          [d.toTier.id, d.toTier.name, d.toTier.rank, JSON.stringify(d.toTier), JSON.stringify(d.measured)],
        );
        await startPeriod(db, recorded.id, d.organisationId, d.toTier, at);
      }
      await addHistory(db, recorded, d.organisationId, {
        kind: d.direction === 'demoted' ? 'demoted' : 'promoted',
        from: d.fromTier,
        to: d.toTier,
        quarter: d.quarter,
        measured: d.measured,
        missing: d.missing,
      });
      return;
    }
    case 'PartnerTierAtRisk.v1': {
      const d = event.data;
      await bumpStanding(db, d.organisationId, at, 'at_risk = $3, at_risk_since = $2, measured = $4', [
        JSON.stringify({ quarter: d.quarter, missing: d.missing, demotionOn: d.demotionOn }),
        JSON.stringify(d.measured),
      ]);
      await addHistory(db, recorded, d.organisationId, { kind: 'at_risk', from: d.tier, quarter: d.quarter, measured: d.measured, missing: d.missing });
      return;
    }
    case 'PartnerTierRecovered.v1': {
      const d = event.data;
      await bumpStanding(db, d.organisationId, at, 'at_risk = NULL, at_risk_since = NULL, measured = $3', [JSON.stringify(d.measured)]);
      await addHistory(db, recorded, d.organisationId, { kind: 'recovered', to: d.tier, quarter: d.quarter, measured: d.measured });
      return;
    }
    case 'PartnerTierEvaluated.v1': {
      const d = event.data;
      await bumpStanding(
        db,
        d.organisationId,
        at,
        "measured = $3, last_evaluated_quarter = CASE WHEN $4 = 'quarterly' THEN $5 ELSE coalesce(last_evaluated_quarter, $5) END, last_evaluated_at = $2",
        [JSON.stringify(d.measured), d.kind, d.quarter],
      );
      return;
    }
    case 'PartnerTierOverridden.v1': {
      const d = event.data;
      const override = JSON.stringify({ tier: d.tier, reason: d.reason, endsOn: d.endsOn, by: d.by, at });
      const { rowCount } = await bumpStanding(
        db,
        d.organisationId,
        at,
        'tier_id = $3, tier_name = $4, tier_rank = $5, since = $2, override = $6, at_risk = NULL, at_risk_since = NULL',
        [d.tier.id, d.tier.name, d.tier.rank, override],
      );
      if (!rowCount) {
        await db.query(
          `INSERT INTO programme_standings (organisation_id, tier_id, tier_name, tier_rank, since, measured_tier, override, version, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $5)`,
          [d.organisationId, d.tier.id, d.tier.name, d.tier.rank, at, JSON.stringify(d.fromTier ?? d.tier), override],
        );
      }
      await startPeriod(db, recorded.id, d.organisationId, d.tier, at);
      await addHistory(db, recorded, d.organisationId, { kind: 'override_set', from: d.fromTier, to: d.tier, reason: d.reason });
      return;
    }
    case 'PartnerTierOverrideEnded.v1': {
      const d = event.data;
      await bumpStanding(db, d.organisationId, at, 'tier_id = $3, tier_name = $4, tier_rank = $5, since = $2, override = NULL', [
        d.restoredTier.id,
        d.restoredTier.name,
        d.restoredTier.rank,
      ]);
      await startPeriod(db, recorded.id, d.organisationId, d.restoredTier, at);
      await addHistory(db, recorded, d.organisationId, { kind: 'override_ended', from: d.tier, to: d.restoredTier, reason: d.reason });
      return;
    }
    case 'ProgrammeEvaluationRecorded.v1': {
      const d = event.data;
      const counts = { promoted: 0, demoted: 0, at_risk: 0, recovered: 0, unchanged: 0, overridden: 0, skipped: 0 };
      for (const result of d.results) counts[result.outcome] += 1;
      await db.query(
        `INSERT INTO programme_runs (id, quarter, kind, trigger, requested_by, evaluated_at, counts, results) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [d.runId, d.quarter, d.kind, d.trigger, d.requestedBy, at, JSON.stringify(counts), JSON.stringify(d.results)],
      );
      return;
    }
    default:
      return;
  }
}

/** The record streams whose changes move an organisation's scorecard, and where their organisation is read. */
const SCORECARD_SOURCES: Record<string, string> = {
  orders: 'SELECT organisation_id, id::text AS record_id FROM orders WHERE id = ANY($1::uuid[])',
  projects: 'SELECT organisation_id, id::text AS record_id FROM projects WHERE id = ANY($1::uuid[])',
  rebates: 'SELECT organisation_id, id::text AS record_id FROM rebates WHERE id = ANY($1::uuid[])',
  leads: 'SELECT organisation_id, lead_id::text AS record_id FROM lead_offers WHERE lead_id = ANY($1::uuid[])',
  tickets: 'SELECT organisation_id, id::text AS record_id FROM tickets WHERE id = ANY($1::uuid[])',
  fundClaims: 'SELECT organisation_id, id::text AS record_id FROM fund_claims WHERE id = ANY($1::uuid[])',
  enrolments: 'SELECT organisation_id, enrolment_id::text AS record_id FROM certifications WHERE enrolment_id = ANY($1::uuid[])',
};

/** The organisations whose records the events changed, each with the moment of its latest such event. */
async function organisationsTouched(events: readonly RecordedEvent[], db: PoolClient): Promise<Map<string, string>> {
  const ids = new Map<string, Map<string, string>>();
  const touched = new Map<string, string>();
  for (const event of events) {
    const dash = event.streamId.indexOf('-');
    const prefix = event.streamId.slice(0, dash);
    const id = event.streamId.slice(dash + 1);
    if (!SCORECARD_SOURCES[prefix] || !isUuid(id)) continue;
    const at = event.metadata.occurredAt;
    // A deleted record is gone from its table: the event itself names its organisation.
    const named = (event.data as { organisationId?: unknown } | null)?.organisationId;
    if (typeof named === 'string' && isUuid(named)) touched.set(named, touched.has(named) && touched.get(named)! > at ? touched.get(named)! : at);
    const records = ids.get(prefix) ?? new Map<string, string>();
    if (!records.has(id) || records.get(id)! < at) records.set(id, at);
    ids.set(prefix, records);
  }
  for (const [prefix, records] of ids) {
    const { rows } = await db.query<{ organisation_id: string | null; record_id: string }>(SCORECARD_SOURCES[prefix], [[...records.keys()]]);
    for (const row of rows) {
      if (!row.organisation_id) continue;
      const at = records.get(row.record_id)!;
      if (!touched.has(row.organisation_id) || touched.get(row.organisation_id)! < at) touched.set(row.organisation_id, at);
    }
  }
  return touched;
}

/**
 * The score (0–100) of a quarter, from the organisation's own figures only (so a rank never needs
 * another organisation's figures to be shown): 40 for revenue (full at $150,000 delivered), 20 × the
 * win rate, 15 for approved registrations (full at 5), 15 × the lead acceptance rate, and 10 for
 * support (less the share of its open tickets that are overdue). Recorded in docs/decisions.md.
 */
export const SCORE_SQL = `round((
    40 * least(1, revenue_cents / 15000000.0)
  + 20 * coalesce(deals_won::numeric / nullif(deals_won + deals_lost, 0), 0)
  + 15 * least(1, deals_approved / 5.0)
  + 15 * coalesce(leads_accepted::numeric / nullif(leads_received, 0), 0)
  + 10 * (1 - coalesce(overdue_tickets::numeric / nullif(open_tickets, 0), 0))
  )::numeric, 1)`;

/**
 * Recomputes every quarter's scorecard of these organisations from the record models (set-based).
 * `updated_at` is the latest change of the records it counts (read from them, not from the batch), so
 * a rebuild writes the same rows whatever its batches.
 */
export async function recomputeScorecards(db: PoolClient, touched: Map<string, string>): Promise<void> {
  if (!touched.size) return;
  const organisations = [...touched.keys()];
  await db.query('DELETE FROM scorecards WHERE organisation_id = ANY($1::uuid[])', [organisations]);
  await db.query(
    `WITH orgs AS (SELECT DISTINCT unnest($1::uuid[]) AS org),
     moments AS (
       SELECT o.organisation_id AS org, o.delivered_at AS t FROM orders o JOIN orgs ON orgs.org = o.organisation_id WHERE o.status = 'delivered' AND o.delivered_at IS NOT NULL
       UNION ALL SELECT p.organisation_id, p.submitted_at FROM projects p JOIN orgs ON orgs.org = p.organisation_id
       UNION ALL SELECT r.organisation_id, r.purchase_date::timestamp AT TIME ZONE 'UTC' FROM rebates r JOIN orgs ON orgs.org = r.organisation_id
       UNION ALL SELECT l.organisation_id, l.offered_at FROM lead_offers l JOIN orgs ON orgs.org = l.organisation_id
       UNION ALL SELECT t.organisation_id, t.created_at FROM tickets t JOIN orgs ON orgs.org = t.organisation_id
       UNION ALL SELECT c.organisation_id, c.paid_at::timestamp AT TIME ZONE 'UTC' FROM fund_claims c JOIN orgs ON orgs.org = c.organisation_id WHERE c.paid_at IS NOT NULL
       UNION ALL SELECT c.organisation_id, c.issued_at FROM certifications c JOIN orgs ON orgs.org = c.organisation_id
     ),
     quarters AS (SELECT DISTINCT org, date_trunc('quarter', t AT TIME ZONE 'UTC') AS qs FROM moments),
     latest AS (
       SELECT org, max(t) AS at FROM (
         SELECT o.organisation_id AS org, o.updated_at AS t FROM orders o JOIN orgs ON orgs.org = o.organisation_id
         UNION ALL SELECT p.organisation_id, p.updated_at FROM projects p JOIN orgs ON orgs.org = p.organisation_id
         UNION ALL SELECT r.organisation_id, r.updated_at FROM rebates r JOIN orgs ON orgs.org = r.organisation_id
         UNION ALL SELECT l.organisation_id, coalesce(l.answered_at, l.offered_at) FROM lead_offers l JOIN orgs ON orgs.org = l.organisation_id
         UNION ALL SELECT k.organisation_id, k.updated_at FROM tickets k JOIN orgs ON orgs.org = k.organisation_id
         UNION ALL SELECT c.organisation_id, c.updated_at FROM fund_claims c JOIN orgs ON orgs.org = c.organisation_id
         UNION ALL SELECT c.organisation_id, c.updated_at FROM certifications c JOIN orgs ON orgs.org = c.organisation_id
       ) changes GROUP BY org
     ),
     bounds AS (SELECT org, qs::date AS qs, qs AT TIME ZONE 'UTC' AS f, (qs + interval '3 months') AT TIME ZONE 'UTC' AS t, (qs - interval '3 months') AT TIME ZONE 'UTC' AS pf FROM quarters),
     deals AS (
       SELECT p.organisation_id AS org, p.submitted_at, p.registration_status, p.reviewed_at, p.expires_at, p.fund_request_id,
         (SELECT min(o.created_at) FROM project_orders po JOIN orders o ON o.id = po.order_id WHERE po.project_id = p.id AND o.status <> 'cancelled') AS won_at
       FROM projects p JOIN orgs ON orgs.org = p.organisation_id
     ),
     figures AS (
       SELECT b.org, b.qs,
         (SELECT coalesce(round(sum(o.total_amount) * 100), 0) FROM orders o WHERE o.organisation_id = b.org AND o.status = 'delivered' AND o.delivered_at >= b.f AND o.delivered_at < b.t) AS revenue_cents,
         (SELECT coalesce(round(sum(o.total_amount) * 100), 0) FROM orders o WHERE o.organisation_id = b.org AND o.status = 'delivered' AND o.delivered_at >= b.pf AND o.delivered_at < b.f) AS previous_revenue_cents,
         (SELECT count(*) FROM deals d WHERE d.org = b.org AND d.submitted_at >= b.f AND d.submitted_at < b.t) AS deals_registered,
         (SELECT count(*) FROM deals d WHERE d.org = b.org AND d.registration_status IN ('approved', 'expired') AND d.reviewed_at >= b.f AND d.reviewed_at < b.t) AS deals_approved,
         (SELECT count(*) FROM deals d WHERE d.org = b.org AND d.won_at >= b.f AND d.won_at < b.t) AS deals_won,
         (SELECT count(*) FROM deals d WHERE d.org = b.org AND d.won_at IS NULL
            AND ((d.registration_status = 'rejected' AND d.reviewed_at >= b.f AND d.reviewed_at < b.t) OR (d.registration_status = 'expired' AND d.expires_at >= b.f AND d.expires_at < b.t))) AS deals_lost,
         (SELECT round(avg(extract(epoch FROM d.won_at - d.submitted_at) / 86400)::numeric, 1) FROM deals d WHERE d.org = b.org AND d.won_at >= b.f AND d.won_at < b.t) AS avg_days_to_first_order,
         (SELECT coalesce(round(sum(r.rebate_amount) * 100), 0) FROM rebates r WHERE r.organisation_id = b.org AND r.status = 'approved' AND r.purchase_date >= b.qs AND r.purchase_date < b.qs + interval '3 months') AS rebates_approved_cents,
         (SELECT coalesce(round(sum(r.purchase_amount) * 100), 0) FROM rebates r WHERE r.organisation_id = b.org AND r.purchase_date >= b.qs AND r.purchase_date < b.qs + interval '3 months') AS rebates_claimed_cents,
         (SELECT coalesce(round(sum(r.purchase_amount) * 100), 0) FROM rebates r WHERE r.organisation_id = b.org AND r.status = 'approved' AND r.purchase_date >= b.qs AND r.purchase_date < b.qs + interval '3 months') AS rebate_purchases_approved_cents,
         (SELECT coalesce(round(sum(r.purchase_amount) * 100), 0) FROM rebates r WHERE r.organisation_id = b.org AND r.status IN ('approved', 'rejected') AND r.purchase_date >= b.qs AND r.purchase_date < b.qs + interval '3 months') AS rebate_purchases_decided_cents,
         (SELECT coalesce(sum(c.paid_amount_cents), 0) FROM fund_claims c WHERE c.organisation_id = b.org AND c.paid_at >= b.qs AND c.paid_at < b.qs + interval '3 months') AS mdf_spent_cents,
         (SELECT coalesce(round(sum(o.total_amount) * 100), 0) FROM projects p JOIN project_orders po ON po.project_id = p.id JOIN orders o ON o.id = po.order_id
            WHERE p.organisation_id = b.org AND p.fund_request_id IS NOT NULL AND o.status = 'delivered' AND o.delivered_at >= b.f AND o.delivered_at < b.t) AS mdf_revenue_cents,
         (SELECT count(*) FROM lead_offers l WHERE l.organisation_id = b.org AND l.offered_at >= b.f AND l.offered_at < b.t) AS leads_received,
         (SELECT count(*) FROM leads l WHERE l.organisation_id = b.org AND l.accepted_at >= b.f AND l.accepted_at < b.t) AS leads_accepted,
         (SELECT count(*) FROM leads l WHERE l.organisation_id = b.org AND l.converted_at >= b.f AND l.converted_at < b.t) AS leads_converted,
         (SELECT count(*) FROM tickets k WHERE k.organisation_id = b.org AND k.created_at >= b.f AND k.created_at < b.t AND k.status IN ('Open', 'In Progress')) AS open_tickets,
         (SELECT count(*) FROM tickets k WHERE k.organisation_id = b.org AND k.created_at >= b.f AND k.created_at < b.t AND k.status IN ('Open', 'In Progress') AND k.overdue_at IS NOT NULL) AS overdue_tickets,
         (SELECT count(DISTINCT c.user_id) FROM certifications c WHERE c.organisation_id = b.org AND c.issued_at < b.t AND c.expires_at > b.f) AS certified_people
       FROM bounds b
     )
     INSERT INTO scorecards (organisation_id, quarter, quarter_start, revenue_cents, previous_revenue_cents, deals_registered, deals_approved, deals_won, deals_lost, avg_days_to_first_order,
       rebates_approved_cents, rebates_claimed_cents, rebate_purchases_approved_cents, rebate_purchases_decided_cents, mdf_spent_cents, mdf_revenue_cents,
       leads_received, leads_accepted, leads_converted, open_tickets, overdue_tickets, certified_people, score, updated_at)
     SELECT org, to_char(qs, 'YYYY') || '-Q' || extract(quarter FROM qs), qs, revenue_cents, previous_revenue_cents, deals_registered, deals_approved, deals_won, deals_lost, avg_days_to_first_order,
       rebates_approved_cents, rebates_claimed_cents, rebate_purchases_approved_cents, rebate_purchases_decided_cents, mdf_spent_cents, mdf_revenue_cents,
       leads_received, leads_accepted, leads_converted, open_tickets, overdue_tickets, certified_people, ${SCORE_SQL},
       (SELECT latest.at FROM latest WHERE latest.org = figures.org)
     FROM figures`,
    [organisations],
  );
}

export const programmeProjection: Projection = {
  name: 'programme',
  async apply(event, db, context) {
    await applyProgrammeEvent(event, db);
    if (!context?.replaying) await recomputeScorecards(db, await organisationsTouched([event], db));
  },
  async applyBatch(events, db, context) {
    for (const event of events) if (/^programme(Tiers|Standings|Runs)-/.test(event.streamId)) await applyProgrammeEvent(event, db);
    // A replay of the whole log works the scorecards out once, at its end (`replayed`): after every batch, each
    // touched organisation's whole history would be recounted again and again, which grows with the log.
    if (!context?.replaying) await recomputeScorecards(db, await organisationsTouched(events, db));
  },
  async replayed(db) {
    // Scorecards depend only on the record models' final state, so one pass over every organisation writes what
    // the batches would have (organisations without any record get none, as live).
    const { rows } = await db.query<{ id: string }>('SELECT id::text FROM users');
    await recomputeScorecards(db, new Map(rows.map((row) => [row.id, ''])));
  },
};

// ---- tiers ----

interface TierRow {
  id: string;
  name: string;
  rank: number;
  description: string;
  requirements: Requirement[];
  benefits: Benefits;
  version: number;
  created_at: Date;
  updated_at: Date;
  organisations: string;
}

const toTier = (row: TierRow): Tier => ({
  id: row.id,
  name: row.name,
  rank: row.rank,
  description: row.description,
  requirements: row.requirements,
  benefits: row.benefits,
  organisations: Number(row.organisations),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  version: row.version,
});

const TIER_SELECT = `SELECT t.id::text, t.name, t.rank, t.description, t.requirements, t.benefits, t.version, t.created_at, t.updated_at,
  (SELECT count(*) FROM read.programme_standings s WHERE s.tier_id = t.id) AS organisations FROM read.programme_tiers t`;

/** The ladder, lowest rank first. */
export async function listTiers(db: Queryable, ids?: string[]): Promise<Tier[]> {
  const { rows } = ids?.length
    ? await db.query<TierRow>(`${TIER_SELECT} WHERE t.id = ANY($1::uuid[]) ORDER BY t.rank`, [ids])
    : // With its (empty) values, so the connection prepares it: every partner's dashboard reads the tiers.
      await db.query<TierRow>(`${TIER_SELECT} ORDER BY t.rank`, []);
  return rows.map(toTier);
}

export async function findTier(db: Queryable, id: string): Promise<Tier | undefined> {
  const { rows } = await db.query<TierRow>(`${TIER_SELECT} WHERE t.id = $1`, [id]);
  return rows[0] ? toTier(rows[0]) : undefined;
}

export async function tierWithRank(db: Queryable, rank: number, except: string | null): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM read.programme_tiers WHERE rank = $1 AND id::text IS DISTINCT FROM $2', [rank, except]);
  return rows.length > 0;
}

// ---- standing ----

interface StandingRow {
  organisation_id: string;
  organisation_name: string | null;
  tier_id: string;
  tier_name: string;
  tier_rank: number;
  since: Date;
  measured_tier: TierRef;
  at_risk: { quarter: string; missing: Measured[]; demotionOn: string } | null;
  at_risk_since: Date | null;
  override: { tier: TierRef; reason: string; endsOn: string; by: string | null; at: string } | null;
  last_evaluated_quarter: string | null;
}

const organisationName = async (db: Queryable, id: string) =>
  (await db.query<{ name: string | null }>(`SELECT coalesce(u.company_name, u.full_name) AS name FROM read.users u WHERE u.id = $1`, [id])).rows[0]?.name ??
  null;

const quarterLabel = (key: string | null) => (key ? key.replace(/^(\d{4})-Q(\d)$/, 'Q$2 $1') : null);

/** Where an organisation stands now: the tier in force, its benefits, and every requirement of the next tier measured as of `now`. */
export async function standingOf(db: Queryable, organisationId: string, now: Date): Promise<Standing | undefined> {
  // The account and its standing (none before its first evaluation) in one statement, the tiers beside it.
  const [{ rows }, tiers] = await Promise.all([
    db.query<{ account_name: string | null } & (StandingRow | { [K in keyof StandingRow]: null })>(
      `SELECT coalesce(u.company_name, u.full_name) AS account_name, s.*
       FROM read.users u LEFT JOIN read.programme_standings s ON s.organisation_id = u.id WHERE u.id = $1`,
      [organisationId],
    ),
    listTiers(db),
  ]);
  if (!rows[0] || !tiers.length) return undefined;
  const { account_name: name, ...standing } = rows[0];
  // Every column of the standing is null when the organisation has none yet.
  const row = standing.organisation_id === null ? undefined : (standing as StandingRow);
  const entry = tiers[0];
  const current = row ? (tiers.find((t) => t.id === row.tier_id) ?? entry) : entry;
  const next = tiers.find((t) => t.rank > current.rank) ?? null;
  const shown = next ?? current;
  const measures = (await measureOrganisations(db, shown.requirements, now, organisationId)).get(organisationId) ?? {};
  const progress: RequirementProgress[] = measureAll(shown.requirements, measures);
  const missing = next ? progress.filter((p) => !p.met) : [];
  const ref = (t: { id: string; name: string; rank: number }): TierRef => ({ id: t.id, name: t.name, rank: t.rank });
  return {
    organisation_id: organisationId,
    organisation_name: name ?? '',
    tier: ref(current),
    since: row?.since.toISOString() ?? null,
    measured_tier: row ? row.measured_tier : ref(entry),
    next_tier: next ? ref(next) : null,
    progress,
    missing,
    missing_sentence: missing.length ? missing.map((m) => m.sentence).join(', ') : null,
    at_risk: Boolean(row?.at_risk),
    at_risk_since: row?.at_risk_since?.toISOString() ?? null,
    at_risk_missing: row?.at_risk?.missing ?? [],
    demotion_on: row?.at_risk?.demotionOn ?? null,
    override: row?.override
      ? { tier: row.override.tier, reason: row.override.reason, ends_on: row.override.endsOn, by: row.override.by, at: row.override.at }
      : null,
    benefits: current.benefits,
    last_evaluated_quarter: quarterLabel(row?.last_evaluated_quarter ?? null),
    next_evaluation: nextQuarterStart(now),
  };
}

export async function standingHistoryOf(db: Queryable, organisationId: string): Promise<StandingHistoryEntry[]> {
  const { rows } = await db.query<{
    at: Date;
    kind: StandingHistoryEntry['kind'];
    from_tier: TierRef | null;
    to_tier: TierRef | null;
    quarter: string | null;
    reason: string | null;
    measured: Measures;
    missing: Measured[];
  }>(
    'SELECT at, kind, from_tier, to_tier, quarter, reason, measured, missing FROM read.programme_history WHERE organisation_id = $1 ORDER BY at DESC, event_id',
    [organisationId],
  );
  return rows.map((r) => ({ ...r, at: r.at.toISOString(), quarter: quarterLabel(r.quarter) }));
}

/** The tier in force for an organisation at a moment (null before its first evaluation). */
export async function tierInForceAt(db: Queryable, organisationId: string, at: Date | string): Promise<(TierRef & { benefits: Benefits }) | null> {
  const { rows } = await db.query<{ tier_id: string; tier_name: string; tier_rank: number; benefits: Benefits }>(
    `SELECT p.tier_id::text, v.name AS tier_name, v.rank AS tier_rank, v.benefits FROM read.programme_tier_periods p
     JOIN read.programme_tier_versions v ON v.tier_id = p.tier_id AND v.valid_from <= $2::timestamptz AND (v.valid_to IS NULL OR v.valid_to > $2::timestamptz)
     WHERE p.organisation_id = $1 AND p.from_at <= $2::timestamptz AND (p.to_at IS NULL OR p.to_at > $2::timestamptz)
     ORDER BY p.from_at DESC LIMIT 1`,
    [organisationId, typeof at === 'string' ? at : at.toISOString()],
  );
  return rows[0] ? { ...refOf(rows[0]), benefits: rows[0].benefits } : null;
}

// ---- runs ----

interface RunRow {
  id: string;
  quarter: string;
  kind: 'quarterly' | 'interim';
  trigger: 'schedule' | 'admin';
  requested_by: string | null;
  requested_by_name: string | null;
  evaluated_at: Date;
  counts: EvaluationRun['counts'];
  results: EvaluationRun['results'];
}

const toRun = (row: RunRow): EvaluationRun => ({
  id: row.id,
  quarter: quarterLabel(row.quarter) ?? row.quarter,
  kind: row.kind,
  trigger: row.trigger,
  requested_by: row.requested_by,
  requested_by_name: row.requested_by_name,
  evaluated_at: row.evaluated_at.toISOString(),
  counts: row.counts,
  results: row.results,
});

const RUN_COLUMNS = `r.id::text, r.quarter, r.kind, r.trigger, r.requested_by::text, u.full_name AS requested_by_name, r.evaluated_at, r.counts, r.results`;
const RUN_FROM = 'read.programme_runs r LEFT JOIN read.users u ON u.id = r.requested_by';
const RUN_SELECT = `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM}`;

export async function listRuns(db: Queryable, page: { limit: number; offset: number; ids?: string[] }): Promise<{ rows: EvaluationRun[]; total: number }> {
  const { rows, total } = await pageOf<RunRow>(db, {
    columns: RUN_COLUMNS,
    from: RUN_FROM,
    countFrom: 'read.programme_runs r',
    where: page.ids?.length ? 'WHERE r.id = ANY($1::uuid[])' : '',
    order: 'r.evaluated_at DESC, r.id',
    params: page.ids?.length ? [page.ids] : [],
    offset: page.offset,
    limit: page.limit,
  });
  return { rows: rows.map(toRun), total };
}

export async function findRun(db: Queryable, id: string): Promise<EvaluationRun | undefined> {
  const { rows } = await db.query<RunRow>(`${RUN_SELECT} WHERE r.id = $1`, [id]);
  return rows[0] ? toRun(rows[0]) : undefined;
}

// ---- scorecards ----

interface ScorecardRow {
  organisation_id: string;
  organisation_name: string | null;
  category: string | null;
  region: string | null;
  tier_id: string | null;
  tier_name: string | null;
  tier_rank: number | null;
  quarter: string;
  revenue_cents: string;
  previous_revenue_cents: string;
  deals_registered: number;
  deals_approved: number;
  deals_won: number;
  deals_lost: number;
  avg_days_to_first_order: string | null;
  rebates_approved_cents: string;
  rebates_claimed_cents: string;
  rebate_purchases_approved_cents: string;
  rebate_purchases_decided_cents: string;
  mdf_spent_cents: string;
  mdf_revenue_cents: string;
  leads_received: number;
  leads_accepted: number;
  leads_converted: number;
  open_tickets: number;
  overdue_tickets: number;
  certified_people: number;
  score: string;
  rank: string;
  ranked: string;
  trend: string[];
  updated_at: Date;
}

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : null);

export function rankBand(rank: number, of: number): RankBand {
  if (rank <= Math.ceil(of * 0.1)) return 'top_10';
  if (rank <= Math.ceil(of * 0.25)) return 'top_25';
  if (rank <= Math.ceil(of * 0.5)) return 'top_50';
  return 'lower_half';
}

/** The directory's rating: 1 to 5 stars in halves from the score, none for a quarter without sales, deals or leads. */
export function ratingOf(score: number, active: boolean): number | null {
  return active ? Math.round((1 + (4 * score) / 100) * 2) / 2 : null;
}

function toScorecard(row: ScorecardRow, showRank: boolean): Scorecard {
  const n = (v: string | number) => Number(v);
  const revenue = n(row.revenue_cents);
  const previous = n(row.previous_revenue_cents);
  const score = n(row.score);
  const active = revenue > 0 || row.deals_registered > 0 || row.leads_received > 0;
  return {
    id: row.organisation_id,
    organisation_id: row.organisation_id,
    organisation_name: row.organisation_name ?? '',
    category: row.category,
    region: row.region,
    tier: row.tier_id ? { id: row.tier_id, name: row.tier_name ?? '', rank: row.tier_rank ?? 0 } : null,
    quarter: row.quarter,
    quarter_label: quarterLabel(row.quarter) ?? row.quarter,
    revenue_cents: revenue,
    previous_revenue_cents: previous,
    growth_percent: previous > 0 ? Math.round(((revenue - previous) / previous) * 1000) / 10 : null,
    deals_registered: row.deals_registered,
    deals_approved: row.deals_approved,
    deals_won: row.deals_won,
    deals_lost: row.deals_lost,
    win_rate_percent: percent(row.deals_won, row.deals_won + row.deals_lost),
    avg_days_to_first_order: row.avg_days_to_first_order === null ? null : n(row.avg_days_to_first_order),
    rebates_approved_cents: n(row.rebates_approved_cents),
    rebates_claimed_cents: n(row.rebates_claimed_cents),
    rebate_attainment_percent: percent(n(row.rebate_purchases_approved_cents), n(row.rebate_purchases_decided_cents)),
    mdf_spent_cents: n(row.mdf_spent_cents),
    mdf_revenue_cents: n(row.mdf_revenue_cents),
    mdf_roi_percent: percent(n(row.mdf_revenue_cents), n(row.mdf_spent_cents)),
    leads_received: row.leads_received,
    leads_accepted: row.leads_accepted,
    leads_converted: row.leads_converted,
    lead_acceptance_percent: percent(row.leads_accepted, row.leads_received),
    lead_conversion_percent: percent(row.leads_converted, row.leads_accepted),
    open_tickets: row.open_tickets,
    overdue_tickets: row.overdue_tickets,
    certified_people: row.certified_people,
    score,
    rank: showRank ? n(row.rank) : null,
    ranked_organisations: showRank ? n(row.ranked) : null,
    rank_band: rankBand(n(row.rank), n(row.ranked)),
    rating: ratingOf(score, active),
    trend: row.trend.map(Number),
    updated_at: row.updated_at.toISOString(),
  };
}

export const SCORECARD_SORT_FIELDS = [
  'rank',
  'score',
  'organisation_name',
  'revenue_cents',
  'growth_percent',
  'deals_won',
  'win_rate_percent',
  'lead_acceptance_percent',
  'overdue_tickets',
  'tier',
] as const;
export type ScorecardSortField = (typeof SCORECARD_SORT_FIELDS)[number];
const SORT_SQL: Record<ScorecardSortField, string> = {
  rank: 'rank',
  score: 'score',
  organisation_name: 'lower(organisation_name)',
  revenue_cents: 'revenue_cents',
  growth_percent: 'CASE WHEN previous_revenue_cents > 0 THEN (revenue_cents - previous_revenue_cents)::numeric / previous_revenue_cents END',
  deals_won: 'deals_won',
  win_rate_percent: 'deals_won::numeric / nullif(deals_won + deals_lost, 0)',
  lead_acceptance_percent: 'leads_accepted::numeric / nullif(leads_received, 0)',
  overdue_tickets: 'overdue_tickets',
  tier: 'tier_rank',
};

export interface ScorecardFilters {
  quarter?: string;
  tier?: string;
  category?: string;
  region?: string;
  q?: string;
  ids?: string[];
  /** A partner's own organisation: only its rows. */
  organisationId?: string | null;
}

/** Every partner organisation's row in a quarter (distributors are not in the programme) ranked by score (ties by revenue, then name), with the revenue of its last eight quarters. */
/** Every partner's scorecard of the quarters `quarters` selects, ranked within its quarter. */
const rankedIn = (quarters: string) => `
  WITH ranked AS (
    SELECT s.*, coalesce(u.company_name, u.full_name) AS organisation_name, p.category, p.region,
      st.tier_id::text AS tier_id, st.tier_name, st.tier_rank,
      rank() OVER (PARTITION BY s.quarter ORDER BY s.score DESC, s.revenue_cents DESC) AS rank,
      count(*) OVER (PARTITION BY s.quarter) AS ranked,
      ARRAY(SELECT h.revenue_cents::text FROM read.scorecards h WHERE h.organisation_id = s.organisation_id AND h.quarter_start <= s.quarter_start AND h.quarter_start > s.quarter_start - interval '24 months' ORDER BY h.quarter_start) AS trend
    FROM read.scorecards s
    JOIN read.users u ON u.id = s.organisation_id
    LEFT JOIN read.partners p ON p.user_id = s.organisation_id
    LEFT JOIN read.programme_standings st ON st.organisation_id = s.organisation_id
    WHERE ${quarters} AND u.role = 'partner'
  )`;
/** One quarter ($1), or the latest with any scorecard when $1 is null. */
const RANKED = rankedIn(`s.quarter = coalesce($1::text, (SELECT quarter FROM read.scorecards ORDER BY quarter_start DESC LIMIT 1))`);

/** The quarter a list shows: the given one, else the latest with any scorecard. */
export async function scorecardQuarter(db: Queryable, quarter?: string): Promise<string | null> {
  if (quarter) return quarter;
  const { rows } = await db.query<{ quarter: string }>('SELECT quarter FROM read.scorecards ORDER BY quarter_start DESC LIMIT 1');
  return rows[0]?.quarter ?? null;
}

export async function listScorecards(
  db: Queryable,
  filters: ScorecardFilters,
  sort: { field: ScorecardSortField; order: 'ASC' | 'DESC' },
  page: { limit: number; offset: number },
): Promise<{ rows: Scorecard[]; total: number; quarter: string | null }> {
  const params: unknown[] = [filters.quarter ?? null];
  const where: string[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filters.organisationId) where.push(`organisation_id = ${param(filters.organisationId)}`);
  if (filters.tier) where.push(`(lower(tier_name) = lower(${param(filters.tier)}) OR tier_id = ${param(filters.tier)})`);
  if (filters.category) where.push(`lower(category) = lower(${param(filters.category)})`);
  if (filters.region) where.push(`lower(region) = lower(${param(filters.region)})`);
  if (filters.q) where.push(`organisation_name ILIKE ${param(`%${filters.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  if (filters.ids?.length) where.push(`organisation_id = ANY(${param(filters.ids)}::uuid[])`);
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const order = `${SORT_SQL[sort.field]} ${sort.order} NULLS LAST, rank, organisation_id`;
  // The page, its total and its quarter in one statement; a page past the end asks for the total on its own.
  const { rows } = await db.query<ScorecardRow & { list_total: string }>(
    `${RANKED} SELECT *, count(*) OVER () AS list_total FROM ranked ${clause} ORDER BY ${order} LIMIT ${param(page.limit)} OFFSET ${param(page.offset)}`,
    params,
  );
  const shown = rows.map(({ list_total: _total, ...row }) => toScorecard(row, !filters.organisationId));
  if (rows[0]) return { rows: shown, total: Number(rows[0].list_total), quarter: rows[0].quarter };
  const quarter = await scorecardQuarter(db, filters.quarter);
  if (!quarter) return { rows: [], total: 0, quarter: null };
  const total = await db.query<{ n: string }>(`${RANKED} SELECT count(*) AS n FROM ranked ${clause}`, [quarter, ...params.slice(1, params.length - 2)]);
  return { rows: [], total: Number(total.rows[0].n), quarter };
}

/** One organisation's scorecards, quarter by quarter (oldest first), each ranked within its quarter. */
export async function scorecardHistory(db: Queryable, organisationId: string, showRank: boolean): Promise<ScorecardDetail | undefined> {
  // Every quarter the organisation has a scorecard in, each ranked among that quarter's partners, in one statement.
  const { rows } = await db.query<ScorecardRow>(
    `${rankedIn('s.quarter IN (SELECT quarter FROM read.scorecards WHERE organisation_id = $1)')} SELECT * FROM ranked WHERE organisation_id = $1 ORDER BY quarter_start`,
    [organisationId],
  );
  const history = rows.map((row) => toScorecard(row, showRank));
  // Without a ranked scorecard the organisation is looked up on its own: it may exist with none yet.
  const name = rows[0] ? rows[0].organisation_name : await organisationName(db, organisationId);
  if (!rows[0] && !(await db.query('SELECT 1 FROM read.users WHERE id = $1', [organisationId])).rows.length) return undefined;
  return {
    id: organisationId,
    organisation_id: organisationId,
    organisation_name: name ?? '',
    current: history.at(-1) ?? null,
    history,
    sparklines: {
      quarters: history.map((h) => h.quarter_label),
      revenue_cents: history.map((h) => h.revenue_cents),
      score: history.map((h) => h.score),
      deals_won: history.map((h) => h.deals_won),
      win_rate_percent: history.map((h) => h.win_rate_percent),
    },
  };
}

/** The directory's rating of each organisation: from its latest scorecard (see `ratingOf`). */
export const LATEST_RATING_SQL = (organisationColumn: string) => `(SELECT CASE WHEN sc.revenue_cents > 0 OR sc.deals_registered > 0 OR sc.leads_received > 0
    THEN round((1 + 4 * sc.score / 100) * 2) / 2 END FROM read.scorecards sc WHERE sc.organisation_id = ${organisationColumn} ORDER BY sc.quarter_start DESC LIMIT 1)`;

/** The partner dashboard's tier card: the tier in force and the next tier's first unmet requirement (null without an organisation or a ladder). */
export async function programmeCard(db: Queryable, organisationId: string | undefined, now: Date): Promise<ProgrammeCard | null> {
  if (!organisationId) return null;
  const standing = await standingOf(db, organisationId, now);
  if (!standing) return null;
  return {
    tier: standing.tier,
    next_tier: standing.next_tier,
    first_missing: standing.missing[0] ?? null,
    at_risk: standing.at_risk,
    next_evaluation: standing.next_evaluation,
  };
}

/** Every evaluated organisation's tier in force (one organisation's for a partner), by tier then name. */
export async function listStandings(
  db: Queryable,
  filters: { organisationId: string | null; ids?: string[]; tier?: string; atRisk?: boolean; q?: string },
  page: { limit: number; offset: number },
): Promise<{ rows: StandingListRow[]; total: number }> {
  const params: unknown[] = [];
  const where: string[] = [];
  const param = (value: unknown) => `$${params.push(value)}`;
  if (filters.organisationId) where.push(`s.organisation_id = ${param(filters.organisationId)}`);
  if (filters.ids?.length) where.push(`s.organisation_id = ANY(${param(filters.ids)}::uuid[])`);
  if (filters.tier) where.push(`(s.tier_id::text = ${param(filters.tier)} OR lower(s.tier_name) = lower(${param(filters.tier)}))`);
  if (filters.atRisk !== undefined) where.push(filters.atRisk ? 's.at_risk IS NOT NULL' : 's.at_risk IS NULL');
  if (filters.q) where.push(`coalesce(u.company_name, u.full_name) ILIKE ${param(`%${filters.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  const { rows, total } = await pageOf<StandingRow & { last_evaluated_at: Date | null }>(db, {
    columns: 's.*, coalesce(u.company_name, u.full_name) AS organisation_name',
    from: 'read.programme_standings s JOIN read.users u ON u.id = s.organisation_id',
    where: where.length ? `WHERE ${where.join(' AND ')}` : '',
    order: 's.tier_rank DESC, lower(coalesce(u.company_name, u.full_name)), s.organisation_id',
    params,
    offset: page.offset,
    limit: page.limit,
  });
  return {
    total,
    rows: rows.map((row) => ({
      id: row.organisation_id,
      organisation_id: row.organisation_id,
      organisation_name: row.organisation_name ?? '',
      tier: refOf(row),
      since: row.since.toISOString(),
      measured_tier: row.measured_tier,
      at_risk: Boolean(row.at_risk),
      at_risk_since: row.at_risk_since?.toISOString() ?? null,
      demotion_on: row.at_risk?.demotionOn ?? null,
      override: row.override
        ? { tier: row.override.tier, reason: row.override.reason, ends_on: row.override.endsOn, by: row.override.by, at: row.override.at }
        : null,
      last_evaluated_quarter: quarterLabel(row.last_evaluated_quarter),
      last_evaluated_at: row.last_evaluated_at?.toISOString() ?? null,
    })),
  };
}

/** Whether an organisation's tier is set by an override (then the tier in force does not move with evaluations). */
export async function hasTierOverride(db: Queryable, organisationId: string): Promise<boolean> {
  const { rows } = await db.query<{ override: unknown }>('SELECT override FROM read.programme_standings WHERE organisation_id = $1', [organisationId]);
  return Boolean(rows[0]?.override);
}
