import { z } from 'zod';
import { commandAnswer } from './answers';

/**
 * Each signed-in user's own notifications.
 *
 * Routes (all under /api):
 * - GET  /notifications             the caller's notifications, newest first (`unread` filter) — `notificationListAnswer`
 * - POST /notifications/:id/read    marks one read — `markedReadAnswer`
 * - POST /notifications/read-all    marks every unread one read — `markedAllReadAnswer`
 */

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** The list answer (see `listAnswer`), whose envelope also counts the caller's unread notifications. */
export const notificationListAnswer = z.union([
  z.array(notificationSchema),
  z.object({
    success: z.literal(true),
    data: z.object({
      notifications: z.array(notificationSchema),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      totalPages: z.number().int(),
      nextCursor: z.string().optional(),
      unread: z.number().int(),
    }),
  }),
]);

export const markedReadAnswer = commandAnswer(z.object({ id: z.string() }));
export const markedAllReadAnswer = commandAnswer(z.object({ count: z.number().int() }));
