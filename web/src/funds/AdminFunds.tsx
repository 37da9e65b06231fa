import { Alert, Box, Button, MenuItem, Paper, Stack, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useDialogAction } from '../lists';
import { FundDialog, messageOf } from './FundDialogParts';
import { AllocationRuleDialog, CloseFundDialog, NewFundDialog } from './FundAdminDialogs';
import { barLabel, EmptyAction, FundChartCard } from './FundCharts';
import { BalanceCards, daysUntil, FileLinks, FundStatusChip, FundTable, RoiTable } from './FundParts';
import type { Balance, Fund, FundClaim, FundRequest } from '@contracts/funds';
import { exportClaims, exportRequests, getBalance, listClaims, listFunds, listRequests, recordPayout, reviewClaim, reviewRequest, usd } from './fundsApi';

type Decision = { kind: 'request'; record: FundRequest } | { kind: 'claim'; record: FundClaim } | { kind: 'payout'; record: FundClaim };

/** One dialog for the reviews and the payout: the decision, an amount, a note or reason. */
function DecisionDialog({ decision, onClose, onDone }: { decision: Decision; onClose: () => void; onDone: (message: string) => void }) {
  const isRequest = decision.kind === 'request';
  const [choice, setChoice] = useState('approved');
  const [amount, setAmount] = useState(String(isRequest ? decision.record.requested_amount : decision.kind === 'claim' ? decision.record.claimed_amount : ''));
  const [text, setText] = useState('');
  const [payout, setPayout] = useState({ reference: '', paid_at: new Date().toISOString().slice(0, 10), method: 'bank_transfer' });
  const { busy, error, run } = useDialogAction(messageOf);
  const submit = () =>
    run<{ message: string }>(
      () =>
        decision.kind === 'request'
          ? reviewRequest(decision.record.id, { decision: choice, approved_amount: choice === 'approved' ? Number(amount) : null, note: text || null })
          : decision.kind === 'claim'
            ? reviewClaim(decision.record.id, { decision: choice, paid_amount: choice === 'approved' ? Number(amount) : null, reason: text || null })
            : recordPayout(decision.record.id, payout),
      (answer) => onDone(answer.message),
    );
  const choices = isRequest
    ? [
        ['approved', 'Approve'],
        ['changes_requested', 'Ask for changes'],
        ['rejected', 'Reject'],
      ]
    : [
        ['approved', 'Approve'],
        ['more_proof_requested', 'Ask for more proof'],
        ['rejected', 'Reject'],
      ];
  const title =
    decision.kind === 'request'
      ? `Review request "${decision.record.title}"`
      : decision.kind === 'claim'
        ? `Review claim "${decision.record.request_title}"`
        : `Record payout for "${decision.record.request_title}"`;
  return (
    <FundDialog
      title={title}
      busy={busy}
      error={error}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={decision.kind === 'payout' ? 'Record payout' : 'Save decision'}
      submitTestId="decision-submit"
    >
      {decision.kind === 'request' ? (
        <Typography variant="body2">
          {decision.record.company_name} requests <strong>{usd(decision.record.requested_amount)}</strong> of a planned {usd(decision.record.planned_cost)} (
          {decision.record.start_date} – {decision.record.end_date}).
        </Typography>
      ) : (
        <Typography variant="body2">
          Approved <strong>{usd(decision.record.approved_amount)}</strong> · claimed <strong>{usd(decision.record.claimed_amount)}</strong> · actual cost{' '}
          {usd(decision.record.actual_cost)}
          {decision.kind === 'payout' ? ` · to pay ${usd(decision.record.paid_amount)}` : ''}
        </Typography>
      )}
      {decision.kind === 'payout' ? (
        <>
          <TextField label="Reference" name="reference" value={payout.reference} onChange={(e) => setPayout((p) => ({ ...p, reference: e.target.value }))} />
          <TextField
            label="Paid on"
            name="paid_at"
            type="date"
            value={payout.paid_at}
            onChange={(e) => setPayout((p) => ({ ...p, paid_at: e.target.value }))}
            InputLabelProps={{ shrink: true }}
          />
          <TextField select label="Method" value={payout.method} onChange={(e) => setPayout((p) => ({ ...p, method: e.target.value }))}>
            {[
              ['bank_transfer', 'Bank transfer'],
              ['credit_note', 'Credit note'],
              ['check', 'Check'],
              ['other', 'Other'],
            ].map(([value, label]) => (
              <MenuItem key={value} value={value}>
                {label}
              </MenuItem>
            ))}
          </TextField>
        </>
      ) : (
        <>
          <TextField select label="Decision" value={choice} onChange={(e) => setChoice(e.target.value)} inputProps={{ 'data-testid': 'decision' }}>
            {choices.map(([value, label]) => (
              <MenuItem key={value} value={value}>
                {label}
              </MenuItem>
            ))}
          </TextField>
          {choice === 'approved' ? (
            <TextField label={isRequest ? 'Approved amount ($)' : 'Paid amount ($)'} name="amount" value={amount} onChange={(e) => setAmount(e.target.value)} />
          ) : null}
          <TextField
            label={choice === 'approved' ? 'Note (optional)' : 'Reason'}
            name="note"
            value={text}
            onChange={(e) => setText(e.target.value)}
            multiline
            minRows={2}
          />
        </>
      )}
    </FundDialog>
  );
}

