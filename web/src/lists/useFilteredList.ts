import { useState } from 'react';
import { useGetList, type RaRecord, type UseGetListOptions } from 'react-admin';
import { useDebounced } from '../layout/useDebounced';
import { useListControls, type ListSort } from './listControls';
import { useSelection } from './selection';

/**
 * The set-up a management list (products, users) shares: a search box read after a pause, select
 * filters ('' when not chosen), the sort and page (back to page 1 when a filter changes), one page
 * from the data provider, the row selection, and clearing every filter at once.
 */
export function useFilteredList<RecordType extends RaRecord<string>, Field extends string>(
  resource: string,
  options: {
    sort: ListSort;
    /** The select filters' names, as the screen keeps them. */
    fields: readonly Field[];
    /** The API's filter for the chosen values; by default each chosen value as it is. */
    toFilter?: (values: Readonly<Record<Field, string>>) => Record<string, unknown>;
    /** The rows the screen shows of the page read (the selection covers these). */
    rows?: (data: RecordType[]) => RecordType[];
    getListOptions?: UseGetListOptions<RecordType>;
  },
) {
  const none = Object.fromEntries(options.fields.map((field) => [field, ''])) as Record<Field, string>;
  const [search, setSearch] = useState('');
  const [values, setValues] = useState<Record<Field, string>>(none);
  const query = useDebounced(search.trim(), 300);
  const chosen = options.toFilter ? options.toFilter(values) : Object.fromEntries(Object.entries(values).filter(([, value]) => value));
  const filter: Record<string, unknown> = { ...(query ? { q: query } : {}), ...chosen };
  const controls = useListControls({ sort: options.sort, filterKey: JSON.stringify(filter) });
  const list = useGetList<RecordType>(resource, { ...controls.params, filter }, options.getListOptions);
  const rows = options.rows ? options.rows(list.data ?? []) : (list.data ?? []);
  const selection = useSelection(rows.map((row) => row.id));
  return {
    search,
    setSearch,
    /** The select filters' values. */
    values,
    setValue: (field: Field, value: string) => setValues((current) => ({ ...current, [field]: value })),
    controls,
    filter,
    rows,
    total: list.total,
    isPending: list.isPending,
    error: list.error,
    refetch: list.refetch,
    selection,
    /** Whether a search or a filter narrows the list (the empty state then offers to clear them). */
    filtered: Boolean(query || Object.values<string>(values).some(Boolean)),
    clearFilters: () => {
      setSearch('');
      setValues(none);
    },
  };
}

/** A management list as useFilteredList keeps it. */
export type FilteredList<RecordType extends RaRecord<string>, Field extends string> = ReturnType<typeof useFilteredList<RecordType, Field>>;
