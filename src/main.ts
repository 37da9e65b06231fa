import cluster from 'node:cluster';
import { ConfigError, loadConfig, type Config } from '../platform/config';
import { startApiProcesses } from './apiProcesses';
import { startPortal, StartupError, type PortalProcess } from './portal';

/**
 * `npm start`: the whole portal on one port. PORTAL_PROCESSES=api|projector|worker (comma separated)
 * runs a subset, as docker-compose does. The API runs in API_PROCESSES processes (one per core by
 * default) that share the port; the projector and the workers run once, in the first process.
 */
const log = (line: string) => console.log(line);

async function webPlugins(serveWeb: boolean) {
  if (!serveWeb) return [];
  const { ensureWebBuild } = await import('./cli/build-web');
  const { registerSpa } = await import('./plugins/spa');
  await ensureWebBuild();
  return [registerSpa];
}

function onShutdown(stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

async function startOneProcess(config: Config, processes: PortalProcess[], serveWeb: boolean) {
  const portal = await startPortal(config, {
    processes,
    // API processes forked by the first one never seed: it has, before forking them.
    seedWhenEmpty: processes.includes('projector') && !cluster.isWorker,
    app: { logger: { level: config.LOG_LEVEL }, plugins: processes.includes('api') ? await webPlugins(serveWeb) : [] },
    log,
  });
  onShutdown(() => portal.stop());
  return portal;
}

async function main() {
  const config = loadConfig();
  const serveWeb = process.env.SERVE_WEB !== 'false';
  if (cluster.isWorker) {
    await startOneProcess(config, ['api'], serveWeb);
    return;
  }
  const processes = (process.env.PORTAL_PROCESSES ?? 'api,projector,worker').split(',').map((p) => p.trim()) as PortalProcess[];
  const forkApi = processes.includes('api') && config.API_PROCESSES > 1;
  if (!forkApi) {
    const portal = await startOneProcess(config, processes, serveWeb);
    if (portal.url) log(`PartnerHub is running at http://localhost:${config.PORT} (API docs: /api/docs)`);
    else log(`PartnerHub ${processes.join(', ')} running.`);
    return;
  }
  // The web build is checked once here, so the API processes find it ready.
  if (serveWeb) await webPlugins(serveWeb);
  const others = processes.filter((p) => p !== 'api');
  const portal = others.length ? await startPortal(config, { processes: others, seedWhenEmpty: others.includes('projector'), log }) : undefined;
  const api = await startApiProcesses({ count: config.API_PROCESSES, env: { JWT_SECRET: config.JWT_SECRET }, log }).catch(async (error) => {
    await portal?.stop();
    throw error;
  });
  onShutdown(async () => {
    await api.stop();
    await portal?.stop();
  });
  log(`PartnerHub is running at http://localhost:${config.PORT} in ${config.API_PROCESSES} API processes (API docs: /api/docs)`);
}

main().catch((error) => {
  if (error instanceof StartupError || error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
