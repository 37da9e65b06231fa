import { DomainError, type CommandMetadata } from '../../domain/decider';
import { LEAD_REGIONS, LEAD_SOURCES, leads, type LeadCommand, type LeadDetails, type LeadRegion, type LeadSource } from '../../domain/leads/leads';
import type { RoutingRule } from '../../domain/leads/routing';
import { leadRules, RULEBOOK_ID } from '../../domain/leads/rules';
import { PRODUCT_CATEGORIES } from '../../domain/products/products';
import { projects } from '../../domain/projects/projects';
import { deterministicUuid, handleCommand } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { convertLead, createLead, creationContext, loadLead, passOnTarget, type CreationContext } from '../../commands/leads';
import type { Services } from '../../platform/services';
import { demoUserId } from './identity';
import type { Seeder } from './seeder';
import { DAY_MS, demoCalendar, randomFor } from './timeline';

const HOUR_MS = 60 * 60 * 1000;
const NORTHWIND = demoUserId('partner@partnerhub.test');
const SAKURA = demoUserId('kenji.mori@sakura-netcom.test');

export const demoRuleId = (key: string) => deterministicUuid(`demo-lead-rule:${key}`);
export const demoLeadId = (key: string) => deterministicUuid(`demo-lead:${key}`);

const rule = (
  key: string,
  fields: Omit<RoutingRule, 'id' | 'countries' | 'productInterests' | 'minValue' | 'maxValue' | 'capacity'> & Partial<RoutingRule>,
): RoutingRule => ({
  id: demoRuleId(key),
  countries: [],
  productInterests: [],
  minValue: null,
  maxValue: null,
  capacity: null,
  ...fields,
});

/** The demo rulebook: APAC to Sakura, EMEA switching in turns, the rest of EMEA to the least busy, the Americas to Northwind. Leads of no region wait for an admin. */
export const DEMO_RULES: readonly RoutingRule[] = [
  rule('apac', { name: 'APAC to Sakura Netcom', regions: ['APAC'], method: 'named', organisationIds: [SAKURA] }),
  rule('emea-switching', {
    name: 'EMEA switching in turns',
    regions: ['EMEA'],
    productInterests: ['Managed Switches', 'Unmanaged Switches', 'Helix Xtreme Switches'],
    method: 'round_robin',
    organisationIds: [NORTHWIND, SAKURA],
    capacity: 60,
  }),
  rule('emea-rest', { name: 'Rest of EMEA to the least busy', regions: ['EMEA'], method: 'fewest_open', organisationIds: [NORTHWIND, SAKURA] }),
  rule('americas', { name: 'Americas to Northwind', regions: ['Americas'], method: 'named', organisationIds: [NORTHWIND] }),
];

/** What happens to a lead after its creation, each step some hours after the one before. */
type Step =
  | { do: 'accept'; after: number }
  | { do: 'decline'; after: number; reason: string }
  | { do: 'lapse' }
  | { do: 'status'; after: number; status: 'contacted' | 'qualified' | 'disqualified'; reason?: string }
  | { do: 'convert'; after: number; title: string }
  | { do: 'assign'; after: number; organisationId: string; reason: string };

interface DemoLead {
  key: string;
  hoursAgo: number;
  details: LeadDetails;
  steps: Step[];
}

const details = (
  company: string,
  contact: string,
  domain: string,
  region: LeadRegion | null,
  country: string | null,
  interest: string,
  value: number,
  source: LeadSource,
  notes: string | null = null,
): LeadDetails => ({
  company,
  contactName: contact,
  email: `${contact.split(' ')[0].toLowerCase()}@${domain}`,
  phone: '+44 20 7946 0123',
  country,
  region,
  productInterest: interest,
  estimatedValue: value,
  source,
  notes,
});

