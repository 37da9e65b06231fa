/**
 * Section "funds": the demo partner requests market development funds and claims them with proof while
 * an administrator approves each request and claim and records the payout, over HTTP against the real
 * portal (API and projector, demo data seeded).
 *
 * Each client loops through one activity's life: request (multipart, one PDF), approval (reserves on
 * the fund's stream, so concurrent approvals contend for it), claim (multipart, one PDF), claim approval,
 * payout. Reported: commands per second (every accepted step) and latency per step.
 */

import { performance } from 'node:perf_hooks';
import { callApi, CommandMeter, runReportedSection, signInForBench, startBenchPortal, warmedUp } from './benchPortal';
import { summarize, type LatencySummary } from './percentiles';
import { latencyTable, commandsLine } from './reportTables';
import type { RebateBenchSettings } from './rebates';

export interface FundBenchSection {
  clients: number;
  seconds: number;
  commands: number;
  commandsPerSecond: number;
  errors: number;
  firstError: string | undefined;
  request: LatencySummary;
  review: LatencySummary;
  claim: LatencySummary;
  claimReview: LatencySummary;
  payout: LatencySummary;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const dayOf = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

function multipart(fields: Record<string, string>, fileField: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(fileField, new Blob([new Uint8Array(PDF)]), 'proof.pdf');
  return form;
}

export async function runFundBench(settings: RebateBenchSettings, log: (line: string) => void): Promise<FundBenchSection> {
  const bench = await startBenchPortal(settings);
  const { baseUrl } = bench;
  try {
    const [admin, partner] = await Promise.all(['admin@partnerhub.test', 'partner@partnerhub.test'].map((email) => signInForBench(baseUrl, email)));
    const balance = await callApi(baseUrl, partner, 'GET', '/api/funds/balance');
    const start = dayOf(-10);
    const fund = (balance.json.data.funds as Array<{ fund_id: string; period_start: string; period_end: string }>).find(
      (f) => f.period_start <= start && f.period_end >= dayOf(-2),
    );
    if (!fund) throw new Error('The demo partner has no fund covering the last ten days.');

    const run = async (seconds: number, record: boolean) => {
      const latency = { request: [] as number[], review: [] as number[], claim: [] as number[], claimReview: [] as number[], payout: [] as number[] };
      let accepted = 0;
      const meter = new CommandMeter();
      const step = async (latencies: number[], expected: number, what: string, call: () => Promise<{ status: number; json: { data?: { id: string } } }>) => {
        const answer = await meter.timed(latencies, call);
        if (answer.status !== expected) {
          meter.fail(`${what} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
          return undefined;
        }
        accepted++;
        return answer.json.data;
      };
      const started = performance.now();
      const deadline = started + seconds * 1000;
      await Promise.all(
        Array.from({ length: settings.clients }, async () => {
          while (performance.now() < deadline) {
            const fields = {
              fund_id: fund.fund_id,
              activity_type: 'webinar',
              title: 'Bench webinar',
              description: 'Load test activity.',
              start_date: start,
              end_date: dayOf(-2),
              planned_cost: '20.00',
              requested_amount: '10.00',
              expected_leads: '5',
            };
            const request = await step(latency.request, 201, 'POST /api/fund-requests', () =>
              callApi(baseUrl, partner, 'POST', '/api/fund-requests', multipart(fields, 'attachments')),
            );
            if (!request) continue;
            if (
              !(await step(latency.review, 200, 'POST /api/fund-requests/:id/review', () =>
                callApi(baseUrl, admin, 'POST', `/api/fund-requests/${request.id}/review`, { decision: 'approved', approved_amount: 10 }),
              ))
            )
              continue;
            const claim = await step(latency.claim, 201, 'POST /api/fund-claims', () =>
              callApi(
                baseUrl,
                partner,
                'POST',
                '/api/fund-claims',
                multipart({ request_id: request.id, actual_cost: '20.00', claimed_amount: '10.00', leads_generated: '6' }, 'proof'),
              ),
            );
            if (!claim) continue;
            if (
              !(await step(latency.claimReview, 200, 'POST /api/fund-claims/:id/review', () =>
                callApi(baseUrl, admin, 'POST', `/api/fund-claims/${claim.id}/review`, { decision: 'approved', paid_amount: 10 }),
              ))
            )
              continue;
            await step(latency.payout, 200, 'POST /api/fund-claims/:id/payout', () =>
              callApi(baseUrl, admin, 'POST', `/api/fund-claims/${claim.id}/payout`, {
                reference: `BENCH-${claim.id.slice(0, 8)}`,
                paid_at: dayOf(0),
                method: 'bank_transfer',
              }),
            );
          }
        }),
      );
      if (!record) return undefined;
      return { elapsed: (performance.now() - started) / 1000, latency, accepted, errors: meter.errors, firstError: meter.firstError };
    };

    const measured = await warmedUp(settings, run, log);
    return {
      clients: settings.clients,
      seconds: measured.elapsed,
      commands: measured.accepted,
      commandsPerSecond: measured.accepted / measured.elapsed,
      errors: measured.errors,
      firstError: measured.firstError,
      request: summarize(measured.latency.request),
      review: summarize(measured.latency.review),
      claim: summarize(measured.latency.claim),
      claimReview: summarize(measured.latency.claimReview),
      payout: summarize(measured.latency.payout),
    };
  } finally {
    await bench.stop();
  }
}

export function fundBenchTable(section: FundBenchSection): string {
  return [
    latencyTable(`Market development funds (${section.clients} concurrent clients)`, [
      ['POST /api/fund-requests (1 PDF)', section.request],
      ['POST /api/fund-requests/:id/review (reserves)', section.review],
      ['POST /api/fund-claims (1 PDF)', section.claim],
      ['POST /api/fund-claims/:id/review', section.claimReview],
      ['POST /api/fund-claims/:id/payout', section.payout],
    ]),
    commandsLine(section),
  ].join('\n');
}

export function runFundSection(settings: RebateBenchSettings, log: (line: string) => void, results: { errors: Record<string, string> }): Promise<string[]> {
  return runReportedSection(
    'funds',
    'Market development funds: requests and claims with proof, approvals and payouts from concurrent clients',
    () => runFundBench(settings, log),
    fundBenchTable,
    log,
    results,
  );
}
