import { useCallback, useEffect, useState } from 'react';
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
  return { rows: data?.rebates ?? [], total: data?.total ?? 0, loaded: data !== null, loading, error, refetch };
}
