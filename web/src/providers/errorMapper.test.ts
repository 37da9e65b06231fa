import { describe, expect, it } from 'vitest';
import { ApiError, mapError, mapErrorResponse, messageOf } from './errorMapper';

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
      error: { code: 'CONFLICT', message: 'Email already exists', email: 'Email already exists', details: [{ field: 'full_name', message: 'Full name is required.' }] },
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
});
