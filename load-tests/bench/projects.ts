/**
 * Section "projects": concurrent partners register deal registrations, update them and add and edit
 * milestones, all over HTTP against the real portal (API and projector, demo data seeded).
 *
 * Each client loops: the demo partner registers a project (multipart POST /api/projects, which also
 * looks up conflicting registrations); another session (the manufacturer, who sees every
 * organisation's projects) polls GET /api/projects?search=<title> until it is listed; the partner
 * then updates it (PUT /api/projects/:id), adds two milestones and edits one. Reported: commands per
 * second (every accepted command), latency per command kind, and the accepted → listed lag.
 */

import { performance } from 'node:perf_hooks';
import { callApi, CommandMeter, runReportedSection, signInForBench, startBenchPortal, untilListed, warmedUp } from './benchPortal';
import { summarize, type LatencySummary } from './percentiles';
import { formatCount, latencyTable, commandsLine } from './reportTables';

export interface ProjectBenchSettings {
  databaseUrl: string;
  redisUrl: string | undefined;
  seconds: number;
  warmupSeconds: number;
  clients: number;
}

export interface ProjectBenchSection {
  clients: number;
  seconds: number;
  commands: number;
  commandsPerSecond: number;
  registered: number;
  errors: number;
  firstError: string | undefined;
  register: LatencySummary;
  update: LatencySummary;
  milestone: LatencySummary;
  visibleLag: LatencySummary;
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function runProjectBench(settings: ProjectBenchSettings, log: (line: string) => void): Promise<ProjectBenchSection> {
  const bench = await startBenchPortal(settings);
  const { prefix, baseUrl } = bench;
  try {
    const [partner, reader] = await Promise.all(['partner@partnerhub.test', 'manufacturer@partnerhub.test'].map((email) => signInForBench(baseUrl, email)));

    const run = async (seconds: number, record: boolean) => {
      const register: number[] = [];
      const update: number[] = [];
      const milestone: number[] = [];
      const visibleLag: number[] = [];
      let accepted = 0;
      let registered = 0;
      const meter = new CommandMeter();
      const started = performance.now();
      const deadline = started + seconds * 1000;
      const fail = (message: string) => meter.fail(message);
      const timed = <T>(latencies: number[], work: () => Promise<T>) => meter.timed(latencies, work);
      const expect = (answer: { status: number; json: unknown }, status: number, what: string) => {
        if (answer.status === status) {
          accepted++;
          return true;
        }
        fail(`${what} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
        return false;
      };

      await Promise.all(
        Array.from({ length: settings.clients }, async (_, client) => {
          let n = 0;
          while (performance.now() < deadline) {
            const title = `Bench deal ${prefix} ${client}-${n++}`;
            const form = new FormData();
            for (const [name, value] of Object.entries({
              title,
              end_user_customer_name: `Customer ${client}-${n} ${prefix}`,
              expected_closure_date: inDays(90),
              value: '125000',
              progress: '10',
            }))
              form.append(name, value);
            const created = await timed(register, () => callApi(baseUrl, partner, 'POST', '/api/projects', form));
            const acceptedAt = performance.now();
            if (!expect(created, 201, 'POST /api/projects')) continue;
            registered++;
            const id = created.json.data.id as string;
            const lag = await untilListed(
              baseUrl,
              reader,
              `/api/projects?search=${encodeURIComponent(title)}`,
              (data) => (data.projects as Array<{ id: string }>).some((p) => p.id === id),
              acceptedAt,
              fail,
              `Project ${title}`,
            );
            if (lag !== undefined) visibleLag.push(lag);
            expect(
              await timed(update, () =>
                callApi(baseUrl, partner, 'PUT', `/api/projects/${id}`, { progress: 35, status: 'In Progress', project_stage: 'Proposal' }),
              ),
              200,
              'PUT /api/projects/:id',
            );
            let milestoneId: string | undefined;
            for (const [name, day] of [
              ['Site survey', 5],
              ['Pilot', 20],
            ] as const) {
              const added = await timed(milestone, () =>
                callApi(baseUrl, partner, 'POST', '/api/projects/milestones', { project_id: id, name, date: inDays(day), status: 'pending' }),
              );
              if (expect(added, 201, 'POST /api/projects/milestones')) milestoneId ??= added.json.data.id;
            }
            if (milestoneId)
              expect(
                await timed(milestone, () => callApi(baseUrl, partner, 'PUT', `/api/projects/milestones/${milestoneId}`, { status: 'completed' })),
                200,
                'PUT /api/projects/milestones/:id',
              );
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      if (!record) return undefined;
      return { elapsed, register, update, milestone, visibleLag, accepted, registered, errors: meter.errors, firstError: meter.firstError };
    };

    const measured = await warmedUp(settings, run, log);
    return {
      clients: settings.clients,
      seconds: measured.elapsed,
      commands: measured.accepted,
      commandsPerSecond: measured.accepted / measured.elapsed,
      registered: measured.registered,
      errors: measured.errors,
      firstError: measured.firstError,
      register: summarize(measured.register),
      update: summarize(measured.update),
      milestone: summarize(measured.milestone),
      visibleLag: summarize(measured.visibleLag),
    };
  } finally {
    await bench.stop();
  }
}

export function projectBenchTable(section: ProjectBenchSection): string {
  return [
    latencyTable(`Projects (${section.clients} concurrent clients)`, [
      ['POST /api/projects (register)', section.register],
      ['PUT /api/projects/:id (update + status)', section.update],
      ['POST/PUT /api/projects/milestones', section.milestone],
      ['accepted → listed in GET /api/projects', section.visibleLag],
    ]),
    commandsLine(section, `${formatCount(section.registered)} registered, `),
    '   each registration first looks up conflicting registrations in read.projects; "listed" is measured from the 201',
    "   to the first GET /api/projects of another session (the manufacturer's) that shows the project",
  ].join('\n');
}

export function runProjectSection(settings: ProjectBenchSettings, log: (line: string) => void, results: { errors: Record<string, string> }): Promise<string[]> {
  return runReportedSection(
    'projects',
    'Projects: registering, updating and adding milestones from concurrent clients',
    () => runProjectBench(settings, log),
    projectBenchTable,
    log,
    results,
  );
}
