import type { RebateOverview } from '@contracts/rebates';
import { useCallback, useEffect, useState } from 'react';
import { getOverview } from './rebatesApi';

/** The Overview and Progress figures, loaded once per page and on demand. */
export function useOverview() {
  const [data, setData] = useState<RebateOverview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const load = useCallback(() => {
    setLoading(true);
    setError(null);
    getOverview()
      .then(setData)
      .catch(setError)
      .finally(() => setLoading(false));
  }, []);
  useEffect(load, [load]);
  return { data, error, loading, reload: load };
}
