/**
 * The partner application of the onboarding wizard (spec 001 §3: company info, qualifications and a
 * logo), the regions it offers, and the partnership categories an administrator approves a partner in.
 */

import { VENDOR_BRAND } from '../products/products';

/** The vendor's product brand, which names the partnership categories. */
export const PRODUCT_BRAND = VENDOR_BRAND;

/** The application's region list (spec 001 §3), in the specification's order. */
export const REGIONS = [
  'Africa',
  'Asia',
  'Australia/Oceania',
  'Central America',
  'Europe',
  'Middle East',
  'North America',
  'South America',
  'Antarctica',
] as const;
export type Region = (typeof REGIONS)[number];

/**
 * The three partnership categories. The approve dialog's tier choice and the category are one choice:
 * the category is the full name shown on badges, the tier its short name used by the directory filter.
 */
export const PARTNER_TIERS = ['Value Added', 'Authorized', 'Exclusive'] as const;
export type PartnerTier = (typeof PARTNER_TIERS)[number];

const categoryOf = <Tier extends PartnerTier>(tier: Tier) => `${PRODUCT_BRAND} ${tier} Distributor` as const;

// One per tier, in the tiers' order, written out as a tuple (`map` would lose its length and order): z.enum and the permission tables need the tuple.
export const PARTNER_CATEGORIES = [categoryOf(PARTNER_TIERS[0]), categoryOf(PARTNER_TIERS[1]), categoryOf(PARTNER_TIERS[2])] as const satisfies {
  length: (typeof PARTNER_TIERS)['length'];
};
export type PartnerCategory = (typeof PARTNER_CATEGORIES)[number];

export function isPartnerCategory(value: unknown): value is PartnerCategory {
  return typeof value === 'string' && (PARTNER_CATEGORIES as readonly string[]).includes(value);
}

export function tierOfCategory(category: PartnerCategory): PartnerTier {
  return PARTNER_TIERS[PARTNER_CATEGORIES.indexOf(category)];
}

/** The application's fields, as the multipart form names them (the logo travels as a file beside them). */
export interface ApplicationDetails {
  company_name: string;
  contact_email: string;
  phone_number: string;
  business_type: string;
  business_type_other: string;
  business_address: string;
  years_in_business: string;
  certifications: string;
  region: string;
  partner_references: string;
  /** The category the applicant asks for; the administrator decides on approval. */
  category: string;
}

export type ApplicationField = keyof ApplicationDetails;

export const APPLICATION_FIELDS = [
  'company_name',
  'contact_email',
  'phone_number',
  'business_type',
  'business_type_other',
  'business_address',
  'years_in_business',
  'certifications',
  'region',
  'partner_references',
  'category',
] as const satisfies readonly ApplicationField[];

export const emptyApplication = (): ApplicationDetails => ({
  company_name: '',
  contact_email: '',
  phone_number: '',
  business_type: '',
  business_type_other: '',
  business_address: '',
  years_in_business: '',
  certifications: '',
  region: '',
  partner_references: '',
  category: '',
});

/** Labels of the wizard and the review step. */
export const APPLICATION_LABELS: Readonly<Record<ApplicationField, string>> = {
  company_name: 'Company Name',
  contact_email: 'Contact Email',
  phone_number: 'Phone Number',
  business_type: 'Business Type',
  business_type_other: 'Business Type (Other)',
  business_address: 'Business Address',
  years_in_business: 'Years in Business',
  certifications: 'Certifications',
  region: 'Region',
  partner_references: 'Partner References',
  category: 'Preferred Partnership Category',
};

/** Logos: images up to 5 MB (the wizard's hint: PNG, JPG or SVG up to 5MB). */
export const LOGO_MAX_BYTES = 5 * 1024 * 1024;

export const REJECTION_REASON_MAX = 500;
