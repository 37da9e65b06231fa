import {
  currentWeek,
  dayKeys,
  growthPercentage,
  lastDays,
  monthKeys,
  previousPeriod,
  todayPeriod,
  weekStarts,
  type Period,
} from '../domain/dashboards/periods';
import type { OrderEvent } from '../domain/orders/orders';
import { ACTIVE_TICKET_STATUSES } from '../domain/tickets/tickets';
import { type PoolClient, type Queryable } from '../platform/db';
import { asDomainEvent, type RecordedEvent } from '../platform/eventstore';
import type { Projection } from './projection';
import { EXPIRING_SOON_DAYS, PROJECT_CONDITIONS } from './projects';

/**
 * Pre-aggregated order figures for the dashboards (read.dashboard_order_days, read.dashboard_order_counters,
 * read.dashboard_recipients), so a dashboard reads a few dozen rows however many orders there are.
 * Every organisation's figures are also kept together under the nil uuid.
 */
export const ALL_ORGANISATIONS = '00000000-0000-0000-0000-000000000000';

const COUNTERS = ['pending', 'approved', 'shipped', 'delivered', 'cancelled', 'delivered_on_time'] as const;
type Counter = (typeof COUNTERS)[number];
/** The counter an order status is kept in; `processing` is counted as pending, as the spec's statistics do. */
const counterOf = (status: string): Counter | null =>
  status === 'processing' ? 'pending' : (COUNTERS as readonly string[]).includes(status) ? (status as Counter) : null;

/** A batch's changes, summed in memory first: a few statements per batch instead of several per order. */
class Deltas {
  readonly days = new Map<string, { organisationId: string; day: string; orders: number; cents: number }>();
  readonly counters = new Map<string, Record<Counter, number>>();
  readonly recipients = new Map<string, { organisationId: string; recipient: string; firstDay: string }>();

  placed(organisationId: string, day: string, cents: number) {
    for (const org of [organisationId, ALL_ORGANISATIONS]) {
      const key = `${org}|${day}`;
      const row = this.days.get(key) ?? { organisationId: org, day, orders: 0, cents: 0 };
      row.orders += 1;
      row.cents += cents;
      this.days.set(key, row);
      this.count(org, 'pending', 1);
    }
  }

  count(organisationId: string, counter: Counter, by: number) {
    const row = this.counters.get(organisationId) ?? { pending: 0, approved: 0, shipped: 0, delivered: 0, cancelled: 0, delivered_on_time: 0 };
    row[counter] += by;
    this.counters.set(organisationId, row);
  }

  shippedTo(organisationId: string, recipient: string, day: string) {
    for (const org of [organisationId, ALL_ORGANISATIONS]) {
      const key = `${org}|${recipient}`;
      const known = this.recipients.get(key);
      if (!known || day < known.firstDay) this.recipients.set(key, { organisationId: org, recipient, firstDay: day });
    }
  }
}

