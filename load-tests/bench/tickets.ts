/**
 * Section "tickets": partners and distributors open support cases (multipart) while support staff
 * work them, all over HTTP against the real portal (API and projector, demo data seeded).
 *
 * Each client loops: a customer (partner or distributor, alternately) opens a ticket; support then
 * polls GET /api/tickets until the ticket is listed in the queue, assigns it, adds an internal note
 * and a public reply, and resolves it. Reported: commands per second, latency per command, and the
 * lag from the 201 of the opening to the first queue read that lists the ticket.
 */

import { performance } from 'node:perf_hooks';
import { callApi, CommandMeter, runReportedSection, signInForBench, startBenchPortal, untilListed, warmedUp } from './benchPortal';
import { summarize, type LatencySummary } from './percentiles';
import { formatCount, latencyTable, commandsLine } from './reportTables';

export interface TicketBenchSettings {
  databaseUrl: string;
  redisUrl: string | undefined;
  seconds: number;
  warmupSeconds: number;
  clients: number;
}

export interface TicketBenchSection {
  clients: number;
  seconds: number;
  commands: number;
  commandsPerSecond: number;
  ticketsOpened: number;
  errors: number;
  firstError: string | undefined;
  open: LatencySummary;
  work: LatencySummary;
  visibleLag: LatencySummary;
}

export async function runTicketBench(settings: TicketBenchSettings, log: (line: string) => void): Promise<TicketBenchSection> {
  const bench = await startBenchPortal(settings);
  const { baseUrl } = bench;
  try {
    const [partner, distributor, support] = await Promise.all(
      ['partner@partnerhub.test', 'distributor@partnerhub.test', 'support@partnerhub.test'].map((email) => signInForBench(baseUrl, email)),
    );
    const assignees = (await callApi(baseUrl, support, 'GET', '/api/tickets/assignees')).json.data as Array<{ id: string }>;

    const run = async (seconds: number, record: boolean) => {
      const openLatency: number[] = [];
      const workLatency: number[] = [];
      const visibleLag: number[] = [];
      let commands = 0;
      const meter = new CommandMeter();
      const started = performance.now();
      const deadline = started + seconds * 1000;
      const fail = (message: string) => meter.fail(message);
      const timed = <T>(latencies: number[], work: () => Promise<T>) => meter.timed(latencies, work);

      await Promise.all(
        Array.from({ length: settings.clients }, async (_, client) => {
          let n = 0;
          while (performance.now() < deadline) {
            const customer = (client + n++) % 2 === 0 ? partner : distributor;
            const form = new FormData();
            form.append('title', `Bench case ${client}-${n}`);
            form.append('description', 'A support case opened by the load test.');
            form.append('priority', ['Low', 'Medium', 'High', 'Critical'][n % 4]);
            form.append('tags', 'bench, load');
            const opened = await timed(openLatency, () => callApi(baseUrl, customer, 'POST', '/api/tickets', form));
            const acceptedAt = performance.now();
            if (opened.status !== 201) {
              fail(`POST /api/tickets answered ${opened.status}: ${JSON.stringify(opened.json)}`);
              continue;
            }
            commands++;
            const ticket = opened.json.data as { id: string; ticket_id: string };
            const lag = await untilListed(
              baseUrl,
              support,
              `/api/tickets?search=${ticket.ticket_id}`,
              (data) => (data.tickets as Array<{ id: string }>).some((t) => t.id === ticket.id),
              acceptedAt,
              fail,
              `Ticket ${ticket.ticket_id}`,
            );
            if (lag !== undefined) visibleLag.push(lag);
            const steps: Array<[string, string, unknown]> = [
              ['PATCH', `/api/tickets/${ticket.id}/assign`, { assigned_to: assignees[n % assignees.length].id }],
              ['POST', `/api/tickets/${ticket.id}/comments`, { comment: 'Internal: bench note', is_internal: true }],
              ['POST', `/api/tickets/${ticket.id}/comments`, { comment: 'Thanks, we are on it.', is_internal: false }],
              ['PATCH', `/api/tickets/${ticket.id}/status`, { status: 'Resolved', comment: 'Resolved by the bench.', resolution_notes: 'Bench' }],
            ];
            for (const [method, path, body] of steps) {
              const answer = await timed(workLatency, () => callApi(baseUrl, support, method, path, body));
              if (answer.status >= 300) {
                fail(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
                break;
              }
              commands++;
            }
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      if (!record) return undefined;
      return { elapsed, openLatency, workLatency, visibleLag, errors: meter.errors, firstError: meter.firstError, commands };
    };

    const measured = await warmedUp(settings, run, log);
    return {
      clients: settings.clients,
      seconds: measured.elapsed,
      commands: measured.commands,
      commandsPerSecond: measured.commands / measured.elapsed,
      ticketsOpened: measured.openLatency.length,
      errors: measured.errors,
      firstError: measured.firstError,
      open: summarize(measured.openLatency),
      work: summarize(measured.workLatency),
      visibleLag: summarize(measured.visibleLag),
    };
  } finally {
    await bench.stop();
  }
}

export function ticketBenchTable(section: TicketBenchSection): string {
  return [
    latencyTable(`Tickets (${section.clients} concurrent clients)`, [
      ['POST /api/tickets (open, multipart)', section.open],
      ['assign, note, reply, resolve', section.work],
      ['accepted → listed in the queue', section.visibleLag],
    ]),
    commandsLine(section, `${formatCount(section.ticketsOpened)} tickets opened, `),
  ].join('\n');
}

export function runTicketSection(settings: TicketBenchSettings, log: (line: string) => void, results: { errors: Record<string, string> }): Promise<string[]> {
  return runReportedSection(
    'tickets',
    'Tickets: opening support cases and working them from concurrent clients',
    () => runTicketBench(settings, log),
    ticketBenchTable,
    log,
    results,
  );
}
