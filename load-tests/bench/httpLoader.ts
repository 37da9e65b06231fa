/**
 * The HTTP load generator, run as a child process of the bench so that generating load does not
 * share an event loop with the server under test. The parent sends one LoadJob at a time over IPC
 * and gets a LoadResult back.
 */
import autocannon from 'autocannon';
import { summarize, type LatencySummary } from './percentiles';

export interface LoadJob {
  kind: 'load';
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  /**
   * When given, each request is one of these, drawn at random (paths on `url`'s origin, each with its
   * caller's headers): many users reading many pages rather than one URL over and over.
   */
  targets?: Array<{ path: string; headers: Record<string, string> }>;
}

export interface LoadResult {
  kind: 'result';
  /** Responses received (any status), and their rate over the measured time. */
  responses: number;
  requestsPerSecond: number;
  seconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Latency of 2xx responses, in milliseconds. */
  latency: LatencySummary;
  statusCodes: Record<string, number>;
}

async function runLoad(job: LoadJob): Promise<LoadResult> {
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let responses = 0;
  let finished!: (result: autocannon.Result) => void;
  let failed!: (error: Error) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  const { targets } = job;
  const drawn = targets?.length
    ? {
        requests: [
          {
            setupRequest: (request: autocannon.Request) => {
              const target = targets[Math.floor(Math.random() * targets.length)];
              return { ...request, path: target.path, headers: { ...request.headers, ...target.headers } };
            },
          },
        ],
      }
    : {};
  // The callback form returns the running instance, whose 'response' events carry every latency.
  const instance = autocannon(
    {
      ...drawn,
      url: job.url,
      method: job.method,
      headers: job.headers,
      body: job.body,
      connections: job.connections,
      pipelining: 1,
      duration: job.seconds,
      timeout: 30,
    },
    (error, result) => (error ? failed(error) : finished(result)),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    responses++;
    statusCodes[statusCode] = (statusCodes[statusCode] ?? 0) + 1;
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await done;
  return {
    kind: 'result',
    responses,
    requestsPerSecond: responses / result.duration,
    seconds: result.duration,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latency: summarize(latencies),
    statusCodes,
  };
}

process.on('message', (message: LoadJob | { kind: 'exit' }) => {
  if (message.kind === 'exit') {
    process.disconnect?.();
    return;
  }
  runLoad(message).then(
    (result) => process.send?.(result),
    (error: Error) => process.send?.({ kind: 'error', message: error.message }),
  );
});
process.send?.({ kind: 'ready' });
