/**
 * What the event log must not hold as it is: secrets (never stored in an event at all) and personal
 * data (stored encrypted with a key per person, so erasing the key erases the data everywhere the
 * log is replayed). The event store's protection layer applies these tables on every append and read;
 * docs/decisions.md ("Secrets and personal data in the event log") explains the choice of fields.
 */

/**
 * Fields a decider may put on an event that never reach the log: the store keeps each in
 * `secret.event_secrets` under the event's id and appends the event without it. Read models that need
 * one (the sign-in credentials, the API keys) read it from there by event id.
 */
export const SECRET_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'UserRegistered.v1': ['passwordHash'],
  'UserPasswordChanged.v1': ['passwordHash'],
  'ApiKeyCreated.v1': ['keyHash'],
  // A webhook endpoint's signing secret: kept whole (it signs), but never in the log.
  'WebhookEndpointRegistered.v1': ['secret'],
  'TotpEnrolled.v1': ['secret'],
  'RecoveryCodesIssued.v1': ['codeHashes'],
  'IdentityProviderConfigured.v1': ['clientSecret'],
  'IdentityProviderChanged.v1': ['clientSecret'],
  'ApiKeyCreated.v2': ['keyHash'],
  'ApiKeyRotated.v1': ['keyHash'],
};

/** How an erased value reads: a name or free text, or an e-mail address (unique per person, as addresses must be). */
export type PersonalKind = 'name' | 'email';

export interface PersonalFields {
  /** The person the data belongs to (a user id), or null when the event names no known person. */
  person(data: Record<string, unknown>): string | null;
  /** Paths into the event's data (`shippingAddress.email`), each with how its erased value reads. */
  fields: Readonly<Record<string, PersonalKind>>;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
const byUser = (fields: PersonalFields['fields']): PersonalFields => ({ person: (data) => text(data.userId), fields });
const IDENTITY = byUser({ email: 'email', fullName: 'name' });
const CONTACT = { contact_email: 'email', contact_name: 'name', phone_number: 'name', business_address: 'name' } as const;
const prefixed = (prefix: string, fields: Readonly<Record<string, PersonalKind>>) =>
  Object.fromEntries(Object.entries(fields).map(([path, kind]) => [`${prefix}.${path}`, kind]));

export const PERSONAL_FIELDS: Readonly<Record<string, PersonalFields>> = {
  'UserRegistered.v1': IDENTITY,
  'UserProfileUpdated.v1': IDENTITY,
  'UserDeleted.v1': byUser({ email: 'email' }),
  'UserInvited.v1': byUser({ email: 'email' }),
  'EmailClaimed.v1': byUser({ email: 'email' }),
  'EmailReleased.v1': byUser({ email: 'email' }),
  // A failed sign-in for an address no account has names no person: that address stays as typed.
  'SignInSucceeded.v1': byUser({ email: 'email' }),
  'SignInFailed.v1': byUser({ email: 'email' }),
  // A partner's id is its owner's user id: the application's contact details are the owner's.
  'PartnerApplicationDetailsProvided.v1': { person: (data) => text(data.partnerId), fields: prefixed('details', CONTACT) },
  'PartnerQuestionnaireAnswered.v1': { person: (data) => text(data.partnerId), fields: prefixed('answers', CONTACT) },
  // The delivery contact of an order is taken as the person who placed it; the town, region, postcode and country stay readable.
  'OrderPlaced.v1': {
    person: (data) => text(data.placedBy),
    fields: prefixed('shippingAddress', {
      firstName: 'name',
      lastName: 'name',
      email: 'email',
      phone: 'name',
      addressLine1: 'name',
      addressLine2: 'name',
      specialInstructions: 'name',
    }),
  },
};

export const ERASED_NAME = 'Erased user';

/** The value an erased field reads as. */
export function erasedValue(kind: PersonalKind, person: string): string {
  return kind === 'email' ? `erased-${person}@erased.invalid` : ERASED_NAME;
}

/**
 * An event's data as it reads once its person is erased: each personal field that holds a value reads
 * as erased. For read models that copied such data before the erasure, so they match a rebuild.
 */
export function erasedData<T extends Record<string, unknown>>(eventType: string, data: T, person: string): T {
  const rule = PERSONAL_FIELDS[eventType];
  if (!rule) return data;
  const copy = structuredClone(data) as Record<string, unknown>;
  for (const [path, kind] of Object.entries(rule.fields)) {
    const parts = path.split('.');
    const last = parts.pop()!;
    let holder: unknown = copy;
    for (const part of parts) holder = typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>)[part] : undefined;
    if (typeof holder !== 'object' || holder === null) continue;
    const target = holder as Record<string, unknown>;
    if (target[last] !== undefined && target[last] !== null && target[last] !== '') target[last] = erasedValue(kind, person);
  }
  return copy as T;
}