/** The administrators' Funds: totals, funds and allocations, the request and claim queues (oldest first), payouts and exports. */
export function AdminFunds() {
  const [tab, setTab] = useState<'requests' | 'claims' | 'funds' | 'roi'>('requests');
  const [total, setTotal] = useState<Balance>();
  const [funds, setFunds] = useState<Fund[]>([]);
  const [requests, setRequests] = useState<FundRequest[]>([]);
  const [claims, setClaims] = useState<FundClaim[]>([]);
  const [decision, setDecision] = useState<Decision | null>(null);
  const [fundDialog, setFundDialog] = useState<{ kind: 'new' } | { kind: 'rule' | 'close'; fund: Fund } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const load = useCallback(async () => {
    const [balance, f, r, c] = await Promise.all([getBalance(), listFunds(), listRequests(), listClaims()]);
    setTotal(balance.total);
    setFunds(f);
    setRequests(r);
    setClaims(c);
  }, []);
  useEffect(() => void load(), [load]);
  const done = (message: string) => {
    setDecision(null);
    setNotice(message);
    void load();
  };
  const fundDone = (message: string) => {
    setFundDialog(null);
    setNotice(message);
    void load();
  };
  /** A claim waiting for review more than 14 days. */
  const overdue = (c: FundClaim) => c.status === 'pending' && (daysUntil(c.submitted_at.slice(0, 10)) ?? 0) < -14;
  const queue = requests.filter((r) => r.status === 'pending');
  const claimQueue = claims.filter((c) => c.status === 'pending' || c.status === 'approved');

  return (
    <Box>
      {notice ? (
        <Alert severity="success" onClose={() => setNotice(null)} sx={{ mb: 2 }} data-testid="funds-notice">
          {notice}
        </Alert>
      ) : null}
      <BalanceCards balance={total} testId="admin-balance" />
      <Paper variant="outlined" sx={{ mb: 2 }}>
        <Tabs value={tab} onChange={(_, value) => setTab(value)} variant="scrollable" allowScrollButtonsMobile>
          <Tab value="requests" label={`Request queue (${queue.length})`} data-testid="tab-requests" />
          <Tab value="claims" label={`Claim queue (${claimQueue.length})`} data-testid="tab-claims" />
          <Tab value="funds" label="Funds and allocations" data-testid="tab-funds" />
          <Tab value="roi" label="ROI per activity" data-testid="tab-roi" />
        </Tabs>
      </Paper>
      {tab === 'requests' ? (
        <>
          <Stack direction="row" justifyContent="flex-end" sx={{ mb: 1 }}>
            <Button onClick={() => void exportRequests()}>Export CSV</Button>
          </Stack>
          <FundTable
            label="Request queue"
            rows={queue}
            rowId={(r) => r.id}
            rowProps={(r) => ({ 'data-testid': `queue-request-${r.title}` })}
            empty="No requests waiting."
            columns={[
              {
                label: 'Activity',
                render: (r) => (
                  <>
                    {r.title}
                    <Typography variant="caption" display="block" color="text.secondary">
                      {r.start_date} – {r.end_date} · {r.fund_name}
                    </Typography>
                  </>
                ),
              },
              { label: 'Submitted', render: (r) => r.submitted_at.slice(0, 10) },
              { label: 'Organisation', render: (r) => r.company_name },
              { label: 'Planned', align: 'right', render: (r) => usd(r.planned_cost) },
              { label: 'Requested', align: 'right', render: (r) => usd(r.requested_amount) },
              { label: 'Files', render: (r) => <FileLinks files={r.attachments} /> },
              {
                label: '',
                render: (r) => (
                  <Button size="small" variant="outlined" onClick={() => setDecision({ kind: 'request', record: r })} data-testid="review-request">
                    Review
                  </Button>
                ),
              },
            ]}
          />
        </>
      ) : null}
      {tab === 'claims' ? (
        <>
          <Stack direction="row" justifyContent="flex-end" sx={{ mb: 1 }}>
            <Button onClick={() => void exportClaims()}>Export CSV</Button>
          </Stack>
          <FundTable
            label="Claim queue"
            rows={claimQueue}
            rowId={(c) => c.id}
            rowProps={(c) => ({ 'data-testid': `queue-claim-${c.request_title}` })}
            rowSx={(c) => (overdue(c) ? { bgcolor: '#fff4e5' } : undefined)}
            empty="No claims waiting."
            columns={[
              { label: 'Activity', render: (c) => c.request_title },
              {
                label: 'Submitted',
                render: (c) => (
                  <Box component="span" sx={overdue(c) ? { color: 'warning.dark', fontWeight: 600 } : undefined}>
                    {c.submitted_at.slice(0, 10)}
                    {overdue(c) ? ' · overdue' : ''}
                  </Box>
                ),
              },
              { label: 'Organisation', render: (c) => c.company_name },
              { label: 'Approved', align: 'right', render: (c) => usd(c.approved_amount) },
              { label: 'Claimed', align: 'right', render: (c) => usd(c.claimed_amount) },
              { label: 'Status', render: (c) => <FundStatusChip status={c.status} /> },
              { label: 'Proof', render: (c) => <FileLinks files={c.proof} /> },
              {
                label: '',
                render: (c) =>
                  c.status === 'pending' ? (
                    <Button size="small" variant="outlined" onClick={() => setDecision({ kind: 'claim', record: c })} data-testid="review-claim">
                      Review
                    </Button>
                  ) : (
                    <Button size="small" variant="outlined" onClick={() => setDecision({ kind: 'payout', record: c })} data-testid="record-payout">
                      Payout
                    </Button>
                  ),
              },
            ]}
          />
        </>
      ) : null}
      {tab === 'funds' ? (
        <Stack spacing={2}>
          <Stack direction="row" justifyContent="flex-end">
            <Button variant="contained" onClick={() => setFundDialog({ kind: 'new' })} data-testid="new-fund">
              New fund
            </Button>
          </Stack>
          <FundChartCard
            title="Budget utilisation per fund: paid, claimed, reserved, available, expired, not allocated"
            testId="utilisation-chart"
            rows={funds.map((f) => ({ ...f.totals, unallocated: Math.round((f.budget - f.totals.allocated) * 100) / 100, label: barLabel(f.name) }))}
            empty={{
              text: funds.length
                ? 'No fund has allocations yet: allocate a budget to organisations by hand or by a rule.'
                : 'No fund periods yet: create the first fund with its budget and period.',
              action: funds.length ? undefined : <EmptyAction label="New fund" onClick={() => setFundDialog({ kind: 'new' })} testId="empty-new-fund" />,
            }}
          />
          {funds.map((f) => (
            <Paper key={f.id} variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }} data-testid={`fund-${f.name}`}>
              <Stack direction={{ xs: 'column', sm: 'row' }} justifyContent="space-between" alignItems={{ xs: 'flex-start', sm: 'center' }} spacing={1}>
                <Box sx={{ minWidth: 0 }}>
                  <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
                    {f.name} <FundStatusChip status={f.status} />
                  </Typography>
                  <Typography variant="body2" color="text.secondary">
                    {f.period_start} – {f.period_end} · budget {usd(f.budget)} · co-op {f.coop_share_percent}% · {f.utilisation_percent}% committed
                    {f.closed_at ? ` · closed ${f.closed_at.slice(0, 10)}${f.close_reason === 'manual' ? ' early' : ''}, ${usd(f.totals.expired)} expired` : ''}
                  </Typography>
                  {f.allocation_rule ? (
                    <Typography variant="caption" color="text.secondary" display="block">
                      Allocated by rule: {f.allocation_rule.percent}% of delivered purchases {f.allocation_rule.measured_from} – {f.allocation_rule.measured_to}
                    </Typography>
                  ) : null}
                </Box>
                {f.status === 'open' ? (
                  <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
                    <Button size="small" variant="outlined" onClick={() => setFundDialog({ kind: 'rule', fund: f })} data-testid="allocate-by-rule">
                      Allocate by rule
                    </Button>
                    <Button size="small" variant="outlined" color="warning" onClick={() => setFundDialog({ kind: 'close', fund: f })} data-testid="close-fund">
                      Close period
                    </Button>
                  </Stack>
                ) : null}
              </Stack>
              <Box sx={{ mt: 1.5 }}>
                <FundChartCard
                  title="Utilisation per organisation"
                  testId={`org-chart-${f.name}`}
                  rows={f.allocations.map((a) => ({ ...a, label: barLabel(a.company_name ?? a.organisation_id) }))}
                  empty={{
                    text: 'No organisation has an allocation in this fund yet.',
                    action: f.status === 'open' ? <EmptyAction label="Allocate by rule" onClick={() => setFundDialog({ kind: 'rule', fund: f })} /> : undefined,
                  }}
                />
              </Box>
              {f.allocations.length ? (
                <FundTable
                  label={`Allocations of ${f.name}`}
                  rows={f.allocations}
                  rowId={(a) => a.organisation_id}
                  empty=""
                  columns={[
                    { label: 'Organisation', render: (a) => a.company_name ?? a.organisation_id },
                    { label: 'Allocated', align: 'right', render: (a) => usd(a.allocated) },
                    { label: 'Accrued', align: 'right', render: (a) => usd(a.accrued) },
                    { label: 'Reserved', align: 'right', render: (a) => usd(a.reserved) },
                    { label: 'Claimed', align: 'right', render: (a) => usd(a.claimed) },
                    { label: 'Paid', align: 'right', render: (a) => usd(a.paid) },
                    { label: 'Expired', align: 'right', render: (a) => usd(a.expired) },
                    { label: 'Available', align: 'right', render: (a) => usd(a.available) },
                  ]}
                />
              ) : null}
            </Paper>
          ))}
        </Stack>
      ) : null}
      {tab === 'roi' ? <RoiTable requests={requests} /> : null}
      {fundDialog?.kind === 'new' ? <NewFundDialog onClose={() => setFundDialog(null)} onDone={fundDone} /> : null}
      {fundDialog?.kind === 'rule' ? <AllocationRuleDialog fund={fundDialog.fund} onClose={() => setFundDialog(null)} onDone={fundDone} /> : null}
      {fundDialog?.kind === 'close' ? <CloseFundDialog fund={fundDialog.fund} onClose={() => setFundDialog(null)} onDone={fundDone} /> : null}
      {decision ? <DecisionDialog decision={decision} onClose={() => setDecision(null)} onDone={done} /> : null}
    </Box>
  );
}
