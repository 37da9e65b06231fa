import { useEffect, useRef, useState } from 'react';

export type SortOrder = 'ASC' | 'DESC';
export interface ListSort {
  field: string;
  order: SortOrder;
}

export const PAGE_SIZE_CHOICES = [10, 25, 50] as const;

/** Page numbers reach the first this many rows of a list (the server's MAX_PAGE_OFFSET); narrower filters or the other sort order reach the rest. */
export const PAGED_ROWS_LIMIT = 10_000;

/** Clicking a column sorts by it; clicking the sorted column again reverses it. Dates and numbers start newest/largest first. */
export function nextSort(current: ListSort, field: string, firstOrder: SortOrder = 'ASC'): ListSort {
  if (current.field === field) return { field, order: current.order === 'ASC' ? 'DESC' : 'ASC' };
  return { field, order: firstOrder };
}

/**
 * The sort, page and page size of one list, for `useGetList`. The page goes back to the first
 * whenever `filterKey` (the list's filters, serialised) or the sort changes, so a narrower filter
 * never lands on an empty page.
 */
export function useListControls({ sort: initialSort, perPage: initialPerPage = 10, filterKey = '' }: { sort: ListSort; perPage?: number; filterKey?: string }) {
  const [sort, setSort] = useState<ListSort>(initialSort);
  const [page, setPage] = useState(1);
  const [perPage, setPerPageState] = useState(initialPerPage);
  const first = useRef(true);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setPage(1);
  }, [filterKey, sort.field, sort.order]);

  return {
    sort,
    setSort,
    /** The column header's click. */
    sortBy: (field: string, firstOrder?: SortOrder) => setSort((current) => nextSort(current, field, firstOrder)),
    page,
    setPage,
    perPage,
    setPerPage: (size: number) => {
      setPerPageState(size);
      setPage(1);
    },
    /** The `pagination` and `sort` arguments of `useGetList`. */
    params: { pagination: { page, perPage }, sort },
  };
}

export type ListControls = ReturnType<typeof useListControls>;
