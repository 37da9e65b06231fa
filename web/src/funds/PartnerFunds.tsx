import { Alert, Box, Button, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { ClaimDialog, RequestDialog } from './FundForms';
import { BalanceCards, daysUntil, FileLinks, FundStatusChip, RoiTable } from './FundParts';
import { ACTIVITY_LABELS, getBalance, listClaims, listRequests, usd, type Balance, type FundBalanceRow, type FundClaimRecord, type FundRequestRecord } from './fundsApi';

/** The partner's Marketing Funds: balance, requests with their deadlines, claims, and the forms. */
export function PartnerFunds({ canRequest }: { canRequest: boolean }) {
  const [total, setTotal] = useState<Balance>();
  const [funds, setFunds] = useState<FundBalanceRow[]>([]);
  const [requests, setRequests] = useState<FundRequestRecord[]>([]);
  const [claims, setClaims] = useState<FundClaimRecord[]>([]);
  const [dialog, setDialog] = useState<{ kind: 'request' } | { kind: 'edit' | 'claim'; request: FundRequestRecord } | null>(null);
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

  return (
    <Box>
      {error ? <Alert severity="error">{error}</Alert> : null}
      {notice ? (
        <Alert severity="success" onClose={() => setNotice(null)} sx={{ mb: 2 }} data-testid="funds-notice">
          {notice}
        </Alert>
      ) : null}
      <BalanceCards balance={total} testId="balance" />
      <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mb: 1 }}>
        <Typography variant="h6">Activity requests</Typography>
        {canRequest && funds.length ? (
          <Button variant="contained" onClick={() => setDialog({ kind: 'request' })} data-testid="new-request">
            Request funds
          </Button>
        ) : null}
      </Stack>
      <TableContainer component={Paper} variant="outlined" sx={{ mb: 3 }}>
        <Table size="small" aria-label="Activity requests">
          <TableHead>
            <TableRow>
              <TableCell>Activity</TableCell>
              <TableCell>Dates</TableCell>
              <TableCell align="right">Requested</TableCell>
              <TableCell align="right">Approved</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Claim by</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {requests.map((r) => {
              const left = daysUntil(r.claim_deadline);
              return (
                <TableRow key={r.id} data-testid={`request-${r.title}`}>
                  <TableCell>
                    <strong>{r.title}</strong>
                    <Typography variant="caption" display="block" color="text.secondary">
                      {ACTIVITY_LABELS[r.activity_type] ?? r.activity_type} · {r.fund_name}
                    </Typography>
                    {r.note ? (
                      <Typography variant="caption" display="block">
                        Note: {r.note}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    {r.start_date} – {r.end_date}
                  </TableCell>
                  <TableCell align="right">{usd(r.requested_amount)}</TableCell>
                  <TableCell align="right">{usd(r.approved_amount)}</TableCell>
                  <TableCell>
                    <FundStatusChip status={r.status} />
                  </TableCell>
                  <TableCell sx={{ color: r.status === 'approved' && left !== null && left <= 14 ? 'error.main' : undefined }}>
                    {r.status === 'approved' && r.claim_deadline ? `${r.claim_deadline} (${left} d)` : '—'}
                  </TableCell>
                  <TableCell>
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
                  </TableCell>
                </TableRow>
              );
            })}
            {requests.length === 0 ? (
              <TableRow>
                <TableCell colSpan={7}>No requests yet.</TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="h6" sx={{ mb: 1 }}>
        Claims
      </Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Claims">
          <TableHead>
            <TableRow>
              <TableCell>Activity</TableCell>
              <TableCell align="right">Approved</TableCell>
              <TableCell align="right">Claimed</TableCell>
              <TableCell align="right">Paid</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Proof</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {claims.map((c) => (
              <TableRow key={c.id} data-testid={`claim-${c.request_title}`}>
                <TableCell>
                  {c.request_title}
                  {c.reason ? (
                    <Typography variant="caption" display="block">
                      {c.reason}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell align="right">{usd(c.approved_amount)}</TableCell>
                <TableCell align="right">{usd(c.claimed_amount)}</TableCell>
                <TableCell align="right">{c.payout ? `${usd(c.paid_amount)} on ${c.payout.paid_at}` : usd(c.paid_amount)}</TableCell>
                <TableCell>
                  <FundStatusChip status={c.status} />
                </TableCell>
                <TableCell>
                  <FileLinks files={c.proof} />
                </TableCell>
              </TableRow>
            ))}
            {claims.length === 0 ? (
              <TableRow>
                <TableCell colSpan={6}>No claims yet.</TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="h6" sx={{ mt: 3, mb: 1 }}>
        ROI per activity
      </Typography>
      <RoiTable requests={requests} />
      {dialog?.kind === 'request' ? <RequestDialog open funds={funds} onClose={() => setDialog(null)} onDone={done} /> : null}
      {dialog?.kind === 'edit' ? <RequestDialog open funds={funds} editing={dialog.request} onClose={() => setDialog(null)} onDone={done} /> : null}
      {dialog?.kind === 'claim' ? <ClaimDialog open request={dialog.request} onClose={() => setDialog(null)} onDone={done} /> : null}
    </Box>
  );
}
