/**
 * Section "bundle": what the browser downloads. Builds the web app into a temporary folder with a
 * plugin that attributes each chunk's code to the packages (or app folders) it came from, then serves
 * that build, opens /signin in headless chromium and sums the JavaScript it actually loaded.
 * Sizes: raw bytes as written, gzip at zlib's default level (what a compressing proxy sends).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import type { Plugin } from 'vite';
import { registerSpa } from '../../src/plugins/spa';
import { launchBrowser } from '../../web/e2e/browser';
import { formatCount, renderTable } from './reportTables';

/** Goal: the JavaScript /signin loads, gzipped. */
export const SIGNIN_GOAL_KIB = 200;

export interface ChunkReport {
  file: string;
  raw: number;
  gzip: number;
  /** The largest contributors, by rendered size: a package name or an app folder. */
  holds: Array<{ what: string; share: number }>;
  loadedBySignin: boolean;
}

export interface BundleSection {
  chunks: ChunkReport[];
  signin: { files: string[]; raw: number; gzip: number };
  measuredWith: string;
}

const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));

/** `@mui/material`, `react-admin`, or `app: web/src/orders` for the portal's own code. */
function originOf(id: string): string {
  const clean = id.replace(/\?.*$/, '').replace(/^\0/, '');
  const inPackage = clean.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inPackage) return inPackage[1];
  const inApp = clean.match(/\/web\/src\/([^/]+)\//);
  if (inApp) return `app: ${inApp[1]}`;
  if (clean.includes('/domain/')) return 'app: domain';
  return 'app';
}

function attribution(into: Map<string, Map<string, number>>): Plugin {
  return {
    name: 'bundle-attribution',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const origins = new Map<string, number>();
        for (const [id, module] of Object.entries(output.modules)) origins.set(originOf(id), (origins.get(originOf(id)) ?? 0) + module.renderedLength);
        into.set(output.fileName, origins);
      }
    },
  };
}

async function buildInto(outDir: string): Promise<Map<string, Map<string, number>>> {
  const { build } = await import('vite');
  const origins = new Map<string, Map<string, number>>();
  await build({
    configFile: path.join(WEB_ROOT, 'vite.config.ts'),
    root: WEB_ROOT,
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true },
    plugins: [attribution(origins)],
  });
  return origins;
}

/** The script files a real browser fetches to show /signin (and everything they import). */
async function scriptsLoadedBySignin(distDir: string): Promise<string[]> {
  const server = Fastify({ logger: false });
  await registerSpa(server, { distDir });
  const url = await server.listen({ port: 0, host: '127.0.0.1' });
  // The server is closed whatever happens, a browser that cannot start included: it would keep the bench running.
  let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  try {
    browser = await launchBrowser();
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname.replace(/^\//, ''));
    });
    await page.goto(`${url}/signin`, { waitUntil: 'networkidle' });
    // The splash gives way to the form: everything the form needs has been fetched by then.
    await page.locator('input[name="email"]').waitFor({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    return [...scripts].sort();
  } finally {
    await browser?.close();
    await server.close();
  }
}

export async function runBundleSection(log: (line: string) => void): Promise<BundleSection> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'partnerhub-bundle-'));
  try {
    log('  building the web app');
    const origins = await buildInto(outDir);
    log('  loading /signin in headless chromium');
    const loaded = new Set(await scriptsLoadedBySignin(outDir));
    const chunks: ChunkReport[] = [];
    for (const [file, byOrigin] of origins) {
      const content = await readFile(path.join(outDir, file));
      const total = [...byOrigin.values()].reduce((sum, n) => sum + n, 0) || 1;
      const holds = [...byOrigin]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([what, size]) => ({ what, share: size / total }));
      chunks.push({ file, raw: content.length, gzip: gzipSync(content).length, holds, loadedBySignin: loaded.has(file) });
    }
    chunks.sort((a, b) => b.gzip - a.gzip);
    const signinChunks = chunks.filter((chunk) => chunk.loadedBySignin);
    return {
      chunks,
      signin: { files: signinChunks.map((c) => c.file), raw: signinChunks.reduce((s, c) => s + c.raw, 0), gzip: signinChunks.reduce((s, c) => s + c.gzip, 0) },
      measuredWith: 'production build (web/vite.config.ts); /signin opened in headless chromium, every script response counted',
    };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The largest chunks (and every chunk /signin loads), then the /signin total next to its goal. */
export function bundleTable(section: BundleSection, largest = 12): string {
  const shown = section.chunks.filter((chunk, index) => index < largest || chunk.loadedBySignin);
  return [
    renderTable(
      'Bundle (web app)',
      ['chunk', 'raw', 'gzip', '/signin', 'holds (share of the chunk)'],
      shown.map((c) => [
        c.file.replace(/^assets\//, ''),
        kib(c.raw),
        kib(c.gzip),
        c.loadedBySignin ? 'loads' : '',
        c.holds.map((h) => `${h.what} ${(h.share * 100).toFixed(0)}%`).join(', '),
      ]),
      ['left', 'right', 'right', 'left', 'left'],
    ),
    `   ${formatCount(section.chunks.length)} chunks, ${shown.length} shown; /signin loads ${section.signin.files.length} scripts: ` +
      `${kib(section.signin.raw)} raw, ${kib(section.signin.gzip)} gzip (goal <= ${SIGNIN_GOAL_KIB} KiB)`,
    `   ${section.measuredWith}`,
  ].join('\n');
}
