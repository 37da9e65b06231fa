import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RANK_BAND_LABELS, scorecardDetailAnswer, scorecardListAnswer, type Scorecard } from '../../contracts/scorecards';
import { seesAllOrganisations } from '../../domain/access';
import { listScorecards, SCORECARD_SORT_FIELDS, scorecardHistory, type ScorecardFilters } from '../../projections/programme';
import { auditActorOf, exportFilters, recordAuditEntry, recordedWhenDone } from '../plugins/auditTrail';
import { HttpError } from '../plugins/errors';
import type { Services } from '../../platform/services';
import { csvLines, sendCsv, type CsvColumns } from './csv';
import { listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { uuidParam } from './validation';

const tags = ['scorecards'];
const QUARTER = /^\d{4}-Q[1-4]$/;
const filterShape = {
  quarter: z.string().regex(QUARTER, 'quarter must be like 2026-Q4.').optional(),
  tier: z.string().max(100).optional(),
  category: z.string().max(100).optional(),
  region: z.string().max(100).optional(),
};
const scorecardListQuery = listQuerySchema(filterShape, SCORECARD_SORT_FIELDS);

const dollars = (cents: number) => (cents / 100).toFixed(2);
const CSV_COLUMNS: CsvColumns<Scorecard> = [
  ['Rank', (s) => s.rank],
  ['Rank band', (s) => RANK_BAND_LABELS[s.rank_band]],
  ['Organisation', (s) => s.organisation_name],
  ['Tier', (s) => s.tier?.name],
  ['Category', (s) => s.category],
  ['Region', (s) => s.region],
  ['Quarter', (s) => s.quarter_label],
  ['Score', (s) => s.score],
  ['Revenue', (s) => dollars(s.revenue_cents)],
  ['Growth %', (s) => s.growth_percent],
  ['Deals registered', (s) => s.deals_registered],
  ['Deals approved', (s) => s.deals_approved],
  ['Deals won', (s) => s.deals_won],
  ['Win rate %', (s) => s.win_rate_percent],
  ['Avg days to first order', (s) => s.avg_days_to_first_order],
  ['Rebate attainment %', (s) => s.rebate_attainment_percent],
  ['MDF ROI %', (s) => s.mdf_roi_percent],
  ['Lead acceptance %', (s) => s.lead_acceptance_percent],
  ['Lead conversion %', (s) => s.lead_conversion_percent],
  ['Open tickets', (s) => s.open_tickets],
  ['Overdue tickets', (s) => s.overdue_tickets],
  ['Certified people', (s) => s.certified_people],
];

/** A partner sees only its own organisation's row; those who see all organisations see every row. */
const ownOrganisation = (request: FastifyRequest) =>
  seesAllOrganisations(request.principal.role) ? null : (request.principal.organisationId ?? '00000000-0000-0000-0000-000000000000');

type ScorecardQuery = z.infer<typeof scorecardListQuery>;
const filtersOf = (request: FastifyRequest, q: ScorecardQuery): ScorecardFilters => ({
  quarter: q.filters.quarter,
  tier: q.filters.tier,
  category: q.filters.category,
  region: q.filters.region,
  q: q.search,
  ids: q.ids,
  organisationId: ownOrganisation(request),
});
const sortOf = (q: ScorecardQuery) => ({
  field: q.sort === undefined || q.sort.field === 'id' ? ('rank' as const) : q.sort.field,
  order: q.sort?.order ?? ('ASC' as const),
});

/** The export is a file, streamed as it is written: the serializer never sees it. */
const scorecardCsv = z.string().describe('text/csv: one line per scorecard the caller sees, with a header line');

export async function scorecardRoutes(parent: FastifyInstance, services: Services) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { reads } = services;

  app.get(
    '/scorecards',
    {
      schema: {
        tags,
        summary:
          'Scorecards of a quarter (default the latest), ranked by score: every organisation for admins and manufacturers, its own row (and rank band only) for a partner',
        querystring: scorecardListQuery,
        response: { 200: scorecardListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { rows, total } = await listScorecards(reads, filtersOf(request, q), sortOf(q), { limit: q.limit, offset: q.offset });
      return sendList(reply, 'scorecards', q, rows, total) as z.infer<typeof scorecardListAnswer>;
    },
  );

  app.get(
    '/scorecards/export',
    {
      schema: {
        tags,
        summary: 'CSV of the scorecards the caller sees, with the same filters and sort as the list',
        querystring: scorecardListQuery,
        response: { 200: scorecardCsv },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const filters = filtersOf(request, q);
      const { rows, quarter } = await listScorecards(reads, filters, sortOf(q), { limit: 100_000, offset: 0 });
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="scorecards-${quarter ?? 'none'}.csv"`);
      reply.header('cache-control', 'private, no-store');
      const recorded = () =>
        recordAuditEntry(
          services.store,
          { type: 'ExportDownloaded.v1', data: { userId: request.principal.id, export: 'scorecards', filters: exportFilters(request) } },
          auditActorOf(request),
        );
      const stream = async function* () {
        yield* rows;
      };
      return sendCsv(reply, recordedWhenDone(csvLines(CSV_COLUMNS, stream()), recorded));
    },
  );

  app.get(
    '/scorecards/:id',
    {
      schema: {
        tags,
        summary: 'One organisation’s scorecards quarter by quarter, with series for sparklines (a partner: its own, with rank bands only)',
        params: uuidParam,
        response: { 200: scorecardDetailAnswer },
      },
    },
    async (request) => {
      const own = ownOrganisation(request);
      if (own !== null && own !== request.params.id) throw new HttpError(404, 'NOT_FOUND', 'Organisation not found.');
      const detail = await scorecardHistory(reads, request.params.id, own === null);
      if (!detail) throw new HttpError(404, 'NOT_FOUND', 'Organisation not found.');
      return { ...detail, success: true as const, data: detail };
    },
  );
}
