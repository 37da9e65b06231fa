import { PARTNER_TIERS, REGIONS } from '@domain/partners/application';
import AssignmentIcon from '@mui/icons-material/Assignment';
import BusinessIcon from '@mui/icons-material/Business';
import PlaceIcon from '@mui/icons-material/Place';
import { Box, Button, Card, CardActionArea, CardContent, Chip, Pagination, Rating, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { useGetList } from 'react-admin';
import { PageTitle } from '../layout/PageTitle';
import { businessTypeOf, PartnerLogo, placeOf } from './PartnerParts';
import { PartnerShow } from './PartnerShow';
import { PARTNERS_RESOURCE, type PartnerRecord } from './partnersApi';
import { useDebounced } from '../layout/useDebounced';
import { LoadError, Loading } from '../layout/ListStates';
import { SearchField, SelectFilter } from '../lists';

export const NO_MATCH_MESSAGE = 'No partners match the selected filters.';
const PAGE_SIZE = 24;
const ALL = '';

function DirectoryCard({ partner, onOpen }: { partner: PartnerRecord; onOpen: () => void }) {
  const place = placeOf(partner);
  const type = businessTypeOf(partner);
  const projects = partner.projects_count ?? 0;
  return (
    <Card variant="outlined" data-testid="directory-card" data-partner={partner.company_name} sx={{ minWidth: 0 }}>
      <CardActionArea onClick={onOpen} sx={{ height: '100%', alignItems: 'stretch' }} aria-label={`Open ${partner.company_name}`}>
        <CardContent>
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center' }}>
            <PartnerLogo partner={partner} size={56} />
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }}>
                {partner.company_name}
              </Typography>
              {partner.category ? <Chip size="small" color="primary" variant="outlined" label={partner.category} sx={{ mt: 0.5, maxWidth: '100%' }} /> : null}
            </Box>
          </Box>
          <Box sx={{ mt: 1.5, display: 'grid', gap: 0.5 }}>
            <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
              <PlaceIcon fontSize="small" color="action" /> {place || 'Location not given'}
            </Typography>
            <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.75, overflowWrap: 'anywhere' }}>
              <BusinessIcon fontSize="small" color="action" /> {type ?? 'Business type not given'}
            </Typography>
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mt: 0.5 }}>
              {partner.rating !== null ? (
                <Box
                  sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}
                  aria-label={`Rating ${partner.rating} of 5`}
                  title="From the partner's programme scorecard for the latest quarter"
                  data-testid="rating"
                >
                  <Rating value={partner.rating} precision={0.5} readOnly size="small" />
                  <Typography variant="body2">{partner.rating.toFixed(1)}</Typography>
                </Box>
              ) : (
                <Typography variant="body2" color="text.secondary" data-testid="rating">
                  Not rated yet
                </Typography>
              )}
              <Typography variant="body2" color="text.secondary" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                <AssignmentIcon fontSize="small" color="action" /> {projects} {projects === 1 ? 'project' : 'projects'}
              </Typography>
            </Box>
          </Box>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}

/** /partnerdirectory (Partners.Read): approved partners, searched and filtered by region and tier. */
export default function PartnerDirectory() {
  const [search, setSearch] = useState('');
  const [region, setRegion] = useState(ALL);
  const [tier, setTier] = useState(ALL);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<PartnerRecord | null>(null);
  const query = useDebounced(search.trim(), 300);
  useEffect(() => setPage(1), [query, region, tier]);

  const { data, total, isPending, error, refetch } = useGetList<PartnerRecord>(PARTNERS_RESOURCE, {
    pagination: { page, perPage: PAGE_SIZE },
    sort: { field: 'company_name', order: 'ASC' },
    filter: { status: 'approved', ...(query ? { q: query } : {}), ...(region ? { region } : {}), ...(tier ? { tier } : {}) },
  });
  const partners = data ?? [];
  const pages = total ? Math.ceil(total / PAGE_SIZE) : 1;
  const filtered = Boolean(query || region || tier);

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0 }}>
      <PageTitle title="Partner Directory" subtitle="Find approved partners by company name, business type or region." />
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr)' }, mb: 2, maxWidth: 960 }}>
        <SearchField placeholder="Search partners" aria-label="Search partners by company name, business type or region" value={search} onChange={setSearch} />
        <SelectFilter label="Region" allLabel="All Regions" showAllLabel choices={REGIONS} value={region} onChange={setRegion} data-testid="region-filter" />
        {/* The approval category's level is the kind of partner; "tier" now means the programme tier. */}
        <SelectFilter
          label="Partner type"
          allLabel="All Types"
          showAllLabel
          choices={PARTNER_TIERS}
          value={tier}
          onChange={setTier}
          data-testid="tier-filter"
        />
      </Box>
      {filtered ? (
        <Button size="small" sx={{ mb: 1, ml: -1 }} onClick={() => (setSearch(''), setRegion(ALL), setTier(ALL))}>
          Clear filters
        </Button>
      ) : null}
      <LoadError error={error} onRetry={refetch} message={(error as Error | null)?.message || 'Failed to load partners'} />
      {isPending ? (
        <Loading />
      ) : partners.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }} data-testid="directory-empty">
          {NO_MATCH_MESSAGE}
        </Typography>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {total} {total === 1 ? 'partner' : 'partners'}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
            {partners.map((partner) => (
              <DirectoryCard key={partner.id} partner={partner} onOpen={() => setOpen(partner)} />
            ))}
          </Box>
        </>
      )}
      {pages > 1 ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, next) => setPage(next)} size="small" />
        </Box>
      ) : null}
      <PartnerShow partner={open} onClose={() => setOpen(null)} isAdmin={false} />
    </Box>
  );
}
