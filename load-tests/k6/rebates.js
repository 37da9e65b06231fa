// A partner submits a rebate claim with its invoice (multipart, PDF), reads its history and overview;
// an administrator reads the review queue and the claim and approves it, or marks it processing and
// then approves or rejects it.
//
//   npm run load -- load-tests/k6/rebates.js -e BASE_URL=http://localhost:3000
//
// Arrival rate: RATE claims per second (default 1) for DURATION (default 2m).
import { arrivals, THRESHOLDS } from './lib/portal.js';
import { rebateClaim, useFiles } from './lib/journeys.js';

useFiles({ pdf: open('./fixtures/document.pdf', 'b'), png: open('./fixtures/product.png', 'b') });

export const options = {
  scenarios: { rebates: arrivals('rebateClaim', 1) },
  thresholds: THRESHOLDS,
};

export { rebateClaim };