export const dashboardProjection: Projection = {
  name: 'dashboard',
  apply(event: RecordedEvent, db: PoolClient) {
    return this.applyBatch!([event], db);
  },
  async applyBatch(events: readonly RecordedEvent[], db: PoolClient) {
    const orderEvents = events.filter((e) => e.type === 'OrderPlaced.v1' || e.type === 'OrderStatusChanged.v1');
    if (orderEvents.length === 0) return;
    const deltas = new Deltas();
    // Deliveries are on time when they arrive by the estimated date, which never changes after placing.
    const deliveredIds = orderEvents.flatMap((e) =>
      e.type === 'OrderStatusChanged.v1' && (e.data as { status: string }).status === 'delivered' ? [(e.data as { orderId: string }).orderId] : [],
    );
    const placedHere = new Map(
      orderEvents.flatMap((e) =>
        e.type === 'OrderPlaced.v1' ? [[(e.data as { orderId: string }).orderId, (e.data as { estimatedDelivery: string }).estimatedDelivery] as const] : [],
      ),
    );
    const estimated = new Map<string, string>(placedHere);
    const unknown = deliveredIds.filter((id) => !estimated.has(id));
    if (unknown.length) {
      const { rows } = await db.query<{ id: string; estimated: string }>(
        'SELECT id::text, estimated_delivery::text AS estimated FROM orders WHERE id = ANY($1::uuid[])',
        [unknown],
      );
      for (const row of rows) estimated.set(row.id, row.estimated);
    }

    for (const recorded of orderEvents) {
      const event = asDomainEvent<OrderEvent>(recorded);
      const day = recorded.metadata.occurredAt.slice(0, 10);
      if (event.type === 'OrderPlaced.v1') {
        const d = event.data;
        deltas.placed(d.organisationId, day, d.totalCents);
        const recipient = d.shippingAddress.email?.trim().toLowerCase();
        if (recipient) deltas.shippedTo(d.organisationId, recipient, day);
      } else if (event.type === 'OrderStatusChanged.v1') {
        const d = event.data;
        const from = counterOf(d.previousStatus);
        const to = counterOf(d.status);
        if (!from || !to || from === to) continue;
        const onTime = d.status === 'delivered' && estimated.has(d.orderId) && day <= estimated.get(d.orderId)!;
        for (const org of [d.organisationId, ALL_ORGANISATIONS]) {
          deltas.count(org, from, -1);
          deltas.count(org, to, 1);
          if (onTime) deltas.count(org, 'delivered_on_time', 1);
        }
      }
    }

    const days = [...deltas.days.values()];
    if (days.length) {
      await db.query(
        `INSERT INTO dashboard_order_days (organisation_id, day, orders, order_value)
         SELECT organisation_id, day, orders, cents / 100.0 FROM unnest($1::uuid[], $2::date[], $3::int[], $4::bigint[]) AS d(organisation_id, day, orders, cents)
         ON CONFLICT (organisation_id, day) DO UPDATE SET orders = dashboard_order_days.orders + EXCLUDED.orders, order_value = dashboard_order_days.order_value + EXCLUDED.order_value`,
        [days.map((r) => r.organisationId), days.map((r) => r.day), days.map((r) => r.orders), days.map((r) => r.cents)],
      );
    }
    const counters = [...deltas.counters.entries()];
    if (counters.length) {
      await db.query(
        `INSERT INTO dashboard_order_counters (organisation_id, ${COUNTERS.join(', ')})
         SELECT * FROM unnest($1::uuid[], ${COUNTERS.map((_, i) => `$${i + 2}::int[]`).join(', ')})
         ON CONFLICT (organisation_id) DO UPDATE SET ${COUNTERS.map((c) => `${c} = dashboard_order_counters.${c} + EXCLUDED.${c}`).join(', ')}`,
        [counters.map(([org]) => org), ...COUNTERS.map((c) => counters.map(([, row]) => row[c]))],
      );
    }
    const recipients = [...deltas.recipients.values()];
    if (recipients.length) {
      await db.query(
        `INSERT INTO dashboard_recipients (organisation_id, recipient, first_day)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::date[])
         ON CONFLICT (organisation_id, recipient) DO UPDATE SET first_day = least(dashboard_recipients.first_day, EXCLUDED.first_day)`,
        [recipients.map((r) => r.organisationId), recipients.map((r) => r.recipient), recipients.map((r) => r.firstDay)],
      );
    }
  },
};

/**
 * An erased person's ship-to addresses become their erased address, as a rebuild reads them. Called by
 * the orders projection, which knows the addresses (the dashboard keeps only the distinct recipients).
 */
export async function forgetRecipients(emails: readonly string[], erasedEmail: string, db: PoolClient): Promise<void> {
  if (emails.length === 0) return;
  await db.query(
    `WITH gone AS (DELETE FROM dashboard_recipients WHERE recipient = ANY($1::text[]) RETURNING organisation_id, first_day)
     INSERT INTO dashboard_recipients (organisation_id, recipient, first_day)
     SELECT organisation_id, $2, min(first_day) FROM gone GROUP BY organisation_id
     ON CONFLICT (organisation_id, recipient) DO UPDATE SET first_day = least(dashboard_recipients.first_day, EXCLUDED.first_day)`,
    [emails, erasedEmail],
  );
}

// ---- queries: every function takes the organisation (undefined: all of them) and `now` ----

const orgKey = (organisationId: string | undefined) => organisationId ?? ALL_ORGANISATIONS;
const money = (value: string | number) => Math.round(Number(value) * 100) / 100;

