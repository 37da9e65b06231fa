import { isAdminRole } from '@domain/access';
import BusinessIcon from '@mui/icons-material/Business';
import PlaceIcon from '@mui/icons-material/Place';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  InputAdornment,
  Pagination,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { useGetList, useRefresh } from 'react-admin';
import { useAccess } from '../access/usePrincipal';
import { ApproveDialog, RejectDialog } from './PartnerDecisionDialogs';
import { businessTypeOf, PartnerLogo, PartnerStatusChip, placeOf, submittedOn } from './PartnerParts';
import { PartnerShow } from './PartnerShow';
import { PARTNERS_RESOURCE, type PartnerRecord, type PartnerStatus } from './partnersApi';
import { useDebounced } from '../layout/useDebounced';
import { LoadError, Loading } from '../layout/ListStates';

const PAGE_SIZE = 12;
type Shown = PartnerStatus | 'all';

const EMPTY_TEXT: Record<Shown, string> = {
  pending: 'No pending applications.',
  approved: 'No approved partners yet.',
  rejected: 'No rejected applications.',
  all: 'No partner applications yet.',
};


function ApplicationCard({ partner, isAdmin, onReview, onApprove, onReject }: { partner: PartnerRecord; isAdmin: boolean; onReview: () => void; onApprove: () => void; onReject: () => void }) {
  const place = placeOf(partner);
  const type = businessTypeOf(partner);
  return (
    <Card variant="outlined" data-testid="partner-application" data-partner={partner.company_name} sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <CardContent sx={{ flex: 1, pb: 1 }}>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
          <PartnerLogo partner={partner} />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }}>
              {partner.company_name}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {partner.contact_email ?? '—'}
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
            Submitted {submittedOn(partner)}
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

/** The admin panel's Partner Approvals tab: applications as cards, with Review, Approve and Reject. */
export function PartnerApprovals() {
  const { role } = useAccess();
  const isAdmin = isAdminRole(role);
  const refresh = useRefresh();
  const [shown, setShown] = useState<Shown>('pending');
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [reviewing, setReviewing] = useState<PartnerRecord | null>(null);
  const [approving, setApproving] = useState<PartnerRecord | null>(null);
  const [rejecting, setRejecting] = useState<PartnerRecord | null>(null);

  useEffect(() => setPage(1), [query, shown]);

  const { data, total, isPending, error, refetch } = useGetList<PartnerRecord>(PARTNERS_RESOURCE, {
    pagination: { page, perPage: PAGE_SIZE },
    sort: { field: 'created_at', order: shown === 'pending' ? 'ASC' : 'DESC' },
    filter: { ...(shown === 'all' ? {} : { status: shown }), ...(query ? { q: query } : {}) },
  });
  const applications = data ?? [];
  const pages = total ? Math.ceil(total / PAGE_SIZE) : 1;

  const decided = () => {
    setReviewing(null);
    refresh();
  };

  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <Typography variant="h6" component="h2">
          Partner Approvals
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={shown}
          onChange={(_, value: Shown | null) => value && setShown(value)}
          aria-label="Applications to show"
          sx={{ flexWrap: 'wrap' }}
        >
          <ToggleButton value="pending">Pending</ToggleButton>
          <ToggleButton value="approved">Approved</ToggleButton>
          <ToggleButton value="rejected">Rejected</ToggleButton>
          <ToggleButton value="all">All</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      <TextField
        size="small"
        placeholder="Search by company, business type or region"
        aria-label="Search partner applications"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        sx={{ mb: 2, width: { xs: '100%', sm: 420 } }}
        slotProps={{ input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
      />
      {!isAdmin ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          Only administrators review and decide partner applications.
        </Alert>
      ) : null}
      <LoadError error={error} onRetry={refetch} message={(error as Error | null)?.message || 'Failed to load partner applications'} />
      {isPending ? (
        <Loading />
      ) : applications.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }} data-testid="approvals-empty">
          {query ? 'No partner applications match your search.' : EMPTY_TEXT[shown]}
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
          {applications.map((partner) => (
            <ApplicationCard
              key={partner.id}
              partner={partner}
              isAdmin={isAdmin}
              onReview={() => setReviewing(partner)}
              onApprove={() => setApproving(partner)}
              onReject={() => setRejecting(partner)}
            />
          ))}
        </Box>
      )}
      {pages > 1 ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Pagination count={pages} page={page} onChange={(_, next) => setPage(next)} size="small" />
        </Box>
      ) : null}

      <PartnerShow partner={reviewing} onClose={() => setReviewing(null)} isAdmin={isAdmin} onApprove={setApproving} onReject={setRejecting} />
      <ApproveDialog partner={approving} onClose={() => setApproving(null)} onDone={decided} />
      <RejectDialog partner={rejecting} onClose={() => setRejecting(null)} onDone={decided} />
    </Box>
  );
}
