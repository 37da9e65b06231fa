import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';

export interface AdminSummary {
  totalUsers: number | null;
  pendingApprovals: number | null;
  activePartners: number | null;
}

/**
 * Counts for the summary cards. Partner application counts arrive with the partner approvals
 * screen; until then they stay empty (shown as —).
 */
export function useAdminSummary(): AdminSummary {
  const dataProvider = useDataProvider();
  const [summary, setSummary] = useState<AdminSummary>({ totalUsers: null, pendingApprovals: null, activePartners: null });

  useEffect(() => {
    let cancelled = false;
    dataProvider
      .getList('users', { pagination: { page: 1, perPage: 1 }, sort: { field: 'created_at', order: 'DESC' }, filter: {} })
      .then((answer) => answer.total ?? null)
      .catch(() => null)
      .then((totalUsers) => {
        if (!cancelled) setSummary({ totalUsers, pendingApprovals: null, activePartners: null });
      });
    return () => {
      cancelled = true;
    };
  }, [dataProvider]);

  return summary;
}
