/**
 * The partner onboarding questionnaire (spec 001 §3 and §5): its enumerations, its fields in form
 * order, and the rules that decide whether an answer set is complete. Pure; the server's decider and
 * the web form use the same rules and messages.
 */

export const OTHER = 'Other';

export const JOB_TITLES = ['Owner', 'Partner', 'CEO', 'IT Manager', 'Founder', 'Developer', 'Procurement Officer', 'Manager', 'Sales Manager', OTHER] as const;

/** Where a country lies, so a partner's region follows from its country when the application names none. */
export const COUNTRY_REGIONS = {
  'United States': 'North America',
  Canada: 'North America',
  Mexico: 'North America',
  Guatemala: 'Central America',
  'Costa Rica': 'Central America',
  Brazil: 'South America',
  Argentina: 'South America',
  Chile: 'South America',
  Colombia: 'South America',
  Peru: 'South America',
  'United Kingdom': 'Europe',
  Ireland: 'Europe',
  Germany: 'Europe',
  France: 'Europe',
  Italy: 'Europe',
  Spain: 'Europe',
  Portugal: 'Europe',
  Netherlands: 'Europe',
  Belgium: 'Europe',
  Switzerland: 'Europe',
  Sweden: 'Europe',
  Norway: 'Europe',
  Denmark: 'Europe',
  Poland: 'Europe',
  Turkey: 'Europe',
  'United Arab Emirates': 'Middle East',
  'Saudi Arabia': 'Middle East',
  Qatar: 'Middle East',
  Israel: 'Middle East',
  India: 'Asia',
  Pakistan: 'Asia',
  China: 'Asia',
  Japan: 'Asia',
  'South Korea': 'Asia',
  Singapore: 'Asia',
  Malaysia: 'Asia',
  Indonesia: 'Asia',
  Philippines: 'Asia',
  Australia: 'Australia/Oceania',
  'New Zealand': 'Australia/Oceania',
  'South Africa': 'Africa',
  Nigeria: 'Africa',
  Kenya: 'Africa',
  Egypt: 'Africa',
  Ethiopia: 'Africa',
} as const;

/** 45 countries, United States to Ethiopia, then Other. */
export const COUNTRIES = [...(Object.keys(COUNTRY_REGIONS) as Array<keyof typeof COUNTRY_REGIONS>), OTHER] as const;

export const BUSINESS_TYPES = [
  'Private Limited',
  'Public Limited',
  'Partnership',
  'Sole Proprietorship',
  'Government / NGO',
  'Limited Liability Company (LLC)',
  'Establishment',
  OTHER,
] as const;

export const EMPLOYEE_RANGES = ['1–10', '11–50', '51–200', '201–500', '500+'] as const;

export const BUSINESS_ACTIVITIES = [
  'Technology & Software',
  'Manufacturing',
  'Retail & E-commerce',
  'Healthcare',
  'Financial Services',
  'Education',
  'Real Estate',
  'Transportation & Logistics',
  'Energy & Utilities',
  'Consulting & Professional Services',
  'Media & Entertainment',
  'Food & Beverage',
  OTHER,
] as const;

export const TARGET_MARKETS = ['North America', 'Asia-Pacific', 'Europe', 'Middle East', 'Africa', 'Latin America', 'Global', OTHER] as const;

/** 15 countries, United States to Switzerland, then Other. */
export const INCORPORATION_COUNTRIES = [
  'United States',
  'United Kingdom',
  'Canada',
  'Germany',
  'France',
  'India',
  'Singapore',
  'United Arab Emirates',
  'Australia',
  'Japan',
  'Netherlands',
  'Ireland',
  'Hong Kong',
  'Luxembourg',
  'Switzerland',
  OTHER,
] as const;

export const ANNUAL_TURNOVERS = ['<$100,000', '$100,000 – $500,000', '$500,000 – $1 Million', '$1M – $10M', '$10M+', OTHER] as const;

export const CURRENCIES = ['USD', 'EUR', 'GBP', 'INR', 'JPY', OTHER] as const;

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;

export const AUDITED_ANSWERS = ['Yes', 'No'] as const;

