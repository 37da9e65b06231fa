/**
 * Serves the built web app (web/dist) from the API server, so one port serves the whole portal.
 *
 * - Files that exist in the build are sent as they are: hashed assets (`/assets/…`) with a
 *   one-year immutable cache, other files (favicon…) with a short cache.
 * - Any other GET that is not under `/api` or `/uploads` and accepts text/html gets index.html
 *   (no-cache), so client-side routes survive a reload.
 * - Everything else falls through to the server's not-found handler.
 *
 * Registered encapsulated (not through fastify-plugin) so its `sendFile` decorator cannot clash
 * with another @fastify/static registration, e.g. the uploads.
 */

import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

export interface SpaOptions {
  /** The built web app; defaults to web/dist. */
  distDir?: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=3600';
const NO_CACHE = 'no-cache';

const NOT_FOR_SPA = /^\/(api|uploads)(\/|$)/;

function fileIn(distDir: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = path.normalize(decoded).replace(/^([/\\])+/, '');
  if (!relative || relative.startsWith('..')) return null;
  const absolute = path.join(distDir, relative);
  if (!absolute.startsWith(distDir + path.sep)) return null;
  try {
    return statSync(absolute).isFile() ? relative : null;
  } catch {
    return null;
  }
}

const acceptsHtml = (request: FastifyRequest): boolean => {
  const accept = request.headers.accept;
  return !accept || accept.includes('text/html') || accept.includes('*/*');
};

export async function spaPlugin(app: FastifyInstance, options: SpaOptions): Promise<void> {
  const distDir = path.resolve(options.distDir ?? DEFAULT_DIST_DIR);
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'web build not found: the web app is not served (run `tsx src/cli/build-web.ts`)');
  }

  await app.register(fastifyStatic, { root: distDir, serve: false });

  const sendIndex = (reply: FastifyReply) =>
    reply.header('Cache-Control', NO_CACHE).type('text/html; charset=utf-8').sendFile('index.html', distDir, { cacheControl: false });

  app.get('/*', async (request, reply) => {
    const urlPath = request.url.split('?')[0] ?? '/';
    if (NOT_FOR_SPA.test(urlPath)) return reply.callNotFound();

    const file = fileIn(distDir, urlPath);
    if (file) {
      if (file === 'index.html') return sendIndex(reply);
      const cache = file.startsWith(`assets${path.sep}`) || file.startsWith('assets/') ? IMMUTABLE : SHORT;
      return reply.header('Cache-Control', cache).sendFile(file, distDir, { cacheControl: false });
    }
    // A missing hashed asset must not turn into an HTML page.
    if (urlPath.startsWith('/assets/') || !acceptsHtml(request) || !existsSync(indexFile)) return reply.callNotFound();
    return sendIndex(reply);
  });
}

/** Registers the web app on `app`. */
export async function registerSpa(app: FastifyInstance, options: SpaOptions = {}): Promise<void> {
  await app.register(spaPlugin, options);
}

export default spaPlugin;
