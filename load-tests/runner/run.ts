/**
 * Runs a k6 script in Node: each virtual user is a worker thread (vu.mjs) with its own copy of the
 * script, HTTP goes through this thread, and the executors, thresholds and end-of-test summary follow
 * k6 (exit 99 when a threshold is crossed, 107 when the script cannot load or setup() fails).
 * Supported: `k6` (check, group, sleep, fail), `k6/http` (with http.batch), `__ENV`, `__VU`, `__ITER`, `open()`,
 * setup()/teardown(), and the executors constant-vus, ramping-vus, constant-arrival-rate,
 * per-vu-iterations and shared-iterations.
 */
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { evaluateThresholds, Metrics, renderSummary, type Tags, type ThresholdResult } from './metrics';

export const EXIT_THRESHOLDS_CROSSED = 99;
export const EXIT_SCRIPT_ERROR = 107;

export interface RunSettings {
  /** __ENV: the process environment plus these (k6's `-e KEY=VALUE`). */
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
}

export interface RunResult {
  exitCode: number;
  summary: string;
  thresholds: ThresholdResult[];
  checks: { passes: number; fails: number };
  requests: number;
  iterations: number;
  /** Exceptions thrown by iterations (the first few messages, and how many). */
  iterationErrors: { count: number; first: string[] };
  seconds: number;
  metrics: Metrics;
}

interface Scenario {
  executor: string;
  exec?: string;
  startTime?: string;
  gracefulStop?: string;
  gracefulRampDown?: string;
  tags?: Tags;
  env?: Record<string, string>;
  vus?: number;
  duration?: string;
  iterations?: number;
  maxDuration?: string;
  startVUs?: number;
  stages?: Array<{ duration: string; target: number }>;
  rate?: number;
  timeUnit?: string;
  preAllocatedVUs?: number;
  maxVUs?: number;
}

/** '1m30s', '500ms', '2m', '10s', '1h' → milliseconds. */
export function durationMs(text: string | number | undefined, fallback = 0): number {
  if (text === undefined || text === '') return fallback;
  if (typeof text === 'number') return text * 1000;
  let total = 0;
  const pattern = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let consumed = '';
  for (const match of text.matchAll(pattern)) {
    total += Number(match[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'ms']!;
    consumed += match[0];
  }
  if (consumed !== text.replace(/\s/g, '')) throw new Error(`Invalid duration "${text}".`);
  return total;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

const agents = { http: new http.Agent({ keepAlive: true, maxSockets: Infinity }), https: new https.Agent({ keepAlive: true, maxSockets: Infinity }) };

interface OutgoingRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  tags: Tags;
  timeout: number;
  expected: Array<[number, number]> | null;
  scenario: string;
  group: string;
  scenarioTags: Tags;
}

interface Answer {
  status: number;
  statusText?: string;
  headers: Record<string, string | string[] | undefined>;
  body?: Uint8Array;
  duration: number;
  waiting: number;
  error?: string;
}

function send(request: OutgoingRequest): Promise<Answer> {
  return new Promise((resolve) => {
    const began = performance.now();
    let firstByte = began;
    const url = new URL(request.url);
    const transport = url.protocol === 'https:' ? https : http;
    const outgoing = transport.request(
      url,
      {
        method: request.method,
        headers: { 'User-Agent': 'k6-node-runner', ...request.headers, ...(request.body ? { 'Content-Length': String(request.body.byteLength) } : {}) },
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        timeout: request.timeout,
      },
      (response) => {
        firstByte = performance.now();
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const end = performance.now();
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage,
            headers: response.headers,
            body: new Uint8Array(Buffer.concat(chunks)),
            duration: end - began,
            waiting: firstByte - began,
          });
        });
        response.on('error', (error) => resolve({ status: 0, headers: {}, duration: performance.now() - began, waiting: 0, error: error.message }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`request timeout after ${request.timeout} ms`)));
    outgoing.on('error', (error) => resolve({ status: 0, headers: {}, duration: performance.now() - began, waiting: 0, error: error.message }));
    outgoing.end(request.body ? Buffer.from(request.body) : undefined);
  });
}

