import { Box, Card, CardContent, Chip, Link, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { downloadFile, STATUS_LABELS, usd, type Balance, type FileLink, type FundRequestRecord } from './fundsApi';

const COLOURS: Record<string, { bg: string; fg: string }> = {
  pending: { bg: '#fff4e5', fg: '#8a4b00' },
  changes_requested: { bg: '#fff8e1', fg: '#6d4c00' },
  more_proof_requested: { bg: '#fff8e1', fg: '#6d4c00' },
  approved: { bg: '#e8f5e9', fg: '#1b5e20' },
  claimed: { bg: '#e3f2fd', fg: '#0d47a1' },
  paid: { bg: '#e0f2f1', fg: '#004d40' },
  rejected: { bg: '#fdecea', fg: '#b71c1c' },
  released: { bg: '#eceff1', fg: '#37474f' },
};

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
];

export function BalanceCards({ balance, testId }: { balance: Balance | undefined; testId: string }) {
  return (
    <Box data-testid={testId} sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', md: 'repeat(6, minmax(0, 1fr))' }, gap: 1.5, mb: 2 }}>
      {CARDS.map((card) => (
        <Card key={card.key} variant="outlined">
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
export const daysUntil = (day: string | null) => (day ? Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`)) / 86_400_000) : null);

/** ROI per activity: approved activities with the deals that name them, revenue from their delivered orders and revenue / paid. */
export function RoiTable({ requests }: { requests: FundRequestRecord[] }) {
  const activities = requests.filter((r) => r.status === 'approved' || r.status === 'claimed');
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ mb: 3 }}>
      <Table size="small" aria-label="ROI per activity" data-testid="roi-table">
        <TableHead>
          <TableRow>
            <TableCell>Activity</TableCell>
            <TableCell align="right">Deals</TableCell>
            <TableCell align="right">Pipeline</TableCell>
            <TableCell align="right">Revenue</TableCell>
            <TableCell align="right">Paid</TableCell>
            <TableCell align="right">ROI</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {activities.map((r) => (
            <TableRow key={r.id} data-testid={`roi-${r.title}`}>
              <TableCell>
                {r.title}
                {r.company_name ? (
                  <Typography variant="caption" display="block" color="text.secondary">
                    {r.company_name}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell align="right">{r.deals}</TableCell>
              <TableCell align="right">{usd(r.pipeline)}</TableCell>
              <TableCell align="right">{usd(r.revenue)}</TableCell>
              <TableCell align="right">{usd(r.paid)}</TableCell>
              <TableCell align="right" data-testid="roi-value">
                {r.roi === null ? '—' : `${r.roi.toFixed(2)}×`}
              </TableCell>
            </TableRow>
          ))}
          {activities.length === 0 ? (
            <TableRow>
              <TableCell colSpan={6}>No approved activities yet. Name the activity on a deal registration to see its return here.</TableCell>
            </TableRow>
          ) : null}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
