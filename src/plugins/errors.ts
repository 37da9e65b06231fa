import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, type DomainErrorKind } from '../../domain/decider';

/** Raised by routes and guards for refusals that are not domain rules (authentication, permissions, missing records). */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

const STATUS_BY_KIND: Record<DomainErrorKind, number> = { invalid: 400, forbidden: 403, not_found: 404, conflict: 409 };

export function sendError(reply: FastifyReply, status: number, code: string, message: string, details?: unknown, extra?: Record<string, unknown>) {
  return reply.status(status).send({ success: false, message, error: { code, message, ...(details === undefined ? {} : { details }), ...extra } });
}

/** Fastify's own errors, in words a person understands. */
const FRAMEWORK_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'MALFORMED_JSON', 'The request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'MALFORMED_JSON', 'The request body is empty but JSON was announced.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'This content type is not accepted here. Send JSON.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'BAD_REQUEST', 'The Content-Length header does not match the body.'],
  FST_REQ_FILE_TOO_LARGE: [413, 'PAYLOAD_TOO_LARGE', 'The uploaded file is too large.'],
  FST_FILES_LIMIT: [413, 'PAYLOAD_TOO_LARGE', 'Too many files were uploaded.'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', 'This request must be sent as multipart/form-data.'],
  FST_JWT_NO_AUTHORIZATION_IN_HEADER: [401, 'UNAUTHENTICATED', 'Please sign in: no access token was sent.'],
};

/** Errors raised before a route is found (see Fastify's `frameworkErrors`). */
export function answerFrameworkError(error: FastifyError, _request: unknown, reply: FastifyReply) {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, 414, 'URI_TOO_LONG', 'The address is too long.');
  return sendError(reply, 400, 'BAD_URL', 'The address is not valid: it holds characters that cannot be read.');
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => {
        const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        const unknownKeys = issue.keyword === 'unrecognized_keys' ? (issue.params as { keys?: string[] }).keys : undefined;
        const field = unknownKeys ? [path, unknownKeys.join(',')].filter(Boolean).join('.') : path || error.validationContext || 'request';
        return { field, message: issue.message ?? 'Invalid value.' };
      });
      return sendError(reply, 400, 'VALIDATION_ERROR', details[0]?.message ?? 'The request is not valid.', details);
    }
    if (error instanceof DomainError) {
      const extra =
        error.details && typeof error.details === 'object' && !Array.isArray(error.details) ? (error.details as Record<string, unknown>) : undefined;
      return sendError(reply, STATUS_BY_KIND[error.kind], error.code, error.message, error.details, extra);
    }
    if (error instanceof HttpError) {
      const retryAfter = (error.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
      if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
      return sendError(reply, error.statusCode, error.code, error.message, error.details, error.extra);
    }
    const known = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (known) return sendError(reply, known[0], known[1], known[2]);
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, error.statusCode, error.code ?? 'BAD_REQUEST', error.message);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'INTERNAL_ERROR', 'Something went wrong on our side. Please try again later.');
  });

  app.setNotFoundHandler((request, reply) => sendError(reply, 404, 'NOT_FOUND', `There is no ${request.method} ${request.url.split('?')[0]} here.`));
}