/** Shared by every VU of a run: the script, its environment, the metrics and the error log. */
interface RunContext {
  script: string;
  env: Record<string, string>;
  /** k6's `batch` and `batchPerHost` options: how many requests of one http.batch are in flight at once (0: no limit). */
  batchLimits: { total: number; perHost: number };
  metrics: Metrics;
  log: (line: string) => void;
  errors: { count: number; first: string[] };
  nextVuId: number;
  live: Set<VirtualUser>;
}

/** One k6 VU: a worker thread that loads the script once and runs iterations when told. */
class VirtualUser {
  readonly worker: Worker;
  private readonly flags = new Int32Array(new SharedArrayBuffer(8));
  private readonly answers: MessagePort;
  private waiting: { resolve: (value: any) => void; reject: (error: Error) => void; kind: string } | undefined;
  readonly ready: Promise<void>;
  busy = false;

  constructor(
    private readonly context: RunContext,
    readonly id: number,
    scenario: string,
    scenarioTags: Tags,
    env: Record<string, string>,
    mode: 'vu' | 'options' = 'vu',
  ) {
    const channel = new MessageChannel();
    this.answers = channel.port2;
    this.worker = new Worker(new URL('./vu.mjs', import.meta.url), {
      workerData: { script: context.script, env, vuId: id, scenario, scenarioTags, flags: this.flags.buffer, answers: channel.port1, mode },
      transferList: [channel.port1],
      stdout: false,
      stderr: false,
    });
    this.ready = new Promise((resolve, reject) => {
      this.waiting = { resolve, reject, kind: mode === 'options' ? 'options' : 'ready' };
    });
    this.ready.catch(() => {});
    this.worker.on('message', (message) => this.receive(message));
    this.worker.on('error', (error) => this.settle('error', error));
    this.worker.on('exit', () => this.settle('exit', new Error('The VU stopped.')));
    context.live.add(this);
  }

  private settle(kind: string, error: Error) {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting.reject(kind === 'error' ? error : new Error(`The VU ended before answering (${waiting.kind}).`));
    this.context.live.delete(this);
  }

  private resolve(kind: string, value?: unknown) {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = undefined;
    if (waiting.kind !== kind) waiting.reject(new Error(`Expected ${waiting.kind}, got ${kind}.`));
    else waiting.resolve(value);
  }

  private receive(message: any) {
    const { metrics } = this.context;
    switch (message.kind) {
      case 'http':
        void this.exchange(message.request).then((answer) => this.answer(answer, answer.body ? [answer.body.buffer as ArrayBuffer] : []));
        return;
      case 'batch':
        void sendBatch(message.requests as OutgoingRequest[], this.context.batchLimits, (request) => this.exchange(request)).then((answers) =>
          this.answer(
            answers,
            answers.flatMap((answer) => (answer.body ? [answer.body.buffer as ArrayBuffer] : [])),
          ),
        );
        return;
      case 'check':
        metrics.addCheck(message.group, message.name, message.pass, message.tags);
        return;
      case 'trend':
        metrics.add(message.metric, message.value, message.tags);
        return;
      case 'iteration':
        metrics.add('iterations', 1, message.tags);
        metrics.add('iteration_duration', message.duration, message.tags);
        if (message.error) this.iterationError(message.error);
        return;
      case 'initError': {
        const waiting = this.waiting;
        this.waiting = undefined;
        waiting?.reject(new Error(message.message));
        return;
      }
      case 'idle':
        if (message.error) this.iterationError(message.error);
        this.busy = false;
        this.resolve('idle');
        return;
      default:
        this.resolve(message.kind, message);
    }
  }

  private iterationError(text: string) {
    const { errors, log } = this.context;
    errors.count++;
    if (errors.first.length < 5) {
      errors.first.push(text);
      log(`ERRO[${new Date().toISOString()}] ${text} (VU ${this.id})`);
    }
  }

