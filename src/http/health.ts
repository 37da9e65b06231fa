import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthAnswer, type Dependency } from '../../contracts/health';
import { pingDatabase } from '../../platform/db';
import type { Services } from '../../platform/services';

export type { Dependency };

/** How long the health answer waits for each server. */
const CHECK_TIMEOUT_MS = 1000;

async function answersWithin(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      check().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `GET /api/health`: is this API process alive, and how are the servers it depends on? Without
 * PostgreSQL the API can serve nothing (503); without Redis it keeps serving, with rate limits counted
 * in each process's memory and jobs (notifications, e-mail, expiries) waiting until Redis returns, so
 * Redis is reported `degraded` and the answer stays 200: a load balancer keeps the process in service.
 */
export async function healthRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/health',
    { schema: { tags: ['health'], summary: 'Liveness, and the state of PostgreSQL and Redis', response: { 200: healthAnswer, 503: healthAnswer } } },
    async (_request, reply) => {
      const [postgres, redis] = await Promise.all([answersWithin(() => pingDatabase(services.pool)), answersWithin(() => services.redis.ping())]);
      const checks: Record<'postgres' | 'redis', Dependency> = { postgres: postgres ? 'ok' : 'unavailable', redis: redis ? 'ok' : 'degraded' };
      const status: Dependency = !postgres ? 'unavailable' : !redis ? 'degraded' : 'ok';
      reply.header('cache-control', 'no-store');
      reply.status(postgres ? 200 : 503);
      return { success: postgres, status, checks };
    },
  );
}
