import { rebateStatusLabel } from '@domain/rebates/rebates';
import { Chip } from '@mui/material';

const COLOURS: Record<string, { bg: string; fg: string }> = {
  pending: { bg: '#fff4e5', fg: '#8a4b00' },
  processing: { bg: '#e3f2fd', fg: '#0d47a1' },
  approved: { bg: '#e8f5e9', fg: '#1b5e20' },
  rejected: { bg: '#fdecea', fg: '#b71c1c' },
};

export function RebateStatusChip({ status }: { status: string }) {
  const colours = COLOURS[status] ?? { bg: '#eceff1', fg: '#37474f' };
  return <Chip size="small" label={rebateStatusLabel(status)} data-status={status} sx={{ bgcolor: colours.bg, color: colours.fg, fontWeight: 600 }} />;
}
