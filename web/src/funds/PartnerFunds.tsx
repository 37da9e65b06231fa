import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { ClaimDialog, RequestDialog } from './FundForms';
import { barLabel, EmptyAction, FundChartCard } from './FundCharts';
import { BalanceCards, daysUntil, expiringNext, FileLinks, FundStatusChip, FundTable, RoiTable } from './FundParts';
import type { Balance, FundBalanceRow, FundClaim, FundRequest } from '@contracts/funds';
import { ACTIVITY_LABELS, getBalance, listClaims, listRequests, usd } from './fundsApi';

/** The partner's Marketing Funds: balance, requests with their deadlines, claims, and the forms. */
export function PartnerFunds({ canRequest }: { canRequest: boolean }) {
  const [total, setTotal] = useState<Balance>();
  const [funds, setFunds] = useState<FundBalanceRow[]>([]);
  const [requests, setRequests] = useState<FundRequest[]>([]);
  const [claims, setClaims] = useState<FundClaim[]>([]);
  const [dialog, setDialog] = useState<{ kind: 'request' } | { kind: 'edit' | 'claim'; request: FundRequest } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const [balance, r, c] = await Promise.all([getBalance(), listRequests(), listClaims()]);
      setTotal(balance.total);
      setFunds(balance.funds);
      setRequests(r);
      setClaims(c);
    } catch (caught) {
      setError((caught as Error).message);
    }
  }, []);
  useEffect(() => void load(), [load]);
  const done = (message: string) => {
    setDialog(null);
    setNotice(message);
    void load();
  };
  const today = new Date().toISOString().slice(0, 10);
  const openFunds = funds.filter((f) => f.status === 'open');

  return (
    <Box>
      {error ? <Alert severity="error">{error}</Alert> : null}
      {notice ? (
        <Alert severity="success" onClose={() => setNotice(null)} sx={{ mb: 2 }} data-testid="funds-notice">
          {notice}
        </Alert>
      ) : null}
      <BalanceCards balance={total} testId="balance" expiring={total ? expiringNext(funds) : undefined} />
      <FundChartCard
        title="Your funds this period: paid, claimed, reserved, available, expired"
        testId="period-chart"
        rows={funds.map((f) => ({ ...f, label: barLabel(f.name) }))}
        empty={{
          text: funds.length
            ? 'Nothing allocated or accrued in your funds yet.'
            : 'No fund allocates a budget to your organisation yet: your channel manager sets allocations per period.',
          action: canRequest && funds.length ? <EmptyAction label="Request funds" onClick={() => setDialog({ kind: 'request' })} /> : undefined,
        }}
      />
      <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="h6">Activity requests</Typography>
        {canRequest && openFunds.length ? (
          <Button variant="contained" onClick={() => setDialog({ kind: 'request' })} data-testid="new-request">
            Request funds
          </Button>
        ) : null}
      </Stack>
      <Box sx={{ mb: 3 }}>
        <FundTable
          label="Activity requests"
          rows={requests}
          rowId={(r) => r.id}
          rowProps={(r) => ({ 'data-testid': `request-${r.title}` })}
          empty={canRequest && openFunds.length ? 'No requests yet: use Request funds to ask for pre-approval of an activity.' : 'No requests yet.'}
          columns={[
            {
              label: 'Activity',
              render: (r) => (
                <>
                  <strong>{r.title}</strong>
                  <Typography variant="caption" display="block" color="text.secondary">
                    {ACTIVITY_LABELS[r.activity_type] ?? r.activity_type} · {r.fund_name}
                  </Typography>
                  {r.note ? (
                    <Typography variant="caption" display="block">
                      Note: {r.note}
                    </Typography>
                  ) : null}
                </>
              ),
            },
            { label: 'Dates', render: (r) => `${r.start_date} – ${r.end_date}` },
            { label: 'Requested', align: 'right', render: (r) => usd(r.requested_amount) },
            { label: 'Approved', align: 'right', render: (r) => usd(r.approved_amount) },
            { label: 'Status', render: (r) => <FundStatusChip status={r.status} /> },
            {
              label: 'Claim by',
              render: (r) => {
                const left = daysUntil(r.claim_deadline);
                return (
                  <Box component="span" sx={{ color: r.status === 'approved' && left !== null && left <= 14 ? 'error.main' : undefined }}>
                    {r.status === 'approved' && r.claim_deadline ? `${r.claim_deadline} (${left} d)` : '—'}
                  </Box>
                );
              },
            },
            {
              label: '',
              render: (r) => (
                <>
                  {canRequest && r.status === 'approved' && r.end_date <= today ? (
                    <Button size="small" onClick={() => setDialog({ kind: 'claim', request: r })} data-testid="claim-button">
                      Claim
                    </Button>
                  ) : null}
                  {canRequest && r.status === 'changes_requested' ? (
                    <Button size="small" onClick={() => setDialog({ kind: 'edit', request: r })}>
                      Edit
                    </Button>
                  ) : null}
                </>
              ),
            },
          ]}
        />
      </Box>
      <Typography variant="h6" sx={{ mb: 1 }}>
        Claims
      </Typography>
      <FundTable
        label="Claims"
        rows={claims}
        rowId={(c) => c.id}
        rowProps={(c) => ({ 'data-testid': `claim-${c.request_title}` })}
        empty="No claims yet: claim an approved activity with proof once it has ended."
        columns={[
          {
            label: 'Activity',
            render: (c) => (
              <>
                {c.request_title}
                {c.reason ? (
                  <Typography variant="caption" display="block">
                    {c.reason}
                  </Typography>
                ) : null}
              </>
            ),
          },
          { label: 'Approved', align: 'right', render: (c) => usd(c.approved_amount) },
          { label: 'Claimed', align: 'right', render: (c) => usd(c.claimed_amount) },
          { label: 'Paid', align: 'right', render: (c) => (c.payout ? `${usd(c.paid_amount)} on ${c.payout.paid_at}` : usd(c.paid_amount)) },
          { label: 'Status', render: (c) => <FundStatusChip status={c.status} /> },
          { label: 'Proof', render: (c) => <FileLinks files={c.proof} /> },
        ]}
      />
      <Typography variant="h6" sx={{ mt: 3, mb: 1 }}>
        ROI per activity
      </Typography>
      <RoiTable requests={requests} />
      {dialog?.kind === 'request' ? <RequestDialog open funds={openFunds} onClose={() => setDialog(null)} onDone={done} /> : null}
      {dialog?.kind === 'edit' ? <RequestDialog open funds={funds} editing={dialog.request} onClose={() => setDialog(null)} onDone={done} /> : null}
      {dialog?.kind === 'claim' ? <ClaimDialog open request={dialog.request} onClose={() => setDialog(null)} onDone={done} /> : null}
    </Box>
  );
}
