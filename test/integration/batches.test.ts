import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { allowLocalPorts } from '../support/config.js';

let app: TestApp;
let site: FixtureServer;
let hooks: WebhookReceiver;
let flaky = 0;

beforeAll(async () => {
  // Every answer closes its connection: /flaky's dropped connections must be fresh ones, which
  // the engine reports as failures (a dropped kept-alive connection it would just retry).
  site = await startFixtureServer({
    '/page/*': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', connection: 'close' });
      res.end(
        `<html><head><title>${req.url}</title></head><body><h1>Page ${req.url}</h1><a href="/page/next">next</a></body></html>`,
      );
    },
    '/flaky': (_req, res) => {
      // Drops the connection twice, then answers: a retryable failure that succeeds on retry.
      if (flaky++ < 2) res.socket?.destroy();
      else res.writeHead(200, { 'content-type': 'text/html', connection: 'close' }).end('<h1>finally</h1>');
    },
  });
  hooks = await startWebhookReceiver();
  app = await startTestApp({
    workers: true,
    config: {
      logLevel: (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent',
      outbound: allowLocalPorts(site.port, hooks.port),
      workers: { threads: 1, concurrency: 8, hostConcurrency: 8, leaseMs: 5000, maxAttempts: 3, retryBaseMs: 100 },
      webhooks: { retryScale: 0.001, timeoutMs: 2000, allowHttp: true },
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
  await hooks?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const post = (json: unknown) => app.request('/v1/batches', { method: 'POST', json });
const get = async (path: string, key?: string) => (await (await app.request(path, key ? { key } : {})).json()) as Json;

async function waitForBatch(id: string, timeoutMs = 60_000): Promise<Json> {
  const started = Date.now();
  for (;;) {
    const batch = await get(`/v1/batches/${id}`);
    if (batch.status !== 'in_progress') return batch;
    if (Date.now() - started > timeoutMs) throw new Error(`batch ${id} still ${JSON.stringify(batch)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const items = (n: number, prefix = 'p') =>
  Array.from({ length: n }, (_, i) => ({ custom_id: `${prefix}${i}`, url: site.url(`/page/${prefix}${i}`) }));

describe('batches', () => {
  it('accepts a batch, runs every item, and reports it per spec', async () => {
    const res = await post({ items: items(12), formats: ['markdown', 'html'], metadata: { job: 'one' } });
    expect(res.status).toBe(200);
    const created = (await res.json()) as Json;
    expect(created).toMatchObject({
      object: 'batch',
      status: 'in_progress',
      total_urls: 12,
      completed_urls: 0,
      parser: 'none',
      metadata: { job: 'one' },
      number_retried: 0,
      webhook: null,
    });
    expect(created.id).toMatch(/^batch_/);
    expect(Number.isInteger(created.created)).toBe(true);
    expect(new Date(created.start_date).toISOString()).toBe(created.start_date);
    const done = await waitForBatch(created.id);
    expect(done).toMatchObject({ status: 'completed', completed_urls: 12, items_completed: 12, items_failed: 0 });
    expect(Number.isInteger(done.completed_at)).toBe(true);

    const page = await get(`/v1/batches/${created.id}/items?status=completed&limit=5`);
    expect(page).toMatchObject({
      id: created.id,
      batch_id: created.id,
      object: 'batch',
      status: 'completed',
      items_count: 12,
      cursor: 5,
    });
    expect(page.items.map((i: Json) => i.custom_id)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    const next = await get(`/v1/batches/${created.id}/items?status=completed&limit=5&cursor=5`);
    expect(next.items[0].custom_id).toBe('p5');
    const last = await get(`/v1/batches/${created.id}/items?cursor=10&limit=5`);
    expect(last.items).toHaveLength(2);
    expect(last.cursor).toBeUndefined();

    const content = await get(`/v1/retrieve?retrieve_id=${page.items[0].retrieve_id}`);
    expect(content.markdown_content).toContain('# Page /page/p0');
    expect(content.html_content).toContain('<h1>Page /page/p0</h1>');
  });

  it('retries retryable failures with backoff and counts them', async () => {
    const created = (await (await post({ items: [{ custom_id: 'f', url: site.url('/flaky') }] })).json()) as Json;
    const done = await waitForBatch(created.id);
    expect(done).toMatchObject({ status: 'completed', items_completed: 1, number_retried: 2 });
  });

  it('fails items that cannot succeed, with the error, and still completes the batch', async () => {
    const created = (await (
      await post({
        items: [
          { custom_id: 'ok', url: site.url('/page/ok') },
          { custom_id: 'dead', url: 'http://no-such-host.invalid/' },
        ],
      })
    ).json()) as Json;
    const done = await waitForBatch(created.id);
    expect(done).toMatchObject({ status: 'completed', items_completed: 1, items_failed: 1, completed_urls: 2 });
    const failed = await get(`/v1/batches/${created.id}/items?status=failed`);
    expect(failed.items).toEqual([
      expect.objectContaining({
        custom_id: 'dead',
        status: 'failed',
        error: expect.objectContaining({ code: 'upstream_error' }),
      }),
    ]);
  });

  it('merges metadata with PATCH; "" removes a key', async () => {
    const created = (await (await post({ items: items(1, 'm'), metadata: { a: '1', b: '2' } })).json()) as Json;
    const res = await app.request(`/v1/batches/${created.id}`, {
      method: 'PATCH',
      json: { metadata: { b: '', c: '3' } },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).metadata).toEqual({ a: '1', c: '3' });
  });

  it('lists the team’s batches newest first and hides them from other teams', async () => {
    const list = await get('/v1/batches?limit=2');
    expect(list.object).toBe('list');
    expect(list.data).toHaveLength(2);
    expect(list.data[0].created).toBeGreaterThanOrEqual(list.data[1].created);
    const other = await app.otherTeam();
    expect((await get('/v1/batches', other.key)).data).toEqual([]);
    const res = await app.request(`/v1/batches/${list.data[0].id}`, { key: other.key });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'batch_not_found' });
  });

  it('accepts 10,000 items at once', async () => {
    const res = await post({
      items: items(10_000, 'big').map((i) => ({ ...i, url: `http://no-such-host.invalid/${i.custom_id}` })),
    });
    expect(res.status).toBe(200);
    const batch = (await res.json()) as Json;
    expect(batch.total_urls).toBe(10_000);
    const page = await get(`/v1/batches/${batch.id}/items?limit=100&cursor=9950`);
    expect(page.items_count).toBe(10_000);
    expect(page.items).toHaveLength(50);
    // Not left running: other tests share the worker (its items are jobs with the same ids).
    const conn = app.container.db.orm.em.getConnection();
    await conn.execute(`delete from jobs where id in (select id from batch_items where batch_id = ?)`, [batch.id]);
    await conn.execute(`delete from batches where id = ?`, [batch.id]);
  });
});

describe('batch webhooks', () => {
  it('delivers batch.completed once, in the spec envelope, retrying non-2xx with the same event id', async () => {
    hooks.received.length = 0;
    hooks.respondWith((_d, i) =>
      i === 0 ? 500 : i === 1 ? { status: 302, headers: { location: 'http://127.0.0.1:1/' } } : 200,
    );
    const created = (await (await post({ items: items(3, 'w'), webhook_url: hooks.url })).json()) as Json;
    expect(created.webhook).toBe(hooks.url);
    const received = await hooks.waitFor(3);
    const ids = new Set(received.map((d) => d.body.id));
    expect(ids.size).toBe(1);
    expect(received.map((d) => d.body.delivery_attempt)).toEqual(['1/5', '2/5', '3/5']);
    const body = received[2]!.body as Json;
    expect(body).toMatchObject({
      object: 'event.batch.completed',
      data: {
        id: created.id,
        object: 'batch',
        status: 'completed',
        items_total: 3,
        items_completed: 3,
        items_failed: 0,
      },
    });
    expect(String(body.id)).toMatch(/^event_/);
    expect(typeof body.timestamp).toBe('number');
    expect(new Date(body.data.completed_at).toISOString()).toBe(body.data.completed_at);
    expect(received[2]!.headers['webhook-signature']).toBeUndefined();

    await new Promise((r) => setTimeout(r, 500));
    expect(hooks.received).toHaveLength(3); // delivered: no more attempts
    const deliveries = await get(`/v1/webhooks/deliveries?event_id=${body.id}`);
    expect(deliveries.data.map((d: Json) => [d.attempt, d.status_code, d.success])).toEqual([
      [3, 200, true],
      [2, 302, false],
      [1, 500, false],
    ]);
    expect(deliveries.data[1].error).toContain('redirects are not followed');

    const redeliver = await app.request(`/v1/webhooks/deliveries/${deliveries.data[0].id}/redeliver`, {
      method: 'POST',
    });
    expect(redeliver.status).toBe(202);
    const again = await hooks.waitFor(4);
    expect(again[3]!.body.id).toBe(body.id);
    expect(again[3]!.body.delivery_attempt).toBe('1/5');
  });

  it('gives up after 5 attempts', async () => {
    hooks.received.length = 0;
    hooks.respondWith(() => 503);
    const created = (await (await post({ items: items(1, 'g'), webhook: hooks.url })).json()) as Json;
    const received = await hooks.waitFor(5, 30_000);
    expect(received.map((d) => d.body.delivery_attempt)).toEqual(['1/5', '2/5', '3/5', '4/5', '5/5']);
    await new Promise((r) => setTimeout(r, 1000));
    expect(hooks.received).toHaveLength(5);
    expect((received[0]!.body.data as Json).id).toBe(created.id);
  });

  it('signs deliveries with Standard Webhooks headers once the team opts in', async () => {
    hooks.received.length = 0;
    hooks.respondWith(() => 204);
    const { secret } = (await (await app.request('/v1/webhooks/signing-secret', { method: 'POST' })).json()) as {
      secret: string;
    };
    expect(secret).toMatch(/^whsec_/);
    await post({ items: items(1, 's'), webhook: hooks.url });
    const [delivery] = await hooks.waitFor(1);
    const { headers, raw } = delivery!;
    const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${raw}`)
      .digest('base64');
    expect(headers['webhook-id']).toBe(delivery!.body.id);
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    await app.request('/v1/webhooks/signing-secret', { method: 'DELETE' });
  });
});

describe('bad input', () => {
  const valid = () => items(1, 'v');
  const cases: [string, () => unknown, number, RegExp][] = [
    ['zero items', () => ({ items: [] }), 400, /^items: must contain at least one item/],
    [
      '10,001 items',
      () => ({ items: Array.from({ length: 10_001 }, (_, i) => ({ custom_id: `c${i}`, url: 'https://a.example' })) }),
      400,
      /^items: at most 10000 items/,
    ],
    [
      'a duplicate custom_id',
      () => ({
        items: [
          { custom_id: 'x', url: 'https://a.example' },
          { custom_id: 'x', url: 'https://b.example' },
        ],
      }),
      400,
      /^items\[1\]\.custom_id: duplicate custom_id "x" \(also items\[0\]\)/,
    ],
    ['an item without url', () => ({ items: [{ custom_id: 'x' }] }), 400, /^items\[0\]\.url: is required/],
    ['an item with a relative url', () => ({ items: [{ custom_id: 'x', url: '/a' }] }), 400, /^items\[0\]\.url: /],
    [
      'an item with a private url',
      () => ({ items: [...valid(), { custom_id: 'x', url: 'http://10.1.2.3/admin' }] }),
      403,
      /^items\[1\]\.url: /,
    ],
    [
      'an item with the metadata address',
      () => ({ items: [{ custom_id: 'x', url: 'http://169.254.169.254/' }] }),
      403,
      /^items\[0\]\.url: /,
    ],
    [
      'a webhook that is not http(s)',
      () => ({ items: valid(), webhook: 'ftp://hooks.example/x' }),
      400,
      /^webhook: scheme "ftp"/,
    ],
    [
      'a webhook at a private address',
      () => ({ items: valid(), webhook: 'http://192.168.1.10/hook' }),
      403,
      /^webhook: /,
    ],
    [
      'a webhook_url on loopback',
      () => ({ items: valid(), webhook_url: 'http://127.0.0.1:9/hook' }),
      403,
      /^webhook_url: /,
    ],
    ['metadata over the limits', () => ({ items: valid(), metadata: { k: 'x'.repeat(501) } }), 400, /^metadata\.k: /],
    [
      'item metadata not strings',
      () => ({ items: [{ ...valid()[0], metadata: { n: 1 } }] }),
      400,
      /^items\[0\]\.metadata\.n: must be a string/,
    ],
    ['an unknown field', () => ({ items: valid(), item: [] }), 400, /^item: unknown field/],
  ];
  it.each(cases)('refuses %s and creates nothing', async (_, body, status, detail) => {
    const before = await app.container.db.orm.em
      .getConnection()
      .execute<{ n: number }[]>('select count(*)::int as n from batches');
    const res = await post(body());
    expect(res.status).toBe(status);
    expect(((await res.json()) as Json).detail).toMatch(detail);
    const after = await app.container.db.orm.em
      .getConnection()
      .execute<{ n: number }[]>('select count(*)::int as n from batches');
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('refuses PATCH without metadata, and bad item queries', async () => {
    const created = (await (await post({ items: valid() })).json()) as Json;
    const patch = await app.request(`/v1/batches/${created.id}`, { method: 'PATCH', json: {} });
    expect(patch.status).toBe(400);
    expect(((await patch.json()) as Json).detail).toMatch(/^metadata: is required/);
    for (const [query, detail] of [
      ['status=running', /^status: must be completed, failed or cancelled/],
      ['cursor=-1', /^cursor: /],
      ['cursor=abc', /^cursor: /],
      ['limit=0', /^limit: /],
      ['limit=1000', /^limit: /],
    ] as const) {
      const res = await app.request(`/v1/batches/${created.id}/items?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as Json).detail).toMatch(detail);
    }
    const both = await app.request(`/v1/batches/${created.id}/items?limit=1&cursor=0`);
    expect(both.status).toBe(200);
  });
});
