import { API_URL, httpClient } from '../providers/httpClient';
import type { UserRecord } from './userRules';

export interface BulkStatusAnswer {
  success: boolean;
  message: string;
  data: { changed: string[]; unchanged: string[]; users: UserRecord[] };
}

/**
 * Activates or deactivates the given users, all or nothing: when one cannot change, nobody is
 * changed and the error names every such row.
 */
export async function setUsersActive(ids: string[], isActive: boolean): Promise<BulkStatusAnswer> {
  const { json } = await httpClient<BulkStatusAnswer>(`${API_URL}/users/bulk-status`, { method: 'POST', body: { ids, is_active: isActive } });
  return json;
}

/** Erases a person's personal data for good (administrators); the reason is kept in the audit log. */
export async function eraseUserData(id: string, reason: string): Promise<{ message: string }> {
  const { json } = await httpClient<{ message: string }>(`${API_URL}/users/${encodeURIComponent(id)}/erase`, { method: 'POST', body: { reason } });
  return json;
}
