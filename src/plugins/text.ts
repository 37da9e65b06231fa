import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

/**
 * Text the portal stores must be text PostgreSQL and JSON can hold: no NUL character and no half of a
 * UTF-16 surrogate pair. Returns the path of the first offending string (`items.0.name`), if any.
 */
export function firstUnstorableText(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path.join('.') || 'value' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = firstUnstorableText(key, [...path, key]) ?? firstUnstorableText(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function unstorableTextError(field: string): HttpError {
  return new HttpError(400, 'VALIDATION_ERROR', `${field} contains a character that cannot be stored (a NUL character or a broken Unicode sequence).`, [
    { field, message: 'Remove the NUL character or broken Unicode sequence.' },
  ]);
}

/** Refuses, for every route of the scope, a body, query or parameter holding text that cannot be stored. */
export function refuseUnstorableText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = firstUnstorableText(part);
      if (field !== undefined) throw unstorableTextError(field);
    }
  });
}
