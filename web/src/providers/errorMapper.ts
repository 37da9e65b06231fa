/**
 * The shared error mapper of the specification (000 §8): turns a failed call into one message, a
 * code and a status, plus the per-field messages the server sent.
 */

export const NETWORK_ERROR_MESSAGE = 'Network error - please check your connection';
export const DEFAULT_RESPONSE_MESSAGE = 'An error occurred';
export const DEFAULT_UNEXPECTED_MESSAGE = 'An unexpected error occurred';

export interface MappedError {
  message: string;
  code: string;
  status: number;
  /** Field name to message, from `error.details` or fields such as `error.email`. */
  fieldErrors: Record<string, string>;
}

/** An error answered by the server, or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: unknown;
  readonly fieldErrors: Record<string, string>;
  /** True once the session layer has already told the user (toast, redirect). */
  handled: boolean;

  constructor(mapped: MappedError, body?: unknown, handled = false) {
    super(mapped.message);
    this.name = 'ApiError';
    this.status = mapped.status;
    this.code = mapped.code;
    this.body = body;
    this.fieldErrors = mapped.fieldErrors;
    this.handled = handled;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);

function fieldErrorsOf(error: Record<string, unknown> | null): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!error) return fields;
  if (Array.isArray(error.details)) {
    for (const detail of error.details) {
      if (isRecord(detail) && text(detail.field) && text(detail.message) && !fields[detail.field as string]) {
        fields[detail.field as string] = detail.message as string;
      }
    }
  }
  if (isRecord(error.details)) {
    for (const [key, value] of Object.entries(error.details)) {
      if (text(value) && !fields[key]) fields[key] = value as string;
    }
  }
  for (const [key, value] of Object.entries(error)) {
    if (['code', 'message', 'details'].includes(key)) continue;
    if (text(value) && !fields[key]) fields[key] = value as string;
  }
  return fields;
}

/** Maps an error answer: message from error.message, then message; code from error.code. */
export function mapErrorResponse(status: number, body: unknown): MappedError {
  const envelope = isRecord(body) ? body : null;
  const error = envelope && isRecord(envelope.error) ? envelope.error : null;
  const message = text(error?.message) ?? text(envelope?.message) ?? (typeof envelope?.error === 'string' ? text(envelope.error) : null);
  return {
    message: message ?? DEFAULT_RESPONSE_MESSAGE,
    code: text(error?.code) ?? text(envelope?.code) ?? 'UNKNOWN_ERROR',
    status,
    fieldErrors: fieldErrorsOf(error),
  };
}

export function networkError(): MappedError {
  return { message: NETWORK_ERROR_MESSAGE, code: 'NETWORK_ERROR', status: 0, fieldErrors: {} };
}

/** Maps anything thrown by a call. */
export function mapError(error: unknown): MappedError {
  if (error instanceof ApiError) {
    return { message: error.message, code: error.code, status: error.status, fieldErrors: error.fieldErrors };
  }
  if (isRecord(error) && typeof error.status === 'number' && 'body' in error) {
    // An HttpError from react-admin's fetch helpers.
    const mapped = mapErrorResponse(error.status, error.body);
    return mapped.message === DEFAULT_RESPONSE_MESSAGE && text(error.message) ? { ...mapped, message: error.message as string } : mapped;
  }
  if (error instanceof TypeError) return networkError();
  const message = error instanceof Error ? text(error.message) : text(error);
  return { message: message ?? DEFAULT_UNEXPECTED_MESSAGE, code: 'UNKNOWN_ERROR', status: 0, fieldErrors: {} };
}

/** The message to show for a failure, or the given default when the server sent nothing useful. */
export function messageOf(error: unknown, fallback?: string): string {
  const mapped = mapError(error);
  if (fallback && (mapped.message === DEFAULT_RESPONSE_MESSAGE || mapped.message === DEFAULT_UNEXPECTED_MESSAGE)) {
    return fallback;
  }
  return mapped.message;
}

/**
 * For screens whose wording tells a refusal from an outage: the server's own message, `refused` when
 * it answered without one, and `unreachable` when no answer came (network down, or a fault in the page).
 */
export function answerMessageOf(error: unknown, refused: string, unreachable: string): string {
  if (!(error instanceof ApiError) || error.status === 0) return unreachable;
  return error.message !== DEFAULT_RESPONSE_MESSAGE ? error.message : refused;
}
