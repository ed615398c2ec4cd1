import { afterAll, beforeAll, expect, it } from 'vitest';
import { BATCH_ITEM_JOB, type BatchItemPayload } from '../../src/domain/batches/batch-ledger.js';
import { Page } from '../../src/domain/pages/page.entity.js';
import type { ClaimedJob } from '../../src/workers/queue/job-kind.js';
import { startTestApp, type TestApp } from '../support/app.js';

// Broke: the batch's "was it still in progress" was read by a CTE with FOR UPDATE on the row
// the same statement updated; Postgres hides that row from the statement's own scan, so the
// last item never saw itself finish the batch and no batch.completed event was written.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    config: {
      webhooks: { retryScale: 1, timeoutMs: 1000, allowHttp: true },
      workers: { threads: 1, concurrency: 8, hostConcurrency: 100, leaseMs: 30_000, maxAttempts: 3, retryBaseMs: 100 },
    },
  });
});
afterAll(() => app?.close());

it('the transaction that ends the last item completes the batch and writes one webhook event', async () => {
  const { batches, batchLedger } = app.container.services;
  const { queue } = app.container;
  const actor = { teamId: app.teamId, via: 'api_key' as const };
  const n = 24;
  const batch = await batches.create(actor, {
    items: Array.from({ length: n }, (_, i) => ({ custom_id: `c${i}`, url: `https://example.com/${i}` })),
    webhook: 'https://hooks.example.com/batch',
  });
  const owners = ['w1', 'w2', 'w3'];
  const claimed = (await Promise.all(owners.map((o) => queue.claim<BatchItemPayload>(BATCH_ITEM_JOB, o, n)))).flatMap(
    (items, i) => items.map((item) => ({ owner: owners[i]!, item })),
  );
  expect(claimed).toHaveLength(n);
  const outcomes = await Promise.all(
    claimed.map(({ item }, i) =>
      i % 5 === 0
        ? batchLedger.fail(item, { code: 'upstream_error', message: 'x' })
        : batchLedger.complete(item, pageOf(item)),
    ),
  );
  expect(outcomes.filter((o) => o?.finished)).toHaveLength(1);
  const conn = app.container.db.orm.em.getConnection();
  const [row] = await conn.execute('select status, items_completed, items_failed from batches where id = ?', [
    batch.id,
  ]);
  expect(row).toEqual({ status: 'completed', items_completed: n - 5, items_failed: 5 });
  const events = await conn.execute('select type, data from webhook_events where resource_id = ?', [batch.id]);
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    type: 'batch.completed',
    data: { items_total: n, items_completed: n - 5, items_failed: 5 },
  });
  // Ending an item twice is refused: the lease is gone.
  expect(await batchLedger.complete(claimed[1]!.item, pageOf(claimed[1]!.item))).toBeNull();
});

function pageOf(item: ClaimedJob<BatchItemPayload>): Page {
  return Object.assign(new Page(), {
    id: item.payload.retrieveId,
    teamId: item.teamId!,
    source: 'batch',
    url: item.payload.url,
    formats: {},
    pageMetadata: { title: '' },
  });
}
