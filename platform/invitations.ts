import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The link of a team invitation: `<userId>.<invitationId>.<signature>`. The signature (HMAC with the
 * portal's secret) is never stored, so neither the event log nor a read model holds a usable link;
 * the API that created the invitation and the worker that mails it can both compute it.
 */
const signature = (secret: string, userId: string, invitationId: string) =>
  createHmac('sha256', secret).update(`team-invitation:${userId}:${invitationId}`).digest('base64url');

export function invitationToken(secret: string, userId: string, invitationId: string): string {
  return `${userId}.${invitationId}.${signature(secret, userId, invitationId)}`;
}

export function readInvitationToken(secret: string, token: string): { userId: string; invitationId: string } | undefined {
  const [userId, invitationId, given, ...rest] = token.split('.');
  if (!userId || !invitationId || !given || rest.length) return undefined;
  const expected = Buffer.from(signature(secret, userId, invitationId));
  const received = Buffer.from(given);
  return expected.length === received.length && timingSafeEqual(expected, received) ? { userId, invitationId } : undefined;
}

export const invitationPath = (token: string) => `/team-invitation?token=${encodeURIComponent(token)}`;

/** The portal's address for links in e-mails; without PUBLIC_URL, the local address it listens on. */
export const portalAddress = (config: { PUBLIC_URL?: string; PORT: number }) => config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
