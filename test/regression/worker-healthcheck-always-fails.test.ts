import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { spawnService, type SpawnedService } from '../support/spawn-service.js';

// Broke: the image's HEALTHCHECK fetches /readyz on PORT, but `--role worker` listened nowhere,
// so every worker container was marked unhealthy. The worker now serves its health endpoints
// on PORT; this runs the Dockerfile's own HEALTHCHECK command against a worker.
const ROOT = path.resolve(import.meta.dirname, '../..');

/** The shell command of the Dockerfile's HEALTHCHECK, exactly as written there. */
function healthcheckCommand(): string {
  const match = /^HEALTHCHECK\s.*?\bCMD\s+(.+)$/m.exec(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
  if (!match) throw new Error('the Dockerfile has no HEALTHCHECK … CMD line');
  return match[1]!;
}

/** Runs it as Docker does (`/bin/sh -c`), with the container's PORT; resolves with its exit code. */
function runHealthcheck(port: number): Promise<number> {
  return new Promise((resolve) => {
    const env = { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`, PORT: String(port) };
    const child = execFile('/bin/sh', ['-c', healthcheckCommand()], { env, timeout: 30_000 }, () => undefined);
    child.once('exit', (code) => resolve(code ?? -1));
  });
}

/** A port nothing listens on now (the container's PORT is known before the service starts). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let db: TestDatabase;
let worker: SpawnedService;
let port: number;
beforeAll(async () => {
  db = await createTestDatabase();
  port = await freePort();
  const env = {
    DATABASE_URL: db.url,
    DATA_DIR: tempDir('gleaner-worker-health-'),
    BROWSER_ENABLED: 'false',
    PORT: String(port),
  };
  worker = await spawnService(env, ['--role', 'worker'], 180_000, 'workers ready');
}, 200_000);
afterAll(async () => {
  await worker?.stop('SIGKILL');
  await db?.drop();
});

it(
  'passes the Dockerfile HEALTHCHECK while the worker runs, and fails once it stopped',
  { timeout: 120_000 },
  async () => {
    // Docker retries until the start period ends; so does this.
    await expect.poll(() => runHealthcheck(port), { timeout: 30_000, interval: 1000 }).toBe(0);
    const base = `http://127.0.0.1:${port}`;
    const health = await fetch(`${base}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', role: 'worker' });
    expect(await fetch(`${base}/readyz`).then((r) => r.json())).toEqual({ status: 'ready', database: 'server' });
    // Health only: the API is not served by a worker.
    const api = await fetch(`${base}/v1/me`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toBe('application/problem+json');
    expect(await worker.stop('SIGTERM')).toBe(0);
    expect(await runHealthcheck(port)).not.toBe(0);
  },
);
