import { isAdminRole } from '@domain/access';
import BusinessIcon from '@mui/icons-material/Business';
import HistoryIcon from '@mui/icons-material/History';
import PlaceIcon from '@mui/icons-material/Place';
import { Alert, Box, Button, Card, CardActions, CardContent, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useState } from 'react';
import { useGetList, useRefresh } from 'react-admin';
import { useAccess } from '../access/usePrincipal';
import { ApproveDialog, RejectDialog } from './PartnerDecisionDialogs';
import { businessTypeOf, PartnerLogo, PartnerStatusChip, placeOf } from './PartnerParts';
import { PartnerShow } from './PartnerShow';
import { PARTNERS_RESOURCE, type PartnerRecord, type PartnerStatus } from './partnersApi';
import { useDebounced } from '../layout/useDebounced';
import {
  alphabetical,
  DateText,
  EmailText,
  EmptyState,
  ListPagination,
  ListToolbar,
  LoadError,
  Loading,
  NEWEST_FIRST,
  OLDEST_FIRST,
  useListControls,
  type CsvColumn,
  type ListSortChoice,
} from '../lists';

const PAGE_SIZE = 10;
type Shown = PartnerStatus | 'all';

const EMPTY_TEXT: Record<Shown, string> = {
  pending: 'No pending applications.',
  approved: 'No approved partners yet.',
  rejected: 'No rejected applications.',
  all: 'No partner applications yet.',
};

function ApplicationCard({
  partner,
  isAdmin,
  onReview,
  onHistory,
  onApprove,
  onReject,
}: {
  partner: PartnerRecord;
  isAdmin: boolean;
  onReview: () => void;
  onHistory: () => void;
  onApprove: () => void;
  onReject: () => void;
}) {
  const place = placeOf(partner);
  const type = businessTypeOf(partner);
  return (
    <Card
      variant="outlined"
      data-testid="partner-application"
      data-partner={partner.company_name}
      sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}
    >
      <CardContent sx={{ flex: 1, pb: 1 }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
          <PartnerLogo partner={partner} />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }}>
              {partner.company_name}
            </Typography>
            <Typography variant="body2" color="text.secondary" component="div">
              <EmailText email={partner.contact_email} />
            </Typography>
          </Box>
          <PartnerStatusChip status={partner.status} />
        </Box>
        <Box sx={{ mt: 1.5, display: 'grid', gap: 0.5 }}>
          {place ? (
            <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
              <PlaceIcon fontSize="small" color="action" /> {place}
            </Typography>
          ) : null}
          {type ? (
            <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.75, overflowWrap: 'anywhere' }}>
              <BusinessIcon fontSize="small" color="action" /> {type}
            </Typography>
          ) : null}
          <Typography variant="caption" color="text.secondary">
            Submitted <DateText value={partner.created_at} />
            {partner.category ? ` · ${partner.category}` : partner.requested_category ? ` · asks for ${partner.requested_category}` : ''}
          </Typography>
          {partner.status === 'rejected' && partner.rejection_reason ? (
            <Typography variant="caption" color="error.main" sx={{ overflowWrap: 'anywhere' }}>
              Reason: {partner.rejection_reason}
            </Typography>
          ) : null}
        </Box>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2, pt: 0, gap: 1, flexWrap: 'wrap' }}>
        <Button size="small" variant="outlined" onClick={onReview} aria-label={`Review ${partner.company_name}`}>
          Review
        </Button>
        {isAdmin ? (
          <Button size="small" startIcon={<HistoryIcon />} onClick={onHistory} aria-label={`History of ${partner.company_name}`}>
            History
          </Button>
        ) : null}
        {isAdmin && partner.status === 'pending' ? (
          <>
            <Button size="small" variant="contained" color="success" onClick={onApprove} aria-label={`Approve ${partner.company_name}`}>
              Approve
            </Button>
            <Button size="small" variant="outlined" color="error" onClick={onReject} aria-label={`Reject ${partner.company_name}`}>
              Reject
            </Button>
          </>
        ) : null}
      </CardActions>
    </Card>
  );
}

const SORT_CHOICES: ListSortChoice[] = [
  OLDEST_FIRST,
  NEWEST_FIRST,
  alphabetical('company_name', 'Company'),
  { field: 'region', order: 'ASC', label: 'Region' },
];

const CSV_COLUMNS: CsvColumn<PartnerRecord>[] = [
  { label: 'Company', value: (p) => p.company_name },
  { label: 'Status', value: (p) => p.status },
  { label: 'Contact', value: (p) => p.contact_name ?? '' },
  { label: 'Email', value: (p) => p.contact_email ?? '' },
  { label: 'Phone', value: (p) => p.phone_number ?? '' },
  { label: 'Region', value: (p) => p.region ?? '' },
  { label: 'Place', value: (p) => placeOf(p) ?? '' },
  { label: 'Business type', value: (p) => businessTypeOf(p) ?? '' },
  { label: 'Category', value: (p) => p.category ?? p.requested_category ?? '' },
  { label: 'Submitted', value: (p) => p.created_at },
  { label: 'Decided', value: (p) => p.decided_at ?? '' },
  { label: 'Rejection reason', value: (p) => p.rejection_reason ?? '' },
];

