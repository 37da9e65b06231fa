import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors';
import { firstUnstorableText } from '../../domain/storableText';

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
