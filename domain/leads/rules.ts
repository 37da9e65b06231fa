import { isAdminRole } from '../access';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';
import { PRODUCT_CATEGORIES } from '../products/products';
import { LEAD_REGIONS } from './leads';
import { ROUTING_METHODS, type RoutingRule } from './routing';

/**
 * The routing rulebook: one stream holding the ordered list of rules, so that adding, changing,
 * removing and moving a rule are each one atomic change of the whole order.
 */

export const RULEBOOK_ID = 'routing';
export const RULE_MESSAGES = {
  onlyAdmins: 'Only administrators can change the routing rules.',
  notFound: 'Routing rule not found.',
  nameRequired: 'Name is required.',
  methodInvalid: `Method must be one of: ${ROUTING_METHODS.join(', ')}.`,
  organisationsRequired: 'Choose at least one eligible organisation.',
  namedNeedsOne: 'A named-organisation rule names exactly one organisation.',
  countryInvalid: 'Countries are two-letter ISO codes, for example DE.',
  regionInvalid: `Regions must be among: ${LEAD_REGIONS.join(', ')}.`,
  interestInvalid: `Product interests must be among: ${PRODUCT_CATEGORIES.join(', ')}.`,
  valueRange: 'The value range must run from a smaller to a larger amount, both at least 0.',
  capacityInvalid: 'Capacity must be a whole number of at least 1.',
  exists: 'A rule with this id already exists.',
  positionInvalid: 'Position must be a whole number from 0.',
  created: 'Routing rule created',
  updated: 'Routing rule updated',
  deleted: 'Routing rule deleted',
} as const;

export type RulebookState = { rules: RoutingRule[] };

export type RulebookEvent =
  | { type: 'LeadRuleAdded.v1'; data: { rule: RoutingRule; position: number } }
  | { type: 'LeadRuleChanged.v1'; data: { rule: RoutingRule } }
  | { type: 'LeadRuleRemoved.v1'; data: { ruleId: string } }
  | { type: 'LeadRuleMoved.v1'; data: { ruleId: string; position: number } };

export type RulebookCommand =
  | { type: 'AddRule'; rule: RoutingRule; position: number | null }
  | { type: 'ChangeRule'; rule: RoutingRule }
  | { type: 'RemoveRule'; ruleId: string }
  | { type: 'MoveRule'; ruleId: string; position: number };

const invalid = (field: string, message: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

export function normalizeRule(rule: RoutingRule): RoutingRule {
  const name = rule.name.trim();
  if (!name) throw invalid('name', RULE_MESSAGES.nameRequired);
  if (!(ROUTING_METHODS as readonly string[]).includes(rule.method)) throw invalid('method', RULE_MESSAGES.methodInvalid);
  const organisationIds = [...new Set(rule.organisationIds)];
  if (organisationIds.length === 0) throw invalid('organisation_ids', RULE_MESSAGES.organisationsRequired);
  if (rule.method === 'named' && organisationIds.length !== 1) throw invalid('organisation_ids', RULE_MESSAGES.namedNeedsOne);
  const countries = [...new Set(rule.countries.map((c) => c.trim().toUpperCase()))];
  if (countries.some((c) => !/^[A-Z]{2}$/.test(c))) throw invalid('countries', RULE_MESSAGES.countryInvalid);
  if (rule.regions.some((r) => !(LEAD_REGIONS as readonly string[]).includes(r))) throw invalid('regions', RULE_MESSAGES.regionInvalid);
  if (rule.productInterests.some((p) => !(PRODUCT_CATEGORIES as readonly string[]).includes(p)))
    throw invalid('product_interests', RULE_MESSAGES.interestInvalid);
  const bad = (v: number | null) => v !== null && (!Number.isFinite(v) || v < 0);
  if (bad(rule.minValue) || bad(rule.maxValue) || (rule.minValue !== null && rule.maxValue !== null && rule.minValue > rule.maxValue))
    throw invalid('min_value', RULE_MESSAGES.valueRange);
  if (rule.capacity !== null && (!Number.isInteger(rule.capacity) || rule.capacity < 1)) throw invalid('capacity', RULE_MESSAGES.capacityInvalid);
  return { ...rule, name, organisationIds, countries, regions: [...new Set(rule.regions)], productInterests: [...new Set(rule.productInterests)] };
}

const sameRule = (a: RoutingRule, b: RoutingRule) => JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());

function requireAdmin(metadata: CommandMetadata) {
  if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', RULE_MESSAGES.onlyAdmins);
}

function indexOf(state: RulebookState, ruleId: string): number {
  const index = state.rules.findIndex((r) => r.id === ruleId);
  if (index < 0) throw new DomainError('not_found', 'NOT_FOUND', RULE_MESSAGES.notFound);
  return index;
}

export function decide(command: RulebookCommand, state: RulebookState, metadata: CommandMetadata): RulebookEvent[] {
  requireAdmin(metadata);
  switch (command.type) {
    case 'AddRule': {
      const rule = normalizeRule(command.rule);
      const current = state.rules.find((r) => r.id === rule.id);
      if (current) {
        if (sameRule(current, rule)) return [];
        throw new DomainError('conflict', 'CONFLICT', RULE_MESSAGES.exists);
      }
      const position = Math.min(command.position ?? state.rules.length, state.rules.length);
      return [{ type: 'LeadRuleAdded.v1', data: { rule, position } }];
    }
    case 'ChangeRule': {
      const index = indexOf(state, command.rule.id);
      const rule = normalizeRule(command.rule);
      return sameRule(state.rules[index], rule) ? [] : [{ type: 'LeadRuleChanged.v1', data: { rule } }];
    }
    case 'RemoveRule':
      indexOf(state, command.ruleId);
      return [{ type: 'LeadRuleRemoved.v1', data: { ruleId: command.ruleId } }];
    case 'MoveRule': {
      const index = indexOf(state, command.ruleId);
      if (!Number.isInteger(command.position) || command.position < 0) throw invalid('position', RULE_MESSAGES.positionInvalid);
      const position = Math.min(command.position, state.rules.length - 1);
      return position === index ? [] : [{ type: 'LeadRuleMoved.v1', data: { ruleId: command.ruleId, position } }];
    }
    default:
      return assertNever(command);
  }
}

export function evolve(state: RulebookState, event: RulebookEvent): RulebookState {
  switch (event.type) {
    case 'LeadRuleAdded.v1': {
      const rules = [...state.rules];
      rules.splice(event.data.position, 0, event.data.rule);
      return { rules };
    }
    case 'LeadRuleChanged.v1':
      return { rules: state.rules.map((r) => (r.id === event.data.rule.id ? event.data.rule : r)) };
    case 'LeadRuleRemoved.v1':
      return { rules: state.rules.filter((r) => r.id !== event.data.ruleId) };
    case 'LeadRuleMoved.v1': {
      const moving = state.rules.find((r) => r.id === event.data.ruleId);
      if (!moving) return state;
      const rules = state.rules.filter((r) => r.id !== event.data.ruleId);
      rules.splice(event.data.position, 0, moving);
      return { rules };
    }
    default:
      return assertNever(event);
  }
}

export const leadRules: Decider<RulebookState, RulebookCommand, RulebookEvent> = {
  initialState: () => ({ rules: [] }),
  evolve,
  decide,
  streamId: (id) => `leadrules-${id}`,
};
