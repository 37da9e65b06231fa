import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from '../../platform/db';
import { inTransaction } from '../../platform/db';
import { HttpError } from './errors';
import { principalsChangedHere } from '../../platform/principalCache';
import {
  endSession,
  endSessionsOf,
  endSessionsOfMembers,
  insertRefreshToken,
  insertSession,
  lockRefreshToken,
  markRefreshTokenUsed,
} from '../../platform/sessions';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export const SESSION_MESSAGES = {
  invalidRefresh: 'Your session is no longer valid. Please sign in again.',
  reusedRefresh: 'This sign-in link was already used, so the session has been ended for your safety. Please sign in again.',
} as const;

/**
 * Sign-in sessions. Each session is a family of refresh tokens: every refresh spends the token and
 * hands out the next one; presenting a spent token again ends the whole family.
 */
export class SessionStore {
  constructor(
    private readonly pool: Pool,
    private readonly refreshTtlSeconds: number,
  ) {}

  async open(userId: string): Promise<{ sessionId: string; refreshToken: string }> {
    const sessionId = randomUUID();
    const refreshToken = randomBytes(32).toString('base64url');
    await inTransaction(this.pool, async (db) => {
      await insertSession(db, sessionId, userId, this.refreshTtlSeconds);
      await insertRefreshToken(db, hashToken(refreshToken), sessionId);
    });
    return { sessionId, refreshToken };
  }

  /** Spends a refresh token and issues the next one of its family. */
  async rotate(refreshToken: string): Promise<{ sessionId: string; userId: string; refreshToken: string }> {
    const next = randomBytes(32).toString('base64url');
    const outcome = await inTransaction(this.pool, async (db) => {
      const token = await lockRefreshToken(db, hashToken(refreshToken));
      if (!token || !token.live) return { kind: 'invalid' as const };
      if (token.used_at) return { kind: 'reused' as const, sessionId: token.session_id };
      await markRefreshTokenUsed(db, hashToken(refreshToken));
      await insertRefreshToken(db, hashToken(next), token.session_id);
      return { kind: 'rotated' as const, sessionId: token.session_id, userId: token.user_id };
    });
    if (outcome.kind === 'invalid') throw new HttpError(401, 'INVALID_REFRESH_TOKEN', SESSION_MESSAGES.invalidRefresh);
    if (outcome.kind === 'reused') {
      await this.revoke(outcome.sessionId, 'refresh token reused');
      throw new HttpError(401, 'REFRESH_TOKEN_REUSED', SESSION_MESSAGES.reusedRefresh);
    }
    return { sessionId: outcome.sessionId, userId: outcome.userId, refreshToken: next };
  }

  async revoke(sessionId: string, reason: string): Promise<void> {
    principalsChangedHere(await endSession(this.pool, sessionId, reason));
  }

  /** Ends every session of a user, except optionally the one making the request. */
  /** Ends the sessions of an organisation's team members (the accounts whose parent is the owner). */
  async revokeMembersOf(ownerId: string, reason: string): Promise<void> {
    principalsChangedHere(await endSessionsOfMembers(this.pool, ownerId, reason));
  }

  async revokeAllOf(userId: string, reason: string, exceptSessionId?: string): Promise<void> {
    principalsChangedHere(await endSessionsOf(this.pool, userId, reason, exceptSessionId ?? null));
  }
}
