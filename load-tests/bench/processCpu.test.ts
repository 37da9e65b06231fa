import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuPerAnswer, parseStat, readCpu } from './processCpu';

const burn = (ms: number) => {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) n += Math.sqrt(n + 1);
  return n;
};

describe('processCpu', () => {
  it('reads a stat line whose command holds spaces and parentheses', () => {
    const fields = ['S', '41', ...Array.from({ length: 9 }, () => '0'), '250', '50', '0', '0'];
    expect(parseStat(`1234 (node (api) x) ${fields.join(' ')}`)).toEqual({ pid: 1234, parent: 41, command: 'node (api) x', cpuMicros: 3_000_000 });
    expect(parseStat('garbage')).toBeUndefined();
  });

  it('divides what was spent between two readings by the answers, Postgres only when both readings saw it', () => {
    expect(cpuPerAnswer({ treeMicros: 1_000, postgresMicros: 500 }, { treeMicros: 5_000, postgresMicros: 2_500 }, 4)).toEqual({ api: 1_000, postgres: 500 });
    expect(cpuPerAnswer({ treeMicros: 0, postgresMicros: undefined }, { treeMicros: 100, postgresMicros: 10 }, 1)).toEqual({ api: 100, postgres: undefined });
    expect(cpuPerAnswer(undefined, { treeMicros: 1, postgresMicros: 1 }, 1)).toBeUndefined();
    expect(cpuPerAnswer({ treeMicros: 0, postgresMicros: 0 }, { treeMicros: 1, postgresMicros: 1 }, 0)).toBeUndefined();
  });

  it.runIf(existsSync('/proc/self/stat'))('counts the CPU a process and the processes it started spend', async () => {
    const before = readCpu(process.pid)!;
    burn(300);
    const afterOwn = readCpu(process.pid)!;
    // The kernel counts in ticks of 10 ms: 300 ms of work shows as at least 200 ms.
    expect(afterOwn.treeMicros - before.treeMicros).toBeGreaterThanOrEqual(200_000);

    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 400; let n = 0; while (Date.now() < end) n++; setTimeout(() => {}, 2000)']);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const withChild = readCpu(process.pid)!;
    child.kill();
    await once(child, 'exit');
    // This process waited; its child's loop is what the tree spent meanwhile.
    expect(withChild.treeMicros - afterOwn.treeMicros).toBeGreaterThanOrEqual(250_000);
  });
});
