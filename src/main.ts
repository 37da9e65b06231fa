import { ConfigError, loadConfig } from '../platform/config';
import { startPortal, StartupError, type PortalProcess } from './portal';

/**
 * `npm start`: the whole portal on one port. PORTAL_PROCESSES=api|projector|worker (comma separated)
 * runs a subset, as docker-compose does.
 */
async function main() {
  const config = loadConfig();
  const processes = (process.env.PORTAL_PROCESSES ?? 'api,projector,worker').split(',').map((p) => p.trim()) as PortalProcess[];
  const log = (line: string) => console.log(line);
  const plugins = [];
  if (processes.includes('api') && process.env.SERVE_WEB !== 'false') {
    const { ensureWebBuild } = await import('./cli/build-web');
    const { registerSpa } = await import('./plugins/spa');
    await ensureWebBuild();
    plugins.push(registerSpa);
  }
  const portal = await startPortal(config, {
    processes,
    seedWhenEmpty: processes.includes('projector'),
    app: { logger: { level: config.LOG_LEVEL }, plugins },
    log,
  });
  if (portal.url) log(`PartnerHub is running at http://localhost:${config.PORT} (API docs: /api/docs)`);
  else log(`PartnerHub ${processes.join(', ')} running.`);
  const shutdown = async () => {
    await portal.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error) => {
  if (error instanceof StartupError || error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
