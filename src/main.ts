// Only the configuration is loaded up front: a bad setting is reported at once, before the
// seconds it takes to load the rest of the service.
import v8 from 'node:v8';
import { ConfigError, loadConfig, loadEnvFile } from './config.js';
import type { Role } from './container.js';

const ROLES: Role[] = ['all', 'api', 'worker'];

function parseRole(argv: string[]): Role {
  const i = argv.indexOf('--role');
  const value = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--role='))?.slice('--role='.length);
  if (value === undefined) return 'all';
  if (!ROLES.includes(value as Role)) {
    process.stderr.write(`--role must be one of ${ROLES.join(', ')} (got ${value})\n`);
    process.exit(2);
  }
  return value as Role;
}

async function main(): Promise<void> {
  const role = parseRole(process.argv.slice(2));
  let config;
  let envFile: string | null;
  try {
    envFile = loadEnvFile();
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee .env.example and the README's configuration table.\n`);
      process.exit(1);
    }
    throw err;
  }
  // V8's default heap growing lets a busy thread's old generation run far past its live data
  // before a full collection: under load the service's resident size swung by 150-250 MB. A
  // fixed factor keeps it near the live size (docs/benchmarks.md, "Memory"). The flag is read at
  // every collection, so setting it here, before the service is loaded, applies to every thread.
  if (config.heapGrowthPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${config.heapGrowthPercent}`);
  const { createContainer } = await import('./container.js');
  const { ensureDefaultKey, logEngines, printStartupHints } = await import('./bootstrap.js');
  const { startServer } = await import('./server.js');
  const { startHealthServer } = await import('./http/health-server.js');
  const { startWorkers } = await import('./workers/workers.js');
  const container = await createContainer(config, { role });
  if (envFile)
    container.logger.info({ file: envFile }, 'settings read from .env (variables set in the environment win)');
  logEngines(container);
  const bootstrap = role === 'worker' ? null : await ensureDefaultKey(container);
  const server = role === 'worker' ? null : await startServer(container);
  const workers = role === 'api' ? null : await startWorkers(container);
  // A worker serves no API, but container probes need an address: its health endpoints.
  const health = role === 'worker' ? await startHealthServer(container) : null;
  if (bootstrap) printStartupHints(container, bootstrap, (line) => process.stderr.write(`${line}\n`));

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    container.logger.info({ signal }, 'shutting down');
    await health?.close();
    await server?.close();
    await workers?.stop();
    await container.close();
    container.logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`fatal: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
