import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../deciderSpec';
import { fold } from '../decider';
import { matchingRules, routeLead, type RoutingRule } from './routing';
import { leadRules, RULE_MESSAGES, RULEBOOK_ID, type RulebookEvent } from './rules';

const rule = (overrides: Partial<RoutingRule> = {}): RoutingRule => ({
  id: 'rule-1',
  name: 'EMEA switches',
  countries: [],
  regions: ['EMEA'],
  productInterests: [],
  minValue: null,
  maxValue: null,
  method: 'round_robin',
  organisationIds: ['org-a', 'org-b', 'org-c'],
  capacity: null,
  ...overrides,
});
const lead = { country: 'DE', region: 'EMEA', productInterest: 'Managed Switches', estimatedValue: 50_000 };
const noFacts = { openLeads: {}, lastChosen: {} };

describe('matching', () => {
  it.each([
    [{ regions: ['EMEA'] }, true],
    [{ regions: ['APAC'] }, false],
    [{ regions: [], countries: ['DE'] }, true],
    [{ regions: ['APAC'], countries: ['DE'] }, true],
    [{ regions: [], countries: ['FR'] }, false],
    [{ productInterests: ['Managed Switches'] }, true],
    [{ productInterests: ['Unmanaged Switches'] }, false],
    [{ minValue: 50_000, maxValue: 100_000 }, true],
    [{ minValue: 50_001 }, false],
    [{ maxValue: 49_999 }, false],
    [{ regions: [] }, true],
  ] as const)('%o matches: %s', (overrides, expected) => {
    expect(matchingRules([rule(overrides as Partial<RoutingRule>)], lead)).toHaveLength(expected ? 1 : 0);
  });

  it('a rule with a value range does not match a lead without a value', () => {
    expect(matchingRules([rule({ minValue: 0 })], { ...lead, estimatedValue: null })).toHaveLength(0);
  });
});

describe('methods', () => {
  it('named organisation: the one named, with the rule and reason', () => {
    expect(routeLead([rule({ method: 'named', organisationIds: ['org-b'] })], lead, { ...noFacts, names: { 'org-b': 'Northwind' } })).toEqual({
      organisationId: 'org-b',
      ruleId: 'rule-1',
      method: 'named',
      reason: 'Rule "EMEA switches" (region EMEA): named organisation Northwind',
    });
  });

  it('round robin: the first, then the one after the rule last chose, wrapping round', () => {
    expect(routeLead([rule()], lead, noFacts)?.organisationId).toBe('org-a');
    expect(routeLead([rule()], lead, { ...noFacts, lastChosen: { 'rule-1': 'org-a' } })?.organisationId).toBe('org-b');
    expect(routeLead([rule()], lead, { ...noFacts, lastChosen: { 'rule-1': 'org-c' } })?.organisationId).toBe('org-a');
  });

  it('fewest open leads: the least busy, ties to the first listed', () => {
    const fewest = rule({ method: 'fewest_open' });
    expect(routeLead([fewest], lead, { ...noFacts, openLeads: { 'org-a': 3, 'org-b': 1, 'org-c': 2 } })?.organisationId).toBe('org-b');
    expect(routeLead([fewest], lead, { ...noFacts, openLeads: { 'org-a': 1, 'org-b': 1, 'org-c': 1 } })?.organisationId).toBe('org-a');
    expect(routeLead([fewest], lead, { ...noFacts, openLeads: { 'org-a': 1, 'org-b': 1 } })?.organisationId).toBe('org-c');
  });

  it('the first matching rule wins', () => {
    const rules = [
      rule({ id: 'apac', regions: ['APAC'], organisationIds: ['org-x'] }),
      rule({ id: 'emea', method: 'named', organisationIds: ['org-c'] }),
      rule({ id: 'any', regions: [] }),
    ];
    expect(routeLead(rules, lead, noFacts)).toMatchObject({ organisationId: 'org-c', ruleId: 'emea' });
  });
});

describe('capacity', () => {
  it('skips an organisation at its capacity', () => {
    expect(routeLead([rule({ capacity: 2 })], lead, { openLeads: { 'org-a': 2 }, lastChosen: {} })?.organisationId).toBe('org-b');
    expect(
      routeLead([rule({ method: 'fewest_open', capacity: 2 })], lead, { openLeads: { 'org-a': 0, 'org-b': 2, 'org-c': 2 }, lastChosen: {} })?.organisationId,
    ).toBe('org-a');
  });

  it('falls through to the next rule when every organisation of a rule is full', () => {
    const rules = [rule({ capacity: 1 }), rule({ id: 'overflow', regions: [], method: 'named', organisationIds: ['org-z'] })];
    expect(routeLead(rules, lead, { openLeads: { 'org-a': 1, 'org-b': 1, 'org-c': 5 }, lastChosen: {} })).toMatchObject({
      organisationId: 'org-z',
      ruleId: 'overflow',
    });
  });

  it('a named organisation at capacity does not get the lead', () => {
    expect(routeLead([rule({ method: 'named', organisationIds: ['org-a'], capacity: 1 })], lead, { openLeads: { 'org-a': 1 }, lastChosen: {} })).toBeNull();
  });
});