/** The recent leads every portal has, in every state, for both the demo partner and another organisation. */
const RECENT: readonly DemoLead[] = [
  {
    key: 'recent-awaiting-1',
    hoursAgo: 3,
    details: details(
      'Thames Water Labs',
      'Grace Hopper',
      'thameswaterlabs.test',
      'EMEA',
      'GB',
      'Managed Switches',
      85_000,
      'web_form',
      'Asked for a quote for 40 access switches.',
    ),
    steps: [],
  },
  {
    key: 'recent-awaiting-2',
    hoursAgo: 30,
    details: details('Bristol Harbour Hotels', 'Isambard Brunel', 'bristolharbour.test', 'Americas', 'US', 'Unmanaged Switches', 22_000, 'event'),
    steps: [],
  },
  {
    key: 'recent-accepted',
    hoursAgo: 50,
    details: details('Hamburg Port Logistics', 'Jonas Weber', 'hamburgport.test', 'EMEA', 'DE', 'Industrial Managed Switches', 140_000, 'campaign'),
    steps: [{ do: 'accept', after: 4 }],
  },
  {
    key: 'recent-contacted',
    hoursAgo: 120,
    details: details('Lyon Metro Transit', 'Claire Martin', 'lyonmetro.test', 'Americas', 'CA', 'Industrial Unmanaged Switches', 60_000, 'partner_referral'),
    steps: [
      { do: 'accept', after: 2 },
      { do: 'status', after: 24, status: 'contacted' },
    ],
  },
  {
    key: 'recent-qualified',
    hoursAgo: 200,
    details: details('Dublin City Schools', 'Aoife Byrne', 'dublinschools.test', 'Americas', 'US', 'Managed Switches', 95_000, 'web_form'),
    steps: [
      { do: 'accept', after: 5 },
      { do: 'status', after: 20, status: 'contacted' },
      { do: 'status', after: 48, status: 'qualified' },
    ],
  },
  {
    key: 'recent-converted',
    hoursAgo: 300,
    details: details(
      'Cardiff Bay Arena',
      'Rhys Evans',
      'cardiffbay.test',
      'Americas',
      'US',
      'Helix Xtreme Switches',
      210_000,
      'event',
      'Stadium Wi-Fi backbone.',
    ),
    steps: [
      { do: 'accept', after: 3 },
      { do: 'status', after: 24, status: 'qualified' },
      { do: 'convert', after: 72, title: 'Cardiff Bay Arena backbone' },
    ],
  },
  {
    key: 'recent-disqualified',
    hoursAgo: 260,
    details: details('Leeds Printing Co', 'Tom Hardy', 'leedsprint.test', 'Americas', 'US', 'Unmanaged Switches', 4_000, 'other'),
    steps: [
      { do: 'accept', after: 8 },
      { do: 'status', after: 40, status: 'disqualified', reason: 'No budget until next year.' },
    ],
  },
  {
    key: 'recent-lapsed',
    hoursAgo: 100,
    details: details('Seattle Biotech Park', 'Ellen Ripley', 'seattlebiotech.test', 'Americas', 'US', 'Managed Switches', 48_000, 'campaign'),
    steps: [{ do: 'lapse' }],
  },
  {
    key: 'recent-sakura-awaiting',
    hoursAgo: 6,
    details: details('Osaka Smart Grid', 'Haruki Sato', 'osakagrid.test', 'APAC', 'JP', 'Industrial Managed Switches', 310_000, 'web_form'),
    steps: [],
  },
  {
    key: 'recent-sakura-accepted',
    hoursAgo: 70,
    details: details('Kyoto Rail Depot', 'Yuki Tanaka', 'kyotorail.test', 'APAC', 'JP', 'Industrial Managed Switches', 175_000, 'event'),
    steps: [{ do: 'accept', after: 6 }],
  },
  {
    key: 'recent-sakura-declined',
    hoursAgo: 80,
    details: details('Sydney Opera Venues', 'Mia Wilson', 'sydneyvenues.test', 'APAC', 'AU', 'Managed Switches', 66_000, 'campaign'),
    steps: [{ do: 'decline', after: 10, reason: 'Outside our service area in Australia.' }],
  },
  {
    key: 'recent-unrouted',
    hoursAgo: 12,
    details: details('Global Freight Alliance', 'Sam Carter', 'globalfreight.test', null, null, 'Helix Accessories', 12_000, 'other'),
    steps: [],
  },
  // The same customer as the qualified lead above: flagged as a duplicate, not routed.
  {
    key: 'recent-duplicate',
    hoursAgo: 8,
    details: details(
      'Dublin City Schools',
      'Sean Kelly',
      'dublinschools.test',
      'Americas',
      'US',
      'Managed Switches',
      40_000,
      'web_form',
      'Second enquiry from the same school board.',
    ),
    steps: [],
  },
];

const COMPANIES = [
  'Arcadia',
  'Borealis',
  'Cobalt',
  'Delta',
  'Ember',
  'Fjord',
  'Granite',
  'Harbor',
  'Iris',
  'Juniper',
  'Keystone',
  'Lumen',
  'Meridian',
  'Nimbus',
  'Orchid',
  'Pioneer',
  'Quartz',
  'Redwood',
  'Summit',
  'Tundra',
];
const KINDS = ['Hospital', 'University', 'Logistics', 'Energy', 'Retail', 'Hotels', 'Manufacturing', 'Transit', 'Bank', 'Council'];
const PEOPLE = ['Alex Kim', 'Sam Patel', 'Jordan Rivera', 'Taylor Nguyen', 'Morgan Silva', 'Casey Müller', 'Robin Okoro', 'Jamie Rossi'];
const COUNTRIES: Record<LeadRegion, string[]> = {
  EMEA: ['GB', 'DE', 'FR', 'NL', 'SE', 'AE', 'ZA'],
  Americas: ['US', 'CA', 'BR', 'MX'],
  APAC: ['JP', 'AU', 'SG', 'IN'],
};

