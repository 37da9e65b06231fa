/**
 * Section "rebates": partners submit claims (multipart, with a document) while an administrator
 * reviews them, all over HTTP against the real portal (API and projector, demo data seeded).
 *
 * Each client loops: the demo partner submits a claim for a new invoice with one PDF; the partner's
 * History list is polled until it shows the claim; the administrator approves it with the
 * suggested amount, or marks it processing and then approves or rejects it; the partner reads the
 * Overview. Reported: commands per second (accepted submissions and reviews), latency per call, and
 * the lag from an accepted submission (its 201) to the list that shows it.
 */

import { performance } from 'node:perf_hooks';
import { callApi, CommandMeter, runReportedSection, signInForBench, startBenchPortal, untilListed, warmedUp } from './benchPortal';
import { summarize, type LatencySummary } from './percentiles';
import { latencyTable, commandsLine } from './reportTables';

export interface RebateBenchSettings {
  databaseUrl: string;
  redisUrl: string | undefined;
  seconds: number;
  warmupSeconds: number;
  clients: number;
}

export interface RebateBenchSection {
  clients: number;
  seconds: number;
  commands: number;
  commandsPerSecond: number;
  errors: number;
  firstError: string | undefined;
  submit: LatencySummary;
  review: LatencySummary;
  overview: LatencySummary;
  visibleLag: LatencySummary;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

export async function runRebateBench(settings: RebateBenchSettings, log: (line: string) => void): Promise<RebateBenchSection> {
  const bench = await startBenchPortal(settings);
  const { prefix, baseUrl } = bench;
  try {
    const [admin, partner] = await Promise.all(['admin@partnerhub.test', 'partner@partnerhub.test'].map((email) => signInForBench(baseUrl, email)));
    const today = new Date().toISOString().slice(0, 10);
    let sequence = 0;

    const run = async (seconds: number, record: boolean) => {
      const latency = { submit: [] as number[], review: [] as number[], overview: [] as number[], visible: [] as number[] };
      let accepted = 0;
      const meter = new CommandMeter();
      const fail = (message: string) => meter.fail(message);
      const timed = <T>(latencies: number[], work: () => Promise<T>) => meter.timed(latencies, work);
      const started = performance.now();
      const deadline = started + seconds * 1000;
      await Promise.all(
        Array.from({ length: settings.clients }, async () => {
          while (performance.now() < deadline) {
            const invoice = `BENCH-${prefix}-${++sequence}`;
            const form = new FormData();
            const fields = {
              product_name: 'HX-M2424 24-Port Gigabit Managed Switch',
              product_category: 'Managed Switches',
              purchase_date: today,
              invoice_number: invoice,
              purchase_amount: (100 + Math.random() * 5000).toFixed(2),
              rebate_type: 'Volume Rebate',
              description: 'Load test claim.',
            };
            for (const [name, value] of Object.entries(fields)) form.append(name, value);
            form.append('attachments', new Blob([new Uint8Array(PDF)]), 'invoice.pdf');
            const submitted = await timed(latency.submit, () => callApi(baseUrl, partner, 'POST', '/api/rebates/submit', form));
            const acceptedAt = performance.now();
            if (submitted.status !== 201) {
              fail(`POST /api/rebates/submit answered ${submitted.status}: ${JSON.stringify(submitted.json)}`);
              continue;
            }
            accepted++;
            const rebate = submitted.json.data as { id: string; suggested_rebate_amount: number };
            const lag = await untilListed(
              baseUrl,
              partner,
              `/api/rebates/user?search=${invoice}`,
              (data) => (data.rebates as Array<{ id: string }>).some((r) => r.id === rebate.id),
              acceptedAt,
              fail,
              `Rebate ${invoice}`,
            );
            if (lag !== undefined) latency.visible.push(lag);
            const roll = Math.random();
            const steps =
              roll < 0.5
                ? [{ status: 'approved', rebate_amount: rebate.suggested_rebate_amount, notes: 'Approved after review' }]
                : roll < 0.8
                  ? [{ status: 'processing' }, { status: 'approved', rebate_amount: rebate.suggested_rebate_amount }]
                  : [{ status: 'processing' }, { status: 'rejected', notes: 'Bench: not eligible.' }];
            for (const step of steps) {
              const reviewed = await timed(latency.review, () => callApi(baseUrl, admin, 'PATCH', `/api/rebates/admin/${rebate.id}/status`, step));
              if (reviewed.status !== 200) {
                fail(`PATCH status ${step.status} answered ${reviewed.status}: ${JSON.stringify(reviewed.json)}`);
                break;
              }
              accepted++;
            }
            const overview = await timed(latency.overview, () => callApi(baseUrl, partner, 'GET', '/api/rebates/dashboard/overview'));
            if (overview.status !== 200) fail(`GET overview answered ${overview.status}`);
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
      submit: summarize(measured.latency.submit),
      review: summarize(measured.latency.review),
      overview: summarize(measured.latency.overview),
      visibleLag: summarize(measured.latency.visible),
    };
  } finally {
    await bench.stop();
  }
}

export function rebateBenchTable(section: RebateBenchSection): string {
  return [
    latencyTable(`Rebates (${section.clients} concurrent clients)`, [
      ['POST /api/rebates/submit (1 PDF)', section.submit],
      ['PATCH /api/rebates/admin/:id/status', section.review],
      ['GET /api/rebates/dashboard/overview', section.overview],
      ['accepted → listed in GET /api/rebates/user', section.visibleLag],
    ]),
    commandsLine(section),
  ].join('\n');
}

export function runRebateSection(settings: RebateBenchSettings, log: (line: string) => void, results: { errors: Record<string, string> }): Promise<string[]> {
  return runReportedSection(
    'rebates',
    'Rebates: submitting claims with documents and reviewing them from concurrent clients',
    () => runRebateBench(settings, log),
    rebateBenchTable,
    log,
    results,
  );
}
