import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../domain/decider';

/**
 * One record, readable both ways: as the specification's envelope (`success`, `message`, `data`) and,
 * because its fields are also at the top level, as the bare record react-admin's REST client expects.
 */
export function recordAnswer<T extends object>(record: T, message?: string) {
  return { ...record, success: true as const, ...(message === undefined ? {} : { message }), data: record };
}

/** The keys recordAnswer adds around a record. */
const ANSWER_KEYS = ['success', 'message', 'data'] as const;

/**
 * An update body that ignores what the client read and sends back unchanged (react-admin's edit forms
 * send the whole record): the resource's own read-only fields and the answer's envelope. Any other
 * unknown field is still refused.
 */
export function updateBody<Shape extends z.ZodRawShape>(shape: Shape, readOnlyFields: readonly string[]) {
  const ignored = Object.fromEntries([...readOnlyFields, ...ANSWER_KEYS].filter((key) => !(key in shape)).map((key) => [key, z.unknown().optional()]));
  return z
    .object({ ...shape, ...ignored })
    .strict()
    .transform((body) => {
      const kept = { ...body } as Record<string, unknown>;
      for (const key of Object.keys(ignored)) delete kept[key];
      return kept as z.infer<z.ZodObject<Shape>>;
    });
}

/** How many records one bulk action may name. */
export const BULK_MAX = 100;

/** The ids a bulk action names: 1 to BULK_MAX distinct ids, with messages that name the records (`user`, `product`). */
export const bulkIds = (noun: string) =>
  z
    .array(z.uuid({ error: `Each ${noun} id must be a valid id.` }), { error: `Choose at least one ${noun}.` })
    .min(1, `Choose at least one ${noun}.`)
    .max(BULK_MAX, `Choose at most ${BULK_MAX} ${noun}s at a time.`)
    .refine((ids) => new Set(ids).size === ids.length, `A ${noun} is listed twice.`);

/**
 * The status update answers `success`, `message` and `details` (spec 001 §3), refusals included:
 * a refused transition carries 'Cannot change status from X to Y' in `details` as well as in the
 * shared error envelope.
 */
export function statusErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof DomainError && error.code === 'INVALID_STATUS_TRANSITION') {
    return reply
      .status(409)
      .send({ success: false, message: error.message, details: error.details, error: { code: error.code, message: error.message, details: error.details } });
  }
  throw error;
}
