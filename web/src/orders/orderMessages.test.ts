import { describe, expect, it } from 'vitest';
import { ApiError, mapErrorResponse, networkError } from '../providers/errorMapper';
import { STATUS_MESSAGES, statusUpdatedMessage, statusUpdateFailure } from './orderMessages';

const answered = (status: number, body: unknown) => new ApiError(mapErrorResponse(status, body), body);

describe('status update messages (spec 001 §8)', () => {
  it('names the order and the new status on success', () => {
    expect(statusUpdatedMessage('ORD-2026-001042', 'shipped')).toBe('Order ORD-2026-001042 status successfully updated to Shipped');
    expect(statusUpdatedMessage(undefined, 'shipped')).toBe('Order status updated successfully');
  });

  it('shows the details of an invalid transition', () => {
    const error = answered(409, {
      success: false,
      message: 'Invalid status transition',
      details: 'Cannot change status from delivered to pending',
      error: { code: 'INVALID_STATUS_TRANSITION', message: 'Invalid status transition', details: 'Cannot change status from delivered to pending' },
    });
    expect(statusUpdateFailure(error)).toBe('Invalid status transition: Cannot change status from delivered to pending');
  });

  it('falls back when an invalid transition comes without details', () => {
    expect(statusUpdateFailure(answered(409, { message: 'Invalid status transition' }))).toBe(STATUS_MESSAGES.invalidTransitionFallback);
  });

  it('explains a message that only says the status cannot change', () => {
    expect(statusUpdateFailure(answered(400, { message: 'Cannot change status from shipped to shipped' }))).toBe(STATUS_MESSAGES.cannotChange);
  });

  it('prefixes any other message, and has words for no message and no connection', () => {
    expect(statusUpdateFailure(answered(404, { success: false, message: 'Order not found.', error: { code: 'NOT_FOUND', message: 'Order not found.' } }))).toBe(
      'Update failed: Order not found.',
    );
    expect(statusUpdateFailure(answered(500, null))).toBe(STATUS_MESSAGES.noMessage);
    expect(statusUpdateFailure(new ApiError(networkError()))).toBe(STATUS_MESSAGES.connection);
    expect(statusUpdateFailure(new TypeError('Failed to fetch'))).toBe(STATUS_MESSAGES.connection);
  });
});
