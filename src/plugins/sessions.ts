import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from '../db';
import { inTransaction } from '../db';
import { HttpError } from './errors';
import { PRINCIPALS_CHANNEL, principalsChangedHere } from './principalCache';

/** The tables of sessions and their refresh tokens, named once. */
export const SESSION_TABLE = 'secret.auth_sessions';
export const REFRESH_TOKEN_TABLE = 'secret.refresh_tokens';

/**
 * Ends the sessions `where` selects and, in the same statement (so at the same commit), tells every
 * API process that those accounts' principals changed.
 */
const endSessions = (where: string) => `
  WITH ended AS (
    UPDATE ${SESSION_TABLE} SET revoked_at = now(), revoked_reason = $2 WHERE revoked_at IS NULL AND ${where} RETURNING user_id
  )
  SELECT user_id, pg_notify('${PRINCIPALS_CHANNEL}', user_id::text) FROM (SELECT DISTINCT user_id FROM ended) AS accounts`;

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
      await db.query(`INSERT INTO ${SESSION_TABLE} (id, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [
        sessionId,
        userId,
        this.refreshTtlSeconds,
      ]);
      await db.query(`INSERT INTO ${REFRESH_TOKEN_TABLE} (token_hash, session_id) VALUES ($1, $2)`, [hashToken(refreshToken), sessionId]);
    });
    return { sessionId, refreshToken };
  }

  /** Spends a refresh token and issues the next one of its family. */
  async rotate(refreshToken: string): Promise<{ sessionId: string; userId: string; refreshToken: string }> {
    const next = randomBytes(32).toString('base64url');
    const outcome = await inTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ session_id: string; user_id: string; used_at: Date | null; live: boolean }>(
        `SELECT t.session_id, s.user_id, t.used_at, (s.revoked_at IS NULL AND s.expires_at > now()) AS live
         FROM ${REFRESH_TOKEN_TABLE} t JOIN ${SESSION_TABLE} s ON s.id = t.session_id
         WHERE t.token_hash = $1 FOR UPDATE OF t`,
        [hashToken(refreshToken)],
      );
      const token = rows[0];
      if (!token || !token.live) return { kind: 'invalid' as const };
      if (token.used_at) return { kind: 'reused' as const, sessionId: token.session_id };
      await db.query(`UPDATE ${REFRESH_TOKEN_TABLE} SET used_at = now() WHERE token_hash = $1`, [hashToken(refreshToken)]);
      await db.query(`INSERT INTO ${REFRESH_TOKEN_TABLE} (token_hash, session_id) VALUES ($1, $2)`, [hashToken(next), token.session_id]);
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
    await this.end(endSessions('id = $1'), [sessionId, reason]);
  }

  /** Ends every session of a user, except optionally the one making the request. */
  /** Ends the sessions of an organisation's team members (the accounts whose parent is the owner). */
  async revokeMembersOf(ownerId: string, reason: string): Promise<void> {
    await this.end(endSessions('user_id IN (SELECT id FROM read.users WHERE parent_user_id = $1)'), [ownerId, reason]);
  }

  async revokeAllOf(userId: string, reason: string, exceptSessionId?: string): Promise<void> {
    await this.end(endSessions('user_id = $1 AND id IS DISTINCT FROM $3'), [userId, reason, exceptSessionId ?? null]);
  }

  private async end(statement: string, values: unknown[]): Promise<void> {
    const { rows } = await this.pool.query<{ user_id: string }>(statement, values);
    principalsChangedHere(rows.map((row) => row.user_id));
  }
}
