import { OWNER_DELETABLE_STATUSES, type RebateStatus } from '@domain/rebates/rebates';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { LoadError, Loading } from '../layout/ListStates';
import { useToast } from '../layout/toast';
import { useDebounced } from '../layout/useDebounced';
import { messageOf } from '../providers/errorMapper';
import { EMPTY_FILTERS, RebateFilterBar, toQuery, type FilterState } from './RebateFilterBar';
import { RebateDetail } from './RebateDetail';
import { RebateTable } from './RebateTable';
import { deleteRebate, exportRebates, type RebateRecord, type SortOrder } from './rebatesApi';
import { useRebateList, useStatusCounts } from './useRebateList';

/** The History tab: the organisation's claims with their statuses and amounts, each opening its documents and history. */
export function RebateHistory({ canWithdraw, version, onChanged }: { canWithdraw: boolean; version: number; onChanged: () => void }) {
  const toast = useToast();
  const [filters, setFilters] = useState<FilterState>(EMPTY_FILTERS);
  const search = useDebounced(filters.search.trim(), 300);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(10);
  const [sort, setSort] = useState<SortOrder>({ field: 'submitted_date', order: 'DESC' });
  const query = toQuery(filters, search);
  const { rows, total, loaded, loading, error, refetch, version: listVersion } = useRebateList('user', query, page, perPage, sort);
  const counts = useStatusCounts('user', query, listVersion);
  const [viewing, setViewing] = useState<RebateRecord | null>(null);
  const [withdrawing, setWithdrawing] = useState<RebateRecord | null>(null);
  const [busy, setBusy] = useState(false);
  const [exporting, setExporting] = useState(false);

  useEffect(() => setPage(1), [JSON.stringify(query)]);
  useEffect(() => {
    if (version) refetch();
  }, [version, refetch]);

  const withdraw = async () => {
    if (!withdrawing) return;
    setBusy(true);
    try {
      const answer = await deleteRebate(withdrawing.id);
      toast(answer.message ?? 'Rebate deleted successfully', 'success');
      setWithdrawing(null);
      setViewing(null);
      refetch();
      onChanged();
    } catch (e) {
      toast(messageOf(e, 'Failed to delete rebate'), 'error');
    } finally {
      setBusy(false);
    }
  };

  const filtered = Boolean(query.status || query.date_from || query.date_to || query.search);
  return (
    <Box>
      <RebateFilterBar
        value={filters}
        onChange={setFilters}
        counts={counts}
        exporting={exporting}
        onExport={() => {
          setExporting(true);
          exportRebates(query, sort)
            .catch((e) => toast(messageOf(e, 'Failed to export rebates'), 'error'))
            .finally(() => setExporting(false));
        }}
      />
      <LoadError error={error} onRetry={refetch} message={messageOf(error, 'Failed to fetch rebates')} />
      {!loaded && loading ? (
        <Loading />
      ) : rows.length === 0 && !error ? (
        <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }}>
          {filtered ? 'No rebates match these filters.' : 'No rebates found'}
        </Typography>
      ) : (
        <RebateTable
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
        />
      )}
      <RebateDetail
        rebate={viewing}
        onClose={() => setViewing(null)}
        actions={
          viewing && canWithdraw && OWNER_DELETABLE_STATUSES.includes(viewing.status as RebateStatus) ? (
            <Button color="error" onClick={() => setWithdrawing(viewing)}>
              {viewing.status === 'pending' ? 'Withdraw claim' : 'Delete claim'}
            </Button>
          ) : null
        }
      />
      <Dialog open={Boolean(withdrawing)} onClose={() => !busy && setWithdrawing(null)} aria-labelledby="withdraw-title">
        <DialogTitle id="withdraw-title">Delete rebate claim</DialogTitle>
        <DialogContent>
          <DialogContentText>
            Delete the claim for invoice {withdrawing?.invoice_number}? Its documents will no longer be available and the invoice can be claimed again.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setWithdrawing(null)} disabled={busy}>
            Cancel
          </Button>
          <Button color="error" variant="contained" onClick={() => void withdraw()} disabled={busy}>
            Delete
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
