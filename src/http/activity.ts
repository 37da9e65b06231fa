import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { activityListAnswer } from '../../contracts/activity';
import { activityPage, visibleActivityResources } from '../../projections/activity';
import type { Services } from '../../platform/services';
import { listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';

const listQuery = listQuerySchema({}, ['occurred_at']);

export async function activityRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/activity',
    {
      schema: {
        tags: ['activity'],
        summary: "The caller's organisation's recent activity, newest first: only lines about records the caller may read",
        querystring: listQuery,
        response: { 200: activityListAnswer },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const principal = request.principal;
      // Always the caller's own organisation; what the caller's permissions do not cover is filtered here, at read time.
      const resources = visibleActivityResources(principal);
      const { rows, total } = resources.length
        ? await activityPage(services.reads, principal.organisationId, resources, { limit: q.limit, offset: q.offset }, q.ids)
        : { rows: [], total: 0 };
      return sendList(reply, 'activity', q, rows, total);
    },
  );
}
