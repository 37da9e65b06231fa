import fastifyRateLimit from '@fastify/rate-limit';
import fastifyUnderPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../platform/services';
import { HttpError, sendError } from './errors';
import { sharedRateCountStore } from '../../platform/sharedRateCounts';
import { tooManyRequests } from './throttle';

/** How long a shed request is told to wait. */
const SHED_RETRY_AFTER_SECONDS = 5;

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      // Lesson videos play from blob: URLs: the media route needs the bearer token, which a <video> cannot send.
      mediaSrc: ["'self'", 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // Uploaded images are shown by the portal's own pages only.
  crossOriginResourcePolicy: { policy: 'same-origin' },
  frameguard: { action: 'deny' },
};

/**
 * The headers helmet sets, worked out once: they are the same for every answer (no nonces), and
 * building helmet's middleware per request (as its Fastify plugin does) cost more than a whole
 * authenticated read's database work.
 */
export function securityHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  // helmet only calls setHeader/removeHeader on the response: the stand-in above collects them.
  helmet(options)({ headers: {} } as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/** Two of under-pressure's one-second samples: long enough for the start-up's to have passed. */
const STARTUP_GRACE_MS = 2_000;

/**
 * Security headers on every answer (the web app runs under this Content-Security-Policy: scripts only
 * from the portal itself; inline styles, which MUI writes at run time) and load shedding: when the
 * event loop lags, requests are answered 503 with Retry-After instead of queueing until they time out.
 */
export async function registerProtection(app: FastifyInstance, services: Services): Promise<void> {
  const headers = securityHeaders();
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });

  const maxEventLoopDelay = services.config.MAX_EVENT_LOOP_DELAY_MS;
  if (maxEventLoopDelay > 0) {
    // The first delay samples measure building the app (every route's schemas compiled), not traffic: a
    // process that has just started (a replaced API process, say) does not turn its first requests away for that.
    let startedUp = false;
    app.addHook('onReady', (done) => {
      setTimeout(() => (startedUp = true), STARTUP_GRACE_MS).unref();
      done();
    });
    await app.register(fastifyUnderPressure, {
      maxEventLoopDelay,
      retryAfter: SHED_RETRY_AFTER_SECONDS,
      pressureHandler: (_request, reply) => {
        if (!startedUp) return undefined;
        reply.header('retry-after', String(SHED_RETRY_AFTER_SECONDS));
        sendError(reply, 503, 'OVERLOADED', `The portal is busy right now. Please try again in ${SHED_RETRY_AFTER_SECONDS} seconds.`);
      },
    });
  }
}

/**
 * Two limits per minute, both shared by every API process through Redis a few times a second
 * (sharedRateCounts.ts), not with a round trip per request:
 * - every request counts against its client address when it arrives, before its body is read and
 *   whether it is signed in, valid or not, so a flood costs one count per request and nothing more;
 * - a signed-in request (or an applicant's) also counts against its user, after the access guard, so
 *   a user is counted as themself whichever address they come from; a request with an API key counts
 *   against the key, under the key's own limit.
 */
export async function registerApiRateLimit(api: FastifyInstance, services: Services): Promise<void> {
  const { config, redis } = services;
  const counts = sharedRateCountStore(redis, `${config.REDIS_PREFIX}:api-rate:`, (error) => api.log.warn({ err: error }, 'sharing API rate counts failed'));
  api.addHook('onClose', () => counts.close().catch(() => {}));

  const perAddress = new counts.Store({ timeWindow: 60_000 });
  const maxPerAddress = config.API_REQUESTS_PER_ADDRESS_PER_MINUTE;
  api.addHook('onRequest', (request, _reply, done) => {
    perAddress.incr(`address:${request.ip}`, (_error, { current, ttl }) => {
      if (current > maxPerAddress) done(tooManyRequests(ADDRESS_LIMIT_MESSAGE, ttl));
      else done();
    });
  });

  await api.register(fastifyRateLimit, {
    hook: 'preHandler',
    // An API key has its own limit, chosen when it was made (the portal's per-user limit for older keys).
    max: (request) => request.principal?.apiKey?.rateLimitPerMinute ?? config.API_REQUESTS_PER_MINUTE,
    timeWindow: 60_000,
    store: counts.Store,
    // A request without a user has been counted against its address already.
    allowList: (request) => !request.principal && !request.applicant,
    // A key is counted as itself, not as the owner it acts for: the owner's people keep their own allowance.
    keyGenerator: (request) =>
      request.principal?.apiKey ? `api-key:${request.principal.apiKey.id}` : (request.principal?.id ?? request.applicant?.userId ?? request.ip),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new HttpError(429, 'RATE_LIMITED', `Too many requests. Please wait ${seconds} seconds and try again.`, { retryAfterSeconds: seconds });
    },
  });
}

const ADDRESS_LIMIT_MESSAGE = (seconds: number) => `Too many requests from your network. Please wait ${seconds} seconds and try again.`;