export interface OrderTotals {
  count: number;
  value: number;
}

/** Orders placed in a period, the count in the period before it of the same length, and the growth between them. */
export interface OrderGrowth extends OrderTotals {
  previousCount: number;
  growthPercentage: number | null;
}

/** What a dashboard reads of the orders per day: totals of named periods (each with its growth) and the two charts. */
export interface OrderDayQuestions<P extends string> {
  periods: Readonly<Record<P, Period>>;
  /** Orders and value per week (Monday first) for the last `count` weeks up to `anchor`'s week. */
  weeks?: { anchor: Date; count: number };
  /** Order value and count per calendar month for the last `count` months up to `anchor`'s month. */
  months?: { anchor: Date; count: number };
}

/**
 * The orders per day of one organisation (`organisation` is its SQL parameter; ALL_ORGANISATIONS for every
 * one) placed from `from` up to, not including, `before`: the one selection of read.dashboard_order_days that
 * the dashboards' figures and the order list's total both sum, so a card and the list it opens count alike.
 */
export function orderDaysBetween(organisation: string, days: { from?: string; before?: string }, param: (value: unknown) => string): string {
  const from = days.from ? ` AND day >= ${param(days.from)}::date` : '';
  const before = days.before ? ` AND day < ${param(days.before)}::date` : '';
  return `FROM read.dashboard_order_days WHERE organisation_id = ${organisation}${from}${before}`;
}

/**
 * Every order figure a dashboard shows, from the orders per day in one statement: each question is its own
 * branch of a UNION ALL, summed exactly as it would be alone, so one dashboard is one round trip for its orders.
 */
export async function orderFigures<P extends string>(db: Queryable, organisationId: string | undefined, questions: OrderDayQuestions<P>) {
  const params: unknown[] = [orgKey(organisationId)];
  const param = (value: unknown) => `$${params.push(value)}`;
  const days = (start: string, end: string) => orderDaysBetween('$1', { from: start, before: end }, param);
  const names = Object.keys(questions.periods) as P[];
  const branches = names.flatMap((name, i) => {
    const period = questions.periods[name];
    const previous = previousPeriod(period);
    return [
      `SELECT 'p' AS kind, '${i}' AS key, coalesce(sum(orders), 0) AS count, coalesce(sum(order_value), 0) AS value ${days(period.start, period.end)}`,
      `SELECT 'b', '${i}', coalesce(sum(orders), 0), coalesce(sum(order_value), 0) ${days(previous.start, previous.end)}`,
    ];
  });
  const weeks = questions.weeks && weekStarts(questions.weeks.anchor, questions.weeks.count);
  if (weeks)
    branches.push(
      `SELECT 'w', to_char(date_trunc('week', day), 'YYYY-MM-DD'), sum(orders), sum(order_value) ${days(weeks[0], currentWeek(questions.weeks!.anchor).end)} GROUP BY 2`,
    );
  const months = questions.months && monthKeys(questions.months.anchor, questions.months.count);
  if (months)
    branches.push(
      `SELECT 'm', to_char(day, 'YYYY-MM'), sum(orders), sum(order_value) ${days(`${months[0]}-01`, todayPeriod(questions.months!.anchor).end)} GROUP BY 2`,
    );
  const { rows } = await db.query<{ kind: string; key: string; count: string; value: string }>(branches.join('\nUNION ALL\n'), params);
  const found = (kind: string, key: string) => rows.find((r) => r.kind === kind && r.key === key);
  const totals = (kind: string, key: string): OrderTotals => ({ count: Number(found(kind, key)?.count ?? 0), value: money(found(kind, key)?.value ?? 0) });
  const periods = Object.fromEntries(
    names.map((name, i): [P, OrderGrowth] => {
      const current = totals('p', String(i));
      const previousCount = totals('b', String(i)).count;
      return [name, { ...current, previousCount, growthPercentage: growthPercentage(current.count, previousCount) }];
    }),
  ) as Record<P, OrderGrowth>;
  return {
    periods,
    perWeek: weeks?.map((week) => ({ week, ...totals('w', week) })) ?? [],
    perMonth: months?.map((month) => ({ month, ...totals('m', month) })) ?? [],
  };
}

