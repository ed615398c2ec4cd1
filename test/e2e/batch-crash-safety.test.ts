import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config.js';
import { createContainer, type Container } from '../../src/container.js';
import { testConfig, tempDir, allowLocalPorts } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { spawnService, type SpawnedService } from '../support/spawn-service.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

// Worker processes on one Postgres server: one is killed mid-batch, or the database goes away
// for a few seconds; no accepted item is lost or ended twice, and the batch completes once.

let site: FixtureServer;
let hooks: WebhookReceiver;
let workers: SpawnedService[] = [];
const dbs: TestDatabase[] = [];

beforeAll(async () => {
  site = await startFixtureServer({
    '/p/*': (req, res) => {
      // Slow enough that the batch is still running when a worker dies.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          `<html><head><title>${req.url}</title></head><body><h1>${req.url}</h1><p>${'text '.repeat(200)}</p></body></html>`,
        );
      }, 40);
    },
  });
  hooks = await startWebhookReceiver();
});
afterEach(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  workers = [];
});
afterAll(async () => {
  await site?.close();
  await hooks?.close();
  await Promise.all(dbs.map((db) => db.drop()));
});

function workerEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATA_DIR: tempDir('gleaner-worker-'),
    OUTBOUND_ALLOW_ADDRESSES: `127.0.0.1:${site.port},127.0.0.1:${hooks.port}`,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_RETRY_SCALE: '0.001',
    WORKER_LEASE_MS: '3000',
    WORKER_CONCURRENCY: '8',
    WORKER_HOST_CONCURRENCY: '32',
    WORKER_RETRY_BASE_MS: '200',
    WORKER_MAX_ATTEMPTS: '5',
    LOG_LEVEL: 'info',
  };
}

function apiConfig(databaseUrl: string): AppConfig {
  return testConfig({
    database: { url: databaseUrl },
    outbound: allowLocalPorts(site.port, hooks.port),
    webhooks: { retryScale: 0.001, timeoutMs: 5000, allowHttp: true },
  });
}

async function createBatch(config: AppConfig, n: number): Promise<{ container: Container; batchId: string }> {
  const container = await createContainer(config, { role: 'api' });
  const [team] = await container.services.apiKeys.listTeams();
  const teamId = team?.id ?? (await container.services.apiKeys.createTeam('crash')).id;
  const batch = await container.services.batches.create(
    { teamId, via: 'api_key' },
    {
      items: Array.from({ length: n }, (_, i) => ({ custom_id: `c${i}`, url: site.url(`/p/${i}`) })),
      webhook: hooks.url,
    },
  );
  return { container, batchId: batch.id };
}

async function counts(container: Container, batchId: string) {
  const conn = container.db.orm.em.getConnection();
  const [batch] = await conn.execute(
    `select status, items_completed, items_failed, total_urls from batches where id = ?`,
    [batchId],
  );
  // An item not ended yet is running while its job (same id) is leased.
  const rows = await conn.execute<{ status: string; n: number }[]>(
    `select case when i.status = 'queued' and j.status = 'running' then 'running' else i.status end as status,
            count(*)::int as n
     from batch_items i left join jobs j on j.id = i.id where i.batch_id = ? group by 1`,
    [batchId],
  );
  const pages = await conn.execute<{ n: number }[]>(
    `select count(*)::int as n from pages p join batch_items i on i.retrieve_id = p.id where i.batch_id = ?`,
    [batchId],
  );
  return {
    batch: batch as Record<string, unknown>,
    byStatus: Object.fromEntries(rows.map((r) => [r.status, r.n])),
    pages: pages[0]!.n,
  };
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function expectCompletedOnce(container: Container, batchId: string, n: number): Promise<void> {
  await waitUntil(
    'the batch completes',
    async () => (await counts(container, batchId)).batch.status === 'completed',
    180_000,
  );
  const { batch, byStatus, pages } = await counts(container, batchId);
  // Every item ended exactly once: final states only, and the counters equal the rows.
  expect(Object.keys(byStatus).sort()).toEqual(
    Object.keys(byStatus)
      .filter((s) => s === 'completed' || s === 'failed')
      .sort(),
  );
  expect((byStatus.completed ?? 0) + (byStatus.failed ?? 0)).toBe(n);
  expect(batch.items_completed).toBe(byStatus.completed ?? 0);
  expect(batch.items_failed).toBe(byStatus.failed ?? 0);
  expect(pages).toBe(byStatus.completed ?? 0);
  await waitUntil(
    'the webhook arrives',
    async () => hooks.received.some((d) => (d.body.data as { id?: string })?.id === batchId),
    30_000,
  );
  const events = new Set(
    hooks.received.filter((d) => (d.body.data as { id?: string })?.id === batchId).map((d) => d.body.id),
  );
  expect(events.size).toBe(1);
}

describe('crash safety', () => {
  it('loses nothing when one of three workers is killed with SIGKILL mid-batch', { timeout: 300_000 }, async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const { container, batchId } = await createBatch(apiConfig(db.url), 1000);
    try {
      workers = await Promise.all(
        [0, 1, 2].map(() => spawnService(workerEnv(db.url), ['--role', 'worker'], 180_000, 'workers ready')),
      );
      await waitUntil(
        'a third of the batch is done',
        async () => {
          const { byStatus } = await counts(container, batchId);
          return (byStatus.completed ?? 0) + (byStatus.failed ?? 0) >= 300;
        },
        180_000,
      );
      const { byStatus } = await counts(container, batchId);
      expect(byStatus.running ?? 0).toBeGreaterThan(0);
      await workers[1]!.stop('SIGKILL');
      await expectCompletedOnce(container, batchId, 1000);
    } finally {
      await container.close();
    }
  });

  it('recovers when the database goes away for a few seconds mid-batch', { timeout: 300_000 }, async () => {
    const db = await createTestDatabase();
    dbs.push(db);
    const url = new URL(db.url);
    const proxy: TcpProxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    const viaProxy = new URL(db.url);
    viaProxy.port = String(proxy.port);
    const { container, batchId } = await createBatch(apiConfig(db.url), 300);
    try {
      workers = [await spawnService(workerEnv(viaProxy.toString()), ['--role', 'worker'], 180_000, 'workers ready')];
      await waitUntil(
        'the batch is under way',
        async () => ((await counts(container, batchId)).byStatus.completed ?? 0) >= 50,
        180_000,
      );
      await proxy.outage(4000);
      await expectCompletedOnce(container, batchId, 300);
      expect(workers[0]!.child.exitCode).toBeNull(); // the worker survived the outage
    } finally {
      await container.close();
      await proxy.close();
    }
  });
});
