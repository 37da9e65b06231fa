import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import * as OTPAuth from 'otpauth';
import { isAdminRole } from '../../domain/access/roles';
import type { SecurityPolicy } from '../../domain/settings/settings';

/** Authenticator apps: 6 digits, 30-second steps, SHA-1 (what every app reads from an otpauth:// URI). */
const TOTP_SHAPE = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
/** One step either side of the current one, for clocks a little off. */
const TOTP_WINDOW = 1;

export const newTotpSecret = () => new OTPAuth.Secret({ size: 20 }).base32;

export function totpUri(secret: string, issuer: string, account: string): string {
  return new OTPAuth.TOTP({ ...TOTP_SHAPE, issuer, label: account, secret: OTPAuth.Secret.fromBase32(secret) }).toString();
}

/** The time step `code` belongs to at `timestamp` (ms), or null when it is not a current code. */
export function totpStep(secret: string, code: string, timestamp: number): number | null {
  const totp = new OTPAuth.TOTP({ ...TOTP_SHAPE, secret: OTPAuth.Secret.fromBase32(secret) });
  const delta = totp.validate({ token: code, timestamp, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(timestamp / 1000 / TOTP_SHAPE.period) + delta;
}

/** The code an authenticator app shows at `timestamp` (ms): for tests and the seed. */
export const totpCodeAt = (secret: string, timestamp: number) =>
  new OTPAuth.TOTP({ ...TOTP_SHAPE, secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp });

// Recovery codes: ten characters from an alphabet without look-alikes (0/O, 1/I/L), shown as ABCDE-12345.
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}
/** Case, dashes and spaces do not matter when a code is typed back. */
export const normalRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

/** Whether the security policy requires this role to have a second factor. */
export function secondFactorRequired(role: string, policy: SecurityPolicy): boolean {
  return policy.mfaRequiredFor === 'everyone' || (policy.mfaRequiredFor === 'administrators' && isAdminRole(role));
}

/** What the password step hands on: who passed it, and (once asked for) the passkey challenge. */
export interface PendingSignIn {
  userId: string;
  email: string;
  /** A factor is required and none is set up: the challenge may only enrol one. */
  enrol: boolean;
  webauthnChallenge?: string;
  /** TOTP enrolment in progress (its secret), for people enrolling during sign-in. */
  totpSecret?: string;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Short-lived tokens kept in Redis (only their hashes as keys): the second-factor challenge between the
 * password and the factor, and in-progress enrolments. Every API process sees them.
 */
export class PendingStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly ttlSeconds: number,
  ) {}

  async issue<T>(kind: string, value: T): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await this.redis.set(this.key(kind, token), JSON.stringify(value), 'EX', this.ttlSeconds);
    return token;
  }

  /** Keeps `value` under a token chosen elsewhere (an OpenID `state`). */
  async put<T>(kind: string, token: string, value: T): Promise<void> {
    await this.redis.set(this.key(kind, token), JSON.stringify(value), 'EX', this.ttlSeconds);
  }

  async peek<T>(kind: string, token: string): Promise<T | null> {
    const raw = await this.redis.get(this.key(kind, token));
    return raw ? (JSON.parse(raw) as T) : null;
  }

  /** Changes the value and keeps the expiry it had. */
  async update<T>(kind: string, token: string, value: T): Promise<boolean> {
    const done = await this.redis.set(this.key(kind, token), JSON.stringify(value), 'KEEPTTL', 'XX');
    return done === 'OK';
  }

  /** Takes the value once: a second taker gets null. */
  async take<T>(kind: string, token: string): Promise<T | null> {
    const raw = await this.redis.getdel(this.key(kind, token));
    return raw ? (JSON.parse(raw) as T) : null;
  }

  /** Remembers `key` for `seconds`; false when it was remembered already (a code used twice). */
  async once(kind: string, key: string, seconds: number): Promise<boolean> {
    return (await this.redis.set(this.key(kind, key), '1', 'EX', seconds, 'NX')) === 'OK';
  }

  get expiresIn(): number {
    return this.ttlSeconds;
  }

  private key(kind: string, token: string): string {
    return `${this.prefix}:${kind}:${digest(token)}`;
  }
}

/**
 * The portal's origin as browsers see it, for WebAuthn (relying party id and origin) and the OpenID
 * redirect address: PUBLIC_URL when set, else the address the request came to.
 */
export function portalOrigin(request: FastifyRequest, publicUrl: string | undefined): URL {
  if (publicUrl) return new URL(publicUrl);
  return new URL(`${request.protocol}://${request.host}`);
}
