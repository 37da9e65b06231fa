import { createHash } from 'node:crypto';
import { assertNever, DomainError, type Decider } from '../decider';

/**
 * E-mail addresses are unique across users. Each address is its own tiny stream, claimed by one user
 * at a time; claiming before registering makes two sign-ups with one address impossible.
 */
export type EmailClaimState = { claimedBy: string | null };

export type EmailClaimEvent =
  { type: 'EmailClaimed.v1'; data: { email: string; userId: string } } | { type: 'EmailReleased.v1'; data: { email: string; userId: string } };

export type EmailClaimCommand = { type: 'ClaimEmail'; email: string; userId: string } | { type: 'ReleaseEmail'; email: string; userId: string };

export const EMAIL_TAKEN_MESSAGE = 'Email already exists';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const emailClaims: Decider<EmailClaimState, EmailClaimCommand, EmailClaimEvent> = {
  initialState: () => ({ claimedBy: null }),
  evolve: (state, event) => (event.type === 'EmailClaimed.v1' ? { claimedBy: event.data.userId } : { claimedBy: null }),
  decide(command, state) {
    switch (command.type) {
      case 'ClaimEmail':
        if (state.claimedBy === command.userId) return [];
        if (state.claimedBy) throw new DomainError('conflict', 'EMAIL_TAKEN', EMAIL_TAKEN_MESSAGE, { email: EMAIL_TAKEN_MESSAGE });
        return [{ type: 'EmailClaimed.v1', data: { email: normalizeEmail(command.email), userId: command.userId } }];
      case 'ReleaseEmail':
        if (state.claimedBy !== command.userId) return [];
        return [{ type: 'EmailReleased.v1', data: { email: normalizeEmail(command.email), userId: command.userId } }];
      default:
        return assertNever(command);
    }
  },
  // The stream is named by the address's hash: stream names are not encrypted, and an erased person's address must not stay in the log.
  streamId: (email) => `user-emails-${createHash('sha256').update(normalizeEmail(email)).digest('hex')}`,
};