  /** Sends one request of this VU and records its metrics. */
  private async exchange(request: OutgoingRequest): Promise<Answer> {
    const answer = await send(request);
    const failed = request.expected
      ? answer.error !== undefined || !request.expected.some(([min, max]) => answer.status >= min && answer.status <= max)
      : undefined;
    const tags: Tags = {
      ...request.scenarioTags,
      scenario: request.scenario,
      group: request.group,
      method: request.method,
      url: request.url,
      name: request.url,
      status: String(answer.status),
      ...(failed === undefined ? {} : { expected_response: String(!failed) }),
      ...request.tags,
    };
    const { metrics } = this.context;
    metrics.add('http_reqs', 1, tags);
    metrics.add('http_req_duration', answer.duration, tags);
    metrics.add('http_req_waiting', answer.waiting, tags);
    metrics.add('data_received', answer.body?.byteLength ?? 0, tags);
    metrics.add('data_sent', request.body?.byteLength ?? 0, tags);
    if (failed !== undefined) metrics.add('http_req_failed', failed ? 1 : 0, tags);
    return answer;
  }

  /** Hands the VU its answer (one, or a batch's) and wakes it. */
  private answer(value: Answer | Answer[], transfer: ArrayBuffer[]) {
    this.answers.postMessage(value, transfer);
    Atomics.store(this.flags, 0, 1);
    Atomics.notify(this.flags, 0);
  }

  private expect<T>(kind: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting = { resolve, reject, kind };
    });
  }

  /** Runs iterations until `until` (epoch ms) or stop(); resolves when the VU is idle again. */
  run(exec: string, data: unknown, until: number): Promise<void> {
    this.busy = true;
    Atomics.store(this.flags, 1, 0);
    const done = this.expect<void>('idle');
    this.worker.postMessage({ kind: 'run', exec, data, until });
    return done;
  }

  runOnce(exec: string, data: unknown): Promise<void> {
    this.busy = true;
    const done = this.expect<void>('idle');
    this.worker.postMessage({ kind: 'run', exec, data, once: true });
    return done;
  }

  async call(fn: string, data?: unknown): Promise<{ value?: unknown; error?: string }> {
    const done = this.expect<{ value?: unknown; error?: string }>('result');
    this.worker.postMessage({ kind: 'call', fn, data });
    return done;
  }

  /** Ends the VU's loop after its current iteration. */
  stop(): void {
    Atomics.store(this.flags, 1, 1);
  }

  async terminate(): Promise<void> {
    this.context.live.delete(this);
    await this.worker.terminate();
  }
}

/**
 * k6's http.batch on the wire: every request starts as soon as the limits allow (at most `total` in
 * flight, and `perHost` to one host; 0 is no limit), and the answers keep the requests' order.
 */
export function sendBatch<R extends { url: string }, A>(
  requests: R[],
  limits: { total: number; perHost: number },
  exchange: (request: R) => Promise<A>,
): Promise<A[]> {
  const answers: A[] = new Array(requests.length);
  const hosts = requests.map((request) => new URL(request.url).host);
  const started = new Array<boolean>(requests.length).fill(false);
  const perHost = new Map<string, number>();
  let inFlight = 0;
  let finished = 0;
  const allows = (limit: number, count: number) => limit <= 0 || count < limit;
  return new Promise((resolve) => {
    if (!requests.length) resolve(answers);
    const pump = () => {
      for (let i = 0; i < requests.length && allows(limits.total, inFlight); i++) {
        if (started[i] || !allows(limits.perHost, perHost.get(hosts[i]) ?? 0)) continue;
        started[i] = true;
        inFlight++;
        perHost.set(hosts[i], (perHost.get(hosts[i]) ?? 0) + 1);
        void exchange(requests[i]).then((answer) => {
          answers[i] = answer;
          inFlight--;
          perHost.set(hosts[i], perHost.get(hosts[i])! - 1);
          if (++finished === requests.length) resolve(answers);
          else pump();
        });
      }
    };
    pump();
  });
}

