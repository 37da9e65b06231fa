import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import type { ReactNode } from 'react';
import type { Balance } from '@contracts/funds';
import { usd } from './fundsApi';

/**
 * The funds charts: where each fund's money stands, as stacked bars of the balance figures (the
 * very figures of the balance route, so the bars add up to what the cards say).
 */

const STACK: Array<{ key: keyof Balance; label: string; color: string }> = [
  { key: 'paid', label: 'Paid', color: '#00695c' },
  { key: 'claimed', label: 'Claimed', color: '#1565c0' },
  { key: 'reserved', label: 'Reserved', color: '#f9a825' },
  { key: 'available', label: 'Available', color: '#90caf9' },
  { key: 'expired', label: 'Expired', color: '#bdbdbd' },
];

const compact = (value: number) =>
  value >= 1_000_000 ? `$${Math.round(value / 100_000) / 10}M` : value >= 1000 ? `$${Math.round(value / 100) / 10}k` : `$${Math.round(value)}`;

export interface ChartRow extends Balance {
  label: string;
  /** Budget not allocated to any organisation (per fund charts), shown after the allocated money. */
  unallocated?: number;
}

const UNALLOCATED = { label: 'Not allocated', color: '#e0e0e0' };

/** A chart in its card, or the empty state: what is missing, with the action that creates the first record. */
export function FundChartCard({
  title,
  testId,
  rows,
  empty,
  height,
}: {
  title: string;
  testId: string;
  rows: ChartRow[];
  empty: { text: string; action?: ReactNode };
  height?: number;
}) {
  const anything = rows.some((row) => STACK.some((part) => row[part.key] > 0));
  return (
    <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, mb: 2, minWidth: 0 }} data-testid={testId}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {anything ? (
        <Box sx={{ width: '100%', minWidth: 0 }}>
          <BarChart
            height={height ?? Math.max(180, 70 + rows.length * 44)}
            layout="horizontal"
            skipAnimation
            yAxis={[{ scaleType: 'band', data: rows.map((row) => row.label), width: 110, tickLabelStyle: { fontSize: 12 } }]}
            xAxis={[{ valueFormatter: (value: number) => compact(value), tickMinStep: 1 }]}
            series={[
              ...STACK.map((part) => ({
                data: rows.map((row) => Math.max(0, row[part.key])),
                label: part.label,
                color: part.color,
                stack: 'money',
                valueFormatter: (value: number | null) => usd(value ?? 0),
              })),
              ...(rows.some((row) => row.unallocated !== undefined)
                ? [
                    {
                      data: rows.map((row) => Math.max(0, row.unallocated ?? 0)),
                      label: UNALLOCATED.label,
                      color: UNALLOCATED.color,
                      stack: 'money',
                      valueFormatter: (value: number | null) => usd(value ?? 0),
                    },
                  ]
                : []),
            ]}
            margin={{ right: 32 }}
          />
        </Box>
      ) : (
        <Stack spacing={1} alignItems="flex-start" data-testid={`${testId}-empty`}>
          <Typography variant="body2" color="text.secondary">
            {empty.text}
          </Typography>
          {empty.action}
        </Stack>
      )}
    </Paper>
  );
}

/** A short label for a bar: long names are cut, so the axis keeps its width on phones. */
export const barLabel = (name: string) => (name.length > 16 ? `${name.slice(0, 15)}…` : name);

export function EmptyAction({ label, onClick, testId }: { label: string; onClick: () => void; testId?: string }) {
  return (
    <Button size="small" variant="outlined" onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
}
