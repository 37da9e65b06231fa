import { describe, expect, it } from 'vitest';
import { answerMessageOf, ApiError, mapError, mapErrorResponse, messageOf, networkError } from './errorMapper';

describe('shared error mapper', () => {
  it('reads error.message, then message, else a default', () => {
    expect(mapErrorResponse(400, { success: false, message: 'outer', error: { code: 'VALIDATION_ERROR', message: 'inner' } })).toMatchObject({
      message: 'inner',
      code: 'VALIDATION_ERROR',
      status: 400,
    });
    expect(mapErrorResponse(409, { message: 'outer' })).toMatchObject({ message: 'outer', code: 'UNKNOWN_ERROR' });
    expect(mapErrorResponse(500, null)).toMatchObject({ message: 'An error occurred', code: 'UNKNOWN_ERROR' });
  });

  it('collects field messages from details and from named fields', () => {
    const mapped = mapErrorResponse(409, {
      error: {
        code: 'CONFLICT',
        message: 'Email already exists',
        email: 'Email already exists',
        details: [{ field: 'full_name', message: 'Full name is required.' }],
      },
    });
    expect(mapped.fieldErrors).toEqual({ full_name: 'Full name is required.', email: 'Email already exists' });
  });

  it('maps a failed fetch to the network error', () => {
    expect(mapError(new TypeError('Failed to fetch'))).toMatchObject({
      message: 'Network error - please check your connection',
      code: 'NETWORK_ERROR',
      status: 0,
    });
  });

  it("keeps an error's own message, or says an unexpected error occurred", () => {
    expect(mapError(new Error('boom')).message).toBe('boom');
    expect(mapError(new Error('')).message).toBe('An unexpected error occurred');
    expect(messageOf(new ApiError(mapErrorResponse(500, null)), 'Failed to add user')).toBe('Failed to add user');
  });

  it("tells a refusal without a message from no answer at all, and keeps the server's own words", () => {
    const say = (error: unknown) => answerMessageOf(error, 'Failed to delete', 'Could not reach the server');
    expect(say(new ApiError(mapErrorResponse(409, { error: { message: 'In use by an order' } })))).toBe('In use by an order');
    expect(say(new ApiError(mapErrorResponse(500, null)))).toBe('Failed to delete');
    expect(say(new ApiError(networkError()))).toBe('Could not reach the server');
    expect(say(new Error('boom'))).toBe('Could not reach the server');
  });
});