/** A few hundred leads over the demo history, from every source, each with its own story. */
function historyLeads(historyDays: number): DemoLead[] {
  if (historyDays <= 0) return [];
  const random = randomFor('demo-leads');
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const count = Math.min(320, Math.round(historyDays * 1.7));
  return Array.from({ length: count }, (_, i) => {
    const region = random() < 0.08 ? null : pick(LEAD_REGIONS);
    const company = `${pick(COMPANIES)} ${pick(KINDS)} ${i + 1}`;
    const domain = `${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.test`;
    const value = Math.round((5_000 + random() * random() * 400_000) / 100) * 100;
    const lead = details(company, pick(PEOPLE), domain, region, region ? pick(COUNTRIES[region]) : null, pick(PRODUCT_CATEGORIES), value, pick(LEAD_SOURCES));
    const roll = random();
    const answer = 1 + Math.floor(random() * 30);
    const steps: Step[] =
      roll < 0.12
        ? [{ do: 'lapse' }, { do: 'accept', after: answer }, { do: 'status', after: 48, status: 'contacted' }]
        : roll < 0.2
          ? [{ do: 'lapse' }, { do: 'lapse' }]
          : roll < 0.28
            ? [{ do: 'decline', after: answer, reason: pick(['Outside our territory.', 'No capacity this quarter.', 'Not our product line.']) }]
            : roll < 0.48
              ? [
                  { do: 'accept', after: answer },
                  { do: 'status', after: 30, status: 'contacted' },
                  { do: 'status', after: 120, status: 'qualified' },
                  { do: 'convert', after: 96, title: `${company} network` },
                ]
              : roll < 0.6
                ? [
                    { do: 'accept', after: answer },
                    { do: 'status', after: 40, status: 'disqualified', reason: pick(['No budget.', 'Went with a competitor.', 'Project cancelled.']) },
                  ]
                : roll < 0.75
                  ? [
                      { do: 'accept', after: answer },
                      { do: 'status', after: 36, status: 'contacted' },
                      { do: 'status', after: 90, status: 'qualified' },
                    ]
                  : roll < 0.85
                    ? [
                        { do: 'accept', after: answer },
                        { do: 'status', after: 20, status: 'contacted' },
                      ]
                    : [{ do: 'accept', after: answer }];
    // Spread over the history, ending a few days before the recent records.
    const hoursAgo = Math.round((3 + random() * (historyDays - 3)) * 24);
    return { key: `history-${i}`, hoursAgo, details: lead, steps };
  });
}

/**
 * Refusals that mean the worker acted on the lead while its story was told (a window closed under a short
 * test setting, so it passed the lead on): the story stops there, as it would have in the past.
 */
const OVERTAKEN = new Set(['LEAD_NOT_YOURS', 'LEAD_NOT_AWAITING', 'ACCEPTANCE_WINDOW_CLOSED']);

/** Runs a step of a story; false when the worker got there first. */
async function storyStep(services: Services, leadId: string, command: LeadCommand, metadata: CommandMetadata): Promise<boolean> {
  try {
    await handleCommand(services.store, leads, leadId, command, metadata);
    return true;
  } catch (error) {
    if (error instanceof DomainError && OVERTAKEN.has(error.code)) return false;
    throw error;
  }
}

