import { useEffect, useState } from 'react';

/** A notice that clears itself `ms` after it was last set, so a confirmation never stays over the screen. */
export function useTimedNotice(ms: number) {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), ms);
    return () => clearTimeout(timer);
  }, [notice, ms]);
  return [notice, setNotice] as const;
}
