import { REBATE_STATUSES, rebateStatusLabel } from '@domain/rebates/rebates';
import DownloadIcon from '@mui/icons-material/Download';
import SearchIcon from '@mui/icons-material/Search';
import { Box, Button, InputAdornment, Tab, Tabs, TextField } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useToast } from '../layout/toast';
import { SelectFilter, usePhoneFilters } from '../lists';
import { messageOf } from '../providers/errorMapper';
import { exportRebates, type RebateFilters, type SortOrder } from './rebatesApi';

export interface FilterState {
  status: string;
  search: string;
  date_from: string;
  date_to: string;
  organisation_id: string;
}

export const EMPTY_FILTERS: FilterState = { status: '', search: '', date_from: '', date_to: '', organisation_id: '' };

/** The filters as the API takes them; `search` is the debounced text. */
export const toQuery = (filters: FilterState, search: string): RebateFilters => ({
  status: filters.status || undefined,
  organisation_id: filters.organisation_id || undefined,
  date_from: filters.date_from || undefined,
  date_to: filters.date_to || undefined,
  search: search || undefined,
});

/** Status tabs (picked at once), a search box, a submission date range, an organisation choice (admins) and Export CSV of `shown`. */
export function RebateFilterBar({
  value,
  onChange,
  organisations,
  shown,
  extra,
  counts,
}: {
  value: FilterState;
  onChange: (next: FilterState) => void;
  organisations?: Array<{ id: string; name: string }>;
  /** What the list shows, which the export writes. */
  shown: { query: RebateFilters; sort: SortOrder };
  extra?: ReactNode;
  /** Claims per status tab ('' is All), under the other filters. */
  counts?: Record<string, number>;
}) {
  const labelled = (status: string, label: string) => (counts && counts[status] !== undefined ? `${label} (${counts[status]})` : label);
  const set = (patch: Partial<FilterState>) => onChange({ ...value, ...patch });
  const toast = useToast();
  const [exporting, setExporting] = useState(false);
  const onExport = () => {
    setExporting(true);
    exportRebates(shown.query, shown.sort)
      .catch((e) => toast(messageOf(e, 'Failed to export rebates'), 'error'))
      .finally(() => setExporting(false));
  };
  // On phones the organisation and the dates fold behind a Filters button beside the search box.
  const folded = usePhoneFilters([value.organisation_id, value.date_from, value.date_to].filter(Boolean).length);
  return (
    <Box sx={{ mb: 2 }}>
      <Tabs
        value={value.status}
        onChange={(_, status: string) => set({ status })}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        aria-label="Filter by status"
        sx={{ mb: 1.5, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="" label={labelled('', 'All')} />
        {REBATE_STATUSES.map((status) => (
          <Tab key={status} value={status} label={labelled(status, rebateStatusLabel(status))} />
        ))}
      </Tabs>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          size="small"
          placeholder="Search invoice, product or company"
          value={value.search}
          onChange={(event) => set({ search: event.target.value })}
          sx={{ flex: { xs: '1 1 0', md: '1 1 240px' }, minWidth: 0 }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
            htmlInput: { 'aria-label': 'Search rebates' },
          }}
        />
        {folded.button}
        {folded.panel(
          <>
            {organisations ? (
              <SelectFilter
                label="Organisation"
                value={value.organisation_id}
                onChange={(organisation_id) => set({ organisation_id })}
                allLabel="All organisations"
                choices={organisations.map((o) => ({ value: o.id, label: o.name }))}
                sx={{ flex: { xs: '1 1 100%', sm: '0 1 220px' } }}
              />
            ) : null}
            <TextField
              size="small"
              type="date"
              label="Submitted from"
              value={value.date_from}
              onChange={(event) => set({ date_from: event.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ flex: { xs: '1 1 40%', sm: '0 1 170px' } }}
            />
            <TextField
              size="small"
              type="date"
              label="Submitted to"
              value={value.date_to}
              onChange={(event) => set({ date_to: event.target.value })}
              slotProps={{ inputLabel: { shrink: true } }}
              sx={{ flex: { xs: '1 1 40%', sm: '0 1 170px' } }}
            />
            {extra}
          </>,
        )}
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={onExport}
          disabled={exporting}
          sx={{ ml: { sm: 'auto' }, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
        >
          {exporting ? 'Exporting...' : 'Export CSV'}
        </Button>
      </Box>
    </Box>
  );
}
