import type { Services } from '../src/services';

/** Placeholder until the reactor and queues land; returns a handle so the portal can stop it. */
export async function startWorkers(_services: Services, _options: { log: (line: string) => void }): Promise<{ stop(): Promise<void> }> {
  return { async stop() {} };
}
