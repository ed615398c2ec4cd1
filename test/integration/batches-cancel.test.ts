import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceChannel, type DomainEvent } from '../../src/pubsub/events.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope } from '../support/envelope.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

// Cancelling a batch while a worker thread is fetching some of its items and others wait: the
// fetches in flight finish after the cancel and are refused, the waiting items never run.

let app: TestApp;
let site: FixtureServer;
let hooks: WebhookReceiver;
const held: (() => void)[] = [];

beforeAll(async () => {
  site = await startFixtureServer({
    '/fast/*': html('<title>Fast</title><h1>Fast</h1>'),
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
      // Two items at once; a lease long enough that the refused writes, not the renewal, stop the fetches.
      workers: { threads: 1, concurrency: 2, hostConcurrency: 8, leaseMs: 30_000, maxAttempts: 2, retryBaseMs: 100 },
      webhooks: { retryScale: 0.001, timeoutMs: 2000, allowHttp: true },
    },
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
const cancel = (id: string, key?: string) => app.request(`/v1/batches/${id}/cancel`, { method: 'POST', key });
const sql = (text: string, params: unknown[] = []) =>
  app.container.db.orm.em.fork().getConnection().execute(text, params) as Promise<Json[]>;

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function waitForBatch(id: string): Promise<Json> {
  let batch: Json = {};
  await until(`batch ${id} ends`, async () => (batch = await get(`/v1/batches/${id}`)).status !== 'in_progress');
  return batch;
}

describe('POST /v1/batches/{id}/cancel', () => {
  it('stops a running batch: fetches in flight are not recorded, waiting items never run, counts and events say so', async () => {
    const items = [
      ...['a', 'b'].map((n) => ({ custom_id: n, url: site.url(`/fast/${n}`) })),
      ...['c', 'd', 'e', 'f', 'g', 'h'].map((n) => ({ custom_id: n, url: site.url(`/slow/${n}`) })),
    ];
    const created = (await (
      await app.request('/v1/batches', { method: 'POST', json: { items, webhook: hooks.url } })
    ).json()) as Json;
    const events: DomainEvent[] = [];
    const subscription = app.container.pubsub.subscribe(resourceChannel('batch', created.id));
    void (async () => {
      for await (const event of subscription) events.push(event);
    })();
    // a and b done, c and d being fetched (both of the worker's slots), e to h waiting.
    await until(
      'two fetches are held',
      async () => held.length === 2 && (await get(`/v1/batches/${created.id}`)).items_completed === 2,
    );

    const res = await cancel(created.id);
    expect(res.status).toBe(200);
    const cancelled = (await res.json()) as Json;
    expect(cancelled).toMatchObject({
      id: created.id,
      object: 'batch',
      status: 'cancelled',
      total_urls: 8,
      completed_urls: 2,
      items_completed: 2,
      items_failed: 0,
      items_cancelled: 6,
    });
    expect(Number.isInteger(cancelled.completed_at)).toBe(true);

    // The fetches in flight answer now: the worker processes both pages and is refused.
    for (const release of held.splice(0)) release();
    // Barrier: the worker's two slots free only when those two handlers have returned; a new
    // batch of two items completes only then.
    const after = (await (
      await app.request('/v1/batches', {
        method: 'POST',
        json: { items: ['x', 'y'].map((n) => ({ custom_id: n, url: site.url(`/fast/${n}`) })) },
      })
    ).json()) as Json;
    expect((await waitForBatch(after.id)).items_completed).toBe(2);

    expect(await get(`/v1/batches/${created.id}`)).toMatchObject({
      status: 'cancelled',
      items_completed: 2,
      items_failed: 0,
      items_cancelled: 6,
      completed_at: cancelled.completed_at,
    });
    const page = await get(`/v1/batches/${created.id}/items?limit=100`);
    expect(page.items.map((i: Json) => [i.custom_id, i.status])).toEqual([
      ['a', 'completed'],
      ['b', 'completed'],
      ...['c', 'd', 'e', 'f', 'g', 'h'].map((n) => [n, 'cancelled']),
    ]);
    const onlyCancelled = await get(`/v1/batches/${created.id}/items?status=cancelled&limit=2`);
    expect(onlyCancelled).toMatchObject({ status: 'cancelled', items_count: 6, cursor: 2 });
    // Nothing of the cancelled items is stored: no page rows, no objects; e to h were never fetched.
    const retrieveIds = page.items.slice(2).map((i: Json) => i.retrieve_id as string);
    expect(await sql('select id from pages where id in (?)', [retrieveIds])).toEqual([]);
    for (const id of retrieveIds.slice(0, 2)) {
      expect(await app.container.blobs.head(`teams/${app.teamId}/pages/${id}/content.md`)).toBeNull();
    }
    expect(['e', 'f', 'g', 'h'].map((n) => site.hits(`/slow/${n}`))).toEqual([0, 0, 0, 0]);
    expect(
      await sql(
        `select status, count(*)::int as n from jobs where id in (select id from batch_items where batch_id = ?)
                 group by status order by status`,
        [created.id],
      ),
    ).toEqual([
      { status: 'cancelled', n: 6 },
      { status: 'completed', n: 2 },
    ]);

    // One webhook event, batch.cancelled, and no batch.completed ever.
    const [delivery] = await hooks.waitFor(1);
    expect(delivery!.body).toMatchObject({
      object: 'event.batch.cancelled',
      delivery_attempt: '1/5',
      data: {
        id: created.id,
        object: 'batch',
        status: 'cancelled',
        items_total: 8,
        items_completed: 2,
        items_failed: 0,
        items_cancelled: 6,
      },
    });
    expect(hooks.received.filter((d) => (d.body.data as Json).id === created.id)).toHaveLength(1);
    // Progress: the last event is the cancel, with the counts it left.
    await until('the cancel event arrives', () => events.some((e) => (e as Json).status === 'cancelled'));
    expect(events.at(-1)).toMatchObject({ type: 'batch.progress', status: 'cancelled', completed: 2, failed: 0 });
    await subscription.return?.();

    // Cancelling again changes nothing and sends nothing more.
    const again = await cancel(created.id);
    expect(again.status).toBe(200);
    expect((await again.json()) as Json).toMatchObject({ status: 'cancelled', completed_at: cancelled.completed_at });
    expect(hooks.received.filter((d) => (d.body.data as Json).id === created.id)).toHaveLength(1);
  }, 120_000);

  it('cancels a batch just created, whatever of it had started', async () => {
    const created = (await (
      await app.request('/v1/batches', {
        method: 'POST',
        json: { items: ['p', 'q', 'r'].map((n) => ({ custom_id: n, url: site.url(`/slow/q${n}`) })) },
      })
    ).json()) as Json;
    const res = await cancel(created.id);
    expect((await res.json()) as Json).toMatchObject({ status: 'cancelled', items_completed: 0, items_cancelled: 3 });
    for (const release of held.splice(0)) release();
  });

  it('refuses to cancel a batch that completed (409), and knows no other team’s batch (404)', async () => {
    const created = (await (
      await app.request('/v1/batches', {
        method: 'POST',
        json: { items: [{ custom_id: 'z', url: site.url('/fast/z') }] },
      })
    ).json()) as Json;
    await waitForBatch(created.id);
    const conflict = await expectEnvelope(await cancel(created.id), 409);
    expect(conflict.code).toBe('batch_not_in_progress');
    expect(conflict.detail).toMatch(/is completed: only a batch in progress can be cancelled/);
    expect((await get(`/v1/batches/${created.id}`)).status).toBe('completed');

    const other = await app.otherTeam();
    expect((await expectEnvelope(await cancel(created.id, other.key), 404)).code).toBe('batch_not_found');
    expect((await expectEnvelope(await cancel('batch_doesnotexist'), 404)).code).toBe('batch_not_found');
  });
});
