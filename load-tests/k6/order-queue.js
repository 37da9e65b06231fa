// Administrators work the order queue: the statistics, the Orders screen's filtered and sorted list
// (react-admin's sort/range/filter), a search, one order, and its next status (approve, ship, deliver).
// Orders keep arriving from partners and distributors meanwhile, so the queue never runs dry.
//
//   npm run load -- load-tests/k6/order-queue.js -e BASE_URL=http://localhost:3000
//
// Arrival rate: RATE queue visits per second (default 1) and as many new orders, for DURATION (default 2m).
// Two administrators moving the same order answer 409 to the slower one: expected, not a failure.
import { arrivals, THRESHOLDS } from './lib/portal.js';
import { ordersArrive, prepareCatalogue, useFiles, workOrderQueue } from './lib/journeys.js';

useFiles({ pdf: open('./fixtures/document.pdf', 'b'), png: open('./fixtures/product.png', 'b') });

export const options = {
  scenarios: {
    work_queue: arrivals('workOrderQueue', 1),
    orders_arrive: arrivals('ordersArrive', 1),
  },
  thresholds: THRESHOLDS,
};

export function setup() {
  return prepareCatalogue();
}

export { ordersArrive, workOrderQueue };