describe('no eligible organisation', () => {
  it('answers null when no rule matches, or there are no rules', () => {
    expect(routeLead([rule({ regions: ['APAC'] })], lead, noFacts)).toBeNull();
    expect(routeLead([], lead, noFacts)).toBeNull();
  });

  it('never offers the lead again to an organisation that passed it by, and answers null after the last', () => {
    expect(routeLead([rule()], lead, noFacts, ['org-a'])?.organisationId).toBe('org-b');
    expect(routeLead([rule()], lead, noFacts, ['org-a', 'org-b'])?.organisationId).toBe('org-c');
    expect(routeLead([rule()], lead, noFacts, ['org-a', 'org-b', 'org-c'])).toBeNull();
  });
});

describe('a rule change applies to new leads only', () => {
  const spec = deciderSpec(leadRules);
  const added = (r: RoutingRule, position = 0): RulebookEvent => ({ type: 'LeadRuleAdded.v1', data: { rule: r, position } });

  it('a lead keeps the rules that matched at its creation; a new lead follows the changed rules', () => {
    const before = fold(leadRules, [added(rule({ method: 'named', organisationIds: ['org-a'] }))]);
    const routingOfOldLead = matchingRules(before.rules, lead);
    const after = fold(leadRules, [
      added(rule({ method: 'named', organisationIds: ['org-a'] })),
      { type: 'LeadRuleChanged.v1', data: { rule: rule({ method: 'named', organisationIds: ['org-b'] }) } },
    ]);
    // The old lead's pass-on reads its own snapshot: still org-a's rule.
    expect(routeLead(routingOfOldLead, lead, noFacts)?.organisationId).toBe('org-a');
    expect(routeLead(after.rules, lead, noFacts)?.organisationId).toBe('org-b');
  });

  it('the rulebook keeps the order: add at a position, move, change, remove', () => {
    const a = rule({ id: 'a', name: 'A' });
    const b = rule({ id: 'b', name: 'B' });
    spec
      .given([added(a)])
      .when({ type: 'AddRule', rule: b, position: 0 }, { actorRole: 'admin' })
      .then([added(b, 0)]);
    spec
      .given([added(a), added(b, 1)])
      .when({ type: 'MoveRule', ruleId: 'b', position: 0 }, { actorRole: 'admin' })
      .then([{ type: 'LeadRuleMoved.v1', data: { ruleId: 'b', position: 0 } }]);
    expect(fold(leadRules, [added(a), added(b, 1), { type: 'LeadRuleMoved.v1', data: { ruleId: 'b', position: 0 } }]).rules.map((r) => r.id)).toEqual([
      'b',
      'a',
    ]);
    spec
      .given([added(a)])
      .when({ type: 'RemoveRule', ruleId: 'a' }, { actorRole: 'admin' })
      .then([{ type: 'LeadRuleRemoved.v1', data: { ruleId: 'a' } }]);
    spec
      .given([added(a)])
      .when({ type: 'RemoveRule', ruleId: 'x' }, { actorRole: 'admin' })
      .thenThrows(RULE_MESSAGES.notFound, 'NOT_FOUND');
    expect(leadRules.streamId(RULEBOOK_ID)).toBe('leadrules-routing');
  });

  it('refuses non-admins and bad rules', () => {
    spec
      .given([])
      .when({ type: 'AddRule', rule: rule(), position: null }, { actorRole: 'partner' })
      .thenThrows(RULE_MESSAGES.onlyAdmins, 'INSUFFICIENT_PERMISSIONS');
    spec
      .given([])
      .when({ type: 'AddRule', rule: rule({ method: 'named' }), position: null }, { actorRole: 'admin' })
      .thenThrows(RULE_MESSAGES.namedNeedsOne);
    spec
      .given([])
      .when({ type: 'AddRule', rule: rule({ organisationIds: [] }), position: null }, { actorRole: 'admin' })
      .thenThrows(RULE_MESSAGES.organisationsRequired);
    spec
      .given([])
      .when({ type: 'AddRule', rule: rule({ minValue: 10, maxValue: 5 }), position: null }, { actorRole: 'admin' })
      .thenThrows(RULE_MESSAGES.valueRange);
    spec
      .given([])
      .when({ type: 'AddRule', rule: rule({ capacity: 0 }), position: null }, { actorRole: 'admin' })
      .thenThrows(RULE_MESSAGES.capacityInvalid);
    spec
      .given([])
      .when({ type: 'AddRule', rule: rule({ countries: ['Germany'] }), position: null }, { actorRole: 'admin' })
      .thenThrows(RULE_MESSAGES.countryInvalid);
  });
});
