// A partner (or distributor) browses the catalogue — a page, a category with stock, a search, one
// product — and places an order of one to three products, then reads its orders and tracks the new one.
//
//   npm run load -- load-tests/k6/catalogue-and-orders.js -e BASE_URL=http://localhost:3000
//   k6 run -e BASE_URL=http://localhost:3000 load-tests/k6/catalogue-and-orders.js
//
// Arrival rate: RATE journeys per second (default 1) for DURATION (default 2m); settings in lib/portal.js.
// setup() adds six load-test products with ample stock once (found again by name on later runs).
import { arrivals, THRESHOLDS } from './lib/portal.js';
import { browseAndOrder, prepareCatalogue, useFiles } from './lib/journeys.js';

useFiles({ pdf: open('./fixtures/document.pdf', 'b'), png: open('./fixtures/product.png', 'b') });

export const options = {
  scenarios: { browse_and_order: arrivals('browseAndOrder', 1) },
  thresholds: THRESHOLDS,
};

export function setup() {
  return prepareCatalogue();
}

export { browseAndOrder };
