import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fold, type CommandMetadata } from '../../domain/decider';
import { funds } from '../../domain/funds/funds';
import { claimDeadlineOf, fundRequests, type FundAttachment } from '../../domain/funds/requests';
import { projects, type ProjectEvent } from '../../domain/projects/projects';
import { findUser } from '../../projections/users';
import { deterministicUuid } from '../../platform/commands/commandHandler';
import { runCommand } from '../../platform/commands/dispatch';
import { fundContext, recordFundPayout, releaseLapsedRequest, requestState, reviewFundClaim, reviewFundRequest, submitFundClaim } from '../../commands/funds';
import { asDomainEvents } from '../../platform/eventstore';
import type { Services } from '../../platform/services';
import { demoUserId } from './identity';
import { demoProjectId } from './projects';
import { badgePng } from './partners';
import type { Seeder } from './seeder';

const DAY_MS = 86_400_000;
const NORTHWIND = 'partner@partnerhub.test';
const ATLAS = 'distributor@partnerhub.test';
const PAMPAS = 'lucia.fernandez@pampas-digital.test';
const SAKURA = 'kenji.mori@sakura-netcom.test';

/** Two fund periods: the one before (ended) and the current one, relative to the day of seeding. */
const DEMO_FUNDS = [
  {
    key: 'previous',
    name: 'Previous half-year marketing fund',
    start: -200,
    end: -20,
    budget: 200_000,
    coopPercent: 0,
    allocations: { [NORTHWIND]: 40_000, [ATLAS]: 30_000, [PAMPAS]: 25_000, [SAKURA]: 25_000 },
  },
  {
    key: 'current',
    name: 'Current half-year marketing fund',
    start: -30,
    end: 150,
    budget: 250_000,
    coopPercent: 2,
    allocations: { [NORTHWIND]: 50_000, [ATLAS]: 40_000, [PAMPAS]: 30_000, [SAKURA]: 30_000 },
  },
] as const;

type Stage =
  'pending' | 'changes_requested' | 'rejected' | 'approved' | 'released' | 'claim_pending' | 'claim_more_proof' | 'claim_rejected' | 'claim_approved' | 'paid';

interface DemoActivity {
  organisation: string;
  fund: 'previous' | 'current';
  type: string;
  title: string;
  description: string;
  /** Days from the day of seeding. */
  start: number;
  end: number;
  planned: number;
  requested: number;
  /** What the reviewer approves (the request's amount when not given). */
  approved?: number;
  leads: number;
  stage: Stage;
}

