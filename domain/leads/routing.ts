/**
 * Routing rules: an ordered list; the first rule that matches a lead and has an eligible
 * organisation with room decides who is offered the lead, by the rule's method. Pure: the open-lead
 * counts and each rule's last choice come from the read model.
 */

export const ROUTING_METHODS = ['named', 'round_robin', 'fewest_open'] as const;
export type RoutingMethod = (typeof ROUTING_METHODS)[number];

export const ROUTING_METHOD_LABELS: Readonly<Record<RoutingMethod, string>> = {
  named: 'Named organisation',
  round_robin: 'Round robin',
  fewest_open: 'Fewest open leads',
};

export interface RoutingRule {
  id: string;
  name: string;
  /** Empty: any. Countries are ISO alpha-2 codes, regions the lead regions. A rule with both matches either. */
  countries: string[];
  regions: string[];
  /** Catalogue categories; empty: any. */
  productInterests: string[];
  /** Dollars, inclusive; null: no bound. */
  minValue: number | null;
  maxValue: number | null;
  method: RoutingMethod;
  /** The eligible organisations, in the order round robin follows; `named` uses the first. */
  organisationIds: string[];
  /** The most open leads (awaiting answer or being worked) each of these organisations may hold; null: no limit. */
  capacity: number | null;
}

export interface RoutableLead {
  country: string | null;
  region: string | null;
  productInterest: string | null;
  estimatedValue: number | null;
}

export interface RoutingFacts {
  /** Open leads per organisation now. */
  openLeads: Readonly<Record<string, number>>;
  /** The organisation each rule last chose (round robin continues after it). */
  lastChosen: Readonly<Record<string, string>>;
  /** Organisation names, for the recorded reason. */
  names?: Readonly<Record<string, string>>;
}

export interface RoutingDecision {
  organisationId: string;
  ruleId: string;
  method: RoutingMethod;
  reason: string;
}

export function ruleMatches(rule: RoutingRule, lead: RoutableLead): boolean {
  const places = rule.countries.length + rule.regions.length;
  if (places > 0 && !((lead.country !== null && rule.countries.includes(lead.country)) || (lead.region !== null && rule.regions.includes(lead.region))))
    return false;
  if (rule.productInterests.length > 0 && (lead.productInterest === null || !rule.productInterests.includes(lead.productInterest))) return false;
  if (rule.minValue !== null && (lead.estimatedValue === null || lead.estimatedValue < rule.minValue)) return false;
  if (rule.maxValue !== null && (lead.estimatedValue === null || lead.estimatedValue > rule.maxValue)) return false;
  return true;
}

/** The rules that match the lead, in order: kept on the lead so its pass-ons follow the rules of its creation. */
export const matchingRules = (rules: readonly RoutingRule[], lead: RoutableLead): RoutingRule[] => rules.filter((rule) => ruleMatches(rule, lead));

function matchedBy(rule: RoutingRule, lead: RoutableLead): string {
  const parts: string[] = [];
  if (rule.countries.length + rule.regions.length > 0)
    parts.push(lead.country && rule.countries.includes(lead.country) ? `country ${lead.country}` : `region ${lead.region}`);
  if (rule.productInterests.length > 0) parts.push(`interest in ${lead.productInterest}`);
  if (rule.minValue !== null || rule.maxValue !== null) parts.push(`value ${lead.estimatedValue}`);
  return parts.length ? parts.join(', ') : 'any lead';
}

/**
 * The organisation to offer the lead to, or null when no rule has an eligible organisation with room
 * (the lead then waits in the unassigned queue). `passedBy` are organisations that declined it or let
 * it lapse: they are never offered it again.
 */
export function routeLead(rules: readonly RoutingRule[], lead: RoutableLead, facts: RoutingFacts, passedBy: readonly string[] = []): RoutingDecision | null {
  const name = (id: string) => facts.names?.[id] ?? id;
  for (const rule of rules) {
    if (!ruleMatches(rule, lead)) continue;
    const hasRoom = (id: string) => rule.capacity === null || (facts.openLeads[id] ?? 0) < rule.capacity;
    const eligible = rule.organisationIds.filter((id) => !passedBy.includes(id) && hasRoom(id));
    if (eligible.length === 0) continue;
    const why = `Rule "${rule.name}" (${matchedBy(rule, lead)})`;
    switch (rule.method) {
      case 'named': {
        // The named organisation is the rule's first; when it passed or is full, the rule does not apply.
        const named = rule.organisationIds[0];
        if (!named || !eligible.includes(named)) continue;
        return { organisationId: named, ruleId: rule.id, method: 'named', reason: `${why}: named organisation ${name(named)}` };
      }
      case 'round_robin': {
        const order = rule.organisationIds;
        const last = facts.lastChosen[rule.id];
        const start = last === undefined ? 0 : order.indexOf(last) + 1;
        const chosen = [...order.slice(start), ...order.slice(0, start)].find((id) => eligible.includes(id))!;
        return { organisationId: chosen, ruleId: rule.id, method: 'round_robin', reason: `${why}: round robin${last ? ` after ${name(last)}` : ''}` };
      }
      case 'fewest_open': {
        // Ties go to the one listed first.
        const chosen = eligible.reduce((best, id) => ((facts.openLeads[id] ?? 0) < (facts.openLeads[best] ?? 0) ? id : best));
        return { organisationId: chosen, ruleId: rule.id, method: 'fewest_open', reason: `${why}: fewest open leads (${facts.openLeads[chosen] ?? 0})` };
      }
    }
  }
  return null;
}
