// A realistic read workload: many signed-in users of all five roles open the portal's screens — their
// dashboards (with date ranges, and administrators looking at other users' dashboards), list pages with
// different page numbers, page sizes, sorts, filters and searches in both list forms, records with their
// tabs (ids found in setup), statistics, settings and, for administrators, the audit log paged by cursor.
// Nearly every request is a fresh combination, so the portal's kept answers rarely serve it: this is the
// read path as the database sees it. Meanwhile, optionally, customers open tickets and support and
// customers comment on them, so the read models change under the reads.
//
//   npm run load -- load-tests/k6/read-mix.js -e BASE_URL=http://localhost:3000 -e RATE=40
//
// Environment (besides portal.js's BASE_URL, PASSWORD, DURATION, MAX_VUS):
//   RATE           screens opened per second (default 20; an open model)
//   VUS            without RATE: that many users each open a screen, think, open the next (a closed model);
//                  with RATE: the readers' VUs allocated up front (the writers' follow WRITE_RATE)
//   THINK_SECONDS  the closed model's pause between two screens of one user (default 0.5)
//   WRITE_RATE     tickets opened and comments added per second meanwhile (default 10; 0: reads only)
//   SESSIONS       sessions signed in per role in setup and shared by the users (default 4): sign-in
//                  hashes a password on purpose, so it happens before the reads, not among them
//
// A screen's requests go out together (http.batch), as the web app sends them. Each request is tagged
// with its route (`name`, e.g. `GET /api/orders/:id`) and `type: read`; every answer must be 200.
import { check } from 'k6';
import { arrivals, command, DURATION, pick, pooledSession, read, readAll, signInAll, think, THRESHOLDS } from './lib/portal.js';
import { openTicket, useFiles } from './lib/journeys.js';
import { nextPageQuery } from './lib/listQueries.js';
import { discover, ROLES, screenRequests, weighted } from './lib/screens.js';

useFiles({ pdf: open('./fixtures/document.pdf', 'b'), png: open('./fixtures/product.png', 'b') });

const DEFAULT_RATE = 20;
const WRITE_RATE = Number(__ENV.WRITE_RATE ?? 10);
/** Sessions signed in per role before the run; the users share them. */
const SESSIONS = Number(__ENV.SESSIONS || 4);
/** VUS without RATE: a closed model of that many users. */
const USERS = __ENV.RATE ? 0 : Number(__ENV.VUS || 0);

/** Shares of the kinds of screen opened. */
export const SCREENS = { list: 0.5, record: 0.25, dashboard: 0.15, figures: 0.1 };
/** How often a list screen goes on to the next page when the list offers a cursor ("older entries"). */
const NEXT_PAGE_SHARE = 0.3;

export const options = {
  scenarios: {
    reads: USERS
      ? { executor: 'constant-vus', exec: 'openScreen', vus: USERS, duration: DURATION }
      : arrivals('openScreen', DEFAULT_RATE, 1, { secondsEach: 0.5 }),
    // A command takes well under a second: a VU per write a second, whatever VUS says about the readers.
    ...(WRITE_RATE > 0 ? { writes: arrivals('changeData', 0, 1, { rate: WRITE_RATE, vus: Math.max(2, Math.ceil(WRITE_RATE)) }) } : {}),
  },
  thresholds: THRESHOLDS,
};

export function setup() {
  const sessions = signInAll(Object.keys(ROLES), SESSIONS);
  const tokens = Object.fromEntries(Object.entries(sessions.tokens).map(([role, [first]]) => [role, first]));
  return { sessions, ...discover(tokens) };
}

const answered = (response, name) => check(response, { [`${name}: 200`]: (r) => r.status === 200 });

const ROLE_SHARES = Object.fromEntries(Object.entries(ROLES).map(([role, screens]) => [role, screens.share]));

/** One user opens one screen: its requests at once, each answer checked. */
export function openScreen(found) {
  const role = weighted(ROLE_SHARES);
  const token = pooledSession(found.sessions, role);
  const { requests, nextPage } = screenRequests(role, weighted(SCREENS), found);
  const responses = readAll(token, requests);
  responses.forEach((response, i) => answered(response, requests[i].name));
  const cursor = nextPage && responses[0].status === 200 ? nextPage.cursor(responses[0]) : undefined;
  if (cursor && Math.random() < NEXT_PAGE_SHARE) {
    const name = `GET ${nextPage.path}`;
    answered(read(token, `${nextPage.path}?${nextPageQuery(nextPage.search, nextPage.param, cursor)}`, name), name);
  }
  if (USERS) think();
}

/**
 * Customers open tickets and comment on their own; support answers on any ticket (publicly or internally).
 * Under load a command may answer 202 (saved, the read models not there yet), which the API documents.
 */
export function changeData(found) {
  if (Math.random() < 0.3) {
    openTicket(pooledSession(found.sessions, pick(['partner', 'distributor'])), { queuedIsFine: true });
    return;
  }
  const author = pick(['partner', 'distributor', 'support', 'support']);
  const tickets = found.roles[author].ids.tickets || [];
  if (!tickets.length) return;
  const internal = author === 'support' && Math.random() < 0.3;
  const added = command(
    pooledSession(found.sessions, author),
    'POST',
    `/api/tickets/${pick(tickets)}/comments`,
    { comment: internal ? 'Internal: checked the logs, looks like the uplink.' : 'Any news on this one?', ...(internal ? { is_internal: true } : {}) },
    'POST /api/tickets/:id/comments',
  );
  check(added, { 'comment added: 201 (or 202 while the read models catch up)': (r) => r.status === 201 || r.status === 202 });
}
