// A company registers as a partner, answers the onboarding questionnaire with its onboarding token, and
// an administrator finds the application in the pending list, reads it and approves it.
//
//   npm run load -- load-tests/k6/partner-onboarding.js -e BASE_URL=http://localhost:3000
//
// Arrival rate: RATE registrations per second (default 0.5) for DURATION (default 2m). Registration
// hashes the password (argon2id), so it is measured as `type:auth`, like sign-in. The portal limits
// registrations per address (REGISTRATIONS_PER_IP_PER_HOUR): raise it on the stack under test.
import { arrivals, THRESHOLDS } from './lib/portal.js';
import { partnerOnboarding } from './lib/journeys.js';

export const options = {
  scenarios: { onboarding: arrivals('partnerOnboarding', 0.5) },
  thresholds: THRESHOLDS,
};

export { partnerOnboarding };
