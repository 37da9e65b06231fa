import type { Queryable } from './db';
import { PRINCIPALS_CHANNEL } from './principalCache';

/**
 * The sign-in sessions and their refresh tokens (secret.auth_sessions, secret.refresh_tokens): runtime
 * state the API writes, not a read model. `SessionStore` (src/plugins/sessions.ts) runs the token rules.
 */

/** The tables of sessions and their refresh tokens, named once. */
export const SESSION_TABLE = 'secret.auth_sessions';
export const REFRESH_TOKEN_TABLE = 'secret.refresh_tokens';

/** A new session of the user, valid for `ttlSeconds` from now. */
export async function insertSession(db: Queryable, sessionId: string, userId: string, ttlSeconds: number): Promise<void> {
  await db.query(`INSERT INTO ${SESSION_TABLE} (id, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`, [sessionId, userId, ttlSeconds]);
}

/** A new refresh token (by its hash) of the session's family. */
export async function insertRefreshToken(db: Queryable, tokenHash: string, sessionId: string): Promise<void> {
  await db.query(`INSERT INTO ${REFRESH_TOKEN_TABLE} (token_hash, session_id) VALUES ($1, $2)`, [tokenHash, sessionId]);
}

export interface RefreshTokenState {
  session_id: string;
  user_id: string;
  used_at: Date | null;
  /** The session is neither revoked nor expired. */
  live: boolean;
}

/** The refresh token with this hash and its session, locking the token's row until the transaction ends. */
export async function lockRefreshToken(db: Queryable, tokenHash: string): Promise<RefreshTokenState | undefined> {
  const { rows } = await db.query<RefreshTokenState>(
    `SELECT t.session_id, s.user_id, t.used_at, (s.revoked_at IS NULL AND s.expires_at > now()) AS live
     FROM ${REFRESH_TOKEN_TABLE} t JOIN ${SESSION_TABLE} s ON s.id = t.session_id
     WHERE t.token_hash = $1 FOR UPDATE OF t`,
    [tokenHash],
  );
  return rows[0];
}

export async function markRefreshTokenUsed(db: Queryable, tokenHash: string): Promise<void> {
  await db.query(`UPDATE ${REFRESH_TOKEN_TABLE} SET used_at = now() WHERE token_hash = $1`, [tokenHash]);
}

/**
 * Ends the sessions `where` selects ($1 and $3 its values, $2 the reason) and, in the same statement (so at the same
 * commit), tells every API process that those accounts' principals changed. Answers those accounts.
 */
async function endSessions(db: Queryable, where: string, values: [unknown, string, ...unknown[]]): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    `
  WITH ended AS (
    UPDATE ${SESSION_TABLE} SET revoked_at = now(), revoked_reason = $2 WHERE revoked_at IS NULL AND ${where} RETURNING user_id
  )
  SELECT user_id, pg_notify('${PRINCIPALS_CHANNEL}', user_id::text) FROM (SELECT DISTINCT user_id FROM ended) AS accounts`,
    values,
  );
  return rows.map((row) => row.user_id);
}

/** Ends one session; answers the account whose session ended (none when it had ended already). */
export function endSession(db: Queryable, sessionId: string, reason: string): Promise<string[]> {
  return endSessions(db, 'id = $1', [sessionId, reason]);
}

/** Ends the sessions of an organisation's team members (the accounts whose parent is the owner); answers those accounts. */
export function endSessionsOfMembers(db: Queryable, ownerId: string, reason: string): Promise<string[]> {
  return endSessions(db, 'user_id IN (SELECT id FROM read.users WHERE parent_user_id = $1)', [ownerId, reason]);
}

/** Ends every session of a user, except optionally one; answers the account when a session ended. */
export function endSessionsOf(db: Queryable, userId: string, reason: string, exceptSessionId: string | null): Promise<string[]> {
  return endSessions(db, 'user_id = $1 AND id IS DISTINCT FROM $3', [userId, reason, exceptSessionId]);
}

/** What authentication reads about an account and one of its sessions on each request. */
export interface PrincipalRow {
  id: string;
  email: string;
  full_name: string;
  role: string;
  is_active: boolean;
  permissions: string[];
  access_version: number;
  company_name: string | null;
  parent_user_id: string | null;
  session_live: boolean | null;
  session_expires_at: Date | null;
  organisation_active: boolean;
  owner_permissions: string[] | null;
}

/** The account (read.users), whether the session is its own and live, and whether its organisation is active, with the owner's permissions. */
export async function principalOfSession(db: Queryable, userId: string, sessionId: string): Promise<PrincipalRow | undefined> {
  const { rows } = await db.query<PrincipalRow>(
    `SELECT u.id, u.email, u.full_name, u.role, u.is_active, u.permissions, u.access_version, u.company_name, u.parent_user_id,
              (s.revoked_at IS NULL AND s.expires_at > now()) AS session_live, s.expires_at AS session_expires_at,
              (u.parent_user_id IS NULL OR coalesce(o.is_active, false)) AS organisation_active, o.permissions AS owner_permissions
       FROM read.users u
       LEFT JOIN ${SESSION_TABLE} s ON s.id = $2 AND s.user_id = u.id
       LEFT JOIN read.users o ON o.id = u.parent_user_id
       WHERE u.id = $1`,
    [userId, sessionId],
  );
  return rows[0];
}
