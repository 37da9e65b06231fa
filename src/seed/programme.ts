import type { Benefits, Requirement, TierFields } from '../../domain/programme/programme';
import { programmeTiers } from '../../domain/programme/programme';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { evaluateProgramme } from '../../commands/programme';
import { tierWithRank } from '../../projections/programme';
import type { Seeder } from './seeder';
import { demoCalendar } from './timeline';

export const demoTierId = (key: string) => deterministicUuid(`demo-programme-tier:${key}`);
const demoRunId = (key: string) => deterministicUuid(`demo-programme-run:${key}`);

const benefits = (rebate: number, mdf: number, protection: number, discount: number, support: Benefits['support_priority']): Benefits => ({
  rebate_rate_percent: rebate,
  mdf_share_percent: mdf,
  protection_days: protection,
  catalogue_discount_percent: discount,
  support_priority: support,
});
const purchases = (dollars: number): Requirement => ({ kind: 'delivered_purchases', target: dollars * 100, window_months: 12 });
const won = (deals: number): Requirement => ({ kind: 'deals_won', target: deals, window_months: 12 });
const approved = (deals: number): Requirement => ({ kind: 'deals_approved', target: deals, window_months: 12 });
const certified = (people: number): Requirement => ({ kind: 'certified_people', target: people, window_months: 12 });

/**
 * The demo ladder. Its rebate rates are those of the quarterly rebate ladder it replaces (Bronze 2 %,
 * Silver 3.5 %, Gold 5 %, Platinum 6.5 %), so claims keep the rates they were suggested before.
 */
export const DEMO_TIERS: ReadonlyArray<{ key: string; fields: TierFields }> = [
  {
    key: 'registered',
    fields: {
      name: 'Registered',
      rank: 0,
      description: 'Every approved partner starts here.',
      requirements: [],
      benefits: benefits(2, 100, 60, 0, 'standard'),
    },
  },
  {
    key: 'silver',
    fields: {
      name: 'Silver',
      rank: 1,
      description: 'Partners with a steady business.',
      requirements: [purchases(5_000)],
      benefits: benefits(3.5, 110, 120, 3, 'standard'),
    },
  },
  {
    key: 'gold',
    fields: {
      name: 'Gold',
      rank: 2,
      description: 'Partners who win deals with us.',
      requirements: [purchases(40_000), won(5), certified(1)],
      benefits: benefits(5, 125, 150, 5, 'priority'),
    },
  },
  {
    key: 'platinum',
    fields: {
      name: 'Platinum',
      rank: 3,
      description: 'Our strategic partners.',
      requirements: [purchases(150_000), won(20), approved(10), certified(3)],
      benefits: benefits(6.5, 150, 180, 8, 'premium'),
    },
  },
];

/** Silver as raised later in the demo year: more purchases and a won deal. */
const RAISED_SILVER: Requirement[] = [purchases(10_000), won(1)];

/**
 * The programme's demo history: the ladder, a quarterly evaluation some 110 days ago (its own
 * quarter), Silver's requirements raised a month ago, and this quarter's evaluation: organisations
 * then hold different tiers, and one that no longer meets the raised Silver is at risk.
 */
export const seedProgramme: Seeder = {
  name: 'programme',
  async run(services, metadata) {
    const calendar = demoCalendar(services, metadata);
    const setUp = calendar.at(Math.max(120, calendar.historyDays), 8);
    let created = 0;
    for (const tier of DEMO_TIERS) {
      const id = demoTierId(tier.key);
      if ((await services.store.readStream(programmeTiers.streamId(id))).length) continue;
      await runCommand(
        services,
        programmeTiers,
        id,
        { type: 'CreateTier', tierId: id, fields: tier.fields, rankTaken: await tierWithRank(services.pool, tier.fields.rank, id) },
        setUp,
      );
      created += 1;
    }
    const earlier = await evaluateProgramme(services, { runId: demoRunId('earlier-quarter'), trigger: 'schedule' }, calendar.at(110, 6));
    const silver = demoTierId('silver');
    await runCommand(
      services,
      programmeTiers,
      silver,
      { type: 'UpdateTier', tierId: silver, changes: { requirements: RAISED_SILVER }, rankTaken: false },
      calendar.at(30, 9),
    );
    const current = await evaluateProgramme(services, { runId: demoRunId('this-quarter'), trigger: 'admin' }, metadata);
    const results = current?.results ?? [];
    const summary = results.map((r) => `${r.organisation_name}: ${r.to_tier?.name ?? '-'}${r.outcome === 'at_risk' ? ' (at risk)' : ''}`).join(', ');
    return `${created} of ${DEMO_TIERS.length} tiers added; ${earlier ? 'an earlier quarter and ' : ''}${current ? `this quarter evaluated (${summary})` : 'evaluations there already'}`;
  },
};
