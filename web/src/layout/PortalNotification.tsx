import { useEffect } from 'react';
import { Notification } from 'react-admin';
import { TOAST_DURATION_MS } from './toast';

/** Toasts at the top right; Alt+T moves the focus to the current toast. */
export function PortalNotification() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey && (event.key === 't' || event.key === 'T')) {
        const toast = document.querySelector<HTMLElement>('.MuiSnackbar-root [role="alert"]');
        if (toast) {
          toast.tabIndex = -1;
          toast.focus();
          event.preventDefault();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Notification
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      autoHideDuration={TOAST_DURATION_MS.info}
      multiLine
      sx={{ top: { xs: 64, sm: 72 } }}
    />
  );
}
