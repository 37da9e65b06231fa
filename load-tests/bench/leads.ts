/**
 * Section "leads": an administrator imports a CSV of leads (one command per row, each routed by the
 * rules), then the demo partner accepts the leads routed to it from concurrent clients, all over
 * HTTP against the real portal. Reported: import rows per second, and acceptance commands per second
 * with their latency.
 */

import { performance } from 'node:perf_hooks';
import { callApi, CommandMeter, runReportedSection, signInForBench, startBenchPortal } from './benchPortal';
import { summarize, type LatencySummary } from './percentiles';
import { formatCount, formatMs, formatRate, renderTable } from './reportTables';

export interface LeadBenchSettings {
  databaseUrl: string;
  redisUrl: string | undefined;
  clients: number;
  rows: number;
}

export interface LeadBenchSection {
  rows: number;
  importSeconds: number;
  rowsPerSecond: number;
  clients: number;
  accepts: number;
  acceptsPerSecond: number;
  errors: number;
  firstError: string | undefined;
  accept: LatencySummary;
}

export async function runLeadBench(settings: LeadBenchSettings, log: (line: string) => void): Promise<LeadBenchSection> {
  const bench = await startBenchPortal(settings);
  const { prefix, baseUrl } = bench;
  try {
    const [admin, partner] = await Promise.all(['admin@partnerhub.test', 'partner@partnerhub.test'].map((email) => signInForBench(baseUrl, email)));
    // Americas leads go to the demo partner by the demo rules.
    const lines = ['company,contact_name,email,country,region,product_interest,estimated_value,source'];
    for (let i = 0; i < settings.rows; i++)
      lines.push(`Bench ${prefix} ${i},Person ${i},p${i}@bench-${prefix}-${i}.example,US,Americas,Managed Switches,${1000 + i},web_form`);
    const form = new FormData();
    form.append('file', new Blob([lines.join('\n')], { type: 'text/csv' }), 'leads.csv');
    log(`  importing ${settings.rows} rows`);
    const started = performance.now();
    const imported = await callApi(baseUrl, admin, 'POST', '/api/leads/import', form);
    const importSeconds = (performance.now() - started) / 1000;
    if (imported.status !== 201) throw new Error(`POST /api/leads/import answered ${imported.status}: ${JSON.stringify(imported.json).slice(0, 300)}`);

    const waiting: string[] = [];
    for (let page = 1; ; page++) {
      const listed = await callApi(
        baseUrl,
        partner,
        'GET',
        `/api/leads?status=assigned&search=${encodeURIComponent(`Bench ${prefix}`)}&limit=100&page=${page}`,
      );
      waiting.push(...listed.json.data.leads.map((l: { id: string }) => l.id));
      if (listed.json.data.leads.length < 100) break;
    }
    log(`  ${settings.clients} clients accept ${waiting.length} leads`);
    const meter = new CommandMeter();
    const latencies: number[] = [];
    const acceptStarted = performance.now();
    let accepts = 0;
    await Promise.all(
      Array.from({ length: settings.clients }, async () => {
        for (let id = waiting.pop(); id; id = waiting.pop()) {
          const answer = await meter.timed(latencies, () => callApi(baseUrl, partner, 'POST', `/api/leads/${id}/accept`));
          if (answer.status === 200) accepts++;
          else meter.fail(`POST /api/leads/:id/accept answered ${answer.status}: ${JSON.stringify(answer.json)}`);
        }
      }),
    );
    const acceptSeconds = (performance.now() - acceptStarted) / 1000;
    return {
      rows: settings.rows,
      importSeconds,
      rowsPerSecond: settings.rows / importSeconds,
      clients: settings.clients,
      accepts,
      acceptsPerSecond: accepts / acceptSeconds,
      errors: meter.errors,
      firstError: meter.firstError,
      accept: summarize(latencies),
    };
  } finally {
    await bench.stop();
  }
}

export function leadBenchTable(section: LeadBenchSection): string {
  const s = section.accept;
  return [
    renderTable(
      `Leads (${formatCount(section.rows)}-row import, ${section.clients} accepting clients)`,
      ['what', 'count', 'rate', 'p50', 'p95', 'p99', 'max'],
      [
        [
          'POST /api/leads/import (routed, one command per row)',
          formatCount(section.rows),
          `${formatRate(section.rowsPerSecond)} rows`,
          '',
          '',
          '',
          formatMs(section.importSeconds * 1000),
        ],
        [
          'POST /api/leads/:id/accept',
          formatCount(s.count),
          formatRate(section.acceptsPerSecond),
          formatMs(s.p50),
          formatMs(s.p95),
          formatMs(s.p99),
          formatMs(s.max),
        ],
      ],
    ),
    `   accepted: ${formatCount(section.accepts)} (${section.errors} errors${section.firstError ? `; first: ${section.firstError}` : ''})`,
  ].join('\n');
}

export function runLeadSection(settings: LeadBenchSettings, log: (line: string) => void, results: { errors: Record<string, string> }): Promise<string[]> {
  return runReportedSection(
    'leads',
    'Leads: importing a CSV and accepting the routed leads from concurrent clients',
    () => runLeadBench(settings, log),
    leadBenchTable,
    log,
    results,
  );
}
