import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyUnderPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import { HttpError, sendError } from './errors';

/** How long a shed request is told to wait. */
const SHED_RETRY_AFTER_SECONDS = 5;

/**
 * Security headers on every answer (the web app runs under this Content-Security-Policy: scripts only
 * from the portal itself; inline styles, which MUI writes at run time) and load shedding: when the
 * event loop lags, requests are answered 503 with Retry-After instead of queueing until they time out.
 */
export async function registerProtection(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
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
  });

  const maxEventLoopDelay = services.config.MAX_EVENT_LOOP_DELAY_MS;
  if (maxEventLoopDelay > 0) {
    await app.register(fastifyUnderPressure, {
      maxEventLoopDelay,
      retryAfter: SHED_RETRY_AFTER_SECONDS,
      pressureHandler: (_request, reply) => {
        reply.header('retry-after', String(SHED_RETRY_AFTER_SECONDS));
        sendError(reply, 503, 'OVERLOADED', `The portal is busy right now. Please try again in ${SHED_RETRY_AFTER_SECONDS} seconds.`);
      },
    });
  }
}

/**
 * Requests per signed-in user (or per address before sign-in) and minute, counted in Redis so every API
 * process shares the count. It runs after the access guard, so a user is counted as themself.
 */
export async function registerApiRateLimit(api: FastifyInstance, services: Services): Promise<void> {
  const { config, redis } = services;
  await api.register(fastifyRateLimit, {
    hook: 'preHandler',
    max: config.API_REQUESTS_PER_MINUTE,
    timeWindow: 60_000,
    redis,
    nameSpace: `${config.REDIS_PREFIX}:api-rate:`,
    keyGenerator: (request) => request.principal?.id ?? request.applicant?.userId ?? request.ip,
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new HttpError(429, 'RATE_LIMITED', `Too many requests. Please wait ${seconds} seconds and try again.`, { retryAfterSeconds: seconds });
    },
  });
}
