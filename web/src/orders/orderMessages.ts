/**
 * The texts of the order status update (spec 001 §8), chosen from what the server answered.
 */

import { statusLabel } from '../../../domain/orders/orders';
import { ApiError, DEFAULT_RESPONSE_MESSAGE, DEFAULT_UNEXPECTED_MESSAGE } from '../providers/errorMapper';

export const STATUS_MESSAGES = {
  defaultSuccess: 'Order status updated successfully',
  sameStatus: 'This order cannot be updated to the same status. Please select a different status.',
  invalidTransitionFallback: 'Invalid status transition. Please check the order status and try again.',
  cannotChange: 'Cannot update to the same status or invalid transition. Please select a different status.',
  noMessage: 'Failed to update order status. Please try again',
  connection: 'Connection error: Unable to update order status. Please check your internet connection and try again.',
} as const;

/** How long a notice stays before it clears itself (spec 001 §9). */
export const NOTICE_MS = 3000;

export const statusUpdatedMessage = (orderId: string | undefined, status: string) =>
  orderId ? `Order ${orderId} status successfully updated to ${statusLabel(status)}` : STATUS_MESSAGES.defaultSuccess;

/** The message to show for a failed status update. */
export function statusUpdateFailure(error: unknown): string {
  if (error instanceof ApiError && error.status === 0) return STATUS_MESSAGES.connection;
  if (!(error instanceof ApiError)) return error instanceof TypeError ? STATUS_MESSAGES.connection : STATUS_MESSAGES.noMessage;
  const body = (error.body ?? {}) as { message?: unknown; details?: unknown; error?: { message?: unknown; details?: unknown } };
  const message = typeof body.message === 'string' ? body.message : typeof body.error?.message === 'string' ? body.error.message : '';
  const rawDetails = body.details ?? body.error?.details;
  const details = typeof rawDetails === 'string' ? rawDetails : '';
  if (message.includes('Invalid status transition')) {
    return details.includes('Cannot change status from') ? `Invalid status transition: ${details}` : STATUS_MESSAGES.invalidTransitionFallback;
  }
  if (message.includes('Cannot change status from')) return STATUS_MESSAGES.cannotChange;
  const shown = message || (error.message !== DEFAULT_RESPONSE_MESSAGE && error.message !== DEFAULT_UNEXPECTED_MESSAGE ? error.message : '');
  return shown ? `Update failed: ${shown}` : STATUS_MESSAGES.noMessage;
}
