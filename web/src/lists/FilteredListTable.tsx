import { Button } from '@mui/material';
import { LoadError, Loading } from '../layout/ListStates';
import { EmptyState } from './EmptyState';
import type { ListControls } from './listControls';
import { ListPagination } from './ListPagination';
import { RecordTable, type RecordTableProps } from './RecordTable';
import type { Selection } from './selection';

/** What the table part of a screen reads of useFilteredList. */
export interface FilteredListState<T> {
  rows: T[];
  controls: ListControls;
  total?: number;
  isPending: boolean;
  error: unknown;
  refetch: () => unknown;
  selection: Selection;
  filtered: boolean;
  clearFilters: () => void;
}

/** What the empty state says: one text while a search or filter narrows the list, one when there is nothing yet. */
export interface EmptyTexts {
  title: string;
  message: string;
}

/**
 * The body of a management list under its toolbar: the load error with Retry, the spinner, the
 * table (or cards on phones) with the list's sort and selection, the empty state that offers to
 * clear the filters or to create the first record, and the pagination.
 */
export function FilteredListTable<T>({
  list,
  loadErrorMessage,
  noneFound,
  noneYet,
  create,
  ...table
}: Omit<RecordTableProps<T>, 'rows' | 'sort' | 'onSort' | 'selection' | 'empty'> & {
  list: FilteredListState<T>;
  loadErrorMessage: string;
  noneFound: EmptyTexts;
  noneYet: EmptyTexts;
  /** The list's create action, offered again when the list is empty. */
  create: { label: string; onClick: () => void };
}) {
  const { filtered, controls } = list;
  const empty = filtered ? noneFound : noneYet;
  return (
    <>
      <LoadError error={list.error} onRetry={list.refetch} message={loadErrorMessage} />

      {list.isPending ? (
        <Loading />
      ) : (
        <RecordTable
          {...table}
          rows={list.rows}
          sort={controls.sort}
          onSort={controls.sortBy}
          selection={list.selection}
          empty={
            <EmptyState
              title={empty.title}
              message={empty.message}
              filtered={filtered}
              onClearFilters={list.clearFilters}
              action={
                <Button variant="contained" onClick={create.onClick}>
                  {create.label}
                </Button>
              }
            />
          }
        />
      )}
      <ListPagination total={list.total} controls={controls} />
    </>
  );
}
