import { Alert, Snackbar } from '@mui/material';
import { useEffect, useState } from 'react';

/** Errors and successes stay 2 seconds (spec 000 §8); other toasts use the 5-second default. */
export const TOAST_DURATION_MS = { error: 2000, success: 2000, info: 5000, warning: 5000 } as const;
export const ACCESS_DENIED_TOAST_MS = 3000;

export type ToastType = keyof typeof TOAST_DURATION_MS;

interface Toast {
  id: number;
  text: string;
  type: ToastType;
  durationMs: number;
}

/** A toast's text; a multi-line message becomes one paragraph per line. */
export function ToastMessage({ text, type }: { text: string; type: ToastType }) {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return (
    <Alert variant="filled" severity={type} role="alert" sx={{ minWidth: { xs: 'auto', sm: 320 }, maxWidth: 480, boxShadow: 3 }}>
      {lines.length > 1
        ? lines.map((line, i) => (
            <p key={i} style={{ margin: i ? '4px 0 0' : 0 }}>
              {line}
            </p>
          ))
        : text}
    </Alert>
  );
}

// The portal's toasts live outside react-admin, so the signed-out screens show them without loading the
// admin framework, and a toast raised just before entering the admin app (a sign-in) stays on screen.
const hosts = new Set<(toast: Toast) => void>();
let lastId = 0;

/** Shows a toast in the ToastHost; toasts raised while one shows wait their turn. */
export function showToast(text: string, type: ToastType = 'info', durationMs?: number): void {
  const toast = { id: ++lastId, text, type, durationMs: durationMs ?? TOAST_DURATION_MS[type] };
  for (const host of hosts) host(toast);
}

export function useToast() {
  return showToast;
}

/** Where toasts appear (top right); mounted once, above every route. */
export function ToastHost() {
  const [queue, setQueue] = useState<Toast[]>([]);
  const [open, setOpen] = useState(true);
  useEffect(() => {
    const host = (toast: Toast) => setQueue((waiting) => [...waiting, toast]);
    hosts.add(host);
    return () => {
      hosts.delete(host);
    };
  }, []);
  const current = queue[0];
  if (!current) return null;
  return (
    <Snackbar
      key={current.id}
      open={open}
      anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
      autoHideDuration={current.durationMs}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') setOpen(false);
      }}
      slotProps={{
        transition: {
          onExited: () => {
            setQueue((waiting) => waiting.slice(1));
            setOpen(true);
          },
        },
      }}
      sx={{ top: { xs: 64, sm: 72 } }}
    >
      <div>
        <ToastMessage text={current.text} type={current.type} />
      </div>
    </Snackbar>
  );
}
