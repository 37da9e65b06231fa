import { PARTNER_CATEGORIES, REGIONS } from '@domain/partners/application';
import { Box, Button, Paper, Rating, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useGetList } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useDebounced } from '../layout/useDebounced';
import {
  CsvExportButton,
  EmptyState,
  ListPagination,
  LoadError,
  Loading,
  PlainHeader,
  SearchField,
  SelectFilter,
  SortableHeader,
  useListControls,
} from '../lists';
import { TierChip } from '../programme/ProgrammeParts';
import { listTiers, type Scorecard, type Tier } from '../programme/programmeApi';
import { dollars, percent, Trend } from './ScorecardParts';

export const SCORECARDS_RESOURCE = 'scorecards';
const ALL = '';
const hideOnPhone = { display: { xs: 'none', md: 'table-cell' } } as const;
// Growth and win rate get columns of their own only on wide screens; narrower ones show them under revenue and deals.
const wideOnly = { display: { xs: 'none', xl: 'table-cell' } } as const;
const narrowOnly = { display: { xs: 'block', xl: 'none' } } as const;

const CSV_COLUMNS = [
  { label: 'Rank', value: (r: Scorecard) => r.rank },
  { label: 'Organisation', value: (r: Scorecard) => r.organisation_name },
  { label: 'Tier', value: (r: Scorecard) => r.tier?.name ?? '' },
  { label: 'Category', value: (r: Scorecard) => r.category },
  { label: 'Region', value: (r: Scorecard) => r.region },
  { label: 'Quarter', value: (r: Scorecard) => r.quarter_label },
  { label: 'Score', value: (r: Scorecard) => Math.round(r.score) },
  { label: 'Revenue (USD)', value: (r: Scorecard) => r.revenue_cents / 100 },
  { label: 'Growth %', value: (r: Scorecard) => r.growth_percent },
  { label: 'Deals registered', value: (r: Scorecard) => r.deals_registered },
  { label: 'Deals approved', value: (r: Scorecard) => r.deals_approved },
  { label: 'Deals won', value: (r: Scorecard) => r.deals_won },
  { label: 'Win rate %', value: (r: Scorecard) => r.win_rate_percent },
  { label: 'Avg days to first order', value: (r: Scorecard) => r.avg_days_to_first_order },
  { label: 'Rebate attainment %', value: (r: Scorecard) => r.rebate_attainment_percent },
  { label: 'MDF ROI %', value: (r: Scorecard) => r.mdf_roi_percent },
  { label: 'Lead acceptance %', value: (r: Scorecard) => r.lead_acceptance_percent },
  { label: 'Lead conversion %', value: (r: Scorecard) => r.lead_conversion_percent },
  { label: 'Open tickets', value: (r: Scorecard) => r.open_tickets },
  { label: 'Overdue tickets', value: (r: Scorecard) => r.overdue_tickets },
  { label: 'Rating', value: (r: Scorecard) => r.rating },
];

const growthText = (value: number | null) => (value === null ? '—' : `${value >= 0 ? '+' : ''}${percent(value)}`);
const growthColour = (value: number | null) => (value === null ? 'text.secondary' : value < 0 ? 'error.main' : 'success.main');

