import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { appendFile, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './freePort';

/**
 * A PostgreSQL primary and a streaming replica of it, each its own server in a temporary directory, for tests
 * and the bench: the machine's own server has no `replication` line in pg_hba.conf. The binaries are
 * PG_BIN's, or the newest under /usr/lib/postgresql. PostgreSQL refuses to run as root, so as root they run
 * as the `postgres` account (runuser), which then owns the directory.
 */
export interface StreamingReplica {
  /** The primary's `postgres` database: create databases here, they appear on the replica too. */
  primaryUrl: string;
  /** The replica's `postgres` database. */
  replicaUrl: string;
  /** Stops the replica at once, as a crash would (`pg_ctl stop -m immediate`). */
  stopReplica(): Promise<void>;
  /** Starts the stopped replica again; it resumes streaming where it stopped. */
  startReplica(): Promise<void>;
  /** Makes the replica apply each commit `ms` after the primary made it (recovery_min_apply_delay), 0 to stop. */
  delayReplica(ms: number): Promise<void>;
  /** Stops both servers and removes the directory; safe to call after a failed start. */
  close(): Promise<void>;
}

const run = promisify(execFile);
const REQUIRED = ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'];

function binaryDirectory(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => path.join(root, version, 'bin')).find((dir) => REQUIRED.every((name) => existsSync(path.join(dir, name))));
}

const asRoot = () => process.getuid?.() === 0;

/** Why a streaming replica cannot be started here, or undefined when it can. */
export function streamingReplicaUnavailable(): string | undefined {
  const bin = binaryDirectory();
  if (!bin || !REQUIRED.every((name) => existsSync(path.join(bin, name))))
    return `the PostgreSQL server binaries (${REQUIRED.join(', ')}) were not found: set PG_BIN to their directory`;
  if (asRoot() && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser'))
    return 'running as root, and runuser (to run PostgreSQL as postgres) is missing';
  return undefined;
}

async function accountIds(name: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Waits until the server answers and, for the replica, is in recovery. */
async function untilReady(url: string, inRecovery: boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      const { rows } = await client.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
      if (rows[0].recovering === inRecovery) return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    } finally {
      await client.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become ready (in recovery: ${inRecovery})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function startStreamingReplica(): Promise<StreamingReplica> {
  const unavailable = streamingReplicaUnavailable();
  if (unavailable) throw new Error(`A streaming replica cannot be started: ${unavailable}.`);
  const bin = binaryDirectory()!;
  const root = await mkdtemp(path.join(tmpdir(), 'partnerhub-replica-'));
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  const sockets = path.join(root, 'sockets');
  const owner = asRoot() ? await accountIds('postgres') : undefined;

  /** Runs a PostgreSQL binary as the directory's owner, from inside the directory (the binaries refuse a working directory they cannot read). */
  const pgRun = async (name: string, args: string[]) => {
    const [file, fileArgs] = owner ? ['runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args]] : [path.join(bin, name), args];
    try {
      return await run(file, fileArgs, { cwd: root, env: { ...process.env, PGCONNECT_TIMEOUT: '10' }, timeout: 120_000 });
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`${name} ${args.join(' ')} failed: ${stderr || stdout || (error as Error).message}`, { cause: error });
    }
  };
  const started = new Set<string>();
  const pgCtl = async (dir: string, action: 'start' | 'stop') => {
    if (action === 'start') {
      await pgRun('pg_ctl', ['-D', dir, '-l', `${dir}.log`, '-w', '-t', '60', 'start']);
      started.add(dir);
    } else if (started.has(dir)) {
      await pgRun('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
      started.delete(dir);
    }
  };

  // A test process that ends without its afterAll (an uncaught error, a timeout) still leaves no server running.
  const stopOnExit = () => {
    for (const dir of started) {
      const command = [path.join(bin, 'pg_ctl'), '-D', dir, '-m', 'immediate', 'stop'];
      try {
        if (owner) execFileSync('runuser', ['-u', 'postgres', '--', ...command], { cwd: root, stdio: 'ignore' });
        else execFileSync(command[0], command.slice(1), { cwd: root, stdio: 'ignore' });
      } catch {
        // Already stopped.
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', stopOnExit);

  const close = async () => {
    process.off('exit', stopOnExit);
    for (const dir of [replicaDir, primaryDir]) await pgCtl(dir, 'stop').catch(() => {});
    await rm(root, { recursive: true, force: true });
  };

  try {
    await mkdir(sockets);
    if (owner) for (const dir of [root, sockets]) await chown(dir, owner.uid, owner.gid);
    const [primaryPort, replicaPort] = [await freePort(), await freePort()];
    await pgRun('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    await appendFile(
      path.join(primaryDir, 'postgresql.conf'),
      [
        "listen_addresses = '127.0.0.1'",
        `port = ${primaryPort}`,
        `unix_socket_directories = '${sockets}'`,
        'wal_level = replica',
        'max_wal_senders = 4',
        'hot_standby = on',
        'max_connections = 200',
        'shared_buffers = 32MB',
        // A test server: losing it in a crash loses nothing that matters, and it spares the shared disk.
        'fsync = off',
        'full_page_writes = off',
        '',
      ].join('\n'),
    );
    const hba = ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust', ''].join('\n');
    await writeFile(path.join(primaryDir, 'pg_hba.conf'), hba);
    if (owner) await chown(path.join(primaryDir, 'pg_hba.conf'), owner.uid, owner.gid);
    await pgCtl(primaryDir, 'start');

    // -R writes standby.signal and primary_conninfo; the copied configuration then only needs its own port.
    await pgRun('pg_basebackup', [
      '-R',
      '-D',
      replicaDir,
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-X',
      'stream',
      '-c',
      'fast',
      '--no-sync',
    ]);
    await appendFile(path.join(replicaDir, 'postgresql.conf'), `port = ${replicaPort}\n`);
    await pgCtl(replicaDir, 'start');

    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
    const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/postgres`;
    await untilReady(primaryUrl, false);
    await untilReady(replicaUrl, true);
    return {
      primaryUrl,
      replicaUrl,
      stopReplica: () => pgCtl(replicaDir, 'stop'),
      async startReplica() {
        await pgCtl(replicaDir, 'start');
        await untilReady(replicaUrl, true);
      },
      async delayReplica(ms) {
        const client = new pg.Client({ connectionString: replicaUrl });
        await client.connect();
        try {
          await client.query(`ALTER SYSTEM SET recovery_min_apply_delay = '${Math.max(0, Math.floor(ms))}ms'`);
          await client.query('SELECT pg_reload_conf()');
        } finally {
          await client.end();
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
