import type { Partner, PartnerDirectoryEntry } from '@contracts/partners';
/**
 * The partner calls the screens make: the applicant's submissions (with the onboarding token from
 * registration, or the signed-in partner's session), the administrator's decision and an
 * application's history. Lists go through react-admin's data provider (resource `partner/partners`).
 */

import type { QuestionnaireAnswers } from '@domain/partners/questionnaire';
import { useGetList } from 'react-admin';
import { ApiError } from '../providers/errorMapper';
import { API_URL, httpClient } from '../providers/httpClient';
import { getAccessToken } from '../providers/session';

/** The react-admin resource name: the list lives at /api/partner/partners. */
export const PARTNERS_RESOURCE = 'partner/partners';

export type { PartnerStatus } from '@contracts/partners';

/** A partner as the API answers it (admins see every field; the directory a subset). */
export type PartnerRecord = PartnerDirectoryEntry & Partial<Omit<Partner, keyof PartnerDirectoryEntry>>;

export interface SubmissionAnswer {
  success: boolean;
  message?: string;
  data?: PartnerRecord;
}

/** The applicant's credentials: the onboarding token, else the signed-in session. */
function applicantHeaders(onboardingToken: string | undefined): { headers: HeadersInit; anonymous: boolean } {
  if (onboardingToken) return { headers: { Authorization: `Bearer ${onboardingToken}` }, anonymous: true };
  return { headers: {}, anonymous: !getAccessToken() };
}

export async function submitQuestionnaire(
  answers: QuestionnaireAnswers & { user_id?: string },
  onboardingToken?: string,
): Promise<{ status: number; answer: SubmissionAnswer }> {
  const { headers, anonymous } = applicantHeaders(onboardingToken);
  const { status, json } = await httpClient<SubmissionAnswer>(`${API_URL}/partner/onboarding/questionnaire`, {
    method: 'POST',
    body: { ...answers },
    headers,
    anonymous,
  });
  return { status, answer: json };
}

export async function submitApplication(form: FormData, onboardingToken?: string): Promise<{ status: number; answer: SubmissionAnswer }> {
  const { headers, anonymous } = applicantHeaders(onboardingToken);
  const { status, json } = await httpClient<SubmissionAnswer>(`${API_URL}/partner/onboarding`, { method: 'POST', body: form, headers, anonymous });
  return { status, answer: json };
}

export async function approvePartner(id: string, category: string, permissions: string[]) {
  const { json } = await httpClient<{
    success: boolean;
    message?: string;
    data?: { partner: PartnerRecord; user: { id: string; permissions: string[] } | null };
  }>(`${API_URL}/partner/partners/${encodeURIComponent(id)}`, { method: 'PATCH', body: { status: 'approved', category, permissions } });
  return json;
}

export async function rejectPartner(id: string, reason: string) {
  const { json } = await httpClient<{ success: boolean; message?: string; data?: { partner: PartnerRecord } }>(
    `${API_URL}/partner/partners/${encodeURIComponent(id)}`,
    {
      method: 'PATCH',
      body: { status: 'rejected', rejection_reason: reason },
    },
  );
  return json;
}

export async function getPartner(id: string): Promise<PartnerRecord> {
  const { json } = await httpClient<{ data: PartnerRecord }>(`${API_URL}/partner/partners/${encodeURIComponent(id)}`);
  return json.data;
}

/** Applications by status, for the admin panel's summary cards; refreshed with the approvals list. */
export function usePartnerCounts(): { pendingApprovals: number | null; activePartners: number | null } {
  const one = { page: 1, perPage: 1 };
  const newest = { field: 'created_at', order: 'DESC' } as const;
  const pending = useGetList<PartnerRecord>(PARTNERS_RESOURCE, { pagination: one, sort: newest, filter: { status: 'pending' } });
  const approved = useGetList<PartnerRecord>(PARTNERS_RESOURCE, { pagination: one, sort: newest, filter: { status: 'approved' } });
  return { pendingApprovals: pending.total ?? null, activePartners: approved.total ?? null };
}

/** The signed-in partner's own application (its id is the account's id), or null when they never sent one. */
export async function fetchOwnApplication(userId: string): Promise<PartnerRecord | null> {
  try {
    const { json } = await httpClient<{ data: PartnerRecord }>(`${API_URL}/partner/partners/${encodeURIComponent(userId)}`);
    return json.data;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
