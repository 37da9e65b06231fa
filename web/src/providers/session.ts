/**
 * The signed-in session as the browser keeps it: tokens, user, role and permissions in local
 * storage under the keys of the specification, plus the logout-in-progress flag.
 *
 * Other modules never touch storage directly; they read and change the session through here and
 * listen to `sessionEvents` for what the UI must react to.
 */

export const STORAGE_KEYS = {
  access: 'access',
  refresh: 'refresh',
  user: 'user',
  role: 'role',
  permissions: 'permissions',
} as const;

export const LOGOUT_IN_PROGRESS_KEY = 'logout-in-progress';
export const LOGOUT_GUARD_RESET_MS = 2000;

export interface SessionUser {
  id: string;
  full_name: string;
  email: string;
  role: string;
  is_active?: boolean;
  company_name?: string | null;
  company?: { company_name: string } | null;
  permissions?: string[];
  effectivePermissions?: string[];
  parent_user_id?: string | null;
  created_at?: string;
}

export interface TokenClaims {
  sub?: string;
  role?: string;
  permissions?: string[];
  exp?: number;
}

const storage = (): Storage | null => (typeof localStorage === 'undefined' ? null : localStorage);
const sessionFlags = (): Storage | null => (typeof sessionStorage === 'undefined' ? null : sessionStorage);

function readJson<T>(key: string): T | null {
  const raw = storage()?.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** Decodes the payload of a JWT without checking it (the server checks it). Null when unreadable. */
export function decodeToken(token: string | null | undefined): TokenClaims | null {
  if (!token) return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = decodeURIComponent(Array.from(atob(base64), (c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0')).join(''));
    const claims = JSON.parse(json) as unknown;
    return claims && typeof claims === 'object' ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

export const getAccessToken = (): string | null => storage()?.getItem(STORAGE_KEYS.access) ?? null;
export const getRefreshToken = (): string | null => storage()?.getItem(STORAGE_KEYS.refresh) ?? null;
export const getStoredUser = (): SessionUser | null => readJson<SessionUser>(STORAGE_KEYS.user);

/** The stored permission list, or null when none was stored (the spec's "permissions missing"). */
export function getStoredPermissions(): string[] | null {
  const value = readJson<unknown>(STORAGE_KEYS.permissions);
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : null;
}

/** The role: from the access token first, then the stored role, then the stored user's role. */
export function getRole(): string | null {
  const claims = decodeToken(getAccessToken());
  if (typeof claims?.role === 'string' && claims.role) return claims.role;
  const stored = storage()?.getItem(STORAGE_KEYS.role);
  if (stored) return stored;
  return getStoredUser()?.role ?? null;
}

/** The permissions: stored list, else the user's effective permissions, else the token's copy. */
export function getPermissions(): string[] {
  return getStoredPermissions() ?? getStoredUser()?.effectivePermissions ?? getStoredUser()?.permissions ?? decodeToken(getAccessToken())?.permissions ?? [];
}

/** Signed in: an access token exists and a role can be decoded from it or from the stored user. */
export function isAuthenticated(): boolean {
  return Boolean(getAccessToken()) && Boolean(getRole());
}

/** Milliseconds until the access token expires; null when the token carries no expiry. */
export function accessTokenExpiresIn(now = Date.now()): number | null {
  const exp = decodeToken(getAccessToken())?.exp;
  return typeof exp === 'number' ? exp * 1000 - now : null;
}

export const permissionsOfUser = (user: SessionUser | null | undefined): string[] | null => user?.effectivePermissions ?? user?.permissions ?? null;

export interface LoginAnswer {
  accessToken?: string;
  access?: string;
  refreshToken?: string;
  refresh?: string;
  user?: SessionUser;
  message?: string;
}

/** Stores what a successful login answered. Both token spellings of the spec are accepted. */
export function storeLogin(answer: LoginAnswer): void {
  const s = storage();
  if (!s) return;
  const access = answer.accessToken ?? answer.access;
  const refresh = answer.refreshToken ?? answer.refresh;
  if (!access) throw new Error('Login failed. Please try again.');
  s.setItem(STORAGE_KEYS.access, access);
  if (refresh) s.setItem(STORAGE_KEYS.refresh, refresh);
  if (answer.user) {
    storeUser(answer.user);
  }
}

/** Stores the user and, with it, the user's role and permissions. */
export function storeUser(user: SessionUser, role?: string | null, permissions?: string[] | null): void {
  const s = storage();
  if (!s) return;
  s.setItem(STORAGE_KEYS.user, JSON.stringify(user));
  const r = role ?? user.role;
  if (r) s.setItem(STORAGE_KEYS.role, r);
  const p = permissions ?? permissionsOfUser(user);
  if (p) s.setItem(STORAGE_KEYS.permissions, JSON.stringify(p));
}

export function storeTokens(access: string | undefined, refresh: string | undefined): void {
  const s = storage();
  if (!s) return;
  if (access) s.setItem(STORAGE_KEYS.access, access);
  if (refresh) s.setItem(STORAGE_KEYS.refresh, refresh);
}

/** Replaces the stored permissions and role (server signal `x-permissions-changed`). */
export function replacePermissions(permissions: string[], role?: string | null): void {
  const s = storage();
  if (!s) return;
  s.setItem(STORAGE_KEYS.permissions, JSON.stringify(permissions));
  if (role) s.setItem(STORAGE_KEYS.role, role);
  const user = getStoredUser();
  if (user) {
    s.setItem(STORAGE_KEYS.user, JSON.stringify({ ...user, role: role || user.role, permissions, effectivePermissions: permissions }));
  }
}

export function clearSession(): void {
  const s = storage();
  if (!s) return;
  for (const key of Object.values(STORAGE_KEYS)) s.removeItem(key);
}

export const isLogoutInProgress = (): boolean => sessionFlags()?.getItem(LOGOUT_IN_PROGRESS_KEY) === 'true';

/** Sets the logout-in-progress guard and clears it after 2 seconds. */
export function markLogoutInProgress(): void {
  sessionFlags()?.setItem(LOGOUT_IN_PROGRESS_KEY, 'true');
  setTimeout(() => sessionFlags()?.removeItem(LOGOUT_IN_PROGRESS_KEY), LOGOUT_GUARD_RESET_MS);
}

/** What the session tells the UI: shown by `SessionWatcher` inside the signed-in app. */
export type SessionEvent =
  | { type: 'expired'; message: string }
  | { type: 'access-denied'; message: string }
  | { type: 'permissions-changed' }
  | { type: 'permissions-refresh-failed'; message: string };

type Listener = (event: SessionEvent) => void;
const listeners = new Set<Listener>();

export const sessionEvents = {
  emit(event: SessionEvent): void {
    for (const listener of listeners) listener(event);
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
