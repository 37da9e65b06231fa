/** A periodic sweep: once at worker start and then every `everyMs`, never two at once, stopped after the one under way ends. */
export interface Sweep {
  stop(): Promise<void>;
}

/**
 * Runs `work` now and every `everyMs`. A run starts only after the previous one ended, so a slow
 * database never stacks sweeps; a failure is logged with the sweep's name and the next run tries again.
 */
export function startSweep(name: string, everyMs: number, work: () => Promise<unknown>, log: (line: string) => void): Sweep {
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = running.then(work).catch((error: Error) => log(`${name}: ${error.message}`));
  };
  sweep();
  const timer = setInterval(sweep, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