/** Orders by their current status, and deliveries that arrived by their estimated date. */
export async function orderCounters(db: Queryable, organisationId: string | undefined) {
  const { rows } = await db.query<Record<string, number>>(
    'SELECT pending, approved, shipped, delivered, cancelled, delivered_on_time FROM read.dashboard_order_counters WHERE organisation_id = $1',
    [orgKey(organisationId)],
  );
  const r = rows[0] ?? { pending: 0, approved: 0, shipped: 0, delivered: 0, cancelled: 0, delivered_on_time: 0 };
  return { pending: r.pending, approved: r.approved, shipped: r.shipped, delivered: r.delivered, cancelled: r.cancelled, deliveredOnTime: r.delivered_on_time };
}

/** Partner organisations that placed at least one order in a period, and in the period of the same length before it. */
export async function orderingPartners(db: Queryable, period: Period): Promise<{ count: number; previousCount: number }> {
  const previous = previousPeriod(period);
  const { rows } = await db.query<{ n: string; before: string }>(
    `SELECT count(DISTINCT d.organisation_id) FILTER (WHERE d.day >= $2) AS n, count(DISTINCT d.organisation_id) FILTER (WHERE d.day < $2) AS before
       FROM read.dashboard_order_days d JOIN read.users u ON u.id = d.organisation_id AND u.role = 'partner'
       WHERE d.organisation_id <> $1 AND d.day >= $3 AND d.day < $4`,
    [ALL_ORGANISATIONS, period.start, previous.start, period.end],
  );
  return { count: Number(rows[0].n), previousCount: Number(rows[0].before) };
}

/** Distinct ship-to recipients of an organisation's (or every organisation's) orders by the end of `period`; how many were first shipped to in it. */
export async function recipients(db: Queryable, organisationId: string | undefined, period: Period) {
  const { rows } = await db.query<{ count: string; new_in: string }>(
    `SELECT count(*) AS count, count(*) FILTER (WHERE first_day >= $2) AS new_in
     FROM read.dashboard_recipients WHERE organisation_id = $1 AND first_day < $3`,
    [orgKey(organisationId), period.start, period.end],
  );
  return { count: Number(rows[0].count), newIn: Number(rows[0].new_in) };
}

/** Partners approved by the end of `period`, and how many of them in it. */
export async function approvedPartners(db: Queryable, period: Period) {
  const { rows } = await db.query<{ count: string; new_in: string }>(
    `SELECT count(*) AS count, count(*) FILTER (WHERE decided_at >= $1) AS new_in FROM read.partners WHERE status = 'approved' AND decided_at < $2`,
    [period.start, period.end],
  );
  return { count: Number(rows[0].count), newIn: Number(rows[0].new_in) };
}

/** Catalogue products, and how many have stock. */
export async function catalogueStock(db: Queryable) {
  const { rows } = await db.query<{ items: string; in_stock: string; low: string }>(
    'SELECT count(*) AS items, count(*) FILTER (WHERE stock_quantity > 0) AS in_stock, count(*) FILTER (WHERE stock_quantity > 0 AND stock_quantity <= moq) AS low FROM read.products',
  );
  return { items: Number(rows[0].items), inStock: Number(rows[0].in_stock), lowStock: Number(rows[0].low) };
}

/**
 * Projects: active ones (not Completed, as the Projects list's `active` filter),
 * those of them whose expected closure falls in the current week, counts by work status and by
 * registration status, and registrations that expire within `expiringWithinDays`.
 */
