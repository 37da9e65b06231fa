import { useCallback, useEffect, useState } from 'react';
import { REBATE_STATUSES } from '@domain/rebates/rebates';
import { listRebates, type RebateFilters, type RebatePage, type SortOrder } from './rebatesApi';

/** One page of rebates for the filters, sort and page given; reloads when any of them changes. */
export function useRebateList(scope: 'user' | 'admin', filters: RebateFilters, page: number, perPage: number, sort: SortOrder) {
  const [data, setData] = useState<RebatePage | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const key = JSON.stringify([scope, filters, page, perPage, sort]);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let cancelled = false;
    setLoading(true);
    listRebates(scope, filters, { page, perPage }, sort)
      .then((result) => {
        if (cancelled) return;
        setData(result);
        setError(null);
      })
      .catch((e) => !cancelled && setError(e))
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, version]);

  const refetch = useCallback(() => setVersion((v) => v + 1), []);
  return { rows: data?.rebates ?? [], total: data?.total ?? 0, loaded: data !== null, loading, error, refetch, version };
}

/** How many claims each status tab holds under the other filters (the tabs show the counts, like the list's totals). */
export function useStatusCounts(scope: 'user' | 'admin', filters: RebateFilters, version: number) {
  const [counts, setCounts] = useState<Record<string, number>>({});
  const key = JSON.stringify([scope, { ...filters, status: undefined }, version]);
  useEffect(() => {
    let cancelled = false;
    const sort = { field: 'id', order: 'ASC' } as const;
    Promise.all(
      ['', ...REBATE_STATUSES].map((status) =>
        listRebates(scope, { ...filters, status: status || undefined }, { page: 1, perPage: 1 }, sort).then((page) => [status, page.total] as const),
      ),
    )
      .then((entries) => !cancelled && setCounts(Object.fromEntries(entries)))
      .catch(() => !cancelled && setCounts({}));
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return counts;
}
