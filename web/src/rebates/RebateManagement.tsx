import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import HourglassTopIcon from '@mui/icons-material/HourglassTop';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { Box, Button, IconButton, Tooltip, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import { BulkBar, BulkReviewDialog, useSelection, type BulkDecision } from '../lists';
import { LoadError, Loading } from '../layout/ListStates';
import { useToast } from '../layout/toast';
import { useDebounced } from '../layout/useDebounced';
import { messageOf } from '../providers/errorMapper';
import { API_URL, httpClient } from '../providers/httpClient';
import { EMPTY_FILTERS, RebateFilterBar, toQuery, type FilterState } from './RebateFilterBar';
import { RebateDetail } from './RebateDetail';
import { ApproveDialog, RejectDialog, UpdateFailed } from './RebateReviewDialogs';
import { RebateTable, reviewable } from './RebateTable';
import { bulkReviewRebates, exportRebates, reviewRebate, type RebateFilters, type RebateRecord, type SortOrder } from './rebatesApi';
import { UrlFilterNotice, useUrlFilter } from '../lists/useUrlFilter';
import { useRebateList, useStatusCounts } from './useRebateList';

/** The partner and distributor organisations, for the organisation filter. */
function useOrganisations() {
  const [organisations, setOrganisations] = useState<Array<{ id: string; name: string }>>([]);
  useEffect(() => {
    let cancelled = false;
    Promise.all(
      ['partner', 'distributor'].map((role) =>
        httpClient<{ data: { users: Array<{ id: string; company_name: string | null; full_name: string }> } }>(`${API_URL}/users?role=${role}&limit=100`).then(({ json }) => json.data.users),
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
  const [filters, setFilters] = useState<FilterState>(EMPTY_FILTERS);
  const search = useDebounced(filters.search.trim(), 300);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(10);
  const [sort, setSort] = useState<SortOrder>({ field: 'submitted_date', order: 'DESC' });
  // A dashboard card's link shows exactly what the card counted; the filters apply once it is cleared.
  const { filter: cardFilter, clear: clearCardFilter } = useUrlFilter();
  const query: RebateFilters = cardFilter ? (cardFilter as RebateFilters) : toQuery(filters, search);
  const { rows, total, loaded, loading, error, refetch, version: listVersion } = useRebateList('admin', query, page, perPage, sort);
  const counts = useStatusCounts('admin', query, listVersion);
  const [viewing, setViewing] = useState<RebateRecord | null>(null);
  const [approving, setApproving] = useState<RebateRecord | null>(null);
  const [rejecting, setRejecting] = useState<RebateRecord | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [reviewing, setReviewing] = useState<BulkDecision | null>(null);
  // Claims that can still be approved or rejected can be ticked and reviewed together with one reason.
  const tickable = useMemo(() => rows.filter(reviewable).map((r) => r.id), [rows]);
  const selection = useSelection(tickable);

  useEffect(() => setPage(1), [JSON.stringify(query)]);

  const decided = (updated: RebateRecord, message: string) => {
    setFailure(null);
    toast(message, 'success');
    if (viewing?.id === updated.id) setViewing(updated);
    refetch();
  };

  const markProcessing = async (rebate: RebateRecord) => {
    setFailure(null);
    try {
      const answer = await reviewRebate(rebate.id, { status: 'processing' });
      decided(answer.data, answer.message ?? 'Rebate processing successfully');
    } catch (e) {
      setFailure(messageOf(e, 'Failed to update status'));
    }
  };

  const actions = (r: RebateRecord) => (
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

  const filtered = Boolean(query.status || query.organisation_id || query.date_from || query.date_to || query.search);
  return (
    <Box>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        Rebate Management
      </Typography>
      <UrlFilterNotice filter={cardFilter} onClear={clearCardFilter} total={cardFilter && loaded ? total : undefined} />
      <RebateFilterBar
        value={filters}
        onChange={setFilters}
        counts={counts}
        organisations={organisations}
        exporting={exporting}
        onExport={() => {
          setExporting(true);
          exportRebates(query, sort)
            .catch((e) => toast(messageOf(e, 'Failed to export rebates'), 'error'))
            .finally(() => setExporting(false));
        }}
      />
      {selection.count > 0 ? (
        <BulkBar selection={selection}>
          <Button size="small" variant="contained" color="success" startIcon={<CheckIcon />} onClick={() => setReviewing('approved')}>
            Approve
          </Button>
          <Button size="small" variant="outlined" color="error" startIcon={<CloseIcon />} onClick={() => setReviewing('rejected')}>
            Reject
          </Button>
        </BulkBar>
      ) : null}
      {failure ? <UpdateFailed reason={failure} /> : null}
      <LoadError error={error} onRetry={refetch} message={messageOf(error, 'Failed to fetch all rebates')} />
      {!loaded && loading ? (
        <Loading />
      ) : rows.length === 0 && !error ? (
        <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }}>
          {filtered ? 'No rebates match these filters.' : 'No rebates found'}
        </Typography>
      ) : (
        <RebateTable
          admin
          rows={rows}
          total={total}
          page={page}
          perPage={perPage}
          onPage={setPage}
          onPerPage={(n) => {
            setPerPage(n);
            setPage(1);
          }}
          sort={sort}
          onSort={setSort}
          onOpen={setViewing}
          actions={actions}
          selection={selection}
        />
      )}
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
