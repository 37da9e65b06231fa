import type { SxProps, Theme } from '@mui/material';
import type { ReactNode } from 'react';
import type { RaRecord } from 'react-admin';
import type { CsvExport } from './csvExport';
import { ListToolbar, type ListSearch, type ListSortChoice } from './ListToolbar';
import { SelectFilter, type FilterChoice } from './SelectFilter';
import type { FilteredList } from './useFilteredList';

/** One select filter of a management list, by the name useFilteredList keeps its value under. */
export interface ListFilter<Field extends string> {
  field: Field;
  label: string;
  choices: readonly FilterChoice[];
  sx: SxProps<Theme>;
}

/**
 * The ListToolbar of a useFilteredList screen: its search box, one SelectFilter per filter, the
 * sort menu and Export following the list's sort and filters, and the bulk actions for its selection.
 */
export function FilteredListToolbar<RecordType extends RaRecord<string>, Field extends string>({
  list,
  search,
  filters,
  exportCsv,
  ...toolbar
}: {
  list: FilteredList<RecordType, Field>;
  search: Omit<ListSearch, 'value' | 'onChange'>;
  filters: readonly ListFilter<Field>[];
  exportCsv: Omit<CsvExport<RecordType>, 'filter' | 'sort'>;
  sortChoices: ListSortChoice[];
  sortMenuAlways?: boolean;
  create: { label: string; onClick: () => void };
  bulkActions: ReactNode;
}) {
  const { controls } = list;
  return (
    <ListToolbar
      {...toolbar}
      search={{ ...search, value: list.search, onChange: list.setSearch }}
      filters={filters.map((filter) => (
        <SelectFilter
          key={filter.field}
          label={filter.label}
          value={list.values[filter.field]}
          onChange={(value) => list.setValue(filter.field, value)}
          choices={filter.choices}
          sx={filter.sx}
        />
      ))}
      sort={controls.sort}
      onSortChange={controls.setSort}
      exportCsv={{ ...exportCsv, filter: list.filter, sort: controls.sort }}
      selection={list.selection}
    />
  );
}
