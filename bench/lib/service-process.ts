import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SETTINGS } from '../../src/settings.js';
import { readMemory } from './measure/proc-stats.js';
import { REPO_ROOT } from './paths.js';

export interface ServiceOptions {
  /** An existing DATA_DIR (kept on stop); unset = a fresh temporary one, removed on stop. */
  dataDir?: string;
  /** PostgreSQL server; unset = embedded PGlite in DATA_DIR. */
  databaseUrl?: string;
  /** Write V8 CPU profiles (one per thread) here when the service exits. */
  cpuProfileDir?: string;
  /** More settings (`SCRAPE_TIMEOUT_MS`, ...). */
  env?: Record<string, string>;
  /** Boot budget (database start and migrations included); default 180 s. */
  readyTimeoutMs?: number;
  /** The key to use when DATA_DIR holds none (a server database that already had keys). */
  apiKey?: string;
  /** `npm start -- --role …`: `api` serves requests without the job threads (default: all). */
  role?: 'all' | 'api' | 'worker';
}

export interface ServiceProcess {
  origin: string;
  apiKey: string;
  pid: number;
  dataDir: string;
  child: ChildProcess;
  /** The last lines the service wrote (warnings, errors), for reports and failures. */
  output(): string;
  /** SIGTERM (the service drains and exits, writing CPU profiles), SIGKILL after 30 s; removes a temporary DATA_DIR. */
  stop(): Promise<number | null>;
}

/**
 * Starts the real service as `node src/runtime/start.mjs` (what `npm start` runs) with a DATA_DIR of its own, private targets
 * allowed and warnings-only logs, waits for /readyz and reads the API key it created on first start.
 * The environment is the caller's minus every service setting, so a stray DATABASE_URL or
 * S3_ENDPOINT in the shell does not change what is measured.
 *
 * @example
 * const service = await startService({});
 * await fetch(`${service.origin}/v1/me`, { headers: { authorization: `Bearer ${service.apiKey}` } });
 * await service.stop();
 */
export async function startService(options: ServiceOptions = {}): Promise<ServiceProcess> {
  const dataDir = options.dataDir ?? (await createDataDir());
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(SETTINGS)) delete env[name];
  Object.assign(env, {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  });
  const flags = options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : [];
  const role = options.role && options.role !== 'all' ? ['--role', options.role] : [];
  const child = spawn(process.execPath, [...flags, 'src/runtime/start.mjs', ...role], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-16_384);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let stopping = false;
  child.once('exit', (code, signal) => {
    // An exit nobody asked for (a crash, a kill from outside) must not pass for a slow service.
    if (!stopping) process.stderr.write(`service exited unexpectedly (code ${code}, signal ${signal}):\n${output}\n`);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const origin = `http://127.0.0.1:${port}`;
  const cleanup = () => (options.dataDir ? Promise.resolve() : fs.rm(dataDir, { recursive: true, force: true }));
  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(timer);
    await cleanup();
    return code;
  };
  try {
    await waitReady(origin, exited, options.readyTimeoutMs ?? 180_000);
    const apiKey = await readApiKey(dataDir, options.apiKey);
    return { origin, apiKey, pid: child.pid!, dataDir, child, output: () => output, stop };
  } catch (err) {
    await stop();
    throw new Error(`service did not start: ${(err as Error).message}\n--- service output ---\n${output}`, {
      cause: err,
    });
  }
}

async function readApiKey(dataDir: string, fallback: string | undefined): Promise<string> {
  const saved = await fs.readFile(path.join(dataDir, 'api-key'), 'utf8').catch(() => null);
  if (saved) return saved.trim();
  if (fallback) return fallback;
  throw new Error('the service created no DATA_DIR/api-key (the database already had keys): pass an API key');
}

/**
 * Starts the service once on a fresh DATA_DIR (first boot: database initialised, migrations run,
 * key created), stops it and starts it again on the same directory: the state of any deployment
 * after its first start. The first boot is measured apart because PGlite's initdb grows the
 * WebAssembly memory, which never shrinks while that process lives.
 */
export async function startRestartedService(
  options: Omit<ServiceOptions, 'dataDir'>,
): Promise<{ service: ServiceProcess; firstBootRssBytes: number; removeDataDir(): Promise<void> }> {
  const dataDir = await createDataDir();
  const removeDataDir = () => fs.rm(dataDir, { recursive: true, force: true });
  try {
    const { cpuProfileDir: _profileOnlyTheMeasuredProcess, ...firstOptions } = options;
    const first = await startService({ ...firstOptions, dataDir });
    const firstBootRssBytes = readMemory(first.pid)?.rssBytes ?? NaN;
    await first.stop();
    const service = await startService({ ...options, dataDir });
    return { service, firstBootRssBytes, removeDataDir };
  } catch (err) {
    await removeDataDir();
    throw err;
  }
}

/** A fresh temporary DATA_DIR; the caller removes it. */
export function createDataDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'gleaner-bench-'));
}

async function waitReady(origin: string, exited: Promise<number | null>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new Error(`exited with ${exitCode}`);
    try {
      const res = await fetch(`${origin}/readyz`);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not ready after ${timeoutMs} ms`);
}

/** A port free right now on 127.0.0.1 (the service needs it before it starts, to be reachable). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
