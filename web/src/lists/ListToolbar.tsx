import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import FilterListIcon from '@mui/icons-material/FilterList';
import { Badge, Box, Button, Collapse, IconButton, MenuItem, Paper, TextField, Tooltip, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useId, useState, type ReactNode } from 'react';
import { CsvExportButton } from './CsvExportButton';
import type { CsvExport } from './csvExport';
import type { ListSort } from './listControls';
import { SearchField } from './SearchField';
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

/** While rows are ticked: how many, a way to clear the ticks, and the list's bulk actions. */
export function BulkBar({ selection, children }: { selection: Selection; children: ReactNode }) {
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
      <Typography variant="body2" sx={{ fontWeight: 600, mr: 'auto' }} role="status">
        {selection.count} selected
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, ml: 'auto', flexWrap: 'wrap', justifyContent: 'flex-end' }}>{children}</Box>
    </Paper>
  );
}

/**
 * A list's filters on phones: folded behind a "Filters" button (with the number of filters in use)
 * so the first rows show without scrolling past the filters; opened, they stack full width. On
 * wider screens `panel` shows the filters as they are and there is no button.
 */
export function usePhoneFilters(activeFilters = 0) {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = phone ? (
    <Button
      variant={open ? 'contained' : 'outlined'}
      onClick={() => setOpen((o) => !o)}
      aria-expanded={open}
      aria-controls={panelId}
      data-testid="filters-button"
      startIcon={
        <Badge badgeContent={activeFilters} color="secondary" invisible={activeFilters === 0}>
          <FilterListIcon />
        </Badge>
      }
      sx={{ flex: '0 0 auto' }}
    >
      Filters
    </Button>
  ) : null;
  const panel = (children: ReactNode) =>
    phone ? (
      <Collapse in={open} sx={{ flex: '1 1 100%', mt: open ? 0 : -1.5 }}>
        <Box id={panelId} role="group" aria-label="Filters" data-testid="list-filters" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, pt: 0.5 }}>
          {children}
        </Box>
      </Collapse>
    ) : (
      children
    );
  return { phone, open, button, panel };
}

/**
 * The bar above every list: search, the list's own filters, sort (on phones, where the table's
 * headers are not shown), Export and the list's create button; while rows are ticked, the bulk
 * actions instead. Each part appears only when the list passes it. On phones the filters and the
 * sort fold behind a Filters button beside the search box.
 */
export function ListToolbar({
  search,
  filters,
  activeFilters = 0,
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
  /** How many filters are in use: the phone's Filters button shows it. */
  activeFilters?: number;
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
  const folded = usePhoneFilters(activeFilters);
  const { phone } = folded;

  if (selection && selection.count > 0 && bulkActions) return <BulkBar selection={selection}>{bulkActions}</BulkBar>;

  const sortKey = sort ? `${sort.field}:${sort.order}` : '';
  const showSort = (phone || sortMenuAlways) && sortChoices && sort && onSortChange;
  const sortMenu = showSort ? (
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
  ) : null;
  const foldable = Boolean(filters || sortMenu);

  return (
    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mb: 2 }} data-testid="list-toolbar">
      {search ? (
        <SearchField
          placeholder={search.placeholder}
          inputLabel={search.label ?? search.placeholder}
          value={search.value}
          onChange={search.onChange}
          sx={{ flex: { xs: foldable && phone ? '1 1 0' : '1 1 100%', sm: foldable && phone ? '1 1 0' : '0 1 300px' }, minWidth: 0 }}
        />
      ) : null}
      {foldable ? folded.button : null}
      {foldable
        ? folded.panel(
            <>
              {filters}
              {sortMenu}
            </>,
          )
        : null}
      <Box
        sx={{
          display: 'flex',
          gap: 1,
          ml: { sm: 'auto' },
          flex: { xs: '1 1 100%', sm: '0 0 auto' },
          flexWrap: 'wrap',
          '& > *': { flex: { xs: '1 1 auto', sm: '0 0 auto' } },
        }}
      >
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