/** Every answer of the questionnaire, as sent by the form (user_id travels beside it). */
export interface QuestionnaireAnswers {
  company_name: string;
  contact_email: string;
  contact_name: string;
  phone_number: string;
  job_title: string;
  job_title_other: string;
  website: string;
  country: string;
  country_other: string;
  city: string;
  location: string;
  /** State, county or province and postal code: optional answers, they complete the shipping address the catalogue prefills. */
  state_region?: string;
  postal_code?: string;
  business_type: string;
  business_type_other: string;
  years_in_operation: string;
  employees_range: string;
  business_description: string;
  business_description_other: string;
  key_products: string;
  target_markets: string[];
  target_markets_other: string;
  business_registration_number: string;
  tax_id: string;
  country_of_incorporation: string;
  country_of_incorporation_other: string;
  annual_turnover: string;
  annual_turnover_other: string;
  turnover_currency: string;
  turnover_currency_other: string;
  fiscal_year_end_month: string;
  are_financials_audited: string;
  agreed_to_terms: boolean;
}

export type QuestionnaireField = keyof QuestionnaireAnswers;

export const emptyQuestionnaire = (): QuestionnaireAnswers => ({
  company_name: '',
  contact_email: '',
  contact_name: '',
  phone_number: '',
  job_title: '',
  job_title_other: '',
  website: '',
  country: '',
  country_other: '',
  city: '',
  location: '',
  state_region: '',
  postal_code: '',
  business_type: '',
  business_type_other: '',
  years_in_operation: '',
  employees_range: '',
  business_description: '',
  business_description_other: '',
  key_products: '',
  target_markets: [],
  target_markets_other: '',
  business_registration_number: '',
  tax_id: '',
  country_of_incorporation: '',
  country_of_incorporation_other: '',
  annual_turnover: '',
  annual_turnover_other: '',
  turnover_currency: '',
  turnover_currency_other: '',
  fiscal_year_end_month: '',
  are_financials_audited: '',
  agreed_to_terms: false,
});

/** The mandatory fields in the order the form unlocks them, with the specification's messages. */
export const MANDATORY_FIELDS = [
  ['company_name', 'Company name is required'],
  ['contact_email', 'Email address is required'],
  ['contact_name', 'Contact name is required'],
  ['phone_number', 'Phone number is required'],
  ['job_title', 'Job title is required'],
  ['country', 'Country is required'],
  ['city', 'City is required'],
  ['location', 'Location is required'],
  ['business_type', 'Business type is required'],
  ['years_in_operation', 'Years in operation is required'],
  ['employees_range', 'Employee range is required'],
  ['business_description', 'Business activities are required'],
  ['target_markets', 'Target markets are required'],
  ['business_registration_number', 'Business registration number is required'],
  ['country_of_incorporation', 'Country of incorporation is required'],
  ['annual_turnover', 'Annual turnover is required'],
  ['turnover_currency', 'Currency is required'],
  ['fiscal_year_end_month', 'Fiscal year end month is required'],
  ['are_financials_audited', 'Please select if financials are audited'],
] as const satisfies ReadonlyArray<readonly [QuestionnaireField, string]>;

export type MandatoryField = (typeof MANDATORY_FIELDS)[number][0];

export const OPTIONAL_FIELDS = ['website', 'key_products', 'tax_id'] as const satisfies readonly QuestionnaireField[];

export const TERMS_MESSAGE = 'You must agree to the terms and conditions';

/** Each field with an Other choice, its free-text follow-up and the message when that is blank. */
export const OTHER_FOLLOW_UPS = [
  { field: 'job_title', other: 'job_title_other', message: 'Please specify your job title' },
  { field: 'country', other: 'country_other', message: 'Please specify your country' },
  { field: 'business_type', other: 'business_type_other', message: 'Please specify your business type' },
  { field: 'business_description', other: 'business_description_other', message: 'Please specify your business activities' },
  { field: 'target_markets', other: 'target_markets_other', message: 'Please specify your target markets' },
  { field: 'country_of_incorporation', other: 'country_of_incorporation_other', message: 'Please specify your country of incorporation' },
  { field: 'annual_turnover', other: 'annual_turnover_other', message: 'Please specify your annual turnover' },
  { field: 'turnover_currency', other: 'turnover_currency_other', message: 'Please specify your currency' },
] as const satisfies ReadonlyArray<{ field: QuestionnaireField; other: QuestionnaireField; message: string }>;

