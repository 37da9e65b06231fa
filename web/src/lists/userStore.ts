import { useStore } from 'react-admin';
import { getStoredUser } from '../providers/session';

/**
 * A list preference (card or table view, hidden columns, saved filters) kept in react-admin's store
 * (localStorage) under the signed-in user's id, so two people sharing a browser keep their own.
 */
export function useUserStore<T>(key: string, defaultValue: T) {
  const user = getStoredUser();
  return useStore<T>(`user.${user?.id ?? 'anonymous'}.${key}`, defaultValue);
}