/** Requests and claims in every state, across four organisations and both periods. */
export const DEMO_ACTIVITIES: readonly DemoActivity[] = [
  {
    organisation: NORTHWIND,
    fund: 'previous',
    type: 'trade_show',
    title: 'Industrial Automation Expo booth',
    description: 'Shared booth with two live demo racks.',
    start: -150,
    end: -147,
    planned: 18_000,
    requested: 9_000,
    approved: 8_000,
    leads: 120,
    stage: 'paid',
  },
  {
    organisation: NORTHWIND,
    fund: 'previous',
    type: 'print',
    title: 'Campus networking brochure',
    description: 'Print run of 5,000 brochures for the education vertical.',
    start: -140,
    end: -95,
    planned: 4_000,
    requested: 2_000,
    leads: 0,
    stage: 'released',
  },
  {
    organisation: NORTHWIND,
    fund: 'previous',
    type: 'event',
    title: 'Customer golf day',
    description: 'Hospitality event for hospital IT managers.',
    start: -120,
    end: -119,
    planned: 6_000,
    requested: 3_000,
    leads: 15,
    stage: 'claim_rejected',
  },
  {
    organisation: NORTHWIND,
    fund: 'current',
    type: 'webinar',
    title: 'Zero-trust campus webinar series',
    description: 'Three webinars with a live switch configuration demo.',
    start: -25,
    end: -10,
    planned: 7_500,
    requested: 5_000,
    approved: 4_500,
    leads: 60,
    stage: 'claim_pending',
  },
  {
    organisation: NORTHWIND,
    fund: 'current',
    type: 'digital_campaign',
    title: 'LinkedIn industrial switching campaign',
    description: 'Sponsored content targeting plant engineers.',
    start: -28,
    end: -14,
    planned: 10_000,
    requested: 6_000,
    leads: 80,
    stage: 'claim_approved',
  },
  {
    organisation: NORTHWIND,
    fund: 'current',
    type: 'content_syndication',
    title: 'Whitepaper syndication: PoE for IoT',
    description: 'Syndication of the PoE whitepaper through two publishers.',
    start: -20,
    end: -8,
    planned: 5_000,
    requested: 3_000,
    leads: 45,
    stage: 'claim_more_proof',
  },
  {
    organisation: NORTHWIND,
    fund: 'current',
    type: 'event',
    title: 'Smart building roadshow',
    description: 'Four-city roadshow with the building automation partner.',
    start: 20,
    end: 45,
    planned: 24_000,
    requested: 12_000,
    approved: 10_000,
    leads: 150,
    stage: 'approved',
  },
  {
    organisation: NORTHWIND,
    fund: 'current',
    type: 'trade_show',
    title: 'Healthcare IT summit',
    description: 'Booth at the regional healthcare IT summit.',
    start: 60,
    end: 62,
    planned: 15_000,
    requested: 7_500,
    leads: 90,
    stage: 'pending',
  },
  {
    organisation: NORTHWIND,
    fund: 'current',
    type: 'other',
    title: 'Partner demo lab refresh',
    description: 'Refresh of the demo lab with current switches.',
    start: 30,
    end: 40,
    planned: 9_000,
    requested: 6_000,
    leads: 10,
    stage: 'changes_requested',
  },
  {
    organisation: ATLAS,
    fund: 'previous',
    type: 'event',
    title: 'Reseller kick-off day',
    description: 'Annual kick-off for 80 resellers with product training.',
    start: -160,
    end: -159,
    planned: 20_000,
    requested: 10_000,
    leads: 40,
    stage: 'paid',
  },
  {
    organisation: ATLAS,
    fund: 'current',
    type: 'digital_campaign',
    title: 'Distributor web shop promotion',
    description: 'Banner campaign on the distributor web shop.',
    start: -25,
    end: -5,
    planned: 8_000,
    requested: 4_000,
    leads: 70,
    stage: 'claim_pending',
  },
  {
    organisation: ATLAS,
    fund: 'current',
    type: 'print',
    title: 'Catalogue insert',
    description: 'Four-page insert in the quarterly reseller catalogue.',
    start: 15,
    end: 20,
    planned: 3_000,
    requested: 1_500,
    leads: 0,
    stage: 'pending',
  },
  {
    organisation: ATLAS,
    fund: 'current',
    type: 'other',
    title: 'Sales incentive trip',
    description: 'Incentive trip for the top resellers.',
    start: 40,
    end: 45,
    planned: 30_000,
    requested: 15_000,
    leads: 0,
    stage: 'rejected',
  },
  {
    organisation: PAMPAS,
    fund: 'previous',
    type: 'webinar',
    title: 'Retail networking webinar (Spanish)',
    description: 'Webinar for retail chains in Latin America.',
    start: -130,
    end: -130,
    planned: 3_000,
    requested: 2_000,
    leads: 35,
    stage: 'paid',
  },
  {
    organisation: PAMPAS,
    fund: 'current',
    type: 'trade_show',
    title: 'Buenos Aires IT fair',
    description: 'Booth at the Buenos Aires IT fair.',
    start: 25,
    end: 27,
    planned: 12_000,
    requested: 6_000,
    leads: 100,
    stage: 'approved',
  },
  {
    organisation: SAKURA,
    fund: 'previous',
    type: 'event',
    title: 'Carrier network seminar',
    description: 'Seminar for metro carrier engineers in Osaka.',
    start: -110,
    end: -110,
    planned: 9_000,
    requested: 5_000,
    leads: 50,
    stage: 'claim_approved',
  },
];

/**
 * Deal registrations naming the activity that produced them (by the activity's index above), so an
 * activity's pipeline and revenue, and its return, come from real deals and their delivered orders:
 * Contoso carries the delivered order northwind-1.
 */
const DEMO_DEALS: ReadonlyArray<{ project: string; activity: number }> = [
  { project: 'northwind-contoso', activity: 0 },
  { project: 'northwind-harbour', activity: 0 },
  { project: 'northwind-clinic', activity: 4 },
];

async function linkDemoDeals(services: Services, metadata: CommandMetadata): Promise<number> {
  let linked = 0;
  for (const deal of DEMO_DEALS) {
    const demo = DEMO_ACTIVITIES[deal.activity];
    const requestId = deterministicUuid(`demo-fund-request:${demo.organisation}:${deal.activity}`);
    const request = await requestState(services, requestId);
    if (request.status !== 'approved' && request.status !== 'claimed') continue;
    const projectId = demoProjectId(deal.project);
    const project = fold(projects, asDomainEvents<ProjectEvent>(await services.store.readStream(projects.streamId(projectId))));
    if (!('details' in project) || project.details.fund_request_id) continue;
    const owner = { ...metadata, actorId: project.organisationId, actorRole: 'partner' };
    await runCommand(services, projects, projectId, { type: 'UpdateProject', details: { ...project.details, fund_request_id: requestId } }, owner);
    linked++;
  }
  return linked;
}

