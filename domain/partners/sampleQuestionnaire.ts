import { emptyQuestionnaire, type QuestionnaireAnswers } from './questionnaire';

/** A complete, valid questionnaire of a Norwegian reseller, the one the tests of every floor fill in. */
export const sampleQuestionnaire = (applicant: { email: string; company: string }, overrides: Partial<QuestionnaireAnswers> = {}): QuestionnaireAnswers => ({
  ...emptyQuestionnaire(),
  company_name: applicant.company,
  contact_email: applicant.email,
  contact_name: 'Ingrid Berg',
  phone_number: '+47 22 00 00 00',
  job_title: 'CEO',
  country: 'Norway',
  city: 'Oslo',
  location: 'Karl Johans gate 1',
  business_type: 'Private Limited',
  years_in_operation: '12',
  employees_range: '11–50',
  business_description: 'Technology & Software',
  target_markets: ['Europe'],
  business_registration_number: 'NO-998877',
  country_of_incorporation: 'Netherlands',
  annual_turnover: '$1M – $10M',
  turnover_currency: 'EUR',
  fiscal_year_end_month: 'December',
  are_financials_audited: 'Yes',
  agreed_to_terms: true,
  ...overrides,
});
