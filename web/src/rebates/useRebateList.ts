import type { RebateView } from '@contracts/rebates';
import type { RebateStatus } from '@domain/rebates/rebates';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useGetList, type GetListResult } from 'react-admin';
import { useDebounced } from '../layout/useDebounced';
import { EMPTY_FILTERS, toQuery, type FilterState } from './RebateFilterBar';
import type { RebateFilters, SortOrder } from './rebatesApi';

/** The two rebate lists as data provider resources: the caller's organisation's claims, and every claim for review. */
export const REBATE_RESOURCES = { user: 'rebates/user', admin: 'rebates/admin/all' } as const;
export type RebateScope = keyof typeof REBATE_RESOURCES;

/** The filters as react-admin's `filter` JSON: only the chosen ones (the route refuses an empty status). */
const toFilter = (filters: RebateFilters): Record<string, string | boolean> =>
  Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string | boolean] => entry[1] !== undefined && entry[1] !== ''));

/** While the next page, sort or filter loads, the rows (and counts) read last stay on screen. */
const keepShown = { placeholderData: (previous: GetListResult<RebateView> | undefined) => previous };

const BY_ID: SortOrder = { field: 'id', order: 'ASC' };

/** One page of rebates for the filters, sort and page given, with the status tabs' counts; `refetch` reads both again. */
export function useRebateList(scope: RebateScope, filters: RebateFilters, page: number, perPage: number, sort: SortOrder) {
  const resource = REBATE_RESOURCES[scope];
  const filter = toFilter(filters);
  const list = useGetList<RebateView>(resource, { pagination: { page, perPage }, sort, filter }, keepShown);

  // How many claims each status tab holds under the other filters (the tabs show the counts, like the list's totals).
  const others = toFilter({ ...filters, status: undefined });
  const countOf = (status?: RebateStatus) => ({ pagination: { page: 1, perPage: 1 }, sort: BY_ID, filter: status ? { ...others, status } : others });
  const all = useGetList<RebateView>(resource, countOf(), keepShown);
  const byStatus = {
    pending: useGetList<RebateView>(resource, countOf('pending'), keepShown),
    processing: useGetList<RebateView>(resource, countOf('processing'), keepShown),
    approved: useGetList<RebateView>(resource, countOf('approved'), keepShown),
    rejected: useGetList<RebateView>(resource, countOf('rejected'), keepShown),
  } satisfies Record<RebateStatus, unknown>;
  const counted = [['', all], ...Object.entries(byStatus)] as const;
  // The tabs show their counts together, once every one is known.
  const counts: Record<string, number> = counted.every(([, count]) => count.total !== undefined)
    ? Object.fromEntries(counted.map(([status, count]) => [status, count.total ?? 0]))
    : {};

  // Stable, so the screens can list it among their effects' dependencies.
  const queries = useRef([list, ...counted.map(([, count]) => count)]);
  queries.current = [list, ...counted.map(([, count]) => count)];
  const refetch = useCallback(() => {
    for (const query of queries.current) void query.refetch();
  }, []);
  return {
    rows: list.data ?? [],
    total: list.total ?? 0,
    loaded: list.data !== undefined,
    loading: list.isFetching,
    error: list.error,
    refetch,
    counts,
  };
}

/**
 * The state of a rebate list screen: its filters, page and sort, and the page of claims they select.
 * `override` (a dashboard card's filter) replaces the filters while it is set. A new filter goes back to the first page.
 */
export function useRebateScreen(scope: RebateScope, override?: RebateFilters) {
  const [filters, setFilters] = useState<FilterState>(EMPTY_FILTERS);
  const search = useDebounced(filters.search.trim(), 300);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(10);
  const [sort, setSort] = useState<SortOrder>({ field: 'submitted_date', order: 'DESC' });
  const query = override ?? toQuery(filters, search);
  const list = useRebateList(scope, query, page, perPage, sort);
  const queryKey = JSON.stringify(query);
  useEffect(() => setPage(1), [queryKey]);
  return {
    filters,
    setFilters,
    query,
    sort,
    list,
    filtered: Boolean(query.status || query.organisation_id || query.date_from || query.date_to || query.search),
    /** RebateTable's paging and sorting. */
    paging: {
      page,
      perPage,
      onPage: setPage,
      onPerPage: (n: number) => {
        setPerPage(n);
        setPage(1);
      },
      sort,
      onSort: setSort,
    },
  };
}
