// k6 scenario for a running PartnerHub (the docker-compose stack or any deployment):
// admins sign in and page through the user list.
//
//   k6 run -e BASE_URL=http://localhost:3000 load-tests/k6/login-and-list.js
//
// Environment (all optional):
//   BASE_URL        the portal's address                       (default http://localhost:3000)
//   ADMIN_EMAIL     an admin account                           (default admin@partnerhub.test, a demo account)
//   ADMIN_PASSWORD  its password                               (default the demo password)
//   LIST_VUS        concurrent admins browsing the user list   (default 20)
//   LOGIN_RATE      sign-ins per second                        (default 5)
//   DURATION        length of the steady part of each scenario (default 2m)
//   THINK_SECONDS   pause between two list requests of one admin (default 0.5)
//   RAMP, RAMP_DOWN how long the list browsers take to arrive and to leave (default 20s and 10s)
//
// The protective limits (LOGIN_ATTEMPTS_PER_IP_PER_MINUTE, LOGIN_FAILURES_PER_EMAIL,
// REGISTRATIONS_PER_IP_PER_HOUR, API_REQUESTS_PER_MINUTE, MAX_EVENT_LOOP_DELAY_MS) exist to stop exactly
// this kind of traffic from one address: raise them on the stack under test (MAX_EVENT_LOOP_DELAY_MS=0
// turns load shedding off), or the scenarios measure the 429 and 503 answers. See load-tests/README.md.
import http from 'k6/http';
import { check, fail, sleep } from 'k6';

const BASE_URL = (__ENV.BASE_URL || 'http://localhost:3000').replace(/\/+$/, '');
const ADMIN_EMAIL = __ENV.ADMIN_EMAIL || 'admin@partnerhub.test';
const ADMIN_PASSWORD = __ENV.ADMIN_PASSWORD || 'Demo2026!';
const LIST_VUS = Number(__ENV.LIST_VUS || 20);
const LOGIN_RATE = Number(__ENV.LOGIN_RATE || 5);
const DURATION = __ENV.DURATION || '2m';
const THINK_SECONDS = Number(__ENV.THINK_SECONDS ?? 0.5);
const RAMP = __ENV.RAMP || '20s';
const RAMP_DOWN = __ENV.RAMP_DOWN || '10s';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

export const options = {
  scenarios: {
    // Sign-in is paced (an open model): argon2id makes each one deliberately costly, so the question is
    // how long a sign-in takes at a given arrival rate, not how many a closed loop can squeeze out.
    sign_in: {
      executor: 'constant-arrival-rate',
      exec: 'signIn',
      rate: LOGIN_RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: Math.max(4, LOGIN_RATE * 2),
      maxVUs: Math.max(20, LOGIN_RATE * 10),
    },
    // Admins on the Users screen: each signs in once, then lists page 1 again and again.
    browse_users: {
      executor: 'ramping-vus',
      exec: 'browseUsers',
      startVUs: 0,
      stages: [
        { duration: RAMP, target: LIST_VUS },
        { duration: DURATION, target: LIST_VUS },
        { duration: RAMP_DOWN, target: 0 },
      ],
      gracefulRampDown: '10s',
    },
  },
  thresholds: {
    // Any failed request (status >= 400 or a network error) beyond 1% fails the run.
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    'http_req_duration{name:login}': ['p(95)<800', 'p(99)<1500'],
    'http_req_duration{name:users_list}': ['p(95)<150', 'p(99)<300'],
  },
};

function login() {
  const response = http.post(`${BASE_URL}/api/auth/login`, JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }), {
    headers: JSON_HEADERS,
    tags: { name: 'login' },
  });
  const ok = check(response, {
    'login: status 200': (r) => r.status === 200,
    'login: access token': (r) => typeof r.json('accessToken') === 'string',
  });
  return ok ? response.json('accessToken') : undefined;
}

export function setup() {
  // Fail fast, before any load, when the portal is not there or the account cannot sign in.
  const token = login();
  if (!token) fail(`Cannot sign in as ${ADMIN_EMAIL} at ${BASE_URL}: is the portal up and seeded, and are the sign-in limits raised?`);
}

export function signIn() {
  login();
}

// Each VU has its own copy of module state: one session per simulated admin.
let accessToken;

export function browseUsers() {
  if (!accessToken) accessToken = login();
  if (!accessToken) {
    sleep(1);
    return;
  }
  const response = http.get(`${BASE_URL}/api/users?page=1&limit=10`, {
    headers: { Authorization: `Bearer ${accessToken}` },
    tags: { name: 'users_list' },
    // An expired token is answered 401 and handled below; it is not a failure of the portal.
    responseCallback: http.expectedStatuses(200, 401),
  });
  if (response.status === 401) {
    // The access token expired (15 minutes by default): sign in again on the next iteration.
    accessToken = undefined;
    return;
  }
  check(response, {
    'users: status 200': (r) => r.status === 200,
    'users: a page of users': (r) => Array.isArray(r.json('data.users')),
  });
  sleep(THINK_SECONDS);
}
