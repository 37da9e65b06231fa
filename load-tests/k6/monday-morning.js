// Monday morning: every journey at once, in the proportions of a week's first hours — most visitors
// browse and order, administrators work the order queue, support answers tickets, partners register
// deals and claim rebates, and a few companies apply to become partners.
//
//   npm run load -- load-tests/k6/monday-morning.js -e BASE_URL=http://localhost:3000 -e RATE=4
//
// RATE is the total of journeys started per second (default 3), shared as MIX says, for DURATION
// (default 2m). `npm run bench` runs this script at half the highest rate the machine sustains.
import { arrivals, THRESHOLDS } from './lib/portal.js';
import {
  browseAndOrder,
  dealRegistration,
  partnerOnboarding,
  prepareCatalogue,
  rebateClaim,
  ticketConversation,
  useFiles,
  workOrderQueue,
} from './lib/journeys.js';

useFiles({ pdf: open('./fixtures/document.pdf', 'b'), png: open('./fixtures/product.png', 'b') });

/** Shares of the journeys started, summing to 1. */
export const MIX = {
  browseAndOrder: 0.4,
  workOrderQueue: 0.15,
  ticketConversation: 0.15,
  dealRegistration: 0.12,
  rebateClaim: 0.12,
  partnerOnboarding: 0.06,
};

const DEFAULT_RATE = 3;

export const options = {
  scenarios: Object.fromEntries(Object.entries(MIX).map(([exec, share]) => [exec, arrivals(exec, DEFAULT_RATE, share)])),
  thresholds: THRESHOLDS,
};

export function setup() {
  return prepareCatalogue();
}

export { browseAndOrder, dealRegistration, partnerOnboarding, rebateClaim, ticketConversation, workOrderQueue };
