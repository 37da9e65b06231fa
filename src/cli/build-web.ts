/**
 * Builds the web app (web/ → web/dist) when the build is missing or older than its sources.
 * Called at server start; also runnable: `tsx src/cli/build-web.ts [--force]`.
 */

import { closeSync, copyFileSync, existsSync, utimesSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const WEB_ROOT = path.join(repoRoot, 'web');
export const WEB_DIST = path.join(WEB_ROOT, 'dist');
const INDEX = path.join(WEB_DIST, 'index.html');

/** Inputs of the build: a change to any of them makes the build stale. Tests are not inputs. */
const SOURCES = [
  path.join(WEB_ROOT, 'src'),
  path.join(WEB_ROOT, 'public'),
  path.join(WEB_ROOT, 'index.html'),
  path.join(WEB_ROOT, 'vite.config.ts'),
  path.join(repoRoot, 'domain'),
  path.join(repoRoot, 'contracts'),
];

const isTestFile = (name: string) => /\.test\.[cm]?[jt]sx?$/.test(name);

function newestMtime(target: string): number {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return isTestFile(target) ? 0 : stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

/** True when web/dist/index.html is missing or older than any source. */
export function isWebBuildStale(): boolean {
  let built: number;
  try {
    built = statSync(INDEX).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((source) => newestMtime(source) > built);
}

const LOCK = path.join(os.tmpdir(), `partnerhub-web-build-${createHash('sha1').update(WEB_ROOT).digest('hex').slice(0, 12)}.lock`);
const STALE_LOCK_MS = 5 * 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One build at a time across processes (parallel test files start servers together). */
async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      closeSync(openSync(LOCK, 'wx'));
      break;
    } catch {
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { force: true });
      } catch {
        // The lock went away meanwhile.
      }
      await sleep(250);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

export interface EnsureWebBuildOptions {
  /** Build even when the build is fresh. */
  force?: boolean;
}

/** Runs the Vite build when web/dist is missing or stale. */
export async function ensureWebBuild(options: EnsureWebBuildOptions = {}): Promise<void> {
  if (!options.force && !isWebBuildStale()) return;
  await withBuildLock(async () => {
    // Another process may have built it while this one waited.
    if (!options.force && !isWebBuildStale()) return;
    // Built beside node_modules (ignored by git, same disk) and renamed into place.
    const work = path.join(repoRoot, 'node_modules', '.cache', 'web-build');
    mkdirSync(work, { recursive: true });
    const next = path.join(work, `next-${process.pid}`);
    rmSync(next, { recursive: true, force: true });
    const { build } = await import('vite');
    await build({
      configFile: path.join(WEB_ROOT, 'vite.config.ts'),
      root: WEB_ROOT,
      logLevel: 'warn',
      mode: 'production',
      build: { outDir: next, emptyOutDir: true },
    });
    keepRecentAssets(path.join(WEB_DIST, 'assets'), path.join(next, 'assets'));
    // Swap in one step, so a running server never serves a half-written build.
    const previous = path.join(work, `previous-${process.pid}`);
    if (existsSync(WEB_DIST)) renameSync(WEB_DIST, previous);
    renameSync(next, WEB_DIST);
    rmSync(previous, { recursive: true, force: true });
  });
}

/** Pages opened before a rebuild still load their screens: recent hashed assets are carried over. */
const KEEP_ASSETS_MS = 24 * 60 * 60_000;
function keepRecentAssets(from: string, to: string): void {
  if (!existsSync(from)) return;
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const source = path.join(from, name);
    const target = path.join(to, name);
    try {
      const { atime, mtime } = statSync(source);
      if (!existsSync(target) && Date.now() - mtime.getTime() < KEEP_ASSETS_MS) {
        copyFileSync(source, target);
        utimesSync(target, atime, mtime);
      }
    } catch {
      // A file removed meanwhile is simply not kept.
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const started = Date.now();
  ensureWebBuild({ force: process.argv.includes('--force') })
    .then(() => console.log(`web build ready in ${WEB_DIST} (${Date.now() - started} ms)`))
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
