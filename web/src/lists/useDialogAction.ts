import { useCallback, useState } from 'react';
import { messageOf } from '../providers/errorMapper';

/** What a dialog that sends one request needs: whether it is running, the error it ended with, and the way to run it. */
export interface DialogAction {
  /** True while the request runs: the dialog disables its buttons and keeps itself open. */
  busy: boolean;
  /** The last failure's message, shown in the dialog until the next attempt or until the dialog resets it. */
  error: string | null;
  /** For the dialog's own checks before sending, and to clear the error when it opens again. */
  setError: (message: string | null) => void;
  /**
   * Clears the error, runs the request and hands its answer to `onSuccess` (notify, refresh, close).
   * A failure, or an exception from `onSuccess`, becomes `error`; the dialog stays open.
   */
  run: <T>(request: () => Promise<T>, onSuccess?: (answer: T) => void) => Promise<void>;
}

/**
 * The state handling every action dialog shares (approve, reject, change status, create, close...).
 * `failure` is the message when the server gave none of its own (a fixed text, read through messageOf),
 * or how to word the caught error; `onFailure` adds to showing it, for instance a toast.
 */
export function useDialogAction(failure: string | ((error: unknown) => string), onFailure?: (message: string, error: unknown) => void): DialogAction {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(
    async <T>(request: () => Promise<T>, onSuccess?: (answer: T) => void) => {
      setBusy(true);
      setError(null);
      try {
        const answer = await request();
        onSuccess?.(answer);
      } catch (caught) {
        const message = typeof failure === 'string' ? messageOf(caught, failure) : failure(caught);
        setError(message);
        onFailure?.(message, caught);
      } finally {
        setBusy(false);
      }
    },
    [failure, onFailure],
  );
  return { busy, error, setError, run };
}
