/**
 * The Shipping & Order Details form (spec 002 §5): its fields, the country list and the rules,
 * shared by the form and the server.
 */

export const SHIPPING_COUNTRIES = ['United States', 'Canada', 'United Kingdom', 'Australia', 'Germany', 'France', 'Japan', 'Other'] as const;
export type ShippingCountry = (typeof SHIPPING_COUNTRIES)[number];
export const DEFAULT_SHIPPING_COUNTRY: ShippingCountry = 'United States';

export interface ShippingAddress {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  addressLine1: string;
  addressLine2?: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  specialInstructions?: string;
}

export type ShippingField = keyof ShippingAddress;

export const SHIPPING_MESSAGES = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  email: 'Email is required',
  emailInvalid: 'Please enter a valid email',
  phone: 'Phone number is required',
  phoneInvalid: 'Please enter a valid phone number',
  addressLine1: 'Street address is required',
  city: 'City is required',
  state: 'State is required',
  zipCode: 'ZIP code is required',
  country: 'Country is required',
  countryInvalid: `Country must be one of: ${SHIPPING_COUNTRIES.join(', ')}`,
  estimatedDelivery: 'Delivery date is required',
  estimatedDeliveryInvalid: 'Delivery date must be a valid date',
  estimatedDeliveryPast: 'Delivery date cannot be in the past',
  estimatedDeliveryTooFar: 'Delivery date must be within one year',
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters`,
} as const;

const MAX_LENGTH: Readonly<Record<ShippingField, number>> = {
  firstName: 100,
  lastName: 100,
  email: 254,
  phone: 40,
  addressLine1: 200,
  addressLine2: 200,
  city: 100,
  state: 100,
  zipCode: 20,
  country: 60,
  specialInstructions: 1000,
};

const LABELS: Readonly<Record<ShippingField, string>> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone number',
  addressLine1: 'Street address',
  addressLine2: 'Address line 2',
  city: 'City',
  state: 'State',
  zipCode: 'ZIP code',
  country: 'Country',
  specialInstructions: 'Special instructions',
};

export const REQUIRED_SHIPPING_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'addressLine1', 'city', 'state', 'zipCode', 'country'] as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ().-]{6,}$/;

/** Field name → message for every problem of the address; {} when valid. */
export function shippingAddressProblems(address: Partial<Record<ShippingField, unknown>>): Partial<Record<ShippingField, string>> {
  const problems: Partial<Record<ShippingField, string>> = {};
  const text = (field: ShippingField) => (typeof address[field] === 'string' ? (address[field] as string).trim() : '');
  for (const field of REQUIRED_SHIPPING_FIELDS) {
    if (!text(field)) problems[field] = SHIPPING_MESSAGES[field];
  }
  for (const field of Object.keys(MAX_LENGTH) as ShippingField[]) {
    if (!problems[field] && text(field).length > MAX_LENGTH[field]) problems[field] = SHIPPING_MESSAGES.tooLong(LABELS[field], MAX_LENGTH[field]);
  }
  if (!problems.email && !EMAIL.test(text('email'))) problems.email = SHIPPING_MESSAGES.emailInvalid;
  if (!problems.phone && !PHONE.test(text('phone'))) problems.phone = SHIPPING_MESSAGES.phoneInvalid;
  if (!problems.country && !(SHIPPING_COUNTRIES as readonly string[]).includes(text('country'))) problems.country = SHIPPING_MESSAGES.countryInvalid;
  return problems;
}

/** The address with every text trimmed and empty optional fields left out. */
export function normalizeShippingAddress(address: ShippingAddress): ShippingAddress {
  const clean: ShippingAddress = {
    firstName: address.firstName.trim(),
    lastName: address.lastName.trim(),
    email: address.email.trim(),
    phone: address.phone.trim(),
    addressLine1: address.addressLine1.trim(),
    city: address.city.trim(),
    state: address.state.trim(),
    zipCode: address.zipCode.trim(),
    country: address.country.trim(),
  };
  if (address.addressLine2?.trim()) clean.addressLine2 = address.addressLine2.trim();
  if (address.specialInstructions?.trim()) clean.specialInstructions = address.specialInstructions.trim();
  return clean;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** How far ahead a delivery date may be chosen. */
export const MAX_DELIVERY_DAYS_AHEAD = 366;

/**
 * The requested delivery date: a calendar date (YYYY-MM-DD), not before the ordering day and within
 * a year. The ordering day is taken in UTC with one day of grace, so a buyer west of Greenwich can
 * still pick their own today. Returns the problem, or undefined.
 */
export function estimatedDeliveryProblem(value: unknown, now: string | Date): string | undefined {
  if (typeof value !== 'string' || !value.trim()) return SHIPPING_MESSAGES.estimatedDelivery;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return SHIPPING_MESSAGES.estimatedDeliveryInvalid;
  const date = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  const check = new Date(date);
  if (check.getUTCFullYear() !== Number(match[1]) || check.getUTCMonth() !== Number(match[2]) - 1 || check.getUTCDate() !== Number(match[3])) {
    return SHIPPING_MESSAGES.estimatedDeliveryInvalid;
  }
  const today = new Date(now);
  const todayUtc = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  if (date < todayUtc - DAY_MS) return SHIPPING_MESSAGES.estimatedDeliveryPast;
  if (date > todayUtc + MAX_DELIVERY_DAYS_AHEAD * DAY_MS) return SHIPPING_MESSAGES.estimatedDeliveryTooFar;
  return undefined;
}
