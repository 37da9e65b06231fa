import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import SearchIcon from '@mui/icons-material/Search';
import { Box, Button, IconButton, InputAdornment, MenuItem, Paper, TextField, Tooltip, Typography, useMediaQuery, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { CsvExportButton } from './CsvExportButton';
import type { CsvExport } from './csvExport';
import type { ListSort } from './listControls';
import type { Selection } from './selection';

export interface ListSearch {
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  /** The accessible name; the placeholder when absent. */
  label?: string;
}

export interface ListSortChoice {
  field: string;
  label: string;
  order: 'ASC' | 'DESC';
}

/**
 * The bar above every list: search, the list's own filters, sort (on phones, where the table's
 * headers are not shown), Export and the list's create button; while rows are ticked, the bulk
 * actions instead. Each part appears only when the list passes it.
 */
export function ListToolbar({
  search,
  filters,
  sortChoices,
  sortMenuAlways = false,
  sort,
  onSortChange,
  exportCsv,
  create,
  actions,
  selection,
  bulkActions,
}: {
  search?: ListSearch;
  filters?: ReactNode;
  /** Offered as a "Sort by" menu on phones. */
  sortChoices?: ListSortChoice[];
  /** Card lists have no column headers at any width: their Sort by menu shows everywhere. */
  sortMenuAlways?: boolean;
  sort?: ListSort;
  onSortChange?: (sort: ListSort) => void;
  exportCsv?: CsvExport;
  create?: { label: string; onClick: () => void };
  /** Further buttons of this list, before Export. */
  actions?: ReactNode;
  selection?: Selection;
  bulkActions?: ReactNode;
}) {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));

  if (selection && selection.count > 0 && bulkActions) {
    return (
      <Paper
        variant="outlined"
        data-testid="bulk-toolbar"
        sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 2, px: 1.5, py: 1, bgcolor: 'action.selected' }}
      >
        <Tooltip title="Clear selection">
          <IconButton size="small" aria-label="Clear selection" onClick={selection.clear}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        <Typography variant="body2" sx={{ fontWeight: 600, mr: 'auto' }}>
          {selection.count} selected
        </Typography>
        {bulkActions}
      </Paper>
    );
  }

  const sortKey = sort ? `${sort.field}:${sort.order}` : '';
  const showSort = (phone || sortMenuAlways) && sortChoices && sort && onSortChange;

  return (
    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mb: 2 }} data-testid="list-toolbar">
      {search ? (
        <TextField
          size="small"
          placeholder={search.placeholder}
          value={search.value}
          onChange={(event) => search.onChange(event.target.value)}
          sx={{ flex: { xs: '1 1 100%', sm: '0 1 300px' } }}
          slotProps={{
            htmlInput: { 'aria-label': search.label ?? search.placeholder },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      ) : null}
      {filters}
      {showSort ? (
        <TextField
          select
          size="small"
          label="Sort by"
          value={sortKey}
          onChange={(event) => {
            const [field, order] = event.target.value.split(':');
            onSortChange({ field: field!, order: order === 'ASC' ? 'ASC' : 'DESC' });
          }}
          sx={{ flex: { xs: '1 1 160px', sm: '0 0 180px' } }}
        >
          {sortChoices.map((choice) => (
            <MenuItem key={`${choice.field}:${choice.order}`} value={`${choice.field}:${choice.order}`}>
              {choice.label}
            </MenuItem>
          ))}
          {sortChoices.some((c) => `${c.field}:${c.order}` === sortKey) ? null : (
            <MenuItem value={sortKey} sx={{ display: 'none' }}>
              Custom
            </MenuItem>
          )}
        </TextField>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1, ml: { sm: 'auto' }, flex: { xs: '1 1 100%', sm: '0 0 auto' }, flexWrap: 'wrap', '& > *': { flex: { xs: '1 1 auto', sm: '0 0 auto' } } }}>
        {actions}
        {exportCsv ? <CsvExportButton config={exportCsv} /> : null}
        {create ? (
          <Button variant="contained" startIcon={<AddIcon />} onClick={create.onClick}>
            {create.label}
          </Button>
        ) : null}
      </Box>
    </Box>
  );
}
