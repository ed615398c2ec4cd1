import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { allowLocalPorts } from '../support/config.js';

// Job threads run only while the database holds work for them (WORKER_IDLE_STOP_MS).
let app: TestApp;
let site: FixtureServer;
let hooks: WebhookReceiver;
// A second process's API on the same database: work it queues does not wake `app` directly.
let other: { container: Container; server: RunningServer };

const IDLE_STOP_MS = 1500;

beforeAll(async () => {
  site = await startFixtureServer({ '/page/*': html('<h1>page</h1><p>text</p>') });
  hooks = await startWebhookReceiver();
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port, hooks.port),
      workers: { threads: 1, idleStopMs: IDLE_STOP_MS, leaseMs: 5000, retryBaseMs: 100 },
      webhooks: { retryScale: 0.001, timeoutMs: 2000, allowHttp: true },
    },
  });
  const container = await createContainer(app.config, { role: 'api', migrate: false });
  other = { container, server: await startServer(container) };
}, 120_000);

afterAll(async () => {
  await other?.server.close();
  await other?.container.close();
  await app?.close();
  await site?.close();
  await hooks?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function postBatch(origin: string, body: Json): Promise<string> {
  const res = await fetch(`${origin}/v1/batches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${app.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json.id as string;
}

// Generous: a thread's boot (seconds of module loading) is part of each wait, on a loaded machine.
async function until<T>(what: string, probe: () => Promise<T> | T, timeoutMs = 90_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const batchDone = (id: string) => async () => {
  const batch = (await (await app.request(`/v1/batches/${id}`)).json()) as Json;
  return batch.status === 'completed' ? batch : null;
};
const items = (prefix: string, n = 3) =>
  Array.from({ length: n }, (_, i) => ({ custom_id: `${prefix}-${i}`, url: site.url(`/page/${prefix}-${i}`) }));
const running = () => app.workers!.running().sort();

describe('job threads on demand', { timeout: 180_000 }, () => {
  it('runs no job thread while there is no work', async () => {
    await new Promise((r) => setTimeout(r, 1500));
    expect(running()).toEqual([]);
  });

  it('starts the threads a batch needs when it is queued here, and stops them once idle', async () => {
    const seen = new Set<string>();
    const watch = setInterval(() => running().forEach((name) => seen.add(name)), 20);
    try {
      const id = await postBatch(app.url, { items: items('here'), formats: ['markdown'] });
      const batch = await until('the batch to complete', batchDone(id));
      expect(batch!.completed_urls).toBe(3);
    } finally {
      clearInterval(watch);
    }
    // The batch runner ran (it reaps its own kind's expired leases); crawls, webhooks and
    // maintenance (first due 5 minutes after start) had nothing to do.
    expect([...seen].sort()).toEqual(['batch-runner-1']);
    await until('the threads to stop', () => running().length === 0);
  });

  it('finds work another process queued, by looking at the database', async () => {
    expect(running()).toEqual([]);
    const id = await postBatch(other.server.url, { items: items('there'), formats: ['markdown'] });
    const batch = await until('the batch to complete', batchDone(id));
    expect(batch!.completed_urls).toBe(3);
    await until('the threads to stop', () => running().length === 0);
  });

  it('starts the webhook deliverer for the batch.completed event, which arrives', async () => {
    const before = hooks.received.length;
    const id = await postBatch(app.url, {
      items: items('hook', 1),
      formats: ['markdown'],
      webhook: hooks.url,
    });
    await until('the batch to complete', batchDone(id));
    const [delivery] = (await hooks.waitFor(before + 1, 90_000)).slice(before);
    expect(delivery!.body).toMatchObject({ object: 'event.batch.completed', data: { id, status: 'completed' } });
    await until('the threads to stop', () => running().length === 0);
  });
});

describe('JobQueue.pendingKinds', () => {
  it('counts jobs due within the horizon and running jobs, per kind', async () => {
    const { queue } = other.container;
    const exec = (sql: string) => other.container.db.orm.em.getConnection().execute(sql);
    const pending = async (horizonMs: number) => [...(await queue.pendingKinds(horizonMs))].sort();
    // Nothing is pending once the tests above are done (maintenance is due in 5 minutes).
    expect(await pending(1000)).toEqual([]);
    await app.workers!.stop(); // nothing claims what follows
    const id = await postBatch(other.server.url, { items: items('later', 2), formats: ['markdown'] });
    const jobsOf = `(select id from batch_items where batch_id = '${id}')`;
    expect(await pending(1000)).toEqual(['batch.item']);
    await exec(`update jobs set run_at = now() + interval '1 hour' where id in ${jobsOf}`);
    expect(await pending(1000)).toEqual([]);
    expect(await pending(2 * 3_600_000)).toContain('batch.item');
    await exec(
      `update jobs set status = 'running', lease_expires_at = now() + interval '1 hour'
        where id = (select id from batch_items where batch_id = '${id}' limit 1)`,
    );
    expect(await pending(1000)).toEqual(['batch.item']);
    await exec(`update jobs set status = 'completed' where id in ${jobsOf}`);
    expect(await pending(1000)).toEqual([]);
    await exec(
      `update jobs set status = 'queued', run_at = now() + interval '1 hour'
        where id in (select id from webhook_events limit 1)`,
    );
    expect(await pending(1000)).toEqual([]);
    expect(await pending(2 * 3_600_000)).toEqual(expect.arrayContaining(['webhook.delivery']));
    const crawl = await fetch(`${other.server.url}/v1/crawls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ start_url: site.url('/page/start'), max_pages: 1 }),
    });
    expect(crawl.status).toBe(200);
    expect(await pending(1000)).toContain('crawl.run');
  });
});
