import { z } from 'zod';

/**
 * The audit log (administrators).
 *
 * Routes (all under /api):
 * - GET /audit               every event, newest first, filtered — `auditListAnswer`
 * - GET /audit/export.csv    the filtered lines as CSV — `auditCsv`
 */

export const auditLineSchema = z.object({
  /** The event's id. */
  id: z.string(),
  occurred_at: z.string(),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  actor_role: z.string().nullable(),
  record_type: z.string(),
  record_id: z.string(),
  organisation_id: z.string().nullable(),
  event_type: z.string(),
  summary: z.string(),
  /** The API key the action was taken with, if any (the actor is then its owner, or null for a vendor key). */
  api_key_id: z.string().nullable(),
  api_key_name: z.string().nullable(),
});
export type AuditLine = z.infer<typeof auditLineSchema>;

/** The list answer (see `listAnswer`), whose envelope also carries the cursor of the next page (null on the last). */
export const auditListAnswer = z.union([
  z.array(auditLineSchema),
  z.object({
    success: z.literal(true),
    data: z.object({
      audit: z.array(auditLineSchema),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      totalPages: z.number().int(),
      nextCursor: z.string().optional(),
      next_cursor: z.string().nullable(),
      /** True when the count stopped at `total`: more lines match (the react-admin answer says so in `X-Total-Capped`). */
      total_capped: z.boolean(),
    }),
  }),
]);

/** The export is a file (text/csv), streamed as it is read: the serializer never sees it. */
export const auditCsv = z
  .string()
  .describe(
    'text/csv: one line per event, with a header line (time, actor_id, actor_name, actor_role, record_type, record_id, organisation_id, event_type, summary, event_id, api_key_id, api_key_name)',
  );
