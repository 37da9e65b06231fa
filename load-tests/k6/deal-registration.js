// A partner registers a deal (multipart, with a BoQ file), moves it to In Progress, adds two
// milestones and completes one; the manufacturer finds the deal by its title.
//
//   npm run load -- load-tests/k6/deal-registration.js -e BASE_URL=http://localhost:3000
//
// Arrival rate: RATE deals per second (default 1) for DURATION (default 2m).
import { arrivals, THRESHOLDS } from './lib/portal.js';
import { dealRegistration, useFiles } from './lib/journeys.js';

useFiles({ pdf: open('./fixtures/document.pdf', 'b'), png: open('./fixtures/product.png', 'b') });

export const options = {
  scenarios: { deals: arrivals('dealRegistration', 1) },
  thresholds: THRESHOLDS,
};

export { dealRegistration };