/** Starts a VU and waits until its copy of the script has loaded. */
async function startVu(context: RunContext, scenario: string, settings: Scenario): Promise<VirtualUser> {
  const vu = new VirtualUser(context, ++context.nextVuId, scenario, settings.tags ?? {}, { ...context.env, ...(settings.env ?? {}) });
  context.metrics.vusMax = Math.max(context.metrics.vusMax, context.live.size);
  await vu.ready;
  return vu;
}

/** Waits for `work`, but no longer than `ms`; then the VUs still busy are stopped hard (k6's gracefulStop). */
async function withGrace(work: Promise<unknown>, ms: number, vus: VirtualUser[]) {
  let timer: NodeJS.Timeout | undefined;
  const late = await Promise.race([work.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ms)))]);
  clearTimeout(timer);
  if (late) await Promise.all(vus.filter((vu) => vu.busy).map((vu) => vu.terminate()));
}

async function runScenario(context: RunContext, name: string, scenario: Scenario, data: unknown): Promise<void> {
  await delay(durationMs(scenario.startTime));
  const exec = scenario.exec ?? 'default';
  const grace = durationMs(scenario.gracefulStop, 30_000);
  const vus: VirtualUser[] = [];
  try {
    switch (scenario.executor) {
      case 'constant-vus': {
        const count = scenario.vus ?? 1;
        vus.push(...(await Promise.all(Array.from({ length: count }, () => startVu(context, name, scenario)))));
        const until = Date.now() + durationMs(scenario.duration);
        await withGrace(Promise.all(vus.map((vu) => vu.run(exec, data, until))), until - Date.now() + grace, vus);
        return;
      }
      case 'ramping-vus': {
        const stages = scenario.stages ?? [];
        const total = stages.reduce((ms, stage) => ms + durationMs(stage.duration), 0);
        const started = Date.now();
        const end = started + total;
        const target = (elapsed: number) => {
          let from = scenario.startVUs ?? 1;
          let at = 0;
          for (const stage of stages) {
            const length = durationMs(stage.duration);
            if (elapsed < at + length) return Math.round(from + ((stage.target - from) * (elapsed - at)) / Math.max(1, length));
            at += length;
            from = stage.target;
          }
          return from;
        };
        const running = new Map<VirtualUser, Promise<void>>();
        const starting = new Set<Promise<unknown>>();
        let startingCount = 0;
        while (Date.now() < end) {
          const wanted = target(Date.now() - started);
          const active = [...running.keys()].filter((vu) => vu.busy);
          if (active.length + startingCount < wanted) {
            for (let i = active.length + startingCount; i < wanted; i++) {
              const idle = vus.find((vu) => !vu.busy);
              if (idle) running.set(idle, idle.run(exec, data, end));
              else {
                startingCount++;
                const pending = startVu(context, name, scenario).then((vu) => {
                  startingCount--;
                  vus.push(vu);
                  if (Date.now() < end) running.set(vu, vu.run(exec, data, end));
                });
                starting.add(pending);
                void pending.finally(() => starting.delete(pending)).catch(() => {});
              }
            }
          } else if (active.length > wanted) {
            // k6 ramps down the most recently started VUs first; they finish their iteration (gracefulRampDown).
            for (const vu of active.slice(wanted).reverse()) vu.stop();
          }
          await delay(100);
        }
        await Promise.allSettled([...starting]);
        for (const vu of vus) vu.stop();
        await withGrace(Promise.all(running.values()), durationMs(scenario.gracefulRampDown, grace), vus);
        return;
      }
      case 'constant-arrival-rate': {
        const rate = scenario.rate ?? 1;
        const interval = durationMs(scenario.timeUnit ?? '1s') / rate;
        const maxVUs = Math.max(scenario.maxVUs ?? scenario.preAllocatedVUs ?? 1, scenario.preAllocatedVUs ?? 1);
        vus.push(...(await Promise.all(Array.from({ length: scenario.preAllocatedVUs ?? 1 }, () => startVu(context, name, scenario)))));
        const started = performance.now();
        const length = durationMs(scenario.duration);
        const inFlight = new Set<Promise<void>>();
        let spawning = 0;
        for (let k = 0; ; k++) {
          const due = started + k * interval;
          if (due - started >= length) break;
          await delay(due - performance.now());
          const idle = vus.find((vu) => !vu.busy);
          if (idle) {
            const work = idle.runOnce(exec, data);
            inFlight.add(work);
            void work.finally(() => inFlight.delete(work)).catch(() => {});
          } else {
            // No free VU: the iteration is dropped, as in k6, and another VU is started while maxVUs allows.
            context.metrics.add('dropped_iterations', 1, { scenario: name });
            if (vus.length + spawning < maxVUs) {
              spawning++;
              void startVu(context, name, scenario)
                .then((vu) => vus.push(vu))
                .finally(() => spawning--)
                .catch(() => {});
            }
          }
        }
        await withGrace(Promise.all([...inFlight]), grace, vus);
        return;
      }
      case 'per-vu-iterations':
      case 'shared-iterations': {
        const count = scenario.vus ?? 1;
        const iterations = scenario.iterations ?? 1;
        vus.push(...(await Promise.all(Array.from({ length: count }, () => startVu(context, name, scenario)))));
        let remaining = scenario.executor === 'shared-iterations' ? iterations : iterations * count;
        const perVu = scenario.executor === 'per-vu-iterations';
        const deadline = Date.now() + durationMs(scenario.maxDuration, 600_000);
        const work = Promise.all(
          vus.map(async (vu) => {
            for (let i = 0; (perVu ? i < iterations : remaining > 0) && Date.now() < deadline; i++) {
              remaining--;
              await vu.runOnce(exec, data);
            }
          }),
        );
        await withGrace(work, deadline - Date.now() + grace, vus);
        return;
      }
      default:
        throw new Error(`The executor "${scenario.executor}" of scenario ${name} is not supported by the Node runner.`);
    }
  } finally {
    await Promise.all(vus.map((vu) => vu.terminate()));
  }
}

