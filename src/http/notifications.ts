import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { markedAllReadAnswer, markedReadAnswer, notificationListAnswer } from '../../contracts/notifications';
import { notifications } from '../../domain/notifications/notifications';
import { listNotifications, unreadNotificationIds } from '../../projections/notifications';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import type { Services } from '../../platform/services';
import { booleanFilter, listQuerySchema } from '../../contracts/lists';
import { sendList } from './lists';
import { uuidParam } from './validation';

const listQuery = listQuerySchema({ unread: booleanFilter.optional() }, ['created_at']);

/** Each signed-in user's own notifications. */
export async function notificationRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/notifications',
    { schema: { tags: ['notifications'], summary: 'My notifications', querystring: listQuery, response: { 200: notificationListAnswer } } },
    async (request, reply) => {
      const q = request.query;
      const { rows, total, unread } = await listNotifications(services.reads, request.principal.id, {
        offset: q.offset,
        limit: q.limit,
        unreadOnly: q.filters.unread,
        ids: q.ids,
      });
      reply.header('x-unread-count', String(unread));
      const answer = sendList(reply, 'notifications', q, rows, total);
      return (Array.isArray(answer) ? answer : { ...answer, data: { ...answer.data, unread } }) as z.infer<typeof notificationListAnswer>;
    },
  );

  app.post(
    '/notifications/:id/read',
    { schema: { tags: ['notifications'], summary: 'Mark one as read', params: uuidParam, response: { 200: markedReadAnswer } } },
    async (request) => {
      await runCommand(
        services,
        notifications,
        request.params.id,
        { type: 'MarkNotificationRead', userId: request.principal.id },
        metadataFromRequest(request),
      );
      return { success: true as const, message: 'Notification marked as read.', data: { id: request.params.id } };
    },
  );

  app.post(
    '/notifications/read-all',
    { schema: { tags: ['notifications'], summary: 'Mark all as read', response: { 200: markedAllReadAnswer } } },
    async (request) => {
      const ids = await unreadNotificationIds(services.pool, request.principal.id);
      const metadata = metadataFromRequest(request);
      for (const id of ids) await runCommand(services, notifications, id, { type: 'MarkNotificationRead', userId: request.principal.id }, metadata);
      return { success: true as const, message: `${ids.length} notification${ids.length === 1 ? '' : 's'} marked as read.`, data: { count: ids.length } };
    },
  );
}
