import { Box, Card, CardContent, Chip, Link, Paper, Stack, Typography, type TableCellProps } from '@mui/material';
import type { ReactNode } from 'react';
import { RecordTable } from '../lists/RecordTable';
import type { Balance, FileLink, FundBalanceRow, FundRequest } from '@contracts/funds';
import { downloadFile, STATUS_LABELS, usd } from './fundsApi';

const COLOURS: Record<string, { bg: string; fg: string }> = {
  pending: { bg: '#fff4e5', fg: '#8a4b00' },
  changes_requested: { bg: '#fff8e1', fg: '#6d4c00' },
  more_proof_requested: { bg: '#fff8e1', fg: '#6d4c00' },
  approved: { bg: '#e8f5e9', fg: '#1b5e20' },
  claimed: { bg: '#e3f2fd', fg: '#0d47a1' },
  paid: { bg: '#e0f2f1', fg: '#004d40' },
  rejected: { bg: '#fdecea', fg: '#b71c1c' },
  released: { bg: '#eceff1', fg: '#37474f' },
  open: { bg: '#e8f5e9', fg: '#1b5e20' },
  closed: { bg: '#eceff1', fg: '#37474f' },
};

export interface FundColumn<T> {
  label: string;
  align?: TableCellProps['align'];
  render: (row: T) => ReactNode;
}

const NO_SORT = { field: '', order: 'ASC' as const };

/**
 * A funds list: the shared RecordTable on wider screens and, on phones, one card per row (the first
 * column as its title, the others as labelled lines, the last unlabelled column as its actions), so
 * nothing scrolls sideways.
 */
export function FundTable<T>({
  label,
  rows,
  rowId,
  columns,
  empty,
  rowProps,
  rowSx,
}: {
  label: string;
  rows: readonly T[];
  rowId: (row: T) => string;
  columns: FundColumn<T>[];
  empty: string;
  rowProps?: (row: T) => Record<string, string>;
  rowSx?: (row: T) => object | undefined;
}) {
  const [title, ...rest] = columns;
  return (
    <RecordTable
      label={label}
      rows={rows}
      rowId={rowId}
      columns={columns.map((c) => ({ label: c.label, align: c.align, render: c.render }))}
      sort={NO_SORT}
      onSort={() => {}}
      rowProps={rowProps}
      empty={
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {empty}
          </Typography>
        </Paper>
      }
      card={(row) => (
        <Card variant="outlined" {...rowProps?.(row)} sx={rowSx?.(row)}>
          <CardContent sx={{ pb: '12px !important' }}>
            <Box sx={{ fontWeight: 600, wordBreak: 'break-word', mb: 0.5 }}>{title.render(row)}</Box>
            {rest.map((c) =>
              c.label ? (
                <Box key={c.label} sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, py: 0.25, alignItems: 'center' }}>
                  <Typography variant="caption" color="text.secondary">
                    {c.label}
                  </Typography>
                  <Box sx={{ textAlign: 'right', minWidth: 0, wordBreak: 'break-word', typography: 'body2' }}>{c.render(row)}</Box>
                </Box>
              ) : (
                <Box key="actions" sx={{ mt: 1 }}>
                  {c.render(row)}
                </Box>
              ),
            )}
          </CardContent>
        </Card>
      )}
    />
  );
}

export function FundStatusChip({ status }: { status: string }) {
  const colours = COLOURS[status] ?? { bg: '#eceff1', fg: '#37474f' };
  return <Chip size="small" label={STATUS_LABELS[status] ?? status} data-status={status} sx={{ bgcolor: colours.bg, color: colours.fg, fontWeight: 600 }} />;
}

const CARDS: Array<{ key: keyof Balance; label: string; hint: string }> = [
  { key: 'available', label: 'Available', hint: 'to request now' },
  { key: 'reserved', label: 'Reserved', hint: 'approved, not yet claimed' },
  { key: 'claimed', label: 'Claimed', hint: 'approved claims awaiting payout' },
  { key: 'paid', label: 'Paid', hint: 'paid out' },
  { key: 'allocated', label: 'Allocated', hint: 'given for the period' },
  { key: 'accrued', label: 'Co-op accrued', hint: 'share of delivered orders' },
  { key: 'expired', label: 'Expired', hint: 'unspent at a period’s close' },
];

