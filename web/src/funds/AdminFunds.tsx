import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Paper, Stack, Tab, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tabs, TextField, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../providers/errorMapper';
import { BalanceCards, daysUntil, FileLinks, FundStatusChip, RoiTable } from './FundParts';
import { exportClaims, exportRequests, getBalance, listClaims, listFunds, listRequests, recordPayout, reviewClaim, reviewRequest, usd, type Balance, type FundClaimRecord, type FundRecord, type FundRequestRecord } from './fundsApi';

type Decision = { kind: 'request'; record: FundRequestRecord } | { kind: 'claim'; record: FundClaimRecord } | { kind: 'payout'; record: FundClaimRecord };

/** One dialog for the reviews and the payout: the decision, an amount, a note or reason. */
function DecisionDialog({ decision, onClose, onDone }: { decision: Decision; onClose: () => void; onDone: (message: string) => void }) {
  const isRequest = decision.kind === 'request';
  const [choice, setChoice] = useState('approved');
  const [amount, setAmount] = useState(String(isRequest ? decision.record.requested_amount : decision.kind === 'claim' ? decision.record.claimed_amount : ''));
  const [text, setText] = useState('');
  const [payout, setPayout] = useState({ reference: '', paid_at: new Date().toISOString().slice(0, 10), method: 'bank_transfer' });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer =
        decision.kind === 'request'
          ? await reviewRequest(decision.record.id, { decision: choice, approved_amount: choice === 'approved' ? Number(amount) : null, note: text || null })
          : decision.kind === 'claim'
            ? await reviewClaim(decision.record.id, { decision: choice, paid_amount: choice === 'approved' ? Number(amount) : null, reason: text || null })
            : await recordPayout(decision.record.id, payout);
      onDone(answer.message);
    } catch (caught) {
      setError(caught instanceof ApiError || caught instanceof Error ? caught.message : 'Something went wrong.');
    } finally {
      setBusy(false);
    }
  };
  const choices = isRequest ? [['approved', 'Approve'], ['changes_requested', 'Ask for changes'], ['rejected', 'Reject']] : [['approved', 'Approve'], ['more_proof_requested', 'Ask for more proof'], ['rejected', 'Reject']];
  const title = decision.kind === 'request' ? `Review request "${decision.record.title}"` : decision.kind === 'claim' ? `Review claim "${decision.record.request_title}"` : `Record payout for "${decision.record.request_title}"`;
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5} sx={{ pt: 1 }}>
          {error ? <Alert severity="error" data-testid="form-error">{error}</Alert> : null}
          {decision.kind === 'request' ? (
            <Typography variant="body2">
              {decision.record.company_name} requests <strong>{usd(decision.record.requested_amount)}</strong> of a planned {usd(decision.record.planned_cost)} ({decision.record.start_date} – {decision.record.end_date}).
            </Typography>
          ) : (
            <Typography variant="body2">
              Approved <strong>{usd(decision.record.approved_amount)}</strong> · claimed <strong>{usd(decision.record.claimed_amount)}</strong> · actual cost {usd(decision.record.actual_cost)}
              {decision.kind === 'payout' ? ` · to pay ${usd(decision.record.paid_amount)}` : ''}
            </Typography>
          )}
          {decision.kind === 'payout' ? (
            <>
              <TextField label="Reference" name="reference" value={payout.reference} onChange={(e) => setPayout((p) => ({ ...p, reference: e.target.value }))} />
              <TextField label="Paid on" name="paid_at" type="date" value={payout.paid_at} onChange={(e) => setPayout((p) => ({ ...p, paid_at: e.target.value }))} InputLabelProps={{ shrink: true }} />
              <TextField select label="Method" value={payout.method} onChange={(e) => setPayout((p) => ({ ...p, method: e.target.value }))}>
                {[['bank_transfer', 'Bank transfer'], ['credit_note', 'Credit note'], ['check', 'Check'], ['other', 'Other']].map(([value, label]) => (
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
              {choice === 'approved' ? <TextField label={isRequest ? 'Approved amount ($)' : 'Paid amount ($)'} name="amount" value={amount} onChange={(e) => setAmount(e.target.value)} /> : null}
              <TextField label={choice === 'approved' ? 'Note (optional)' : 'Reason'} name="note" value={text} onChange={(e) => setText(e.target.value)} multiline minRows={2} />
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} data-testid="decision-submit">
          {decision.kind === 'payout' ? 'Record payout' : 'Save decision'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The administrators' Funds: totals, funds and allocations, the request and claim queues (oldest first), payouts and exports. */
export function AdminFunds() {
  const [tab, setTab] = useState<'requests' | 'claims' | 'funds' | 'roi'>('requests');
  const [total, setTotal] = useState<Balance>();
  const [funds, setFunds] = useState<FundRecord[]>([]);
  const [requests, setRequests] = useState<FundRequestRecord[]>([]);
  const [claims, setClaims] = useState<FundClaimRecord[]>([]);
  const [decision, setDecision] = useState<Decision | null>(null);
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
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label="Request queue">
              <TableHead>
                <TableRow>
                  <TableCell>Submitted</TableCell>
                  <TableCell>Organisation</TableCell>
                  <TableCell>Activity</TableCell>
                  <TableCell align="right">Planned</TableCell>
                  <TableCell align="right">Requested</TableCell>
                  <TableCell>Files</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {queue.map((r) => (
                  <TableRow key={r.id} data-testid={`queue-request-${r.title}`}>
                    <TableCell>{r.submitted_at.slice(0, 10)}</TableCell>
                    <TableCell>{r.company_name}</TableCell>
                    <TableCell>
                      {r.title}
                      <Typography variant="caption" display="block" color="text.secondary">
                        {r.start_date} – {r.end_date} · {r.fund_name}
                      </Typography>
                    </TableCell>
                    <TableCell align="right">{usd(r.planned_cost)}</TableCell>
                    <TableCell align="right">{usd(r.requested_amount)}</TableCell>
                    <TableCell>
                      <FileLinks files={r.attachments} />
                    </TableCell>
                    <TableCell>
                      <Button size="small" variant="outlined" onClick={() => setDecision({ kind: 'request', record: r })} data-testid="review-request">
                        Review
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
                {queue.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={7}>No requests waiting.</TableCell>
                  </TableRow>
                ) : null}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      ) : null}
      {tab === 'claims' ? (
        <>
          <Stack direction="row" justifyContent="flex-end" sx={{ mb: 1 }}>
            <Button onClick={() => void exportClaims()}>Export CSV</Button>
          </Stack>
          <TableContainer component={Paper} variant="outlined">
            <Table size="small" aria-label="Claim queue">
              <TableHead>
                <TableRow>
                  <TableCell>Submitted</TableCell>
                  <TableCell>Organisation</TableCell>
                  <TableCell>Activity</TableCell>
                  <TableCell align="right">Approved</TableCell>
                  <TableCell align="right">Claimed</TableCell>
                  <TableCell>Status</TableCell>
                  <TableCell>Proof</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {claimQueue.map((c) => {
                  const overdue = c.status === 'pending' && (daysUntil(c.submitted_at.slice(0, 10)) ?? 0) < -14;
                  return (
                    <TableRow key={c.id} data-testid={`queue-claim-${c.request_title}`} sx={overdue ? { bgcolor: '#fff4e5' } : undefined}>
                      <TableCell>{c.submitted_at.slice(0, 10)}</TableCell>
                      <TableCell>{c.company_name}</TableCell>
                      <TableCell>{c.request_title}</TableCell>
                      <TableCell align="right">{usd(c.approved_amount)}</TableCell>
                      <TableCell align="right">{usd(c.claimed_amount)}</TableCell>
                      <TableCell>
                        <FundStatusChip status={c.status} />
                      </TableCell>
                      <TableCell>
                        <FileLinks files={c.proof} />
                      </TableCell>
                      <TableCell>
                        {c.status === 'pending' ? (
                          <Button size="small" variant="outlined" onClick={() => setDecision({ kind: 'claim', record: c })} data-testid="review-claim">
                            Review
                          </Button>
                        ) : (
                          <Button size="small" variant="outlined" onClick={() => setDecision({ kind: 'payout', record: c })} data-testid="record-payout">
                            Payout
                          </Button>
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
                {claimQueue.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={8}>No claims waiting.</TableCell>
                  </TableRow>
                ) : null}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      ) : null}
      {tab === 'funds' ? (
        <Stack spacing={2}>
          {funds.map((f) => (
            <Paper key={f.id} variant="outlined" sx={{ p: 2 }} data-testid={`fund-${f.name}`}>
              <Typography variant="subtitle1" sx={{ fontWeight: 700 }}>
                {f.name}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {f.period_start} – {f.period_end} · budget {usd(f.budget)} · co-op {f.coop_share_percent}% · {f.utilisation_percent}% committed
              </Typography>
              <TableContainer>
                <Table size="small" aria-label={`Allocations of ${f.name}`}>
                  <TableHead>
                    <TableRow>
                      <TableCell>Organisation</TableCell>
                      <TableCell align="right">Allocated</TableCell>
                      <TableCell align="right">Accrued</TableCell>
                      <TableCell align="right">Reserved</TableCell>
                      <TableCell align="right">Claimed</TableCell>
                      <TableCell align="right">Paid</TableCell>
                      <TableCell align="right">Available</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {f.allocations.map((a) => (
                      <TableRow key={a.organisation_id}>
                        <TableCell>{a.company_name ?? a.organisation_id}</TableCell>
                        <TableCell align="right">{usd(a.allocated)}</TableCell>
                        <TableCell align="right">{usd(a.accrued)}</TableCell>
                        <TableCell align="right">{usd(a.reserved)}</TableCell>
                        <TableCell align="right">{usd(a.claimed)}</TableCell>
                        <TableCell align="right">{usd(a.paid)}</TableCell>
                        <TableCell align="right">{usd(a.available)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
            </Paper>
          ))}
        </Stack>
      ) : null}
      {tab === 'roi' ? <RoiTable requests={requests} /> : null}
      {decision ? <DecisionDialog decision={decision} onClose={() => setDecision(null)} onDone={done} /> : null}
    </Box>
  );
}
