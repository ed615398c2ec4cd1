import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idSuffix } from '../../src/ids.js';
import { resourceChannel, type DomainEvent } from '../../src/pubsub/events.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope } from '../support/envelope.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

// Cancelling a crawl while its runner (a crawl-runner thread) is fetching some of its pages and
// others wait in the frontier: the fetches in flight finish after the cancel and are refused,
// the waiting URLs are never fetched.

let app: TestApp;
let site: FixtureServer;
let hooks: WebhookReceiver;
const held: (() => void)[] = [];
const links = Array.from({ length: 8 }, (_, i) => `<a href="/slow/${i}">${i}</a>`).join(' ');

beforeAll(async () => {
  site = await startFixtureServer({
    '/': html(`<title>Home</title><h1>Home</h1>${links}`),
    '/other': html('<title>Other</title><h1>Other</h1>'),
    // Answers only when the test lets it go.
    '/slow/*': async (_req, res) => {
      await new Promise<void>((resolve) => held.push(resolve));
      res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Slow</title><h1>Slow</h1>');
    },
  });
  hooks = await startWebhookReceiver();
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port, hooks.port),
      // A lease long enough that the refused writes, not the renewal, stop the runner.
      workers: { threads: 1, concurrency: 2, hostConcurrency: 8, leaseMs: 30_000, maxAttempts: 2, retryBaseMs: 100 },
      webhooks: { retryScale: 0.001, timeoutMs: 2000, allowHttp: true },
      // One crawl at a time, two pages of it at once.
      crawls: { threads: 1, activePerThread: 1, concurrency: 2, hostConcurrency: 2 },
    } as never,
  });
}, 120_000);

afterAll(async () => {
  for (const release of held) release();
  await app?.close();
  await site?.close();
  await hooks?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const get = async (path: string) => (await (await app.request(path)).json()) as Json;
const cancel = (id: string, key?: string) => app.request(`/v1/crawls/${id}/cancel`, { method: 'POST', key });
const sql = (text: string, params: unknown[] = []) =>
  app.container.db.orm.em.fork().getConnection().execute(text, params) as Promise<Json[]>;
const crawl = async (startPath: string, webhook?: string) =>
  (await (
    await app.request('/v1/crawls', {
      method: 'POST',
      json: { start_url: site.url(startPath), max_pages: 20, follow_robots_txt: false, webhook },
    })
  ).json()) as Json;

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function waitForCrawl(id: string): Promise<Json> {
  let found: Json = {};
  await until(`crawl ${id} ends`, async () => (found = await get(`/v1/crawls/${id}`)).status !== 'in_progress');
  return found;
}

describe('POST /v1/crawls/{id}/cancel', () => {
  it('stops a running crawl: pages in flight are not recorded, queued URLs never fetched, counts and events say so', async () => {
    const created = await crawl('/', hooks.url);
    const events: DomainEvent[] = [];
    const subscription = app.container.pubsub.subscribe(resourceChannel('crawl', created.id));
    void (async () => {
      for await (const event of subscription) events.push(event);
    })();
    // The start page recorded, two of its eight links being fetched, the others waiting.
    await until(
      'two fetches are held',
      async () => held.length === 2 && (await get(`/v1/crawls/${created.id}`)).pages_count === 1,
    );

    const res = await cancel(created.id);
    expect(res.status).toBe(200);
    const cancelled = (await res.json()) as Json;
    expect(cancelled).toMatchObject({
      id: created.id,
      object: 'crawl',
      status: 'cancelled',
      stop_reason: 'cancelled',
      pages_count: 1,
      failed_count: 0,
    });
    expect(Number.isInteger(cancelled.completed_at)).toBe(true);

    // The fetches in flight answer now: the runner processes both pages and is refused.
    for (const release of held.splice(0)) release();
    // Barrier: the runner thread works on one crawl at a time; another crawl completes only
    // once the cancelled one's run has returned.
    const after = await crawl('/other');
    expect(await waitForCrawl(after.id)).toMatchObject({ status: 'completed', pages_count: 1 });

    expect(await get(`/v1/crawls/${created.id}`)).toMatchObject({
      status: 'cancelled',
      pages_count: 1,
      failed_count: 0,
      completed_at: cancelled.completed_at,
    });
    const pages = await get(`/v1/crawls/${created.id}/pages`);
    expect(pages).toMatchObject({ status: 'cancelled', pages_count: 1 });
    expect(pages.pages.map((p: Json) => p.url)).toEqual([site.url('/')]);
    // Nothing of the slow pages is stored: no page rows, no objects; six were never fetched.
    const slow = await sql(`select id from crawl_frontier where crawl_id = ? and url like ?`, [created.id, '%/slow/%']);
    expect(slow).toHaveLength(8);
    const pageIds = slow.map((r) => idSuffix('page', r.id as string) ?? (r.id as string));
    expect(await sql('select id from pages where id in (?)', [pageIds])).toEqual([]);
    for (const id of pageIds) {
      expect(await app.container.blobs.head(`teams/${app.teamId}/pages/${id}/content.md`)).toBeNull();
    }
    const fetched = Array.from({ length: 8 }, (_, i) => site.hits(`/slow/${i}`));
    expect(fetched.reduce((a, b) => a + b, 0)).toBe(2);
    expect((await sql('select status from jobs where id = ?', [created.id]))[0]!.status).toBe('cancelled');

    // One webhook event, crawl.cancelled, and no crawl.completed ever.
    const [delivery] = await hooks.waitFor(1);
    expect(delivery!.body).toMatchObject({
      object: 'event.crawl.cancelled',
      data: { id: created.id, object: 'crawl', status: 'cancelled', urls_count: 1, start_url: site.url('/') },
    });
    expect(hooks.received.filter((d) => (d.body.data as Json).id === created.id)).toHaveLength(1);
    await until('the cancel event arrives', () => events.some((e) => (e as Json).status === 'cancelled'));
    expect(events.at(-1)).toMatchObject({ type: 'crawl.progress', status: 'cancelled', pagesCount: 1 });
    await subscription.return?.();

    // Cancelling again changes nothing and sends nothing more.
    const again = await cancel(created.id);
    expect(again.status).toBe(200);
    expect((await again.json()) as Json).toMatchObject({ status: 'cancelled', completed_at: cancelled.completed_at });
    expect(hooks.received.filter((d) => (d.body.data as Json).id === created.id)).toHaveLength(1);

    // A completed crawl stays completed; another team's is not found.
    const conflict = await expectEnvelope(await cancel(after.id), 409);
    expect(conflict.code).toBe('crawl_not_in_progress');
    expect(conflict.detail).toMatch(/is completed: only a crawl in progress can be cancelled/);
    const other = await app.otherTeam();
    expect((await expectEnvelope(await cancel(created.id, other.key), 404)).code).toBe('crawl_not_found');
  }, 120_000);
});
