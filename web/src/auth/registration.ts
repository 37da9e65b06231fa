import type { RegisteredAnswer } from '@contracts/identity';
import { API_URL, httpClient } from '../providers/httpClient';

export interface RegisterAccountInput {
  full_name: string;
  email: string;
  password: string;
  company_name?: string;
}

/**
 * The new account (just its id while the read model is behind: the 202 answer has the same `data.id` and
 * `onboardingToken`); the name stays because the data provider exports it.
 */
export type RegisterAccountAnswer = RegisteredAnswer;

/** A partner's self-registration; kept apart from the data provider so the signed-out screens need not load react-admin. */
export async function registerAccount(input: RegisterAccountInput): Promise<RegisterAccountAnswer> {
  const { json } = await httpClient<RegisterAccountAnswer>(`${API_URL}/user/register/`, { method: 'POST', body: { ...input }, anonymous: true });
  return json;
}
