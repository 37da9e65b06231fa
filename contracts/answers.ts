import { z } from 'zod';

/**
 * The shapes every module's answers share, so a module contract names only its own records.
 * They mirror `sendList`, `recordAnswer` and `answerCreated` in src/http.
 */

/** A list: react-admin's bare array (with Content-Range), or the specification's paged envelope. */
export function listAnswer<Row extends z.ZodType>(resource: string, row: Row) {
  return z.union([
    z.array(row),
    z.object({
      success: z.literal(true),
      data: z.object({
        [resource]: z.array(row),
        total: z.number().int(),
        page: z.number().int(),
        limit: z.number().int(),
        totalPages: z.number().int(),
        nextCursor: z.string().optional(),
      }),
    }),
  ]);
}

/**
 * One record: its fields at the top (react-admin) and again under `data` (the specification). Generic over the row's
 * shape (not just any ZodObject), so the answer's inferred type keeps the row's fields and a handler's answer is checked.
 */
export function recordAnswer<Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(row: z.ZodObject<Shape, Config>) {
  return row.extend({ success: z.literal(true), message: z.string().optional(), data: row });
}

/** A command's success with a payload of its own. */
export function commandAnswer<Data extends z.ZodType>(data: Data) {
  return z.object({ success: z.literal(true), message: z.string(), data });
}

const position = z.object({ commit: z.string(), prepare: z.string() }).nullable();

/** 202: a creation saved in the log that the read models do not show yet (see `answerCreated`). */
export const acceptedAnswer = z
  .object({
    success: z.literal(true),
    accepted: z.literal(true),
    message: z.string(),
    id: z.string(),
    position,
    location: z.string(),
    data: z.object({ id: z.string(), position, location: z.string() }).loose(),
  })
  .loose();

/** The response schemas of a creation: the record (201, 200 for a repeated Idempotency-Key) or 202. */
export function createdAnswers<Shape extends z.ZodRawShape, Config extends z.core.$ZodObjectConfig>(row: z.ZodObject<Shape, Config>) {
  const record = recordAnswer(row);
  return { 200: record, 201: record, 202: acceptedAnswer } as const;
}

const timestamp = z.string().meta({ description: 'ISO 8601 date and time' });

/** One status change of a record (projections/statusHistory.ts), with the actor's current name; a history lists them oldest first. */
export const statusChangeSchema = z.object({
  id: z.string(),
  record_type: z.string(),
  record_id: z.string(),
  from_status: z.string().nullable(),
  to_status: z.string(),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  actor_role: z.string().nullable(),
  reason: z.string().nullable(),
  event_type: z.string(),
  occurred_at: timestamp,
});
export type StatusChange = z.infer<typeof statusChangeSchema>;
export const statusHistoryAnswer = z.object({ success: z.literal(true), data: z.array(statusChangeSchema) });

/**
 * `?asOf=`: a record folded from its own events up to that moment (src/http/versions.ts `asOfAnswer`), with the
 * version it was at then. Open by nature: the other fields are the record type's own and depend on the reader.
 */
export const asOfRecordSchema = z.object({ as_of: timestamp, version: z.number().int(), version_time: timestamp }).loose();
export type AsOfRecord = z.infer<typeof asOfRecordSchema>;
/** The as-of record in the record answer's shape (`recordAnswer`). */
export const asOfRecordAnswer = recordAnswer(asOfRecordSchema).describe('The record as it was at `asOf`');
