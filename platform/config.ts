import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** API processes that share PORT (node:cluster); one per core unless set. */
  API_PROCESSES: z.coerce.number().int().min(1).max(64).default(os.availableParallelism()),
  DATABASE_URL: z.string().default('postgres://postgres@127.0.0.1:5432/partnerhub'),
  /** Connections each process keeps to DATABASE_URL, and to each read replica (docs/decisions.md, "connections"). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(20),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  EVENTSTORE_URL: z.string().optional(),
  UPLOAD_DIR: z.string().default(path.resolve('uploads')),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('PartnerHub <no-reply@partnerhub.test>'),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  // How long an API process may reuse what it read about a caller's session and account; any change to them ends it at once (0: never reuse).
  PRINCIPAL_CACHE_SECONDS: z.coerce.number().int().min(0).default(30),
  /** How long a command's answer waits for the read models to show it; later, a creation is answered 202 Accepted. */
  READ_YOUR_WRITES_WAIT_MS: z.coerce.number().int().positive().max(60_000).default(5_000),
  /**
   * Streaming replicas (comma separated postgres:// URLs) that lists, searches, dashboards and record reads go to;
   * commands, sessions and transactions stay on DATABASE_URL. Unset: every read goes to DATABASE_URL.
   */
  READ_DATABASE_URL: z
    .string()
    .transform((value) => value.split(',').map((url) => url.trim()))
    .pipe(z.array(z.string().refine(isPostgresUrl, 'each replica must be a postgres:// URL (several are separated by commas)')).min(1))
    .optional(),
  /** How long a read waits for a replica to reach what this process has seen before it reads the primary instead. */
  REPLICA_WAIT_MS: z.coerce.number().int().min(0).max(5_000).default(250),
  // Read answers an API process keeps until the read models move on (0: never reuse an answer).
  ANSWER_CACHE_ENTRIES: z.coerce.number().int().min(0).default(2000),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 60 * 60),
  LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** Wrong passwords one address may try for one account before each further failure doubles its wait. */
  LOGIN_FAILURES_PER_EMAIL: z.coerce.number().int().positive().default(5),
  LOGIN_FAILURE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  /** How long the password step's second-factor challenge (and a single sign-on state or ticket) stays good. */
  MFA_CHALLENGE_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60),
  /** The name authenticator apps and passkey prompts show for the portal. */
  MFA_ISSUER: z.string().min(1).max(60).default('PartnerHub'),
  /** How long a team invitation link works. */
  INVITATION_VALIDITY_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 60 * 60),
  /** Days after a funded activity's end within which its claim must arrive; then the reservation is released. */
  FUND_CLAIM_WINDOW_DAYS: z.coerce.number().int().positive().default(60),
  REGISTRATIONS_PER_IP_PER_HOUR: z.coerce.number().int().positive().default(10),
  /** Invitations (each an e-mail) one organisation may send an hour. */
  INVITATIONS_PER_ORGANISATION_PER_HOUR: z.coerce.number().int().positive().default(50),
  /** Requests per signed-in user (or per address when signed out) and minute, across every API process. */
  API_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  /** Requests per client address and minute, every request counted before its body is read (an office behind one address shares it). */
  API_REQUESTS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().positive().default(6000),
  /** Event-loop delay (ms) above which the API sheds load with 503; 0 turns shedding off. */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  /** Prefix for every Redis key and queue, so several portals (or test runs) can share one Redis. */
  REDIS_PREFIX: z.string().default('partnerhub'),
  /** Only behind a reverse proxy: then the client address comes from X-Forwarded-For (and so do login rate limits). */
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Base delay of a failed job's exponential backoff (2 s, 4 s, 8 s, …); tests shorten it. */
  /** How long a stock reservation may wait for its order before it counts as abandoned and is released. */
  RESERVATION_GRACE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60 * 1000),
  JOB_BACKOFF_MS: z.coerce.number().int().positive().default(2000),
  /** How often the worker looks for open tickets whose overdue job is missing (it also looks at start). */
  TICKET_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60 * 1000),
  /** How long a deal registration is protected (60 days, spec 000 §9); tests shorten it. */
  DEAL_REGISTRATION_VALIDITY_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(60 * 24 * 60 * 60 * 1000),
  /** How far an approved extension moves a registration's expiry (30 days). */
  DEAL_REGISTRATION_EXTENSION_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 24 * 60 * 60 * 1000),
  /** How often the worker re-schedules registration expiries and reminders whose jobs may have been lost. */
  DEAL_REGISTRATION_SWEEP_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60 * 1000),
  /** How long an organisation has to accept or decline a lead offered to it (hours; tests shorten it). */
  LEAD_ACCEPTANCE_WINDOW_HOURS: z.coerce.number().positive().default(48),
  /** How often the worker re-schedules the acceptance windows of leads whose jobs may have been lost. */
  LEAD_SWEEP_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60 * 1000),
  /** How often the worker re-checks fund claim deadlines and reminders whose jobs may have been lost. */
  FUND_DEADLINE_SWEEP_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60 * 1000),
  /** How often the worker re-checks certification expiries and assignment reminders whose jobs may have been lost. */
  LEARNING_SWEEP_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60 * 1000),
  /** Outbound webhooks: how long one delivery attempt may take before it counts as failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Outbound webhooks: how much of a consumer's answer is read (the rest is dropped); the log keeps an excerpt. */
  WEBHOOK_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  /** Outbound webhooks: the first retry's delay; each next one doubles, up to WEBHOOK_RETRY_MAX_DELAY_MS. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(30_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(2 * 60 * 60 * 1000),
  /** Outbound webhooks: how long a delivery is retried before it fails for good and its endpoint is disabled. */
  WEBHOOK_RETRY_PERIOD_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 60 * 60 * 1000),
  /** How often the worker looks for deliveries whose job was lost (it also looks at start). */
  WEBHOOK_SWEEP_MS: z.coerce.number().int().positive().default(60_000),
  /**
   * Development and tests only: lets webhooks reach private, loopback and link-local addresses (a consumer
   * on localhost). Refused in production, where those addresses are never reached.
   */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Days of history the demo data spans on an empty database (orders every week, tickets, rebates, projects); 0 seeds only the recent demo records. */
  DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(730).default(182),
  /** Self-registrations arriving within this window of one another reach admins as one digest. */
  REGISTRATION_DIGEST_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 60),
  /** The portal's public address, so links in e-mails are absolute; without it e-mails carry no link. */
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof schema> & { JWT_SECRET: string };

export class ConfigError extends Error {}

/** Parses the environment once; tests pass overrides instead of mutating process.env. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable (as docker-compose writes `${SMTP_URL:-}`) means "not set".
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${first.path.join('.')}: ${first.message}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === 'production' && config.WEBHOOK_ALLOW_PRIVATE_NETWORKS) {
    throw new ConfigError('WEBHOOK_ALLOW_PRIVATE_NETWORKS is for development and tests only: unset it in production.');
  }
  if (!config.JWT_SECRET) {
    if (config.NODE_ENV === 'production') {
      throw new ConfigError('JWT_SECRET must be set in production (at least 32 characters).');
    }
    // A fresh secret per development process: sessions do not survive a restart, which is fine locally.
    return { ...config, JWT_SECRET: randomBytes(48).toString('base64url') };
  }
  return config as Config;
}
