/**
 * The portal's protective limits, raised for load tests: every request of a bench comes from one
 * address and a few accounts, which is exactly what the limits exist to stop. Load shedding is turned
 * off so a busy machine measures latency instead of 503 answers.
 */
export const LOAD_TEST_LIMITS = {
  LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '1000000000',
  LOGIN_FAILURES_PER_EMAIL: '1000000000',
  REGISTRATIONS_PER_IP_PER_HOUR: '1000000000',
  API_REQUESTS_PER_MINUTE: '1000000000',
  API_REQUESTS_PER_ADDRESS_PER_MINUTE: '1000000000',
  MAX_EVENT_LOOP_DELAY_MS: '0',
} as const;
