/**
 * Every call to the API goes through `httpClient`: it attaches the bearer token and the permission
 * headers, applies the server's permission signals, refreshes the access token before it expires
 * and once on a 401, and handles failures as the specification's error catalogue (000 §8) says.
 */

import { CONTACT_ADMIN_MESSAGE } from '@domain/access/messages';
import { ApiError, mapErrorResponse, networkError } from './errorMapper';
import {
  accessTokenExpiresIn,
  getAccessToken,
  getPermissions,
  getRefreshToken,
  getRole,
  getStoredPermissions,
  isLogoutInProgress,
  permissionsOfUser,
  replacePermissions,
  sessionEvents,
  storeTokens,
  storeUser,
  type SessionUser,
} from './session';

export const API_URL = '/api';

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired or you lack permissions. Redirecting to login...';
export const PERMISSIONS_REFRESH_FAILED_MESSAGE = 'Failed to refresh permissions.';

/** 401s on these URLs are left to the caller (a wrong password is not an expired session). */
const CALLER_HANDLES_401 = /\/(auth|login|register|signup)(\/|$|\?)/i;
/** 401s on these URLs end the session. */
const PROTECTED_401 = /(products|projects|orders|rebates|tickets|dashboard|users|admin)/i;

export const isCallerHandledUrl = (url: string): boolean => CALLER_HANDLES_401.test(pathOf(url));
export const isProtectedUrl = (url: string): boolean => PROTECTED_401.test(pathOf(url));

function pathOf(url: string): string {
  const withoutQuery = url.split('?')[0] ?? url;
  return withoutQuery.replace(/^https?:\/\/[^/]+/i, '');
}

/**
 * An answer whose shape the caller has not named. Callers name it (`httpClient<OrderRecord>`) with the types of
 * `@contracts/<module>`; until every module does, the default stays open rather than `unknown`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one deliberate open type, see above
export type UntypedAnswer = any;

export interface HttpResponse<T = UntypedAnswer> {
  status: number;
  headers: Headers;
  body: string;
  json: T;
}

export interface RequestOptions extends Omit<RequestInit, 'body' | 'headers'> {
  headers?: HeadersInit;
  /** A plain object is sent as JSON; FormData is sent as is (the browser sets its content type). */
  body?: BodyInit | Record<string, unknown> | unknown[] | null;
  /** Skip the bearer token (login, refresh). */
  anonymous?: boolean;
  /** A background poll: a 401 is not announced (a screen's own call will announce it). */
  background?: boolean;
}

function buildHeaders(options: RequestOptions): Headers {
  const headers = new Headers(options.headers);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  const body = options.body;
  if (body instanceof FormData) {
    headers.delete('Content-Type');
  } else if (body != null && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }
  if (!options.anonymous) {
    const token = getAccessToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const stored = getStoredPermissions();
    if (token && stored) {
      headers.set('X-User-Permissions', JSON.stringify(stored));
      const role = getRole();
      if (role) headers.set('X-User-Role', role);
    }
  }
  return headers;
}

function encodeBody(body: RequestOptions['body']): BodyInit | undefined {
  if (body == null) return undefined;
  if (typeof body === 'string' || body instanceof FormData || body instanceof Blob || body instanceof URLSearchParams || body instanceof ArrayBuffer) {
    return body;
  }
  return JSON.stringify(body);
}

/** Applies `x-permissions-changed`: the stored permissions and role are replaced. */
function applyPermissionSignal(headers: Headers): void {
  if (headers.get('x-permissions-changed') !== 'true') return;
  let permissions: string[] | null = null;
  try {
    const parsed = JSON.parse(headers.get('x-current-permissions') ?? 'null') as unknown;
    if (Array.isArray(parsed)) permissions = parsed.filter((p): p is string => typeof p === 'string');
  } catch {
    permissions = null;
  }
  const role = headers.get('x-current-role');
  const before = JSON.stringify([getPermissions(), getRole()]);
  replacePermissions(permissions ?? getPermissions(), role);
  if (JSON.stringify([getPermissions(), getRole()]) !== before) {
    sessionEvents.emit({ type: 'permissions-changed' });
    // A fresh access token carries the new role, so the token and the stored role agree again.
    void refreshAccessToken();
  }
}

async function send(url: string, options: RequestOptions): Promise<Response> {
  const { body, headers: _headers, anonymous: _anonymous, background: _background, ...init } = options;
  try {
    return await fetch(url, { ...init, headers: buildHeaders(options), body: encodeBody(body) });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError(networkError());
  }
}

async function readBody(response: Response): Promise<{ body: string; json: UntypedAnswer }> {
  const body = await response.text();
  let json: UntypedAnswer = null;
  if (body) {
    try {
      json = JSON.parse(body);
    } catch {
      json = body;
    }
  }
  return { body, json };
}

let refreshing: Promise<boolean> | null = null;
/** A refresh token the server refused is not tried again. */
let refusedRefreshToken: string | null = null;

