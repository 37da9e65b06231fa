import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';

export interface AdminSummary {
  totalUsers: number | null;
  pendingApprovals: number | null;
  activePartners: number | null;
}

/** Counts for the summary cards; a count the server cannot give yet stays empty (shown as —). */
export function useAdminSummary(): AdminSummary {
  const dataProvider = useDataProvider();
  const [summary, setSummary] = useState<AdminSummary>({ totalUsers: null, pendingApprovals: null, activePartners: null });

  useEffect(() => {
    let cancelled = false;
    const count = (resource: string, filter: Record<string, unknown>) =>
      dataProvider
        .getList(resource, { pagination: { page: 1, perPage: 1 }, sort: { field: 'id', order: 'ASC' }, filter })
        .then((answer) => answer.total ?? null)
        .catch(() => null);
    void Promise.all([count('users', {}), count('partners', { status: 'pending' }), count('partners', { status: 'approved' })]).then(
      ([totalUsers, pendingApprovals, activePartners]) => {
        if (!cancelled) setSummary({ totalUsers, pendingApprovals, activePartners });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [dataProvider]);

  return summary;
}