/** The ranked table of every partner for admins and manufacturers: sortable, filtered by tier, category and region. */
export function ScorecardTable() {
  const [search, setSearch] = useState('');
  const [tier, setTier] = useState(ALL);
  const [category, setCategory] = useState(ALL);
  const [region, setRegion] = useState(ALL);
  const [tiers, setTiers] = useState<Tier[]>([]);
  useEffect(() => {
    listTiers().then(setTiers, () => setTiers([]));
  }, []);
  const q = useDebounced(search.trim(), 300);
  const filter = { ...(q ? { q } : {}), ...(tier ? { tier } : {}), ...(category ? { category } : {}), ...(region ? { region } : {}) };
  const filtered = Object.keys(filter).length > 0;
  const controls = useListControls({ sort: { field: 'rank', order: 'ASC' }, perPage: 25, filterKey: JSON.stringify(filter) });
  const { data, total, isPending, error, refetch } = useGetList<Scorecard>(SCORECARDS_RESOURCE, { ...controls.params, filter });
  const rows = data ?? [];
  const clear = () => (setSearch(''), setTier(ALL), setCategory(ALL), setRegion(ALL));
  const header = (field: string, label: string, firstOrder: 'ASC' | 'DESC' = 'DESC', align?: 'right', sx?: object) => (
    <SortableHeader field={field} label={label} sort={controls.sort} onSort={controls.sortBy} firstOrder={firstOrder} align={align} sx={sx} />
  );
  const quarter = rows[0]?.quarter_label;
  const tierChoices = [...tiers].sort((a, b) => b.rank - a.rank).map((t) => ({ value: t.id, label: t.name }));
  const selects = [
    { label: 'Tier', allLabel: 'All tiers', choices: tierChoices, value: tier, onChange: setTier, 'data-testid': 'filter-tier' },
    { label: 'Region', allLabel: 'All regions', choices: REGIONS, value: region, onChange: setRegion, 'data-testid': 'filter-region' },
    { label: 'Category', allLabel: 'All categories', choices: PARTNER_CATEGORIES, value: category, onChange: setCategory, 'data-testid': 'filter-category' },
  ];
  return (
    <Box sx={{ minWidth: 0 }} data-testid="scorecard-table">
      <Box
        sx={{
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', lg: 'minmax(0, 2fr) repeat(3, minmax(0, 1fr)) auto' },
          mb: 2,
          alignItems: 'center',
        }}
      >
        <SearchField
          placeholder="Search organisations"
          aria-label="Search organisations"
          value={search}
          onChange={setSearch}
          sx={{ gridColumn: { xs: '1 / -1', lg: 'auto' } }}
        />
        {selects.map((select) => (
          <SelectFilter key={select.label} showAllLabel {...select} />
        ))}
        <Box sx={{ display: 'flex', gap: 1, justifyContent: { xs: 'flex-start', lg: 'flex-end' } }}>
          <CsvExportButton
            config={{ resource: SCORECARDS_RESOURCE, filter, sort: controls.sort, fileName: 'scorecards', columns: CSV_COLUMNS }}
            disabled={!total}
          />
        </Box>
      </Box>
      {filtered ? (
        <Button size="small" sx={{ mb: 1, ml: -1 }} onClick={clear}>
          Clear filters
        </Button>
      ) : null}
      <LoadError error={error} onRetry={refetch} message="The scorecards could not be loaded." />
      {isPending ? (
        <Loading />
      ) : error ? null : rows.length === 0 ? (
        <EmptyState
          filtered={filtered}
          onClearFilters={clear}
          title={filtered ? 'No scorecards match the filters' : 'No scorecards yet'}
          message={
            filtered ? undefined : 'Scorecards are built from orders, deals, rebates, funds, leads and tickets; they appear once partners have activity.'
          }
        />
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {total} {total === 1 ? 'organisation' : 'organisations'}
            {quarter ? ` · ${quarter}` : ''} · the trend is revenue over the last quarters
          </Typography>
          <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: '100%', overflowX: 'auto' }}>
            <Table size="small" aria-label="Scorecards">
              <TableHead>
                <TableRow>
                  {header('rank', '#', 'ASC')}
                  {header('organisation_name', 'Organisation', 'ASC')}
                  {header('tier', 'Tier', 'DESC', undefined, wideOnly)}
                  {header('score', 'Score', 'DESC', 'right')}
                  {header('revenue_cents', 'Revenue', 'DESC', 'right', hideOnPhone)}
                  {header('growth_percent', 'Growth', 'DESC', 'right', wideOnly)}
                  <PlainHeader sx={hideOnPhone}>Trend</PlainHeader>
                  {header('deals_won', 'Won', 'DESC', 'right', hideOnPhone)}
                  {header('win_rate_percent', 'Win rate', 'DESC', 'right', wideOnly)}
                  {header('lead_acceptance_percent', 'Leads', 'DESC', 'right', hideOnPhone)}
                  {header('overdue_tickets', 'Overdue', 'DESC', 'right', hideOnPhone)}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((row) => (
                  <TableRow key={row.id} hover data-testid="scorecard-row" data-organisation={row.organisation_name}>
                    <TableCell sx={{ verticalAlign: 'top' }}>{row.rank ?? '—'}</TableCell>
                    <TableCell sx={{ minWidth: 0, overflowWrap: 'anywhere', verticalAlign: 'top' }}>
                      <RouterLink to={`/scorecards/${row.organisation_id}`}>{row.organisation_name}</RouterLink>
                      <Typography variant="caption" color="text.secondary" component="div">
                        {[row.category, row.region].filter(Boolean).join(' · ')}
                      </Typography>
                      <Box sx={{ display: { xs: 'none', md: 'block', xl: 'none' }, mt: 0.5 }}>
                        <TierChip tier={row.tier} />
                      </Box>
                      {/* Phones keep the columns that matter most beside the name. */}
                      <Box sx={{ display: { xs: 'flex', md: 'none' }, gap: 1, alignItems: 'center', flexWrap: 'wrap', mt: 0.5 }}>
                        <TierChip tier={row.tier} />
                        <Typography variant="caption">
                          {dollars(row.revenue_cents)} · {row.deals_won} won
                        </Typography>
                        <Trend values={row.trend} label={`Revenue trend of ${row.organisation_name}`} />
                      </Box>
                    </TableCell>
                    <TableCell sx={wideOnly}>
                      <TierChip tier={row.tier} />
                    </TableCell>
                    <TableCell align="right" sx={{ verticalAlign: 'top' }}>
                      <Typography variant="body2" sx={{ fontWeight: 600 }}>
                        {Math.round(row.score)}
                      </Typography>
                      {row.rating !== null ? (
                        <Rating value={row.rating} precision={0.5} readOnly size="small" sx={{ fontSize: 12 }} aria-label={`Rating ${row.rating} of 5`} />
                      ) : null}
                    </TableCell>
                    <TableCell align="right" sx={{ ...hideOnPhone, whiteSpace: 'nowrap' }}>
                      {dollars(row.revenue_cents)}
                      <Typography variant="caption" component="div" sx={{ ...narrowOnly, color: growthColour(row.growth_percent) }}>
                        {growthText(row.growth_percent)}
                      </Typography>
                    </TableCell>
                    <TableCell align="right" sx={{ ...wideOnly, color: growthColour(row.growth_percent) }}>
                      {growthText(row.growth_percent)}
                    </TableCell>
                    <TableCell sx={hideOnPhone}>
                      <Trend values={row.trend} label={`Revenue trend of ${row.organisation_name}`} />
                    </TableCell>
                    <TableCell align="right" sx={hideOnPhone}>
                      {row.deals_won}
                      <Typography variant="caption" color="text.secondary" component="div" sx={{ ...narrowOnly, whiteSpace: 'nowrap' }}>
                        {percent(row.win_rate_percent)} win rate
                      </Typography>
                    </TableCell>
                    <TableCell align="right" sx={wideOnly}>
                      {percent(row.win_rate_percent)}
                    </TableCell>
                    <TableCell align="right" sx={hideOnPhone}>
                      {percent(row.lead_acceptance_percent)}
                      <Typography variant="caption" color="text.secondary" component="div">
                        accepted · {percent(row.lead_conversion_percent)} converted
                      </Typography>
                    </TableCell>
                    <TableCell align="right" sx={{ ...hideOnPhone, color: row.overdue_tickets ? 'error.main' : undefined }}>
                      {row.overdue_tickets}
                      <Typography variant="caption" color="text.secondary" component="div">
                        of {row.open_tickets} open
                      </Typography>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <ListPagination total={total} controls={controls} />
        </>
      )}
    </Box>
  );
}
