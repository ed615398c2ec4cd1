import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SETTINGS } from '../../../src/settings.js';
import { REPO_ROOT } from '../paths.js';
import { freePort } from '../service-process.js';

/** `--role api` serves requests only; `--role worker` runs batches, crawls and maintenance only. */
export type Role = 'api' | 'worker';

export interface RoleProcessOptions {
  role: Role;
  /** Shared by every process of one deployment (local objects live there; the API saves its key there). */
  dataDir: string;
  databaseUrl: string;
  /** More settings (`WORKER_CONCURRENCY`, ...); applied after the defaults below. */
  env?: Record<string, string>;
  /** Write V8 CPU profiles (one per thread) here when the process exits. */
  cpuProfileDir?: string;
  /** Default 180 s: a worker boots one module graph per thread, seconds each on a loaded machine. */
  readyTimeoutMs?: number;
}

export interface RoleProcess {
  role: Role;
  pid: number;
  /** `http://127.0.0.1:PORT` for the API; empty for a worker. */
  origin: string;
  child: ChildProcess;
  /** The last lines the process wrote, for failures. */
  output(): string;
  /** SIGTERM (the process drains and exits, writing CPU profiles), SIGKILL after 30 s; the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `node src/runtime/start.mjs --role <role>` on a server database, the way the README's
 * "Running in production" splits a deployment, and waits for the process to say it is ready:
 * `listening` for the API, `workers ready` (every job thread booted) for a worker. The benchmark's
 * `startService` cannot pass `--role`, hence this launcher; the environment is cleaned the same
 * way (every service setting removed, then set here), so the shell cannot change what is measured.
 *
 * @example
 * const api = await startRoleProcess({ role: 'api', dataDir, databaseUrl });
 * const worker = await startRoleProcess({ role: 'worker', dataDir, databaseUrl });
 * await worker.stop();
 * await api.stop();
 */
export async function startRoleProcess(options: RoleProcessOptions): Promise<RoleProcess> {
  const port = options.role === 'api' ? await freePort() : 0;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(SETTINGS)) delete env[name];
  Object.assign(env, {
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    // `info` is the level of the two ready lines; nothing is logged per request or per item at it.
    LOG_LEVEL: 'info',
    ...options.env,
  });
  const flags = options.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir] : [];
  const child = spawn(process.execPath, [...flags, 'src/runtime/start.mjs', '--role', options.role], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stopping = false;
  const readyLine = options.role === 'api' ? '"msg":"listening"' : '"msg":"workers ready"';
  const ready = new Promise<void>((resolve, reject) => {
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-32_768);
      if (output.includes(readyLine)) resolve();
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.once('exit', (code, signal) => {
      reject(new Error(`exited (code ${code}, signal ${signal}) before it was ready`));
      // An exit nobody asked for (a crash, a kill from outside) must not pass for a slow process.
      if (!stopping)
        process.stderr.write(
          `${options.role} ${child.pid} exited unexpectedly (code ${code}, signal ${signal}):\n${output}\n`,
        );
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  const timeoutMs = options.readyTimeoutMs ?? 180_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ready,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`not ready after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    await stop();
    throw new Error(`${options.role} did not start: ${(err as Error).message}\n--- output ---\n${output}`, {
      cause: err,
    });
  } finally {
    clearTimeout(timer);
  }
  return {
    role: options.role,
    pid: child.pid!,
    origin: options.role === 'api' ? `http://127.0.0.1:${port}` : '',
    child,
    output: () => output,
    stop,
  };
}

/** The key the API created on its first start on an empty database (saved to DATA_DIR/api-key). */
export async function readApiKey(dataDir: string): Promise<string> {
  return (await fs.readFile(path.join(dataDir, 'api-key'), 'utf8')).trim();
}
