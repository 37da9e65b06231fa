import { saveOnboardingHandoff, type OnboardingHandoff } from '../auth/onboardingHandoff';
/**
 * The auth provider: sign-in and sign-out, the session check, the identity in the app bar and the
 * access rules, which come from `domain/access` (the module the server also uses).
 */

import { canAccess, canAccessRoute, canPerformAction, type Principal } from '@domain/access';
import type { AuthProvider, UserIdentity } from 'react-admin';
import type { MfaRequiredAnswer } from '@contracts/identity';
import { ApiError, DEFAULT_RESPONSE_MESSAGE } from './errorMapper';
import { API_URL, cancelTokenRefresh, httpClient, refreshAccessToken, refreshPermissions, scheduleTokenRefresh } from './httpClient';
import {
  accessTokenExpiresIn,
  clearSession,
  getAccessToken,
  getPermissions,
  getRefreshToken,
  getRole,
  getStoredPermissions,
  getStoredUser,
  isAuthenticated,
  isLogoutInProgress,
  markLogoutInProgress,
  permissionsOfUser,
  replacePermissions,
  storeLogin,
  type LoginAnswer,
  type SessionUser,
} from './session';

export const SIGN_IN_PATH = '/signin';
export const LOGIN_FAILED_MESSAGE = 'Login failed. Please try again.';
export const LOGIN_EXCEPTION_MESSAGE = 'Something went wrong.';
export const LOGIN_SUCCESS_MESSAGE = 'Login successful! Redirecting...';

/** Resource names for checks that are not about a react-admin resource. */
export const ROUTE_RESOURCE = 'routes';
export const ACTION_RESOURCE = 'actions';

/** The signed-in user as the access rules see them, or null when signed out. */
export function currentPrincipal(): Principal | null {
  const role = isAuthenticated() ? getRole() : null;
  return role ? { role, permissions: getPermissions() } : null;
}

/** One access check for every kind of question the screens ask. */
export function checkAccess(principal: Principal | null, action: string, resource: string): boolean {
  if (!principal) return false;
  if (resource === ROUTE_RESOURCE) return canAccessRoute(principal, action);
  if (resource === ACTION_RESOURCE) return canPerformAction(principal, action);
  return canAccess(principal, { action, resource });
}

/** A pending applicant who has not finished the questionnaire; the hand-over to it is already stored. */
export class OnboardingIncompleteError extends Error {}

/** Stores the fresh onboarding hand-over the server sends a pending applicant, if it sent one. */
function resumableOnboarding(error: ApiError): boolean {
  const detail = (error.body as { error?: { onboardingToken?: unknown; applicant?: Omit<OnboardingHandoff, 'onboardingToken'> } } | undefined)?.error;
  if (error.code !== 'ONBOARDING_INCOMPLETE' || typeof detail?.onboardingToken !== 'string' || !detail.applicant) return false;
  saveOnboardingHandoff({ ...detail.applicant, onboardingToken: detail.onboardingToken });
  return true;
}

/** The password was right and a second factor is still to come (or must be set up first): no tokens yet. */
export class SecondFactorRequired extends Error {
  constructor(readonly answer: MfaRequiredAnswer) {
    super(answer.message);
  }
}

const failureMessage = (error: unknown, fallback = LOGIN_FAILED_MESSAGE) =>
  error instanceof ApiError ? (error.message && error.message !== DEFAULT_RESPONSE_MESSAGE ? error.message : fallback) : LOGIN_EXCEPTION_MESSAGE;

/** Stores the tokens of a finished sign-in (password, second factor or single sign-on). */
async function startSession(answer: LoginAnswer & { data?: LoginAnswer }): Promise<{ user: SessionUser | null; message: string }> {
  const login: LoginAnswer = answer?.accessToken || answer?.access ? answer : (answer?.data ?? {});
  if (!(login.accessToken || login.access)) throw new Error(LOGIN_FAILED_MESSAGE);
  clearSession();
  storeLogin(login);
  if (!permissionsOfUser(login.user)) await refreshPermissions();
  scheduleTokenRefresh();
  return { user: getStoredUser(), message: answer.message ?? LOGIN_SUCCESS_MESSAGE };
}

/** Posts a signed-out step of signing in and starts the session it answers. */
async function signedOutStep(
  path: string,
  body: Record<string, unknown>,
): Promise<{ user: SessionUser | null; message: string; answer: Record<string, unknown> }> {
  let answer: LoginAnswer & Record<string, unknown>;
  try {
    ({ json: answer } = await httpClient(`${API_URL}${path}`, { method: 'POST', body, anonymous: true }));
  } catch (error) {
    throw new Error(failureMessage(error), { cause: error });
  }
  return { ...(await startSession(answer)), answer };
}