export async function projectFigures(db: Queryable, organisationId: string | undefined, now: Date, expiringWithinDays = EXPIRING_SOON_DAYS) {
  const week = currentWeek(now);
  const params: unknown[] = [week.start, week.end, now, new Date(now.getTime() + expiringWithinDays * 86_400_000)];
  const where = organisationId ? `WHERE organisation_id = $${params.push(organisationId)}` : '';
  // The Projects list's own definitions (its `active` and `expiring_soon` filters): one figure, one definition.
  const active = PROJECT_CONDITIONS.active;
  const { rows } = await db.query<Record<string, string>>(
    `SELECT count(*) AS total,
            count(*) FILTER (WHERE ${active}) AS active,
            count(*) FILTER (WHERE ${active} AND expected_closure_date >= $1 AND expected_closure_date < $2) AS due_this_week,
            count(*) FILTER (WHERE ${PROJECT_CONDITIONS.expiringSoon('$3', '$4')}) AS expiring_soon,
            count(*) FILTER (WHERE status = 'Planning') AS planning,
            count(*) FILTER (WHERE status = 'In Progress') AS in_progress,
            count(*) FILTER (WHERE status = 'On Hold') AS on_hold,
            count(*) FILTER (WHERE status = 'Completed') AS completed,
            count(*) FILTER (WHERE registration_status = 'pending') AS reg_pending,
            count(*) FILTER (WHERE registration_status = 'conflict') AS reg_conflict,
            count(*) FILTER (WHERE registration_status = 'approved') AS reg_approved,
            count(*) FILTER (WHERE registration_status = 'rejected') AS reg_rejected,
            count(*) FILTER (WHERE registration_status = 'expired') AS reg_expired,
            count(*) FILTER (WHERE extension_status = 'requested') AS extension_requests
     FROM read.projects p ${where}`,
    params,
  );
  const r = Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
  return {
    total: r.total,
    active: r.active,
    dueThisWeek: r.due_this_week,
    expiringSoon: r.expiring_soon,
    extensionRequests: r.extension_requests,
    byStatus: { Planning: r.planning, 'In Progress': r.in_progress, 'On Hold': r.on_hold, Completed: r.completed },
    byRegistration: { pending: r.reg_pending, conflict: r.reg_conflict, approved: r.reg_approved, rejected: r.reg_rejected, expired: r.reg_expired },
  };
}

/** Tickets of an organisation (or all): active and overdue ones. */
export async function ticketCounts(db: Queryable, organisationId: string | undefined, assignedTo?: string) {
  const params: unknown[] = [[...ACTIVE_TICKET_STATUSES]];
  const where = [
    organisationId ? `organisation_id = $${params.push(organisationId)}` : null,
    assignedTo ? `assigned_to = $${params.push(assignedTo)}` : null,
  ].filter(Boolean);
  const { rows } = await db.query<{ active: string; overdue: string }>(
    `SELECT count(*) FILTER (WHERE status = ANY($1::text[])) AS active, count(*) FILTER (WHERE status = ANY($1::text[]) AND overdue_at IS NOT NULL) AS overdue
     FROM read.tickets ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
    params,
  );
  return { active: Number(rows[0].active), overdue: Number(rows[0].overdue) };
}

/** Tickets opened and resolved per day over the last `days` days, oldest first. */
export async function ticketsOpenedResolved(db: Queryable, organisationId: string | undefined, now: Date, days = 14) {
  const period = lastDays(now, days);
  const params: unknown[] = [period.start, period.end];
  const scope = organisationId ? `AND organisation_id = $${params.push(organisationId)}` : '';
  const { rows } = await db.query<{ day: string; opened: string; resolved: string }>(
    `SELECT day, sum(opened) AS opened, sum(resolved) AS resolved FROM (
       SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, 1 AS opened, 0 AS resolved FROM read.tickets WHERE created_at >= $1::date AND created_at < $2::date ${scope}
       UNION ALL
       SELECT to_char(resolved_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 0, 1 FROM read.tickets WHERE resolved_at >= $1::date AND resolved_at < $2::date ${scope}
     ) t GROUP BY day`,
    params,
  );
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return dayKeys(now, days).map((day) => ({ day, opened: Number(byDay.get(day)?.opened ?? 0), resolved: Number(byDay.get(day)?.resolved ?? 0) }));
}

/** What awaits an administrator's decision. */
export async function adminQueues(db: Queryable) {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM read.partners WHERE status = 'pending') AS pending_approvals,
            (SELECT count(*) FROM read.projects WHERE registration_status = 'conflict') AS conflicts,
            (SELECT count(*) FROM read.projects WHERE extension_status = 'requested') AS extension_requests,
            (SELECT count(*) FROM read.rebates WHERE status IN ('pending', 'processing')) AS open_rebates`,
  );
  const r = rows[0];
  return {
    pendingApprovals: Number(r.pending_approvals),
    conflicts: Number(r.conflicts),
    extensionRequests: Number(r.extension_requests),
    openRebates: Number(r.open_rebates),
  };
}
