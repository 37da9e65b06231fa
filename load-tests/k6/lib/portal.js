// What every PartnerHub k6 scenario shares: the address, the demo accounts, signed-in sessions per VU,
// JSON and multipart calls tagged as reads or commands, the thresholds and the arrival-rate settings.
//
// Environment (all optional):
//   BASE_URL       the portal's address                 (default http://localhost:3000)
//   PASSWORD       the demo accounts' password           (default the demo password)
//   RATE           journeys started per second           (default: each scenario's own)
//   DURATION       how long journeys keep arriving       (default 2m)
//   VUS            VUs allocated up front                (default: enough for the rate)
//   MAX_VUS        VUs the executor may grow to          (default 4 × VUS)
//   THINK_SECONDS  pause between two steps of one user   (default 0.5)
import http from 'k6/http';
import { check, fail, sleep } from 'k6';

export const BASE_URL = (__ENV.BASE_URL || 'http://localhost:3000').replace(/\/+$/, '');
export const PASSWORD = __ENV.PASSWORD || 'Demo2026!';
export const DURATION = __ENV.DURATION || '2m';
const THINK_SECONDS = Number(__ENV.THINK_SECONDS ?? 0.5);

export const ACCOUNTS = {
  admin: 'admin@partnerhub.test',
  partner: 'partner@partnerhub.test',
  distributor: 'distributor@partnerhub.test',
  manufacturer: 'manufacturer@partnerhub.test',
  support: 'support@partnerhub.test',
};

/**
 * The service levels every journey is held to: reads p95 < 200 ms, commands p95 < 300 ms, under 1%
 * failed requests and checks. Sign-in and registration hash a password on purpose (argon2id), so they
 * are a third kind, `auth`, with the sign-in budget of login-and-list.js.
 */
export const THRESHOLDS = {
  http_req_failed: ['rate<0.01'],
  checks: ['rate>0.99'],
  'http_req_duration{type:read}': ['p(95)<200'],
  'http_req_duration{type:command}': ['p(95)<300'],
  'http_req_duration{type:auth}': ['p(95)<800'],
};

/**
 * An open-model scenario: RATE (or `rate`) × `share` journeys start every second whatever the portal's
 * speed, with VUs for journeys of about `secondsEach` seconds unless VUS (or `vus`) says how many.
 */
export function arrivals(exec, defaultRate, share = 1, { rate = Number(__ENV.RATE || defaultRate), secondsEach = 4, vus: givenVus } = {}) {
  const perMinute = Math.max(1, Math.round(rate * share * 60));
  const vus = givenVus || Number(__ENV.VUS || Math.max(2, Math.ceil(Math.ceil(perMinute / 60) * secondsEach)));
  return {
    executor: 'constant-arrival-rate',
    exec,
    rate: perMinute,
    timeUnit: '1m',
    duration: DURATION,
    preAllocatedVUs: vus,
    maxVUs: Number(__ENV.MAX_VUS || vus * 4),
    gracefulStop: '30s',
  };
}

export function think() {
  if (THINK_SECONDS > 0) sleep(THINK_SECONDS * (0.5 + Math.random()));
}

// Each VU keeps its own sessions (module state is per VU), and signs in again before the 15-minute access token ends.
const sessions = {};
const SESSION_MS = 10 * 60 * 1000;

export function signIn(email, password = PASSWORD) {
  const response = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ email, password }), {
    headers: { 'Content-Type': 'application/json' },
    tags: { name: 'POST /api/auth/login', type: 'auth' },
  });
  const ok = check(response, { 'sign-in: 200 with a token': (r) => r.status === 200 && typeof r.json('accessToken') === 'string' });
  if (!ok) fail(`${email} could not sign in at ${BASE_URL} (HTTP ${response.status}): is the portal up and seeded, and are the protective limits raised?`);
  return response.json('accessToken');
}

/**
 * Sessions signed in once, in setup(), and shared by every VU: `count` per account. Sign-in hashes a
 * password on purpose, so a workload about something else signs its users in before it starts.
 */
export function signInAll(accounts, count) {
  const tokens = {};
  for (const account of accounts) tokens[account] = Array.from({ length: count }, () => signIn(ACCOUNTS[account] || account));
  return { at: Date.now(), tokens };
}

/** One of the shared sessions of `account` (see signInAll), or this VU's own once they near their end. */
export function pooledSession(pool, account) {
  return Date.now() - pool.at < SESSION_MS ? pick(pool.tokens[account]) : session(account);
}

/** The demo account's access token, signed in once per VU. */
export function session(account) {
  const email = ACCOUNTS[account] || account;
  const current = sessions[email];
  if (current && Date.now() - current.at < SESSION_MS) return current.token;
  const token = signIn(email);
  sessions[email] = { token, at: Date.now() };
  return token;
}

function call(type, token, method, path, body, name, params = {}) {
  const multipart = body !== null && body !== undefined && typeof body === 'object';
  const headers = {
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    ...(body !== undefined && body !== null && !multipart ? { 'Content-Type': 'application/json' } : {}),
    ...(params.headers || {}),
  };
  return http.request(method, `${BASE_URL}${path}`, body === undefined ? null : body, {
    ...params,
    headers,
    tags: { name: name || `${method} ${path.split('?')[0]}`, type, ...(params.tags || {}) },
  });
}

/** A read: GET with the caller's token; `name` groups addresses with ids into one line of the summary. */
export function read(token, path, name, params) {
  return call('read', token, 'GET', path, undefined, name, params);
}

/**
 * Reads sent together, as one screen of the web app fetches them (http.batch): `requests` are
 * `{ path, name }`; the Responses come back in the same order.
 */
export function readAll(token, requests) {
  return http.batch(
    requests.map(({ path, name }) => ({
      method: 'GET',
      url: `${BASE_URL}${path}`,
      params: { headers: token ? { Authorization: `Bearer ${token}` } : {}, tags: { name, type: 'read' } },
    })),
  );
}

/** A command with a JSON body. */
export function command(token, method, path, body, name, params) {
  return call('command', token, method, path, JSON.stringify(body), name, params);
}

/** A command with a multipart body: an object whose values are strings or http.file(...). */
export function upload(token, method, path, fields, name, params) {
  return call('command', token, method, path, fields, name, params);
}

/** Parses the answer's JSON, or undefined. */
export function json(response, selector) {
  try {
    return response.json(selector);
  } catch {
    return undefined;
  }
}

export const pick = (list) => list[Math.floor(Math.random() * list.length)];
export const inDays = (days) => new Date(Date.now() + days * 86400000).toISOString().slice(0, 10);
export const unique = (label) => `${label}-${__VU}-${__ITER}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
