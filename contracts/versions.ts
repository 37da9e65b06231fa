import { z } from 'zod';

/**
 * Versions and `?asOf=` of every record type with a decider (src/http/versions.ts).
 *
 * Routes (all under /api):
 * - GET <record>/:id/versions    the record's versions, oldest first — `versionsAnswer`
 * - GET <record>/:id?asOf=…      the record as it was then (`asOfQuery`) — `asOfRecordAnswer` (contracts/answers.ts)
 */

export const AS_OF_MESSAGE = 'asOf must be a date and time in ISO 8601 with a time zone, such as 2026-10-01T09:00:00Z.';

/** The query of a record's read route: nothing, or the moment to read it as of. */
export const asOfQuery = z
  .object({ asOf: z.iso.datetime({ offset: true, error: AS_OF_MESSAGE }).optional() })
  .strict()
  .meta({ example: { asOf: '2026-10-01T09:00:00Z' } });

export const fieldChangeSchema = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });

export const versionSchema = z.object({
  revision: z.number().int(),
  occurred_at: z.string(),
  actor_id: z.string().nullable(),
  actor_role: z.string().nullable(),
  /** The actor's name today; null for the system or a removed account. */
  actor_name: z.string().nullable(),
  event_type: z.string(),
  summary: z.string(),
  /** Field before → after; a field's values are whatever the record holds there (text, numbers, lists, objects). */
  changes: z.array(fieldChangeSchema),
  /** The reason or note the event recorded (a rejection's reason, a status change's public comment). */
  reason: z.string().nullable(),
});
export type VersionView = z.infer<typeof versionSchema>;

export const versionsAnswer = z.object({ success: z.literal(true), data: z.array(versionSchema) });
