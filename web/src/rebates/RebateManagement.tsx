import type { RebateView } from '@contracts/rebates';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Box, Button, IconButton, Tooltip, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { BulkReviewBar, BulkReviewDialog, useSelection, type BulkDecision } from '../lists';
import { LoadError } from '../layout/ListStates';
import { useToast } from '../layout/toast';
import { messageOf } from '../providers/errorMapper';
import { API_URL, httpClient } from '../providers/httpClient';
import { RebateFilterBar } from './RebateFilterBar';
import { RebateDetail } from './RebateDetail';
import { ApproveDialog, RejectDialog, UpdateFailed } from './RebateReviewDialogs';
import { RebateResults, reviewable } from './RebateTable';
import { bulkReviewRebates, reviewRebate, type RebateFilters } from './rebatesApi';
import { UrlFilterNotice, useUrlFilter } from '../lists/useUrlFilter';
import { useRebateScreen } from './useRebateList';

/** The partner and distributor organisations, for the organisation filter. */
function useOrganisations() {
  const [organisations, setOrganisations] = useState<Array<{ id: string; name: string }>>([]);
  useEffect(() => {
    let cancelled = false;
    Promise.all(
      ['partner', 'distributor'].map((role) =>
        httpClient<{ data: { users: Array<{ id: string; company_name: string | null; full_name: string }> } }>(`${API_URL}/users?role=${role}&limit=100`).then(
          ({ json }) => json.data.users,
        ),
      ),
    )
      .then((lists) => {
        if (cancelled) return;
        const all = lists.flat().map((u) => ({ id: u.id, name: u.company_name || u.full_name }));
        setOrganisations(all.sort((a, b) => a.name.localeCompare(b.name)));
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, []);
  return organisations;
}

/** Admin panel › Rebate Management: every claim, filtered and sorted, with the review actions each status allows. */
export function RebateManagement() {
  const toast = useToast();
  const organisations = useOrganisations();
  // A dashboard card's link shows exactly what the card counted; the filters apply once it is cleared.
  const { filter: cardFilter, clear: clearCardFilter } = useUrlFilter();
  const screen = useRebateScreen('admin', cardFilter ? (cardFilter as RebateFilters) : undefined);
  const { rows, total, loaded, loading, error, refetch, counts } = screen.list;
  const [viewing, setViewing] = useState<RebateView | null>(null);
  const [approving, setApproving] = useState<RebateView | null>(null);
  const [rejecting, setRejecting] = useState<RebateView | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [reviewing, setReviewing] = useState<BulkDecision | null>(null);
  // Claims that can still be approved or rejected can be ticked and reviewed together with one reason.
  const tickable = useMemo(() => rows.filter(reviewable).map((r) => r.id), [rows]);
  const selection = useSelection(tickable);

  const decided = (updated: RebateView, message: string) => {
    setFailure(null);
    toast(message, 'success');
    if (viewing?.id === updated.id) setViewing(updated);
    refetch();
  };

  const markProcessing = async (rebate: RebateView) => {
    setFailure(null);
    try {
      const answer = await reviewRebate(rebate.id, { status: 'processing' });
      decided(answer.data, answer.message ?? 'Rebate processing successfully');
    } catch (e) {
      setFailure(messageOf(e, 'Failed to update status'));
    }
  };

  const actions = (r: RebateView) => (
    <Box sx={{ display: 'inline-flex', gap: 0.25, flexWrap: { xs: 'wrap', md: 'nowrap' } }}>
      {r.next_statuses.includes('processing') ? (
        <Tooltip title="Mark processing">
          <IconButton size="small" color="info" aria-label={`Mark ${r.invoice_number} processing`} onClick={() => void markProcessing(r)}>
            <HourglassTopIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      {r.next_statuses.includes('approved') ? (
        <Tooltip title="Approve">
          <IconButton size="small" color="success" aria-label={`Approve ${r.invoice_number}`} onClick={() => setApproving(r)}>
            <CheckIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      {r.next_statuses.includes('rejected') ? (
        <Tooltip title="Reject">
          <IconButton size="small" color="error" aria-label={`Reject ${r.invoice_number}`} onClick={() => setRejecting(r)}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      <Tooltip title="Details and history">
        <IconButton size="small" aria-label={`View ${r.invoice_number}`} onClick={() => setViewing(r)}>
          <VisibilityIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );

  return (
    <Box>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        Rebate Management
      </Typography>
      <UrlFilterNotice filter={cardFilter} onClear={clearCardFilter} total={cardFilter && loaded ? total : undefined} />
      <RebateFilterBar value={screen.filters} onChange={screen.setFilters} counts={counts} organisations={organisations} shown={screen} />
      {selection.count > 0 ? <BulkReviewBar selection={selection} onReview={setReviewing} /> : null}
      {failure ? <UpdateFailed reason={failure} /> : null}
      <LoadError error={error} onRetry={refetch} message={messageOf(error, 'Failed to fetch all rebates')} />
      <RebateResults
        admin
        loaded={loaded}
        loading={loading}
        failed={Boolean(error)}
        filtered={screen.filtered}
        rows={rows}
        total={total}
        {...screen.paging}
        onOpen={setViewing}
        actions={actions}
        selection={selection}
      />
      <RebateDetail
        rebate={viewing}
        showOrganisation
        onClose={() => setViewing(null)}
        actions={
          viewing && viewing.next_statuses.length ? (
            <>
              {viewing.next_statuses.includes('processing') ? <Button onClick={() => void markProcessing(viewing)}>Mark Processing</Button> : null}
              <Button color="error" variant="outlined" onClick={() => setRejecting(viewing)}>
                Reject
              </Button>
              <Button color="success" variant="contained" onClick={() => setApproving(viewing)}>
                Approve
              </Button>
            </>
          ) : null
        }
      />
      <BulkReviewDialog
        decision={reviewing}
        count={selection.count}
        noun={['rebate claim', 'rebate claims']}
        approveNote="Each claim gets its suggested rebate: the purchase times its organisation's current rate."
        nameOf={(id) => {
          const r = rows.find((row) => row.id === id);
          return r ? `${r.invoice_number} · ${r.company_name ?? ''}` : id;
        }}
        onSubmit={(decision, reason) => bulkReviewRebates(selection.ids, decision, reason)}
        onClose={() => setReviewing(null)}
        onDone={(outcome, message) => {
          toast(message, outcome.refused.length ? 'warning' : 'success');
          selection.clear();
          refetch();
        }}
      />
      <ApproveDialog rebate={approving} onClose={() => setApproving(null)} onDone={decided} />
      <RejectDialog rebate={rejecting} onClose={() => setRejecting(null)} onDone={decided} />
    </Box>
  );
}
