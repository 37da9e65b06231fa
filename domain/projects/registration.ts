/**
 * Deal registration rules that do not depend on one project's state: the validity periods, how two
 * registrations are recognised as the same deal, and the dates of the expiry reminders.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec 000 §9: a deal registration is valid 60 days from submission. */
export const REGISTRATION_VALIDITY_DAYS = 60;
export const EXTENSION_DAYS = 30;

/**
 * The protection a registration gets from its organisation's programme tier. A tier states its length in
 * days at the standard length (`REGISTRATION_VALIDITY_DAYS`); the installation's configured standard
 * (`standardMs`, 60 days unless configured otherwise) scales every tier alike, so the ladder keeps its
 * proportions. An organisation without a tier gets the standard length.
 */
export function protectionMs(standardMs: number, tierProtectionDays: number | null): number {
  if (tierProtectionDays === null) return standardMs;
  return Math.round((standardMs * tierProtectionDays) / REGISTRATION_VALIDITY_DAYS);
}
/** Reminders go out this many days before a registration expires. */
export const REMINDER_DAYS_BEFORE = [14, 3] as const;
export type ReminderDays = (typeof REMINDER_DAYS_BEFORE)[number];

/** A registration's own lifecycle, beside the project's work status. */
export const REGISTRATION_STATUSES = ['pending', 'conflict', 'approved', 'rejected', 'expired'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

/** A registration protects its deal while it is awaiting review, under conflict review or approved, until it expires. */
export const PROTECTING_STATUSES: readonly RegistrationStatus[] = ['pending', 'approved'];
export const LIVE_STATUSES: readonly RegistrationStatus[] = ['pending', 'conflict', 'approved'];

/**
 * A registration pending or approved that expires within this many days is "expiring soon": the
 * project card's chip, the Projects page's card, the partner dashboard's card and the list filter
 * `expiring_soon` all use this one number.
 */
export const EXPIRING_SOON_DAYS = 14;

export const EXTENSION_STATUSES = ['none', 'requested', 'approved', 'declined'] as const;
export type ExtensionStatus = (typeof EXTENSION_STATUSES)[number];

/**
 * Legal-form words that do not tell two customers apart: "Greenfield General Hospital Inc." is
 * "Greenfield General Hospital". Dotted forms ("S.A.", "B.V.") lose their dots before the words are
 * split, so they are listed without them. Only trailing words are dropped, and never the last word left.
 */
export const LEGAL_SUFFIXES: ReadonlySet<string> = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'limited',
  'llc',
  'llp',
  'lp',
  'plc',
  'pllc',
  'gmbh',
  'mbh',
  'ag',
  'kg',
  'ohg',
  'ug',
  'ev',
  'sa',
  'sas',
  'sarl',
  'sl',
  'slu',
  'srl',
  'spa',
  'sau',
  'bv',
  'nv',
  'vof',
  'pty',
  'pte',
  'pvt',
  'oy',
  'oyj',
  'ab',
  'as',
  'asa',
  'aps',
  'kk',
  'sro',
  'zoo',
  'sp',
  'kft',
  'zrt',
  'doo',
  'ltda',
  'cv',
  'and',
]);

/** Public mail providers: an address there says nothing about which organisation the end user belongs to. */
export const PUBLIC_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'live.com',
  'msn.com',
  'yahoo.com',
  'yahoo.co.uk',
  'yahoo.fr',
  'yahoo.de',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'web.de',
  't-online.de',
  'mail.com',
  'zoho.com',
  'yandex.com',
  'yandex.ru',
  'mail.ru',
  'qq.com',
  '163.com',
  '126.com',
  'fastmail.com',
  'hey.com',
  'tutanota.com',
  'orange.fr',
  'free.fr',
  'laposte.net',
  'libero.it',
  'btinternet.com',
]);

