import { Alert } from '@mui/material';
import { useCallback } from 'react';
import { useNotify } from 'react-admin';

/** Errors and successes stay 2 seconds (spec 000 §8); other toasts use the 5-second default. */
export const TOAST_DURATION_MS = { error: 2000, success: 2000, info: 5000, warning: 5000 } as const;
export const ACCESS_DENIED_TOAST_MS = 3000;

export type ToastType = keyof typeof TOAST_DURATION_MS;

/** A toast's text; a multi-line message becomes one paragraph per line. */
export function ToastMessage({ text, type }: { text: string; type: ToastType }) {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return (
    <Alert variant="filled" severity={type} role="alert" sx={{ minWidth: { xs: 'auto', sm: 320 }, maxWidth: 480, boxShadow: 3 }}>
      {lines.length > 1 ? lines.map((line, i) => <p key={i} style={{ margin: i ? '4px 0 0' : 0 }}>{line}</p>) : text}
    </Alert>
  );
}

export function useToast() {
  const notify = useNotify();
  return useCallback(
    (text: string, type: ToastType = 'info', durationMs?: number) =>
      notify(<ToastMessage text={text} type={type} />, {
        type,
        autoHideDuration: durationMs ?? TOAST_DURATION_MS[type],
      }),
    [notify],
  );
}