/** Answers the second-factor challenge: `{ code }`, `{ recovery_code }` or `{ passkey }`. */
export const answerSecondFactor = (challenge: string, factor: Record<string, unknown>) => signedOutStep('/auth/mfa/challenge', { challenge, ...factor });

/** Confirms the authenticator app set up during sign-in; the answer carries the recovery codes as well as the tokens. */
export async function confirmTotpDuringSignIn(challenge: string, code: string): Promise<{ message: string; recoveryCodes: string[] }> {
  const { answer } = await signedOutStep('/auth/mfa/totp/confirm', { challenge, code });
  return { message: String(answer.message ?? ''), recoveryCodes: (answer.data as { recovery_codes?: string[] } | undefined)?.recovery_codes ?? [] };
}

/** Trades the one-time ticket of a single sign-on for a session. */
export const completeSingleSignOn = (ticket: string) => signedOutStep('/auth/oidc/complete', { ticket });

/** Signs in; resolves with the stored user. Rejects with the server's message or the spec's default, or with SecondFactorRequired. */
export async function signIn(email: string, password: string): Promise<{ user: SessionUser | null; message: string }> {
  let answer: LoginAnswer & { data?: LoginAnswer } & Partial<MfaRequiredAnswer>;
  try {
    ({ json: answer } = await httpClient(`${API_URL}/auth/login`, {
      method: 'POST',
      body: { email: email.trim(), password },
      anonymous: true,
    }));
  } catch (error) {
    if (error instanceof ApiError) {
      const message = error.message && error.message !== DEFAULT_RESPONSE_MESSAGE ? error.message : LOGIN_FAILED_MESSAGE;
      throw resumableOnboarding(error) ? new OnboardingIncompleteError(message) : new Error(message);
    }
    throw new Error(LOGIN_EXCEPTION_MESSAGE, { cause: error });
  }
  if (answer?.mfa_required) throw new SecondFactorRequired(answer as MfaRequiredAnswer);
  return startSession(answer);
}

/**
 * At start: with a token but no stored permissions, restore them from the stored user or fetch
 * them from the server; then plan the silent token refresh.
 */
export async function restoreSession(): Promise<void> {
  if (!getAccessToken()) return;
  if (!getStoredPermissions()) {
    const fromUser = permissionsOfUser(getStoredUser());
    if (fromUser) replacePermissions(fromUser, getRole());
    else await refreshPermissions();
  }
  scheduleTokenRefresh();
}

/** Signs out: the server call is fire-and-forget and local data is cleared whatever it answers. */
export async function signOut(): Promise<string> {
  if (isLogoutInProgress()) return SIGN_IN_PATH;
  markLogoutInProgress();
  const token = getAccessToken();
  const refreshToken = getRefreshToken();
  cancelTokenRefresh();
  if (token) {
    void fetch(`${API_URL}/auth/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(refreshToken ? { refreshToken } : {}),
      keepalive: true,
    }).catch(() => undefined);
  }
  clearSession();
  return SIGN_IN_PATH;
}

const notSignedIn = () => Promise.reject({ redirectTo: SIGN_IN_PATH, message: false, logoutUser: true });

export const authProvider: AuthProvider = {
  async login({ email, password }: { email: string; password: string }) {
    await signIn(email, password);
    return { redirectTo: false };
  },

  logout: () => signOut(),

  async checkAuth() {
    if (!getAccessToken()) return notSignedIn();
    const expiresIn = accessTokenExpiresIn();
    if (expiresIn !== null && expiresIn <= 0 && !(await refreshAccessToken())) return notSignedIn();
    if (!isAuthenticated()) return notSignedIn();
  },

  /**
   * The HTTP client owns session expiry (toast, then sign-out after 2 s, spec 000 §8), so errors
   * are never turned into a sign-out here; screens see every failure as it is.
   */
  async checkError() {},

  async getIdentity(): Promise<UserIdentity> {
    const user = getStoredUser();
    if (!user) throw new Error('No user');
    return { id: user.id, fullName: user.full_name || user.email, email: user.email, role: getRole() };
  },

  async getPermissions() {
    return getPermissions();
  },

  async canAccess({ action, resource }) {
    return checkAccess(currentPrincipal(), action, resource);
  },
};
