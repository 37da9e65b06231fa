import { randomBytes } from 'node:crypto';

/**
 * A time-ordered (version 7) UUID: 48 bits of Unix milliseconds, then random bits. Event ids made this
 * way land at the right-hand edge of the log's unique event_id index instead of on a random page, so
 * an append dirties one hot index page rather than a cold one (which, the first time after each
 * checkpoint, costs a full 8 KiB page image in the WAL).
 */
export function uuidV7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of a new event. */
export const newEventId = () => uuidV7();
