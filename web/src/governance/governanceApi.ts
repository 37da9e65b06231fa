import { useCallback, useEffect, useState } from 'react';
import { API_URL, httpClient } from '../providers/httpClient';

/** GET /governance: the organisation's agreement, orders, account team and rebate programme. */
export type { Governance } from '@contracts/governance';
import type { Governance } from '@contracts/governance';

export function useGovernance() {
  const [data, setData] = useState<Governance | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    httpClient<{ data: Governance }>(`${API_URL}/governance`).then(
      ({ json }) => live && setData(json.data),
      (failure) => live && setError(failure),
    );
    return () => {
      live = false;
    };
  }, [version]);
  return { data, error, reload: useCallback(() => setVersion((v) => v + 1), []) };
}
