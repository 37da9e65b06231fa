import { anyOf, meetsRequirement, type Principal, type Requirement } from '../access';

/** The tabs of /rebates and who sees each (spec 002 §6). */
export const REBATE_TABS = [
  { key: 'overview', label: 'Overview', requires: anyOf('Rebates.Overview', 'Rebates.Read') },
  { key: 'submit', label: 'Submit Rebate', requires: anyOf('Rebates.Create') },
  { key: 'history', label: 'History', requires: anyOf('Rebates.Read') },
  { key: 'progress', label: 'Progress', requires: anyOf('Rebates.Overview', 'Rebates.Read') },
] as const satisfies ReadonlyArray<{ key: string; label: string; requires: Requirement }>;

export type RebateTabKey = (typeof REBATE_TABS)[number]['key'];

/** The tabs this user may open, in display order. */
export function rebateTabsFor(principal: Principal): RebateTabKey[] {
  return REBATE_TABS.filter((tab) => meetsRequirement(principal, tab.requires)).map((tab) => tab.key);
}

/** The tab selected at first: the one asked for if allowed, else overview, then history, then submit; null when none is allowed. */
export function initialRebateTab(principal: Principal, requested?: string | null): RebateTabKey | null {
  const allowed = rebateTabsFor(principal);
  if (requested && (allowed as string[]).includes(requested)) return requested as RebateTabKey;
  return (['overview', 'history', 'submit'] as const).find((key) => allowed.includes(key)) ?? null;
}
