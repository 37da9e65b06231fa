import { z } from 'zod';
import { listAnswer } from './answers';

/**
 * The organisation's activity feed.
 *
 * Routes (all under /api):
 * - GET /activity    the caller's organisation's recent activity, newest first — `activityListAnswer`
 */

export const activitySchema = z.object({
  /** The event's id. */
  id: z.string(),
  organisation_id: z.string(),
  occurred_at: z.string(),
  resource: z.string(),
  record_id: z.string(),
  event_type: z.string(),
  message: z.string(),
  /** The screen the line opens; null when there is none. */
  link: z.string().nullable(),
});
export type Activity = z.infer<typeof activitySchema>;

export const activityListAnswer = listAnswer('activity', activitySchema);
