import { useEffect, useRef } from 'react';
import { useLogout } from 'react-admin';
import { sessionEvents } from '../providers/session';
import { ACCESS_DENIED_TOAST_MS, useToast } from './toast';

/** Shows what the session layer reports and signs out when the session has expired. */
export function SessionWatcher() {
  const toast = useToast();
  const logout = useLogout();
  const signingOut = useRef(false);

  useEffect(
    () =>
      sessionEvents.subscribe((event) => {
        switch (event.type) {
          case 'expired':
            if (signingOut.current) return;
            signingOut.current = true;
            toast(event.message, 'error', 2000);
            setTimeout(() => {
              void logout({}, '/signin', false);
              signingOut.current = false;
            }, 2000);
            return;
          case 'access-denied':
            toast(event.message, 'error', ACCESS_DENIED_TOAST_MS);
            return;
          case 'permissions-refresh-failed':
            toast(event.message, 'error');
            return;
          case 'permissions-changed':
            // Screens read access through usePrincipal, which re-renders on this event.
            return;
        }
      }),
    [toast, logout],
  );
  return null;
}
