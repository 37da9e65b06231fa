/** What a new registration hands to the partner onboarding questionnaire (/partner-onboarding). */

export const ONBOARDING_HANDOFF_KEY = 'partner-onboarding';

export interface OnboardingHandoff {
  userId: string;
  email: string;
  full_name: string;
  company_name?: string;
  onboardingToken?: string;
}

/** Kept for this browser tab, so the questionnaire survives a reload. */
export function saveOnboardingHandoff(handoff: OnboardingHandoff): void {
  sessionStorage.setItem(ONBOARDING_HANDOFF_KEY, JSON.stringify(handoff));
}

export function readOnboardingHandoff(): OnboardingHandoff | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(ONBOARDING_HANDOFF_KEY) ?? 'null') as OnboardingHandoff | null;
    return value && typeof value.userId === 'string' ? value : null;
  } catch {
    return null;
  }
}
