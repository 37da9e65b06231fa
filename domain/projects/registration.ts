/**
 * Deal registration rules that do not depend on one project's state: the validity periods, how two
 * registrations are recognised as the same deal, and the dates of the expiry reminders.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec 000 §9: a deal registration is valid 60 days from submission. */
export const REGISTRATION_VALIDITY_DAYS = 60;
export const EXTENSION_DAYS = 30;
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
 * The customer as registrations are compared: case, accents, punctuation and spaces do not count,
 * so "Contoso, Ltd." and "contoso ltd" are the same customer.
 */
export function customerKey(name: string | null | undefined): string {
  return (name ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The domain of an e-mail address, lower case; null when there is none. */
export function emailDomain(email: string | null | undefined): string | null {
  const at = (email ?? '').trim().lastIndexOf('@');
  if (at < 0) return null;
  const domain = (email ?? '').trim().slice(at + 1).toLowerCase();
  return domain || null;
}

export interface RegistrationKey {
  customerKey: string;
  emailDomain: string | null;
}

export const registrationKey = (customerName: string | null | undefined, endUserEmail: string | null | undefined): RegistrationKey => ({
  customerKey: customerKey(customerName),
  emailDomain: emailDomain(endUserEmail),
});

/**
 * Two registrations claim the same deal when they name the same customer and, where both give an
 * end-user e-mail, the same e-mail domain. A registration without a customer name claims nothing.
 */
export function sameDeal(a: RegistrationKey, b: RegistrationKey): boolean {
  if (!a.customerKey || a.customerKey !== b.customerKey) return false;
  return a.emailDomain === null || b.emailDomain === null || a.emailDomain === b.emailDomain;
}

export const addMs = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** When the reminder `daysBefore` an expiry is due. */
export const reminderDueAt = (expiresAt: string, daysBefore: number) => addMs(expiresAt, -daysBefore * DAY_MS);