/**
 * The money that expires next: what is available in the open funds whose period ends first (the
 * balance route's `available` per fund, nothing computed anew), with that last day.
 */
export function expiringNext(funds: FundBalanceRow[]): { amount: number; on: string } | null {
  const open = funds.filter((f) => f.status === 'open' && f.available > 0);
  if (!open.length) return null;
  const on = open.map((f) => f.period_end).sort()[0];
  return { amount: open.filter((f) => f.period_end === on).reduce((sum, f) => Math.round(sum * 100 + f.available * 100) / 100, 0), on };
}

export function BalanceCards({
  balance,
  testId,
  expiring,
}: {
  balance: Balance | undefined;
  testId: string;
  expiring?: { amount: number; on: string } | null;
}) {
  const columns =
    expiring === undefined
      ? { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))', lg: 'repeat(7, minmax(0, 1fr))' }
      : { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' };
  return (
    <Box data-testid={testId} sx={{ display: 'grid', gridTemplateColumns: columns, gap: 1.5, mb: 2 }}>
      {expiring !== undefined ? (
        <Card variant="outlined" sx={{ order: 1 }}>
          <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
            <Typography variant="caption" color="text.secondary">
              Expiring
            </Typography>
            <Typography variant="h6" data-testid={`${testId}-expiring`} sx={{ fontWeight: 700 }}>
              {usd(expiring?.amount ?? 0)}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {expiring ? `available, unspent after ${expiring.on}` : 'nothing open to expire'}
            </Typography>
          </CardContent>
        </Card>
      ) : null}
      {CARDS.map((card, index) => (
        <Card key={card.key} variant="outlined" sx={{ order: index === 0 ? 0 : 2 }}>
          <CardContent sx={{ p: 1.5, '&:last-child': { pb: 1.5 } }}>
            <Typography variant="caption" color="text.secondary">
              {card.label}
            </Typography>
            <Typography variant="h6" data-testid={`${testId}-${card.key}`} sx={{ fontWeight: 700 }}>
              {balance ? usd(balance[card.key]) : '…'}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {card.hint}
            </Typography>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
}

export function FileLinks({ files }: { files: FileLink[] }) {
  if (!files.length) return <>—</>;
  return (
    <Stack spacing={0.25}>
      {files.map((file) => (
        <Link key={file.url} component="button" type="button" variant="body2" onClick={() => void downloadFile(file)} sx={{ textAlign: 'left' }}>
          {file.name}
        </Link>
      ))}
    </Stack>
  );
}

/** Days from today to a deadline (negative once passed). */
export const daysUntil = (day: string | null) =>
  day ? Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`)) / 86_400_000) : null;

/** ROI per activity: approved activities with the deals that name them, revenue from their delivered orders and revenue / paid. */
export function RoiTable({ requests }: { requests: FundRequest[] }) {
  const activities = requests.filter((r) => r.status === 'approved' || r.status === 'claimed');
  return (
    <Box data-testid="roi-table" sx={{ mb: 3 }}>
      <FundTable
        label="ROI per activity"
        rows={activities}
        rowId={(r) => r.id}
        rowProps={(r) => ({ 'data-testid': `roi-${r.title}` })}
        empty="No approved activities yet. Name the activity on a deal registration to see its return here."
        columns={[
          {
            label: 'Activity',
            render: (r) => (
              <>
                {r.title}
                {r.company_name ? (
                  <Typography variant="caption" display="block" color="text.secondary">
                    {r.company_name}
                  </Typography>
                ) : null}
              </>
            ),
          },
          { label: 'Deals', align: 'right', render: (r) => r.deals },
          { label: 'Pipeline', align: 'right', render: (r) => usd(r.pipeline) },
          { label: 'Revenue', align: 'right', render: (r) => usd(r.revenue) },
          { label: 'Paid', align: 'right', render: (r) => usd(r.paid) },
          { label: 'ROI', align: 'right', render: (r) => <span data-testid="roi-value">{r.roi === null ? '—' : `${r.roi.toFixed(2)}×`}</span> },
        ]}
      />
    </Box>
  );
}