const NOT_REVIEWED: readonly Stage[] = ['pending'];
const CLAIMED: readonly Stage[] = ['claim_pending', 'claim_more_proof', 'claim_rejected', 'claim_approved', 'paid'];

/** A small proof file in the private uploads, written once under a name derived from the activity. */
async function ensureProof(services: Services, key: string, kind: 'plan' | 'invoice' | 'photo' | 'attendees', title: string): Promise<FundAttachment> {
  const type = kind === 'photo' ? 'png' : kind === 'attendees' ? 'csv' : 'pdf';
  const file = `${deterministicUuid(`demo-fund-file:${key}:${kind}`)}.${type}`;
  const target = path.join(services.config.UPLOAD_DIR, 'private', file);
  const bytes =
    type === 'png'
      ? badgePng('#1565c0', '#90caf9')
      : type === 'csv'
        ? Buffer.from(
            'name,company,email\nAna Silva,Hospital Norte,ana.silva@example.test\nKai Weber,City Campus,kai.weber@example.test\nMia Tanaka,Metro Rail,mia.tanaka@example.test\n',
          )
        : Buffer.from(
            `%PDF-1.4\n1 0 obj << /Type /Catalog /Title (${title.replace(/[()\\]/g, '')} ${kind}) >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
            'latin1',
          );
  const exists = await access(target).then(
    () => true,
    () => false,
  );
  if (!exists) {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
  const names = { plan: 'activity-plan.pdf', invoice: 'invoice.pdf', photo: 'booth-photo.png', attendees: 'attendees.csv' };
  return { file, name: names[kind], type, size: bytes.length };
}

export const demoFundId = (key: string) => deterministicUuid(`demo-fund:${key}`);

export const seedFunds: Seeder = {
  name: 'funds',
  async run(services, metadata) {
    const now = Date.parse(metadata.now);
    const dayOf = (offset: number) => new Date(now + offset * DAY_MS).toISOString().slice(0, 10);
    const at = (time: number, base: CommandMetadata): CommandMetadata => ({ ...base, now: new Date(Math.min(time, now - 60_000)).toISOString() });
    const admin = { ...metadata, actorRole: 'admin' };
    const organisations = new Map<string, string>();
    for (const email of [NORTHWIND, ATLAS, PAMPAS, SAKURA]) {
      const account = await findUser(services.pool, demoUserId(email));
      if (account?.is_active) organisations.set(email, account.id);
    }

    for (const fund of DEMO_FUNDS) {
      const fundId = demoFundId(fund.key);
      if ((await services.store.readStream(funds.streamId(fundId))).length) continue;
      await runCommand(
        services,
        funds,
        fundId,
        {
          type: 'CreateFund',
          fundId,
          name: fund.name,
          periodStart: dayOf(fund.start),
          periodEnd: dayOf(fund.end),
          budgetCents: fund.budget * 100,
          coopShareBasisPoints: fund.coopPercent * 100,
          allocations: Object.entries(fund.allocations)
            .filter(([email]) => organisations.has(email))
            .map(([email, amount]) => ({ organisationId: organisations.get(email)!, amountCents: amount * 100 })),
        },
        at(now + (fund.start - 10) * DAY_MS, admin),
      );
    }

    let created = 0;
    for (const [index, demo] of DEMO_ACTIVITIES.entries()) {
      const organisationId = organisations.get(demo.organisation);
      if (!organisationId) continue;
      const account = await findUser(services.pool, organisationId);
      const key = `${demo.organisation}:${index}`;
      const requestId = deterministicUuid(`demo-fund-request:${key}`);
      if ((await requestState(services, requestId)).status !== 'none') continue;
      const fundId = demoFundId(demo.fund);
      const window = services.config.FUND_CLAIM_WINDOW_DAYS;
      const deadline = claimDeadlineOf(dayOf(demo.end), window);
      // A claim made before a deadline that has passed by now is history: told only before the workers start
      // (DEMO_HISTORY_DAYS > 0), or the worker would rightly release the reservation before the claim is told.
      if (CLAIMED.includes(demo.stage) && deadline < dayOf(0) && services.config.DEMO_HISTORY_DAYS === 0) continue;
      // Likewise a period that has ended: the worker closes it as soon as it runs, so its activities are told only before.
      if (demo.fund === 'previous' && services.config.DEMO_HISTORY_DAYS === 0) continue;
      const partner = { ...metadata, actorId: organisationId, actorRole: account?.role ?? 'partner' };
      const submittedAt = now + (Math.min(demo.start, 0) - 14) * DAY_MS + 9 * 3600_000;
      const reviewedAt = submittedAt + 2 * DAY_MS;
      const fundNow = await fundContext(services, fundId, organisationId);
      if (!fundNow) continue;
      await runCommand(
        services,
        fundRequests,
        requestId,
        {
          type: 'SubmitFundRequest',
          requestId,
          fundId,
          organisationId,
          companyName: account?.company_name ?? null,
          submittedBy: organisationId,
          activityType: demo.type,
          title: demo.title,
          description: demo.description,
          startDate: dayOf(demo.start),
          endDate: dayOf(demo.end),
          plannedCostCents: demo.planned * 100,
          requestedAmountCents: demo.requested * 100,
          expectedLeads: demo.leads,
          attachments: [await ensureProof(services, key, 'plan', demo.title)],
          fund: fundNow,
        },
        at(submittedAt, partner),
      );
      created++;
      if (NOT_REVIEWED.includes(demo.stage)) continue;
      if (demo.stage === 'rejected' || demo.stage === 'changes_requested') {
        const note =
          demo.stage === 'rejected'
            ? 'Incentive travel is not a marketing activity under the programme.'
            : 'Please attach the supplier quote for the lab equipment.';
        await reviewFundRequest(services, requestId, { decision: demo.stage, approvedAmountCents: null, note, claimWindowDays: window }, at(reviewedAt, admin));
        continue;
      }
      const approved = (demo.approved ?? demo.requested) * 100;
      await reviewFundRequest(
        services,
        requestId,
        { decision: 'approved', approvedAmountCents: approved, note: demo.approved ? 'Approved without the travel costs.' : null, claimWindowDays: window },
        at(reviewedAt, admin),
      );
      if (demo.stage === 'approved') continue;
      if (demo.stage === 'released') {
        await releaseLapsedRequest(
          services,
          requestId,
          at(Date.parse(`${deadline}T00:00:00.000Z`) + DAY_MS + 3600_000, { ...metadata, actorId: null, actorRole: 'system' }),
        );
        continue;
      }
      if (!CLAIMED.includes(demo.stage)) continue;
      const claimId = deterministicUuid(`demo-fund-claim:${key}`);
      const claimedAt = now + (demo.end + 4) * DAY_MS + 10 * 3600_000;
      const claimed = Math.min(approved, demo.planned * 100 - 50_00);
      const request = await requestState(services, requestId);
      if (request.status !== 'approved') continue;
      await submitFundClaim(
        services,
        {
          type: 'SubmitFundClaim',
          claimId,
          requestId,
          fundId,
          organisationId,
          companyName: account?.company_name ?? null,
          submittedBy: organisationId,
          actualCostCents: demo.planned * 100 - 50_00,
          claimedAmountCents: claimed,
          leadsGenerated: Math.round(demo.leads * 1.1),
          proof: [
            await ensureProof(services, key, 'invoice', demo.title),
            await ensureProof(services, key, 'photo', demo.title),
            await ensureProof(services, key, 'attendees', demo.title),
          ],
          request: { status: request.status, approvedAmountCents: request.approvedAmountCents, endDate: request.endDate, claimDeadline: request.claimDeadline },
        },
        at(claimedAt, partner),
      );
      if (demo.stage === 'claim_pending') continue;
      const claimReviewedAt = claimedAt + 3 * DAY_MS;
      if (demo.stage === 'claim_more_proof' || demo.stage === 'claim_rejected') {
        const reason = demo.stage === 'claim_rejected' ? 'Hospitality is not covered by the fund.' : 'Please add the publisher’s lead report.';
        await reviewFundClaim(
          services,
          claimId,
          { decision: demo.stage === 'claim_rejected' ? 'rejected' : 'more_proof_requested', paidAmountCents: null, reason },
          at(claimReviewedAt, admin),
        );
        continue;
      }
      await reviewFundClaim(services, claimId, { decision: 'approved', paidAmountCents: claimed, reason: null }, at(claimReviewedAt, admin));
      if (demo.stage !== 'paid') continue;
      const paidAt = claimReviewedAt + 4 * DAY_MS;
      await recordFundPayout(
        services,
        claimId,
        { reference: `MDF-${String(index + 1).padStart(4, '0')}`, paidAt: new Date(Math.min(paidAt, now)).toISOString().slice(0, 10), method: 'bank_transfer' },
        at(paidAt, admin),
      );
    }
    const deals = await linkDemoDeals(services, metadata);
    return `${created} of ${DEMO_ACTIVITIES.length} demo fund requests created, ${deals} deals linked to their activities`;
  },
};
