import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookOutbox } from '../../src/domain/webhooks/webhook-outbox.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope } from '../support/envelope.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

// The delivery records: every attempt listed, paged and filtered; a recorded delivery's event
// sent again. Events are written to the outbox as batches and crawls write them, and delivered
// by the workers to a local receiver.

let app: TestApp;
let hooks: WebhookReceiver;
/** How many times the receiver refuses each resource's event before it accepts it. */
const refusals: Record<string, number> = { batch_ok: 0, crawl_late: 2, batch_never: 99 };

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  hooks.respondWith((delivery) => {
    const id = (delivery.body.data as { id: string }).id;
    const seen = hooks.received.filter((d) => (d.body.data as { id: string }).id === id).length;
    return seen > (refusals[id] ?? 0) ? 200 : 500;
  });
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(hooks.port),
      webhooks: { retryScale: 0.001, timeoutMs: 2000, allowHttp: true },
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await hooks?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const list = async (query = '', key?: string) => {
  const res = await app.request(`/v1/webhooks/deliveries${query}`, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
};

async function until<T>(what: string, check: () => Promise<T | null | false>, timeoutMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('GET /v1/webhooks/deliveries', () => {
  it('lists every attempt newest first, in pages, filtered by event, resource, type and outcome', async () => {
    const outbox = (app.container.services as unknown as { outbox: WebhookOutbox }).outbox;
    await app.container.queue.transaction(async (em) => {
      for (const [type, id] of [
        ['batch.completed', 'batch_ok'],
        ['crawl.completed', 'crawl_late'],
        ['batch.cancelled', 'batch_never'],
      ]) {
        await outbox.enqueue(em, { teamId: app.teamId, type: type!, resourceId: id!, url: hooks.url, data: { id } });
      }
    });
    // 1 attempt, 3 (two refused), 5 (all refused): nine in all.
    await until('every attempt recorded', async () => (await list('?limit=100')).data.length === 9);
    await until('the last event failed', async () => {
      const [last] = (await list('?resource_id=batch_never&limit=1')).data as Json[];
      return last?.event_status === 'failed';
    });

    const all = (await list('?limit=100')).data as Json[];
    expect(all.map((d) => d.created)).toEqual([...all.map((d) => d.created)].sort((a, b) => b - a));
    const pages: Json[] = [];
    let cursor: number | undefined = 0;
    for (let n = 0; cursor !== undefined; n++) {
      const page = await list(`?limit=4&cursor=${cursor}`);
      expect(page.data.length).toBe(n < 2 ? 4 : 1);
      pages.push(...(page.data as Json[]));
      cursor = page.cursor as number | undefined;
    }
    expect(pages.map((d) => d.id)).toEqual(all.map((d) => d.id));

    const late = (await list('?resource_id=crawl_late')).data as Json[];
    expect(late.map((d) => [d.event_type, d.attempt, d.status_code, d.success, d.event_status])).toEqual([
      ['crawl.completed', 3, 200, true, 'delivered'],
      ['crawl.completed', 2, 500, false, 'delivered'],
      ['crawl.completed', 1, 500, false, 'delivered'],
    ]);
    expect(new Set(late.map((d) => d.event_id)).size).toBe(1);
    expect((await list(`?event_id=${late[0]!.event_id}`)).data).toEqual(late);
    expect((await list('?event_type=batch.cancelled')).data).toHaveLength(5);
    expect(((await list('?success=true')).data as Json[]).map((d) => d.resource_id).sort()).toEqual([
      'batch_ok',
      'crawl_late',
    ]);
    expect((await list('?success=0')).data).toHaveLength(7);
    expect(((await list('?resource_id=crawl_late&success=false')).data as Json[]).map((d) => d.attempt)).toEqual([
      2, 1,
    ]);
    expect((await list('?event_type=monitor.changed')).data).toEqual([]);

    const other = await app.otherTeam();
    expect(await list('?resource_id=crawl_late', other.key)).toEqual({ object: 'list', data: [] });
    for (const [query, detail] of [
      ['?success=maybe', /^success: must be true or false/],
      ['?limit=0', /^limit: must be at least 1/],
      ['?cursor=x', /^cursor: must be an integer/],
    ] as const) {
      const res = await app.request(`/v1/webhooks/deliveries${query}`);
      expect((await expectEnvelope(res, 400)).detail).toMatch(detail);
    }
  }, 90_000);

  it('sends a recorded delivery’s event again: a new series, the same event id', async () => {
    const [failed] = (await list('?resource_id=batch_never&limit=1')).data as Json[];
    expect(failed).toMatchObject({ attempt: 5, success: false, event_status: 'failed' });
    refusals.batch_never = 0;
    const before = hooks.received.length;

    // While the event is being delivered, it cannot be sent again.
    const jobs = app.container.db.orm.em.fork().getConnection();
    await jobs.execute(`update jobs set status = 'running' where id = ?`, [failed!.event_id]);
    const busy = await app.request(`/v1/webhooks/deliveries/${failed!.id}/redeliver`, { method: 'POST' });
    expect((await expectEnvelope(busy, 409)).code).toBe('delivery_in_progress');
    await jobs.execute(`update jobs set status = 'failed' where id = ?`, [failed!.event_id]);

    const other = await app.otherTeam();
    const hidden = await app.request(`/v1/webhooks/deliveries/${failed!.id}/redeliver`, {
      method: 'POST',
      key: other.key,
    });
    expect((await expectEnvelope(hidden, 404)).code).toBe('delivery_not_found');

    const res = await app.request(`/v1/webhooks/deliveries/${failed!.id}/redeliver`, { method: 'POST' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ object: 'webhook.event', id: failed!.event_id, status: 'pending' });
    const [sent] = await hooks.waitFor(before + 1).then((r) => r.slice(before));
    expect(sent!.body).toMatchObject({
      id: failed!.event_id,
      object: 'event.batch.cancelled',
      delivery_attempt: '1/5',
    });
    const latest = await until('the new attempt recorded', async () => {
      const [first] = (await list('?resource_id=batch_never&limit=1')).data as Json[];
      return first?.id !== failed!.id && first?.event_status === 'delivered' ? first : null;
    });
    expect(latest).toMatchObject({ event_id: failed!.event_id, attempt: 1, status_code: 200, success: true });
    expect((await list('?resource_id=batch_never')).data).toHaveLength(6);
  }, 60_000);
});
