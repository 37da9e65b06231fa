import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadJob, LoadResult } from './httpLoader';

/** The autocannon child process; one job at a time. */
export class LoadGenerator {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<LoadGenerator> {
    // The child inherits this process's execArgv, i.e. the tsx loader that runs the bench.
    const child = fork(fileURLToPath(new URL('./httpLoader.ts', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`The load generator exited early (code ${code}).`)));
    });
    child.removeAllListeners('exit');
    return new LoadGenerator(child);
  }

  run(job: Omit<LoadJob, 'kind'>): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (message: LoadResult | { kind: 'error'; message: string }) => {
        if (message.kind === 'result') resolve(message);
        else reject(new Error(`Load generator: ${message.message}`));
      });
      this.child.send({ kind: 'load', ...job } satisfies LoadJob);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.send({ kind: 'exit' });
    const timer = setTimeout(() => this.child.kill(), 2000);
    await exited;
    clearTimeout(timer);
  }
}
