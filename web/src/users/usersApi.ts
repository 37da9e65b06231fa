import { API_URL, httpClient } from '../providers/httpClient';
import type { BulkStatusAnswer, IdAnswer, MessageAnswer } from '@contracts/identity';

/**
 * Activates or deactivates the given users, all or nothing: when one cannot change, nobody is
 * changed and the error names every such row.
 */
export async function setUsersActive(ids: string[], isActive: boolean): Promise<BulkStatusAnswer> {
  const { json } = await httpClient<BulkStatusAnswer>(`${API_URL}/users/bulk-status`, { method: 'POST', body: { ids, is_active: isActive } });
  return json;
}

/** Erases a person's personal data for good (administrators); the reason is kept in the audit log. */
export async function eraseUserData(id: string, reason: string): Promise<IdAnswer> {
  const { json } = await httpClient<IdAnswer>(`${API_URL}/users/${encodeURIComponent(id)}/erase`, { method: 'POST', body: { reason } });
  return json;
}

/** Removes a person's second factors (administrators), with the reason the audit log keeps. */
export async function resetSecondFactors(id: string, reason: string): Promise<MessageAnswer> {
  const { json } = await httpClient<MessageAnswer>(`${API_URL}/users/${encodeURIComponent(id)}/mfa/reset`, { method: 'POST', body: { reason } });
  return json;
}
