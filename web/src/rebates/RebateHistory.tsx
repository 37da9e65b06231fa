import type { RebateView } from '@contracts/rebates';
import { OWNER_DELETABLE_STATUSES, type RebateStatus } from '@domain/rebates/rebates';
import { Box, Button } from '@mui/material';
import { useEffect, useState } from 'react';
import { ActionDialog } from '../layout/ActionDialog';
import { LoadError } from '../layout/ListStates';
import { useToast } from '../layout/toast';
import { useDialogAction } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { RebateFilterBar } from './RebateFilterBar';
import { RebateDetail } from './RebateDetail';
import { RebateResults } from './RebateTable';
import { deleteRebate } from './rebatesApi';
import { useRebateScreen } from './useRebateList';

/** The History tab: the organisation's claims with their statuses and amounts, each opening its documents and history. */
export function RebateHistory({ canWithdraw, version, onChanged }: { canWithdraw: boolean; version: number; onChanged: () => void }) {
  const toast = useToast();
  const screen = useRebateScreen('user');
  const { rows, total, loaded, loading, error, refetch, counts } = screen.list;
  const [viewing, setViewing] = useState<RebateView | null>(null);
  const [withdrawing, setWithdrawing] = useState<RebateView | null>(null);
  const withdrawal = useDialogAction('Failed to delete rebate', (message) => toast(message, 'error'));

  useEffect(() => {
    if (version) refetch();
  }, [version, refetch]);

  const withdraw = async () => {
    if (!withdrawing) return;
    await withdrawal.run(
      () => deleteRebate(withdrawing.id),
      (answer) => {
        toast(answer.message ?? 'Rebate deleted successfully', 'success');
        setWithdrawing(null);
        setViewing(null);
        refetch();
        onChanged();
      },
    );
  };

  return (
    <Box>
      <RebateFilterBar value={screen.filters} onChange={screen.setFilters} counts={counts} shown={screen} />
      <LoadError error={error} onRetry={refetch} message={messageOf(error, 'Failed to fetch rebates')} />
      <RebateResults
        loaded={loaded}
        loading={loading}
        failed={Boolean(error)}
        filtered={screen.filtered}
        rows={rows}
        total={total}
        {...screen.paging}
        onOpen={setViewing}
      />
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
      <ActionDialog
        open={Boolean(withdrawing)}
        titleId="withdraw-title"
        title="Delete rebate claim"
        message={
          <>Delete the claim for invoice {withdrawing?.invoice_number}? Its documents will no longer be available and the invoice can be claimed again.</>
        }
        busy={withdrawal.busy}
        onClose={() => setWithdrawing(null)}
        onConfirm={withdraw}
        confirmLabel="Delete"
        busyLabel="Delete"
      />
    </Box>
  );
}
