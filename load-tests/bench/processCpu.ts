import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time spent by processes of this machine, read from Linux's /proc: what an answer costs the API
 * and Postgres, a figure that moves far less with a busy machine than a rate does. Elsewhere (no /proc)
 * every reading is undefined and the bench says the cost was not measured.
 */

/** Clock ticks per second of /proc's counters (USER_HZ, 100 on every Linux the bench runs on). */
const TICKS_PER_SECOND = 100;

interface ProcessStat {
  pid: number;
  parent: number;
  command: string;
  /** User and system CPU time, in microseconds. */
  cpuMicros: number;
}

/** One line of /proc/<pid>/stat; the command is in parentheses and may hold spaces and parentheses itself. */
export function parseStat(line: string): ProcessStat | undefined {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const fields = line.slice(close + 2).split(' ');
  // After the command: state, ppid, …; utime and stime are the 14th and 15th fields of the whole line.
  const [parent, user, system] = [fields[1], fields[11], fields[12]].map(Number);
  if (![parent, user, system].every(Number.isFinite)) return undefined;
  return { pid: Number(line.slice(0, open)), parent, command: line.slice(open + 1, close), cpuMicros: ((user + system) * 1_000_000) / TICKS_PER_SECOND };
}

function processStats(): ProcessStat[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  return entries.flatMap((pid) => {
    try {
      const stat = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      return stat ? [stat] : [];
    } catch {
      // The process ended while it was being read.
      return [];
    }
  });
}

/** A process and all it started (an API's worker processes), and every Postgres server process of this machine. */
export interface CpuReading {
  treeMicros: number;
  postgresMicros: number | undefined;
}

const postgresMicrosOf = (stats: readonly ProcessStat[]): number | undefined => {
  const postgres = stats.filter((stat) => stat.command === 'postgres');
  return postgres.length ? postgres.reduce((sum, stat) => sum + stat.cpuMicros, 0) : undefined;
};

export function readCpu(rootPid: number): CpuReading | undefined {
  const stats = processStats();
  if (!stats) return undefined;
  const children = new Map<number, ProcessStat[]>();
  for (const stat of stats) {
    const siblings = children.get(stat.parent);
    if (siblings) siblings.push(stat);
    else children.set(stat.parent, [stat]);
  }
  let treeMicros = 0;
  const queue = stats.filter((stat) => stat.pid === rootPid);
  while (queue.length) {
    const stat = queue.pop()!;
    treeMicros += stat.cpuMicros;
    queue.push(...(children.get(stat.pid) ?? []));
  }
  return { treeMicros, postgresMicros: postgresMicrosOf(stats) };
}

/** CPU microseconds per answer between two readings: the API's (its process tree) and Postgres's (undefined when Postgres runs elsewhere). */
export interface CpuPerAnswer {
  api: number;
  postgres: number | undefined;
}

export function cpuPerAnswer(before: CpuReading | undefined, after: CpuReading | undefined, answers: number): CpuPerAnswer | undefined {
  if (!before || !after || answers <= 0) return undefined;
  const postgres =
    before.postgresMicros !== undefined && after.postgresMicros !== undefined ? (after.postgresMicros - before.postgresMicros) / answers : undefined;
  return { api: (after.treeMicros - before.treeMicros) / answers, postgres };
}

/** This process alone (not the load generator or API it started), with Postgres's as readCpu reads it. */
export function readOwnCpu(): CpuReading {
  const { user, system } = process.cpuUsage();
  const stats = processStats();
  return { treeMicros: user + system, postgresMicros: stats && postgresMicrosOf(stats) };
}