/** The admin panel's Partner Approvals tab: applications as cards, with Review, History, Approve and Reject. */
export function PartnerApprovals() {
  const { role } = useAccess();
  const isAdmin = isAdminRole(role);
  const refresh = useRefresh();
  // The server shows others than administrators approved partners only (never applications in progress): the tab mirrors it.
  const [chosen, setShown] = useState<Shown>('pending');
  const shown: Shown = isAdmin ? chosen : 'approved';
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const filter = { ...(shown === 'all' ? {} : { status: shown }), ...(query ? { q: query } : {}) };
  // Pending applications oldest first (the longest waiting), decided ones newest first.
  const controls = useListControls({ sort: { field: 'created_at', order: 'ASC' }, perPage: PAGE_SIZE, filterKey: JSON.stringify(filter) });
  const [reviewing, setReviewing] = useState<PartnerRecord | null>(null);
  const [historyOf, setHistoryOf] = useState<PartnerRecord | null>(null);
  const [approving, setApproving] = useState<PartnerRecord | null>(null);
  const [rejecting, setRejecting] = useState<PartnerRecord | null>(null);

  const { data, total, isPending, error, refetch } = useGetList<PartnerRecord>(PARTNERS_RESOURCE, { ...controls.params, filter });
  const applications = data ?? [];

  const show = (next: Shown) => {
    setShown(next);
    controls.setSort({ field: 'created_at', order: next === 'pending' ? 'ASC' : 'DESC' });
  };

  const decided = () => {
    setReviewing(null);
    refresh();
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <Typography variant="h6" component="h2">
          {isAdmin ? 'Partner Approvals' : 'Approved Partners'}
        </Typography>
        {isAdmin ? (
          <ToggleButtonGroup
            size="small"
            exclusive
            value={shown}
            onChange={(_, value: Shown | null) => value && show(value)}
            aria-label="Applications to show"
            sx={{ flexWrap: 'wrap' }}
          >
            <ToggleButton value="pending">Pending</ToggleButton>
            <ToggleButton value="approved">Approved</ToggleButton>
            <ToggleButton value="rejected">Rejected</ToggleButton>
            <ToggleButton value="all">All</ToggleButton>
          </ToggleButtonGroup>
        ) : null}
      </Box>
      <ListToolbar
        search={{ value: search, onChange: setSearch, placeholder: 'Search by company, business type or region', label: 'Search partner applications' }}
        sortChoices={SORT_CHOICES}
        sortMenuAlways
        sort={controls.sort}
        onSortChange={controls.setSort}
        exportCsv={
          isAdmin ? { resource: PARTNERS_RESOURCE, filter, sort: controls.sort, fileName: `partner-applications-${shown}`, columns: CSV_COLUMNS } : undefined
        }
      />
      {!isAdmin ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Only administrators review and decide partner applications; the partners they approved are listed here.
        </Alert>
      ) : null}
      <LoadError error={error} onRetry={refetch} message={(error as Error | null)?.message || 'Failed to load partner applications'} />
      {isPending ? (
        <Loading />
      ) : applications.length === 0 ? (
        <Box data-testid="approvals-empty">
          <EmptyState
            title={query ? 'No partner applications match your search.' : EMPTY_TEXT[shown]}
            message={
              query
                ? 'Try another company, business type or region.'
                : shown === 'pending'
                  ? 'New applications appear here as partners submit them.'
                  : undefined
            }
            filtered={Boolean(query)}
            onClearFilters={() => setSearch('')}
          />
        </Box>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
          {applications.map((partner) => (
            <ApplicationCard
              key={partner.id}
              partner={partner}
              isAdmin={isAdmin}
              onReview={() => setReviewing(partner)}
              onHistory={() => setHistoryOf(partner)}
              onApprove={() => setApproving(partner)}
              onReject={() => setRejecting(partner)}
            />
          ))}
        </Box>
      )}
      <ListPagination total={total} controls={controls} />

      <PartnerShow partner={reviewing} onClose={() => setReviewing(null)} isAdmin={isAdmin} onApprove={setApproving} onReject={setRejecting} />
      <PartnerShow
        partner={historyOf}
        onClose={() => setHistoryOf(null)}
        isAdmin={isAdmin}
        onApprove={setApproving}
        onReject={setRejecting}
        initialTab="history"
      />
      <ApproveDialog partner={approving} onClose={() => setApproving(null)} onDone={decided} />
      <RejectDialog partner={rejecting} onClose={() => setRejecting(null)} onDone={decided} />
    </Box>
  );
}
