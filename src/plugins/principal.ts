import type { Permission } from '../../domain/access';

/**
 * Who a request acts as. Its own module, so the sign-in check (auth.ts) and the API-key check
 * (apiKeys.ts) both name it without importing each other.
 */

/** The signed-in caller, as the read model shows them now. */
export interface Principal {
  id: string;
  email: string;
  fullName: string;
  role: string;
  permissions: Permission[];
  companyName: string | null;
  parentUserId: string | null;
  /** The account whose records this caller sees: the parent for a sub-user, else themself. */
  organisationId: string;
  sessionId: string;
  /** Set when the request was made with an API key: the key acts as this principal (its owner, or the vendor's integration). */
  apiKey?: ApiKeyActor;
}

/** The API key a request was made with. */
export interface ApiKeyActor {
  id: string;
  name: string;
  ownerKind: 'vendor' | 'organisation';
  /** Requests a minute, or null for the portal's default. */
  rateLimitPerMinute: number | null;
}

/** A partner applicant: the holder of an onboarding token, or a signed-in partner. */
export interface Applicant {
  userId: string;
  role: string;
}
