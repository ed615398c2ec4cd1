import type { AppConfig } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import { createContainer, type Container } from '../../src/container.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { startWorkers, type Workers } from '../../src/workers/workers.js';
import { testConfig } from './config.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestApp {
  container: Container;
  server: RunningServer;
  url: string;
  /** A key of the default team. */
  key: string;
  teamId: string;
  config: AppConfig;
  /** The job supervisor when started with `workers: true`. */
  workers: Workers | null;
  /** fetch against the app with the default key unless headers say otherwise. */
  request(path: string, init?: RequestInit & { json?: unknown; key?: string | null }): Promise<Response>;
  /** A second team with its own key, to prove isolation. */
  otherTeam(): Promise<{ teamId: string; key: string }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** `postgres` (default): a fresh database on the test server; `pglite`: the embedded database in memory. */
  database?: 'postgres' | 'pglite';
  config?: Parameters<typeof testConfig>[0];
  logger?: Logger;
  /** Run the background jobs (batch runner, webhook deliverer, maintenance) as in `npm start`. */
  workers?: boolean;
}

/** The whole service (real database, real HTTP server on 127.0.0.1) for one test file. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  let db: TestDatabase | null = null;
  const overrides = { ...(options.config ?? {}) };
  if ((options.database ?? 'postgres') === 'postgres') {
    db = await createTestDatabase();
    overrides.database = { ...(overrides.database ?? {}), url: db.url };
  }
  const config = testConfig(overrides);
  const container = await createContainer(config, {
    inMemoryDatabase: options.database === 'pglite',
    logger: options.logger,
  });
  const server = await startServer(container);
  const created = (await container.services.apiKeys.bootstrap())!;
  const workers: Workers | null = options.workers ? await startWorkers(container) : null;
  await workers?.ready;
  const url = server.url;
  const request = (path: string, init: RequestInit & { json?: unknown; key?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    const key = init.key === undefined ? created.secret : init.key;
    if (key !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${key}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    return fetch(`${url}${path}`, { ...init, headers, body });
  };
  return {
    container,
    server,
    url,
    key: created.secret,
    teamId: created.key.teamId,
    config,
    workers,
    request,
    async otherTeam() {
      const team = await container.services.apiKeys.createTeam('other');
      const { secret } = await container.services.apiKeys.createKey(team.id, 'other');
      return { teamId: team.id, key: secret };
    },
    async close() {
      await server.close();
      await workers?.stop();
      await container.close();
      await db?.drop();
    },
  };
}
