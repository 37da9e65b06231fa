import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { closeQueues, createQueues, QUEUE_NAMES, type Queues } from '../../platform/queues';
import type { Services } from '../../platform/services';

const failedQuery = z.object({ limit: z.coerce.number({ error: 'Limit must be a number.' }).int().min(1).max(500).default(100) }).strict();

const failedJob = z.object({
  id: z.string(),
  queue: z.string(),
  name: z.string(),
  failedReason: z.string(),
  attemptsMade: z.number(),
  timestamp: z.number(),
  finishedOn: z.number().nullable(),
  data: z.unknown(),
});

const failedAnswer = z.object({
  success: z.literal(true),
  data: z.object({ jobs: z.array(failedJob), total: z.number() }),
});

/** Background jobs that gave up after their last retry, newest first, so admins can see what did not happen. */
export async function jobRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  // Opened on first use, so an API that never serves this route holds no queue connections.
  let queues: Queues | undefined;
  app.addHook('onClose', async () => {
    if (queues) await closeQueues(queues);
  });

  app.get(
    '/jobs/failed',
    {
      schema: { tags: ['jobs'], summary: 'Jobs that gave up (admins)', querystring: failedQuery, response: { 200: failedAnswer } },
    },
    async (request) => {
      queues ??= createQueues(services.config);
      const { limit } = request.query;
      const perQueue = await Promise.all(
        QUEUE_NAMES.map(async (queue) => {
          const [jobs, count] = await Promise.all([queues![queue].getFailed(0, limit - 1), queues![queue].getFailedCount()]);
          return {
            count,
            jobs: jobs.map((job) => ({
              id: String(job.id),
              queue,
              name: job.name,
              failedReason: job.failedReason ?? '',
              attemptsMade: job.attemptsMade,
              timestamp: job.timestamp,
              finishedOn: job.finishedOn ?? null,
              data: job.data as unknown,
            })),
          };
        }),
      );
      const jobs = perQueue
        .flatMap((q) => q.jobs)
        .sort((a, b) => (b.finishedOn ?? b.timestamp) - (a.finishedOn ?? a.timestamp))
        .slice(0, limit);
      return { success: true as const, data: { jobs, total: perQueue.reduce((sum, q) => sum + q.count, 0) } };
    },
  );
}