async function playStory(services: Services, demo: DemoLead, base: CommandMetadata, context: CreationContext): Promise<void> {
  const leadId = demoLeadId(demo.key);
  const now = Date.parse(base.now);
  let at = now - demo.hoursAgo * HOUR_MS;
  const admin = (time: number): CommandMetadata => ({ ...base, now: new Date(time).toISOString() });
  await createLead(services, { leadId, details: demo.details, createdBy: base.actorId }, admin(at), context);
  for (const step of demo.steps) {
    const lead = await loadLead(services, leadId);
    if (!lead) return;
    if (step.do === 'lapse') {
      if (lead.status !== 'assigned' || !lead.dueAt) return;
      at = Date.parse(lead.dueAt) + 60_000;
      if (at > now) return;
      const next = await passOnTarget(services, lead, lead.organisationId!, new Date(at).toISOString());
      if (!(await storyStep(services, leadId, { type: 'LapseLead', dueAt: lead.dueAt, next }, { ...admin(at), actorId: null, actorRole: null }))) return;
      continue;
    }
    at += step.after * HOUR_MS;
    if (at > now) return;
    const holder = lead.organisationId;
    const asHolder: CommandMetadata = { ...admin(at), actorId: holder, actorRole: 'partner' };
    const run = (command: LeadCommand, metadata: CommandMetadata) => storyStep(services, leadId, command, metadata);
    // With a short acceptance window (tests) the answer may come too late: the story stops there.
    if ((step.do === 'accept' || step.do === 'decline') && lead.dueAt && at >= Date.parse(lead.dueAt)) return;
    switch (step.do) {
      case 'accept':
        if (lead.status !== 'assigned' || !holder) return;
        if (!(await run({ type: 'AcceptLead', actorOrganisationId: holder }, asHolder))) return;
        break;
      case 'decline': {
        if (lead.status !== 'assigned' || !holder) return;
        const next = await passOnTarget(services, lead, holder, asHolder.now);
        if (!(await run({ type: 'DeclineLead', actorOrganisationId: holder, reason: step.reason, next }, asHolder))) return;
        break;
      }
      case 'status':
        if (!holder || !['accepted', 'contacted', 'qualified'].includes(lead.status)) return;
        if (!(await run({ type: 'ChangeLeadStatus', actorOrganisationId: holder, status: step.status, reason: step.reason ?? null }, asHolder))) return;
        break;
      case 'convert':
        if (!holder || !['accepted', 'contacted', 'qualified'].includes(lead.status)) return;
        await services.watcher.waitFor((await services.store.headPosition())!);
        {
          const projectId = await convertLead(
            services,
            leadId,
            { actorOrganisationId: holder, createdBy: holder, title: step.title, expectedClosureDate: new Date(at + 90 * DAY_MS).toISOString().slice(0, 10) },
            asHolder,
          );
          // The deal's orders: one of the organisation's delivered orders not yet linked to a deal, so the reports show revenue.
          const { rows } = await services.pool.query<{ id: string }>(
            `SELECT o.id FROM read.orders o WHERE o.organisation_id = $1 AND o.status = 'delivered' AND NOT EXISTS (SELECT 1 FROM read.project_orders po WHERE po.order_id = o.id)
             ORDER BY o.created_at DESC LIMIT 1`,
            [holder],
          );
          if (rows[0]) await runCommand(services, projects, projectId, { type: 'LinkOrder', orderId: rows[0].id }, asHolder);
        }
        break;
      case 'assign':
        if (
          !(await run(
            {
              type: 'AssignLead',
              assignment: {
                organisationId: step.organisationId,
                ruleId: null,
                method: 'manual',
                reason: step.reason,
                dueAt: new Date(at + 48 * HOUR_MS).toISOString(),
              },
            },
            admin(at),
          ))
        )
          return;
        break;
    }
  }
}

export const seedLeads: Seeder = {
  name: 'leads',
  async run(services, metadata) {
    const calendar = demoCalendar(services, metadata);
    const founded =
      calendar.historyDays > 0 ? calendar.at(calendar.historyDays + 1) : { ...metadata, now: new Date(Date.parse(metadata.now) - 400 * HOUR_MS).toISOString() };
    const rulebook = await services.store.readStream(leadRules.streamId(RULEBOOK_ID));
    if (rulebook.length === 0) {
      for (const demo of DEMO_RULES) await runCommand(services, leadRules, RULEBOOK_ID, { type: 'AddRule', rule: demo, position: null }, founded);
    }
    const stories = [...historyLeads(calendar.historyDays), ...RECENT].sort((a, b) => b.hoursAgo - a.hoursAgo);
    let created = 0;
    let context = await creationContext(services);
    for (const [index, demo] of stories.entries()) {
      if ((await services.store.readStream(leads.streamId(demoLeadId(demo.key)))).length) continue;
      await playStory(services, demo, metadata, context);
      created++;
      // Routing reads open leads and each rule's last choice: refreshed now and then as the stories move on.
      if (index % 20 === 19) {
        await services.watcher.waitFor((await services.store.headPosition())!);
        context = await creationContext(services);
      }
    }
    const head = await services.store.headPosition();
    if (head) await services.watcher.waitFor(head);
    const converted = (await services.pool.query<{ n: string }>(`SELECT count(*) AS n FROM read.leads WHERE status = 'converted'`)).rows[0]?.n ?? '0';
    return `${created} of ${stories.length} demo leads created (${converted} converted into deals), ${DEMO_RULES.length} routing rules`;
  },
};
