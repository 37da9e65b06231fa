import { Box, FormControl, InputLabel, MenuItem, Paper, Select, Stack, Table, TableBody, TableHead, TableRow } from '@mui/material';
import type { ReactNode } from 'react';
import { Loading } from '../lists';

/** A drop-down filter of a webhook list: `All` first, then each value with its label. */
export function WebhookFilter({
  id,
  label,
  value,
  onChange,
  choices,
  width,
}: {
  /** The label's id, which names the drop-down. */
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  choices: readonly (readonly [string, string])[];
  width: number;
}) {
  return (
    <FormControl size="small" sx={{ width: { sm: width } }}>
      <InputLabel id={id}>{label}</InputLabel>
      <Select labelId={id} label={label} value={value} onChange={(e) => onChange(e.target.value)}>
        <MenuItem value="">All</MenuItem>
        {choices.map(([choice, text]) => (
          <MenuItem key={choice} value={choice}>
            {text}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}

/** The filters on the left and the list's buttons on the right; stacked on a phone. */
export function WebhookToolbar({ filters, actions }: { filters: ReactNode; actions: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2 }} alignItems={{ sm: 'center' }}>
      {filters}
      <Box sx={{ flex: 1 }} />
      <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
        {actions}
      </Stack>
    </Stack>
  );
}

/**
 * A webhook list while it loads, when it has nothing to show, and then as cards on a phone (no
 * sideways scrolling) or as a table.
 */
export function WebhookList({
  loading,
  empty,
  phone,
  label,
  cardsLabel,
  cards,
  head,
  rows,
}: {
  loading: boolean;
  /** What stands instead of an empty list, or null while there are rows. */
  empty: ReactNode;
  phone: boolean;
  /** Names the table. */
  label: string;
  cardsLabel?: string;
  cards: ReactNode;
  head: ReactNode;
  rows: ReactNode;
}) {
  if (loading) return <Loading />;
  if (empty) return <>{empty}</>;
  return phone ? (
    <Stack spacing={1.5} aria-label={cardsLabel}>
      {cards}
    </Stack>
  ) : (
    <Paper variant="outlined">
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>{head}</TableRow>
        </TableHead>
        <TableBody>{rows}</TableBody>
      </Table>
    </Paper>
  );
}