/** Gets a new access token with the refresh token; one request at a time. True on success. */
export function refreshAccessToken(): Promise<boolean> {
  const refreshToken = getRefreshToken();
  if (!refreshToken || refreshToken === refusedRefreshToken) return Promise.resolve(false);
  refreshing ??= (async () => {
    try {
      const response = await send(`${API_URL}/auth/refresh`, {
        method: 'POST',
        body: { refreshToken },
        anonymous: true,
      });
      if (!response.ok) {
        if (response.status === 401 || response.status === 400) refusedRefreshToken = refreshToken;
        return false;
      }
      const { json } = await readBody(response);
      const access: string | undefined = json?.accessToken ?? json?.access ?? json?.data?.accessToken;
      const refresh: string | undefined = json?.refreshToken ?? json?.refresh ?? json?.data?.refreshToken;
      if (!access || getRefreshToken() !== refreshToken) return false;
      storeTokens(access, refresh);
      scheduleTokenRefresh();
      return true;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** Refresh this long before the access token expires. */
const REFRESH_AHEAD_MS = 60_000;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;

/** Plans a silent refresh shortly before the access token expires. */
export function scheduleTokenRefresh(): void {
  cancelTokenRefresh();
  const expiresIn = accessTokenExpiresIn();
  if (expiresIn === null || !getRefreshToken()) return;
  const delay = Math.max(expiresIn - REFRESH_AHEAD_MS, 1_000);
  // Timers longer than ~24 days overflow; the page will have been reloaded long before.
  refreshTimer = setTimeout(() => void refreshAccessToken(), Math.min(delay, 2 ** 31 - 1));
}

export function cancelTokenRefresh(): void {
  if (refreshTimer) clearTimeout(refreshTimer);
  refreshTimer = undefined;
}

/** Reloads the current user's permissions from the server (after PERMISSIONS_CHANGED). */
export async function refreshPermissions(): Promise<string[] | null> {
  try {
    const { json } = await httpClient(`${API_URL}/auth/me`);
    const user: SessionUser | undefined = json?.user ?? json?.data?.user ?? (json?.id ? json : undefined);
    const permissions: string[] | null = json?.effectivePermissions ?? json?.permissions ?? permissionsOfUser(user) ?? null;
    const role: string | null = json?.role ?? user?.role ?? null;
    if (user) storeUser(user, role, permissions);
    else if (permissions) replacePermissions(permissions, role);
    sessionEvents.emit({ type: 'permissions-changed' });
    return permissions;
  } catch (error) {
    if (!(error instanceof ApiError && error.handled)) {
      sessionEvents.emit({ type: 'permissions-refresh-failed', message: PERMISSIONS_REFRESH_FAILED_MESSAGE });
    }
    return null;
  }
}

/**
 * Calls the API. Resolves for 2xx answers; otherwise rejects with an `ApiError` carrying the
 * mapped message, code and field errors.
 */
export async function httpClient<T = UntypedAnswer>(url: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
  return request<T>(url, options, false);
}

async function request<T>(url: string, options: RequestOptions, retried: boolean): Promise<HttpResponse<T>> {
  // A token about to expire is refreshed before the call rather than after a 401.
  const expiresIn = options.anonymous ? null : accessTokenExpiresIn();
  if (!retried && expiresIn !== null && expiresIn < 5_000 && !isCallerHandledUrl(url)) {
    await refreshAccessToken();
  }

  const response = await send(url, options);
  applyPermissionSignal(response.headers);
  const { body, json } = await readBody(response);
  if (response.ok) return { status: response.status, headers: response.headers, body, json };

  const mapped = mapErrorResponse(response.status, json);

  if (response.status === 401 && !isCallerHandledUrl(url) && !options.anonymous) {
    if (!retried && getAccessToken() && (await refreshAccessToken())) {
      return request<T>(url, options, true);
    }
    if (isProtectedUrl(url)) {
      if (!isLogoutInProgress() && !options.background) sessionEvents.emit({ type: 'expired', message: SESSION_EXPIRED_MESSAGE });
      throw new ApiError({ ...mapped, message: SESSION_EXPIRED_MESSAGE }, json, true);
    }
    const message = `Access denied: ${mapped.message === 'An error occurred' ? 'Unauthorized' : mapped.message}`;
    if (!options.background) sessionEvents.emit({ type: 'access-denied', message });
    throw new ApiError({ ...mapped, message }, json, true);
  }

  if (response.status === 403 && (mapped.code === 'PERMISSIONS_CHANGED' || mapped.code === 'INSUFFICIENT_PERMISSIONS')) {
    void refreshPermissions();
    throw new ApiError({ ...mapped, code: 'PERMISSION_DENIED', message: CONTACT_ADMIN_MESSAGE }, json);
  }
  if (mapped.code === 'PERMISSIONS_CHANGED') void refreshPermissions();

  throw new ApiError(mapped, json);
}
