import { isAdminRole, seesAllOrganisations } from '../../domain/access';
import { isSupportStaff } from '../../domain/tickets/tickets';
import type { Principal } from '../../domain/access/rules';
import { growthPercentage } from '../../domain/dashboards/periods';
import {
  KPI_LISTS,
  kpiScreenLink,
  kpisOf,
  mayReadKpi,
  periodBefore,
  type KpiContext,
  type KpiDefinition,
  type KpiFilter,
  type KpiList,
} from '../../domain/dashboards/kpis';
import type { DashboardKind } from '../../domain/dashboards/quickActions';
import type { Queryable } from '../../platform/db';
import { orderListTotal } from '../../projections/orderQueries';
import { partnerListTotal } from '../../projections/partners';
import { projectListTotal } from '../../projections/projects';
import { rebateListTotal } from '../../projections/rebates';
import { ticketListTotal } from '../../projections/tickets';

type Db = Queryable;

/** Who looks at the dashboard: the card counts what this viewer's list would show. */
export interface KpiViewer {
  principal: Principal & { readonly id?: string; readonly organisationId?: string };
  /** The organisation whose dashboard it is (undefined: every organisation's). */
  subjectOrganisationId: string | undefined;
}

export interface KpiCard {
  id: string;
  label: string;
  definition: string;
  count: number;
  /** The same count over the period just before, for cards that follow the date range; else null. */
  previousCount: number | null;
  growthPercentage: number | null;
  list: KpiList;
  /** The list's API route and the filter it is called with: its total is `count`. */
  api: string;
  filter: KpiFilter;
  /** The screen the card opens, filtered to exactly the records counted. */
  link: string;
}

/** Lists that can be narrowed to one organisation with an `organisation_id` filter. */
const BY_ORGANISATION: ReadonlySet<KpiList> = new Set(['projects', 'orders', 'tickets', 'rebates']);

/** Each list's total, by the list route's own query under the viewer's scope. */
const TOTALS: Readonly<Record<KpiList, (db: Db, viewer: KpiViewer['principal'], filter: KpiFilter) => Promise<number>>> = {
  projects: (db, p, f) => projectListTotal(db, { organisationId: scopeOf(p) }, f),
  orders: (db, p, f) => orderListTotal(db, { organisationId: scopeOf(p) }, f),
  tickets: (db, p, f) => ticketListTotal(db, { organisationId: scopeOf(p), seesInternal: isSupportStaff(p.role) }, f),
  rebates: (db, p, f) => rebateListTotal(db, { organisationId: scopeOf(p) }, f),
  partners: (db, p, f) => partnerListTotal(db, isAdminRole(p.role), f),
  directory: (db, p, f) => partnerListTotal(db, isAdminRole(p.role), f),
};

function scopeOf(principal: KpiViewer['principal']): string | undefined {
  return seesAllOrganisations(principal.role) ? undefined : principal.organisationId;
}

/** The card's filter as the viewer's list takes it: someone who sees every organisation looking at one organisation's dashboard adds that organisation. */
export function viewerFilter(kpi: KpiDefinition, viewer: KpiViewer, ctx: KpiContext): KpiFilter {
  const filter = kpi.filter(ctx);
  const narrow = viewer.subjectOrganisationId && seesAllOrganisations(viewer.principal.role) && BY_ORGANISATION.has(kpi.list);
  return narrow ? { ...filter, organisation_id: viewer.subjectOrganisationId! } : filter;
}

/** The KPI cards of a dashboard that the viewer may open, each counted by its list. */
export async function kpiCards(db: Db, dashboard: DashboardKind, viewer: KpiViewer, ctx: KpiContext & { rangeLabel?: string }): Promise<KpiCard[]> {
  const before: KpiContext = { ...ctx, range: periodBefore(ctx.range) };
  return Promise.all(
    kpisOf(dashboard)
      .filter((kpi) => mayReadKpi(viewer.principal, kpi))
      .map(async (kpi) => {
        const filter = viewerFilter(kpi, viewer, ctx);
        const total = TOTALS[kpi.list];
        const [count, previousCount] = await Promise.all([
          total(db, viewer.principal, filter),
          kpi.followsRange ? total(db, viewer.principal, viewerFilter(kpi, viewer, before)) : Promise.resolve(null),
        ]);
        return {
          id: kpi.id,
          // A card that follows the range says which: "Orders This Month", "Orders Last 30 Days".
          label: kpi.followsRange && ctx.rangeLabel ? `${kpi.label} ${ctx.rangeLabel}` : kpi.label,
          definition: kpi.definition,
          count,
          previousCount,
          growthPercentage: previousCount === null ? null : growthPercentage(count, previousCount),
          list: kpi.list,
          api: KPI_LISTS[kpi.list].path,
          filter,
          link: kpiScreenLink(kpi.list, filter),
        };
      }),
  );
}
