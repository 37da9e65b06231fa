import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';

/** The Total Users card's count (the partner counts come from the partners module); null until known. */
export function useAdminSummary(enabled: boolean): { totalUsers: number | null } {
  const dataProvider = useDataProvider();
  const [summary, setSummary] = useState<{ totalUsers: number | null }>({ totalUsers: null });

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    dataProvider
      .getList('users', { pagination: { page: 1, perPage: 1 }, sort: { field: 'created_at', order: 'DESC' }, filter: {} })
      .then((answer) => answer.total ?? null)
      .catch(() => null)
      .then((totalUsers) => {
        if (!cancelled) setSummary({ totalUsers });
      });
    return () => {
      cancelled = true;
    };
  }, [dataProvider, enabled]);

  return summary;
}
