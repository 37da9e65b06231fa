import { Alert, Button, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useDialogAction } from '../lists';
import type { Fund, RulePreview } from '@contracts/funds';
import { DateRangeFields, FundDialog, messageOf } from './FundDialogParts';
import { applyAllocationRule, closeFund, createFund, previewAllocationRule, usd } from './fundsApi';

/** A new fund period: name, period, budget and co-op share; allocations follow by hand or by a rule. */
export function NewFundDialog({ onClose, onDone }: { onClose: () => void; onDone: (message: string) => void }) {
  const now = new Date();
  const quarter = Math.floor(now.getUTCMonth() / 3);
  const [form, setForm] = useState({
    name: '',
    period_start: new Date(Date.UTC(now.getUTCFullYear(), quarter * 3, 1)).toISOString().slice(0, 10),
    period_end: new Date(Date.UTC(now.getUTCFullYear(), quarter * 3 + 3, 0)).toISOString().slice(0, 10),
    budget: '',
    coop_share_percent: '0',
  });
  const { busy, error, run } = useDialogAction(messageOf);
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: event.target.value }));
  const submit = () =>
    run(
      () =>
        createFund({
          name: form.name,
          period_start: form.period_start,
          period_end: form.period_end,
          budget: Number(form.budget),
          coop_share_percent: Number(form.coop_share_percent),
          allocations: [],
        }),
      () => onDone('Fund created.'),
    );
  return (
    <FundDialog
      title="New fund period"
      busy={busy}
      error={error}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create fund"
      submitTestId="fund-create-submit"
    >
      <TextField label="Name" name="name" value={form.name} onChange={set('name')} required />
      <DateRangeFields
        start={{ label: 'Period start', name: 'period_start', value: form.period_start, onChange: set('period_start') }}
        end={{ label: 'Period end', name: 'period_end', value: form.period_end, onChange: set('period_end') }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <TextField label="Budget ($)" name="budget" value={form.budget} onChange={set('budget')} inputMode="decimal" fullWidth />
        <TextField
          label="Co-op share of delivered orders (%)"
          name="coop_share_percent"
          value={form.coop_share_percent}
          onChange={set('coop_share_percent')}
          inputMode="decimal"
          fullWidth
        />
      </Stack>
    </FundDialog>
  );
}

/** Allocations by a rule: the percentage, a preview of what each organisation gets, then apply. */
export function AllocationRuleDialog({ fund, onClose, onDone }: { fund: Fund; onClose: () => void; onDone: (message: string) => void }) {
  const [percent, setPercent] = useState(fund.allocation_rule ? String(fund.allocation_rule.percent) : '5');
  const [preview, setPreview] = useState<RulePreview | null>(null);
  const { busy, error, run } = useDialogAction(messageOf);
  const showPreview = () => run(() => previewAllocationRule(fund.id, Number(percent)), setPreview);
  const apply = () =>
    run(
      () => applyAllocationRule(fund.id, Number(percent)),
      (answer) => onDone(answer.message),
    );
  const current = preview && preview.rule.percent === Number(percent) ? preview : null;
  return (
    <FundDialog
      title={`Allocate “${fund.name}” by a rule`}
      maxWidth="md"
      busy={busy}
      error={error}
      onClose={onClose}
      onSubmit={apply}
      submitLabel="Set allocations"
      submitTestId="rule-apply"
      submitDisabled={!current || !current.within_budget || !current.allocations.length}
    >
      <Typography variant="body2">
        Each organisation gets a percentage of its delivered purchases in the previous period of the same length. Organisations without delivered purchases keep
        their allocation. Tier-based rules follow with the partner programme.
      </Typography>
      <Stack direction="row" spacing={1.5} alignItems="center">
        <TextField
          label="Percent of delivered purchases"
          name="percent"
          value={percent}
          onChange={(e) => setPercent(e.target.value)}
          inputMode="decimal"
          sx={{ maxWidth: 260 }}
        />
        <Button variant="outlined" onClick={() => void showPreview()} disabled={busy} data-testid="rule-preview">
          Preview
        </Button>
      </Stack>
      {current ? (
        <>
          <Typography variant="body2" data-testid="rule-measured">
            Purchases delivered {current.measured_from} – {current.measured_to}. Allocated after the rule: <strong>{usd(current.total_allocated)}</strong> of{' '}
            {usd(current.budget)}.
          </Typography>
          {!current.within_budget ? (
            <Alert severity="warning">The allocations would add up to more than the budget: lower the percentage or raise the budget.</Alert>
          ) : null}
          {current.allocations.length ? (
            <TableContainer>
              <Table size="small" aria-label="Allocations by the rule" data-testid="rule-preview-table">
                <TableHead>
                  <TableRow>
                    <TableCell>Organisation</TableCell>
                    <TableCell align="right">Purchases</TableCell>
                    <TableCell align="right">Now</TableCell>
                    <TableCell align="right">By the rule</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {current.allocations.map((a) => (
                    <TableRow key={a.organisation_id}>
                      <TableCell>{a.company_name ?? a.organisation_id}</TableCell>
                      <TableCell align="right">{usd(a.purchases)}</TableCell>
                      <TableCell align="right">{usd(a.current)}</TableCell>
                      <TableCell align="right">{usd(a.amount)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          ) : (
            <Alert severity="info">No organisation had delivered purchases in the measured period.</Alert>
          )}
        </>
      ) : null}
    </FundDialog>
  );
}

/** Closing a period early: what expires, and that approved activities stay claimable. */
export function CloseFundDialog({ fund, onClose, onDone }: { fund: Fund; onClose: () => void; onDone: (message: string) => void }) {
  const { busy, error, run } = useDialogAction(messageOf);
  const submit = () =>
    run(
      () => closeFund(fund.id),
      (answer) => onDone(answer.message),
    );
  return (
    <FundDialog
      title={`Close “${fund.name}” now?`}
      busy={busy}
      error={error}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Close period"
      submitTestId="close-fund-submit"
      submitColor="warning"
    >
      <Typography variant="body2">
        The period runs until {fund.period_end} and closes by itself after that day. Closing it now expires <strong>{usd(fund.totals.available)}</strong> still
        available to organisations; no new requests are accepted. Approved activities stay claimable until their claim deadline.
      </Typography>
    </FundDialog>
  );
}
