import { performance } from 'node:perf_hooks';

export interface ClosedLoopResult {
  operations: number;
  events: number;
  seconds: number;
  /** Milliseconds per operation. */
  latencies: number[];
  errors: number;
  firstError: string | undefined;
}

/**
 * `clients` concurrent loops, each running its operation back to back until `seconds` have passed.
 * An operation resolves with the number of events (rows) it wrote. The elapsed time runs until the
 * last in-flight operation finished, so the rate is never flattered by cutting operations off.
 */
export async function runClosedLoop(clients: number, seconds: number, makeClient: (index: number) => () => Promise<number>): Promise<ClosedLoopResult> {
  const result: ClosedLoopResult = { operations: 0, events: 0, seconds: 0, latencies: [], errors: 0, firstError: undefined };
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, index) => {
      const operation = makeClient(index);
      while (performance.now() < deadline) {
        const began = performance.now();
        try {
          // Await first: `total += await x` would read the total before the await and lose other clients' additions.
          const events = await operation();
          result.events += events;
          result.operations++;
          result.latencies.push(performance.now() - began);
        } catch (error) {
          result.errors++;
          result.firstError ??= (error as Error).message;
          if (result.errors > 100) throw new Error(`Too many errors; the first: ${result.firstError}`, { cause: error });
        }
      }
    }),
  );
  result.seconds = (performance.now() - start) / 1000;
  return result;
}