/** The allowed values of every enumerated field. */
export const QUESTIONNAIRE_CHOICES = {
  job_title: JOB_TITLES,
  country: COUNTRIES,
  business_type: BUSINESS_TYPES,
  employees_range: EMPLOYEE_RANGES,
  business_description: BUSINESS_ACTIVITIES,
  target_markets: TARGET_MARKETS,
  country_of_incorporation: INCORPORATION_COUNTRIES,
  annual_turnover: ANNUAL_TURNOVERS,
  turnover_currency: CURRENCIES,
  fiscal_year_end_month: MONTHS,
  are_financials_audited: AUDITED_ANSWERS,
} as const satisfies Partial<Record<QuestionnaireField, readonly string[]>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const blank = (value: unknown) => (Array.isArray(value) ? value.length === 0 : typeof value !== 'string' || value.trim() === '');

export const choseOther = (answers: Pick<QuestionnaireAnswers, QuestionnaireField>, field: QuestionnaireField) => {
  const value = answers[field];
  return Array.isArray(value) ? value.includes(OTHER) : value === OTHER;
};

export interface FieldProblem {
  field: QuestionnaireField;
  message: string;
}

/** The problems of one mandatory field (empty, not one of its choices, or Other left unexplained). */
export function problemOf(answers: QuestionnaireAnswers, field: MandatoryField): FieldProblem | null {
  const required = MANDATORY_FIELDS.find(([name]) => name === field)![1];
  const value = answers[field];
  if (blank(value)) return { field, message: required };
  const choices = (QUESTIONNAIRE_CHOICES as Partial<Record<QuestionnaireField, readonly string[]>>)[field];
  if (choices) {
    const values = Array.isArray(value) ? value : [value as string];
    const unknown = values.find((v) => !choices.includes(v));
    if (unknown !== undefined) return { field, message: `"${unknown}" is not one of the choices for this field.` };
  }
  if (field === 'contact_email' && !EMAIL.test((value as string).trim())) return { field, message: 'Please enter a valid email address' };
  const followUp = OTHER_FOLLOW_UPS.find((f) => f.field === field);
  if (followUp && choseOther(answers, field) && blank(answers[followUp.other])) return { field: followUp.other, message: followUp.message };
  return null;
}

/** Every problem of an answer set, in form order; empty when it can be submitted. */
export function questionnaireProblems(answers: QuestionnaireAnswers): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [field] of MANDATORY_FIELDS) {
    const problem = problemOf(answers, field);
    if (problem) problems.push(problem);
  }
  if (answers.website.trim() && !/^(https?:\/\/)?[^\s.]+(\.[^\s.]+)+\S*$/i.test(answers.website.trim())) {
    problems.push({ field: 'website', message: 'Please enter a valid website address' });
  }
  if (answers.agreed_to_terms !== true) problems.push({ field: 'agreed_to_terms', message: TERMS_MESSAGE });
  return problems;
}

/** The answers as they are kept: text trimmed, a follow-up kept only when Other was chosen. */
export function normalizeQuestionnaire(answers: QuestionnaireAnswers): QuestionnaireAnswers {
  // Object.fromEntries types its keys as any string; they are the answers' own.
  const trimmed = Object.fromEntries(
    Object.entries(answers).map(([key, value]) => [
      key,
      typeof value === 'string' ? value.trim() : Array.isArray(value) ? [...new Set(value.map((v) => v.trim()))] : value,
    ]),
  ) as unknown as QuestionnaireAnswers;
  for (const { field, other } of OTHER_FOLLOW_UPS) {
    if (!choseOther(trimmed, field)) trimmed[other] = '';
  }
  return trimmed;
}

/** A field's value as a person reads it: the Other text in place of "Other". */
export function displayAnswer(answers: Partial<QuestionnaireAnswers>, field: QuestionnaireField): string {
  const value = answers[field];
  const followUp = OTHER_FOLLOW_UPS.find((f) => f.field === field);
  const otherText = followUp ? (answers[followUp.other] as string | undefined)?.trim() : undefined;
  if (Array.isArray(value)) return value.map((v) => (v === OTHER && otherText ? otherText : v)).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (value === OTHER && otherText) return otherText;
  return value ?? '';
}

export function regionOfCountry(country: string | null | undefined): string | null {
  return country && Object.hasOwn(COUNTRY_REGIONS, country) ? COUNTRY_REGIONS[country as keyof typeof COUNTRY_REGIONS] : null;
}
