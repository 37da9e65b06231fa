import { API_URL, httpClient } from '../providers/httpClient';

export interface RegisterAccountInput {
  full_name: string;
  email: string;
  password: string;
  company_name?: string;
}

export interface RegisterAccountAnswer {
  success: boolean;
  message?: string;
  data?: { id: string; [key: string]: unknown };
  onboardingToken?: string;
}

/** A partner's self-registration; kept apart from the data provider so the signed-out screens need not load react-admin. */
export async function registerAccount(input: RegisterAccountInput): Promise<RegisterAccountAnswer> {
  const { json } = await httpClient(`${API_URL}/user/register/`, { method: 'POST', body: { ...input }, anonymous: true });
  return json as RegisterAccountAnswer;
}
