import { useSyncExternalStore } from 'react';
import type { Principal } from '@domain/access';
import { checkAccess, currentPrincipal } from '../providers/authProvider';
import { sessionEvents } from '../providers/session';

let snapshot: Principal | null = null;
let snapshotKey = '';

function readPrincipal(): Principal | null {
  const principal = currentPrincipal();
  const key = JSON.stringify(principal);
  if (key !== snapshotKey) {
    snapshotKey = key;
    snapshot = principal;
  }
  return snapshot;
}

function subscribe(onChange: () => void): () => void {
  const unsubscribe = sessionEvents.subscribe((event) => {
    if (event.type === 'permissions-changed') onChange();
  });
  window.addEventListener('storage', onChange);
  return () => {
    unsubscribe();
    window.removeEventListener('storage', onChange);
  };
}

/** The signed-in user's role and permissions; re-renders when the server changes them. */
export function usePrincipal(): Principal | null {
  return useSyncExternalStore(subscribe, readPrincipal, readPrincipal);
}

/**
 * Synchronous access checks for menus, guards and buttons. The answers come from the same
 * function as the auth provider's `canAccess`: `checkAccess`, built on `domain/access`.
 */
export function useAccess() {
  const principal = usePrincipal();
  return {
    principal,
    role: principal?.role ?? null,
    can: (action: string, resource: string) => checkAccess(principal, action, resource),
    canOpen: (path: string) => checkAccess(principal, path, 'routes'),
    canDo: (action: string) => checkAccess(principal, action, 'actions'),
  };
}
