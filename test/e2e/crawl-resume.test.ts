import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.js';
import { testConfig, tempDir } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { spawnService, type SpawnedService } from '../support/spawn-service.js';

// Two worker processes share one Postgres; the one holding a crawl is killed with SIGKILL
// mid-crawl. The other takes the crawl over once the lease expires and finishes it from the
// frontier: every page once, none lost, the crawl completed once.

const MAX_PAGES = 120;
let site: FixtureServer;
let db: TestDatabase;
let workers: SpawnedService[] = [];

beforeAll(async () => {
  // A binary tree of pages (/p/N links to /p/2N+1 and /p/2N+2), each answering after 60 ms.
  site = await startFixtureServer({
    '/p/*': (req, res) => {
      const n = Number((req.url ?? '').split('/').pop()) || 0;
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<title>Page ${n}</title><h1>${n}</h1><a href="/p/${2 * n + 1}">a</a><a href="/p/${2 * n + 2}">b</a>`);
      }, 60);
    },
  });
  db = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  await site?.close();
  await db?.drop();
});

function workerEnv(): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    DATA_DIR: tempDir('gleaner-crawl-worker-'),
    OUTBOUND_ALLOW_ADDRESSES: `127.0.0.1:${site.port}`,
    WORKER_LEASE_MS: '3000',
    CRAWL_CONCURRENCY: '4',
    CRAWL_HOST_CONCURRENCY: '4',
    BROWSER_ENABLED: 'false',
    LOG_LEVEL: 'info',
  };
}

async function state(container: Container, id: string) {
  const conn = container.db.orm.em.getConnection();
  const [crawl] = await conn.execute(
    `select c.status, c.pages_count, c.stop_reason, c.runs, j.lease_owner
     from crawls c left join jobs j on j.id = c.id where c.id = ?`,
    [id],
  );
  const [rows] = await conn.execute<{ done: number; distinct_urls: number; pages: number }[]>(
    `select count(*)::int as done, count(distinct coalesce(final_url, url))::int as distinct_urls,
            (select count(*)::int from pages p join crawl_frontier f on p.id = substr(f.id, 6) where f.crawl_id = ?) as pages
     from crawl_frontier where crawl_id = ? and status = 'done'`,
    [id, id],
  );
  return { crawl: crawl as Record<string, unknown>, rows: rows! };
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('crawl crash safety', () => {
  it(
    'resumes a crawl whose worker was SIGKILLed, on another worker, without duplicates',
    { timeout: 300_000 },
    async () => {
      const config = testConfig({
        database: { url: db.url },
        outbound: { allowPrivate: false, denyDomains: [], allowAddresses: [`127.0.0.1:${site.port}`] },
      });
      const container = await createContainer(config, { role: 'api' });
      try {
        const team = await container.services.apiKeys.createTeam('crash');
        const crawl = await container.services.crawls.create(
          { teamId: team.id, via: 'api_key' },
          { start_url: site.url('/p/0'), max_pages: MAX_PAGES },
        );
        workers = await Promise.all(
          [0, 1].map(() => spawnService(workerEnv(), ['--role', 'worker'], 180_000, 'workers ready')),
        );
        await waitUntil(
          'a fifth of the crawl is done',
          async () => {
            const { crawl: c } = await state(container, crawl.id);
            return (c.pages_count as number) >= MAX_PAGES / 5;
          },
          180_000,
        );
        const { crawl: during } = await state(container, crawl.id);
        expect(during.status).toBe('in_progress');
        const holder = workers.find((w) => String(during.lease_owner).includes(`:${w.child.pid}:`))!;
        expect(holder).toBeDefined();
        await holder.stop('SIGKILL');
        await waitUntil(
          'the crawl completes',
          async () => (await state(container, crawl.id)).crawl.status === 'completed',
          180_000,
        );
        const { crawl: after, rows } = await state(container, crawl.id);
        expect(after).toMatchObject({ status: 'completed', stop_reason: 'max_pages', pages_count: MAX_PAGES });
        expect(after.runs).toBeGreaterThanOrEqual(2);
        expect(rows).toEqual({ done: MAX_PAGES, distinct_urls: MAX_PAGES, pages: MAX_PAGES });
        // At most the pages in flight when the worker died were fetched twice.
        const fetched = site.requests.filter((r) => r.path.startsWith('/p/')).length;
        expect(fetched).toBeLessThanOrEqual(MAX_PAGES + 8);
        const survivor = workers.find((w) => w !== holder)!;
        expect(survivor.child.exitCode).toBeNull();
        expect(survivor.stdout()).toContain('resuming a crawl');
      } finally {
        await container.close();
      }
    },
  );
});