const plainWords = (text: string | null | undefined): string[] =>
  (text ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\.(?=\p{L})|(?<=\p{L})\./gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * The customer's name as words, compared for near matches: case, accents, punctuation, spacing and
 * trailing legal forms do not count ("Greenfield General Hospital, Inc." → "greenfield general hospital").
 */
export function customerWords(name: string | null | undefined): string {
  const words = plainWords(name);
  while (words.length > 1 && LEGAL_SUFFIXES.has(words[words.length - 1])) words.pop();
  return words.join(' ');
}

/**
 * The customer as registrations are compared exactly: its words without spaces, so "Contoso, Ltd.",
 * "contoso ltd" and "CONTOSO" are the same customer.
 */
export function customerKey(name: string | null | undefined): string {
  return customerWords(name).replace(/ /g, '');
}

/** The domain of an e-mail address, lower case; null when there is none. */
export function emailDomain(email: string | null | undefined): string | null {
  const at = (email ?? '').trim().lastIndexOf('@');
  if (at < 0) return null;
  const domain = (email ?? '')
    .trim()
    .slice(at + 1)
    .toLowerCase();
  return domain || null;
}

/** The domain of an e-mail address when it names an organisation (not a public mail provider); else null. */
export function businessDomain(email: string | null | undefined): string | null {
  const domain = emailDomain(email);
  return domain && !PUBLIC_MAIL_DOMAINS.has(domain) ? domain : null;
}

/**
 * The end user's site as registrations are compared: the address without case, accents, punctuation
 * or spaces; only an address with a number and a name (a street address, not a city alone) counts.
 */
export function siteKey(location: string | null | undefined): string | null {
  const key = plainWords(location).join('');
  return /\p{N}/u.test(key) && /\p{L}/u.test(key) && key.length >= 6 ? key : null;
}

export interface RegistrationKey {
  customerKey: string;
  /** The end user's e-mail domain when it is an organisation's (public mail providers give null). */
  emailDomain: string | null;
  siteKey?: string | null;
  customerWords?: string;
}

export const registrationKey = (
  customerName: string | null | undefined,
  endUserEmail: string | null | undefined,
  location?: string | null,
): RegistrationKey => ({
  customerKey: customerKey(customerName),
  emailDomain: businessDomain(endUserEmail),
  siteKey: siteKey(location),
  customerWords: customerWords(customerName),
});

/** Trigram similarity of the customers' names (Postgres pg_trgm) from which two registrations are a possible conflict. */
export const NEAR_MATCH_SIMILARITY = 0.5;

export type DealMatch = 'same' | 'possible' | null;

/**
 * Whether two registrations claim the same deal. The same organisation e-mail domain or the same site
 * address is the same deal on its own; so is the same customer name, unless both give organisation
 * e-mail domains that differ (two companies of one name: possible, for an administrator to judge).
 * A name similar enough (`similarity`, pg_trgm's, when the caller measured it) is a possible conflict.
 */
export function compareRegistrations(a: RegistrationKey, b: RegistrationKey, similarity = 0): DealMatch {
  if (a.emailDomain && a.emailDomain === b.emailDomain) return 'same';
  if (a.siteKey && a.siteKey === b.siteKey) return 'same';
  if (a.customerKey && a.customerKey === b.customerKey) return a.emailDomain && b.emailDomain ? 'possible' : 'same';
  return a.customerKey && b.customerKey && similarity >= NEAR_MATCH_SIMILARITY ? 'possible' : null;
}

/** Two registrations claim the same deal for certain (see compareRegistrations). */
export const sameDeal = (a: RegistrationKey, b: RegistrationKey): boolean => compareRegistrations(a, b) === 'same';

/** Told to a partner whose registration may meet another one: it names no one. */
export const POSSIBLE_EXISTING_REGISTRATION =
  'A registration for this customer may already exist. Your registration has been recorded; an administrator will check it against the others before deciding.';

/**
 * The organisations a text names (other than `except`), by their names' words: an administrator's
 * rejection reason is shown to the partner, and must not tell them who else registered the deal.
 */
export function organisationsNamedIn(text: string, organisations: readonly string[], except?: string | null): string[] {
  const said = ` ${customerWords(text)} `;
  const own = customerKey(except);
  return organisations.filter((name) => {
    const words = customerWords(name);
    return words.length >= 3 && customerKey(name) !== own && said.includes(` ${words} `);
  });
}

export const addMs = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** When the reminder `daysBefore` an expiry is due. */
export const reminderDueAt = (expiresAt: string, daysBefore: number) => addMs(expiresAt, -daysBefore * DAY_MS);
