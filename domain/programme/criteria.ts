import { formatDollars } from '../money';

/**
 * The one registry of requirement kinds a tier may ask for. An entry says what is measured, in which
 * unit, and how a shortfall reads to a partner; how it is measured from the read models lives beside
 * the scorecards in `projections/programme.ts` (`MEASURES`, keyed by the same kinds, so the type
 * check refuses a kind without a measure). A new kind is one entry here and one measure there.
 */

export type CriterionUnit = 'cents' | 'count' | 'percent';

export interface Criterion {
  label: string;
  unit: CriterionUnit;
  /** What the measure counts, after "N more" ("deals won", "delivered purchases"). */
  noun: string;
  /** The singular of `noun` for a gap of 1 ("deal won"). */
  singular: string;
}

export const CRITERIA = {
  delivered_purchases: { label: 'Delivered purchases', unit: 'cents', noun: 'delivered purchases', singular: 'delivered purchases' },
  deals_won: { label: 'Deals won', unit: 'count', noun: 'deals won', singular: 'deal won' },
  deals_approved: { label: 'Registered deals approved', unit: 'count', noun: 'registered deals approved', singular: 'registered deal approved' },
  leads_converted: { label: 'Leads converted', unit: 'count', noun: 'leads converted', singular: 'lead converted' },
  lead_acceptance_rate: { label: 'Lead acceptance rate', unit: 'percent', noun: 'lead acceptance', singular: 'lead acceptance' },
  certified_people: { label: 'Certified people', unit: 'count', noun: 'certified people', singular: 'certified person' },
} as const satisfies Record<string, Criterion>;

export type RequirementKind = keyof typeof CRITERIA;
export const REQUIREMENT_KINDS = Object.keys(CRITERIA) as [RequirementKind, ...RequirementKind[]];

export const criterionOf = (kind: RequirementKind): Criterion => CRITERIA[kind];

/** Whole dollars without cents ("$18,400"), otherwise with both cent digits ("$77,999.40"). */
const dollars = (cents: number) => formatDollars(Math.round(cents));

/** A measured value as a partner reads it: "$18,400", "3", "45%". */
export function formatMeasure(kind: RequirementKind, value: number): string {
  const unit = CRITERIA[kind].unit;
  if (unit === 'cents') return dollars(value);
  if (unit === 'percent') return `${Math.round(value * 10) / 10}%`;
  return String(value);
}

/** What is still missing, as one sentence part: "$18,400 more delivered purchases", "1 more deal won", "12 points more lead acceptance". */
export function gapSentence(kind: RequirementKind, gap: number): string {
  const criterion: Criterion = CRITERIA[kind];
  if (criterion.unit === 'cents') return `${dollars(gap)} more ${criterion.noun}`;
  if (criterion.unit === 'percent') {
    const points = Math.round(gap * 10) / 10;
    return `${points} ${points === 1 ? 'point' : 'points'} more ${criterion.noun}`;
  }
  return `${gap} more ${gap === 1 ? criterion.singular : criterion.noun}`;
}