/** k6's shortcuts (`vus` + `duration`, `stages`, `iterations`) as one scenario, as k6 does. */
function scenariosOf(options: Record<string, any>): Record<string, Scenario> {
  if (options.scenarios && Object.keys(options.scenarios).length) return options.scenarios;
  if (options.stages) return { default: { executor: 'ramping-vus', startVUs: options.vus ?? 1, stages: options.stages } };
  if (options.duration) return { default: { executor: 'constant-vus', vus: options.vus ?? 1, duration: options.duration } };
  return { default: { executor: 'shared-iterations', vus: options.vus ?? 1, iterations: options.iterations ?? 1 } };
}

export async function runK6Script(scriptPath: string, settings: RunSettings = {}): Promise<RunResult> {
  const log = settings.log ?? ((line: string) => console.log(line));
  const env = Object.fromEntries(Object.entries({ ...process.env, ...(settings.env ?? {}) }).filter((e): e is [string, string] => e[1] !== undefined));
  const context: RunContext = {
    script: pathToFileURL(path.resolve(scriptPath)).href,
    env,
    batchLimits: { total: 20, perHost: 6 },
    metrics: new Metrics(),
    log,
    errors: { count: 0, first: [] },
    nextVuId: 0,
    live: new Set(),
  };
  const began = performance.now();
  const result = (exitCode: number, thresholds: ThresholdResult[] = [], summary = ''): RunResult => {
    const checks = context.metrics.values('checks');
    const passes = checks.filter(Boolean).length;
    return {
      exitCode,
      summary,
      thresholds,
      checks: { passes, fails: checks.length - passes },
      requests: context.metrics.values('http_reqs').length,
      iterations: context.metrics.values('iterations').length,
      iterationErrors: context.errors,
      seconds: (performance.now() - began) / 1000,
      metrics: context.metrics,
    };
  };

  let options: Record<string, any>;
  let exported: string[];
  const probe = new VirtualUser(context, 0, '', {}, env, 'options');
  try {
    const answer = (await probe.ready) as unknown as { options: Record<string, any>; exports: string[] };
    options = answer.options;
    exported = answer.exports;
  } catch (error) {
    log(`ERRO The script ${scriptPath} could not be loaded: ${(error as Error).message}`);
    return result(EXIT_SCRIPT_ERROR);
  } finally {
    await probe.terminate();
  }
  context.batchLimits = { total: Number(options.batch ?? 20), perHost: Number(options.batchPerHost ?? 6) };
  const scenarios = scenariosOf(options);
  for (const [name, scenario] of Object.entries(scenarios)) {
    const exec = scenario.exec ?? 'default';
    if (!exported.includes(exec)) {
      log(`ERRO Scenario ${name} runs "${exec}", which the script does not export.`);
      return result(EXIT_SCRIPT_ERROR);
    }
  }

  log(`  script: ${scriptPath} (Node runner)`);
  for (const [name, s] of Object.entries(scenarios)) {
    const what =
      s.executor === 'constant-arrival-rate'
        ? `${s.rate} iterations per ${s.timeUnit ?? '1s'} for ${s.duration} (${s.preAllocatedVUs ?? 1}–${s.maxVUs ?? s.preAllocatedVUs ?? 1} VUs)`
        : s.executor === 'ramping-vus'
          ? `up to ${Math.max(s.startVUs ?? 1, ...(s.stages ?? []).map((st) => st.target))} VUs over ${(s.stages ?? []).map((st) => st.duration).join(' + ')}`
          : s.executor === 'constant-vus'
            ? `${s.vus ?? 1} VUs for ${s.duration}`
            : `${s.iterations ?? 1} iterations, ${s.vus ?? 1} VUs`;
    log(`  * ${name}: ${s.executor}, ${what}, exec ${s.exec ?? 'default'}${s.startTime ? `, from ${s.startTime}` : ''}`);
  }

  const lifecycle = async (fn: 'setup' | 'teardown', data?: unknown) => {
    const vu = await startVu(context, fn, {} as Scenario);
    try {
      const answer = await vu.call(fn, data);
      if (answer.error) throw new Error(`${fn}() failed: ${answer.error}`);
      return answer.value;
    } finally {
      await vu.terminate();
    }
  };

  let data: unknown;
  try {
    if (exported.includes('setup')) data = await lifecycle('setup');
  } catch (error) {
    log(`ERRO ${(error as Error).message}`);
    return result(EXIT_SCRIPT_ERROR);
  }
  const testStarted = performance.now();
  try {
    await Promise.all(Object.entries(scenarios).map(([name, scenario]) => runScenario(context, name, scenario, data)));
  } catch (error) {
    log(`ERRO ${(error as Error).message}`);
    await Promise.all([...context.live].map((vu) => vu.terminate()));
    return result(EXIT_SCRIPT_ERROR);
  }
  const seconds = (performance.now() - testStarted) / 1000;
  if (exported.includes('teardown')) {
    try {
      await lifecycle('teardown', data);
    } catch (error) {
      log(`ERRO ${(error as Error).message}`);
    }
  }
  const thresholds = evaluateThresholds(context.metrics, options.thresholds ?? {}, seconds);
  const summary = renderSummary(context.metrics, thresholds, seconds, Object.keys(scenarios));
  const crossed = thresholds.filter((t) => !t.ok);
  const exitCode = crossed.length ? EXIT_THRESHOLDS_CROSSED : 0;
  return result(
    exitCode,
    thresholds,
    `${summary}${crossed.length ? `\nERRO thresholds on metrics '${[...new Set(crossed.map((t) => t.key))].join("', '")}' have been crossed\n` : ''}`,
  );
}
