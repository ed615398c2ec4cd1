import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope } from '../support/envelope.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let app: TestApp;
let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer({
    '/p/*': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><head><title>${req.url}</title></head><body><p>Page ${req.url}</p></body></html>`);
    },
  });
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port),
      workers: { threads: 1, concurrency: 16, hostConcurrency: 16, leaseMs: 30_000, maxAttempts: 3, retryBaseMs: 100 },
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

/** A completed file of `purpose` holding `body`, uploaded with a plain PUT. */
async function completedFile(body: string, purpose: 'batch' | 'context' = 'batch', key?: string): Promise<string> {
  const auth = key ? { key } : {};
  const grant = (await (
    await app.request('/v1/files', { method: 'POST', json: { filename: 'items.json', purpose }, ...auth })
  ).json()) as Json;
  const put = await fetch(grant.upload_url, { method: 'PUT', headers: grant.upload_headers, body });
  expect(put.status).toBe(200);
  const done = await app.request(`/v1/files/${grant.id}/complete`, { method: 'POST', ...auth });
  expect(done.status).toBe(200);
  return grant.id as string;
}

const items = (n: number, prefix: string) =>
  Array.from({ length: n }, (_, i) => ({ custom_id: `${prefix}${i}`, url: site.url(`/p/${prefix}${i}`) }));
const postBatch = (json: unknown, key?: string) =>
  app.request('/v1/batches', { method: 'POST', json, ...(key ? { key } : {}) });

async function waitForBatch(id: string, timeoutMs: number): Promise<Json> {
  const started = Date.now();
  for (;;) {
    const batch = (await (await app.request(`/v1/batches/${id}`)).json()) as Json;
    if (batch.status !== 'in_progress') return batch;
    if (Date.now() - started > timeoutMs) throw new Error(`batch ${id} still ${JSON.stringify(batch)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('batches from files', () => {
  it('runs a batch from a file, with the file’s options unless the request sets them', async () => {
    const fileId = await completedFile(
      JSON.stringify({ items: items(3, 'o'), formats: ['html'], metadata: { from: 'file' } }),
    );
    const res = await postBatch({ file_id: fileId, metadata: { from: 'request' } });
    expect(res.status).toBe(200);
    const batch = (await res.json()) as Json;
    expect(batch).toMatchObject({ object: 'batch', total_urls: 3, metadata: { from: 'request' } });
    expect(await waitForBatch(batch.id, 60_000)).toMatchObject({ status: 'completed', items_completed: 3 });
    const page = (await (await app.request(`/v1/batches/${batch.id}/items`)).json()) as Json;
    expect(page.items.map((i: Json) => i.custom_id)).toEqual(['o0', 'o1', 'o2']);
    const retrieved = (await (
      await app.request(`/v1/retrieve?retrieve_id=${page.items[0].retrieve_id}&formats=html`)
    ).json()) as Json;
    expect(JSON.stringify(retrieved)).toContain('Page /p/o0');
  });

  it('refuses files that cannot hold a batch, and creates no batch', async () => {
    const before = ((await (await app.request('/v1/batches?limit=100')).json()) as Json).data.length;
    const context = await completedFile('{"a":1}', 'context');
    expect((await expectEnvelope(await postBatch({ file_id: context }), 400)).code).toBe('invalid_file_purpose');
    const pending = (await (
      await app.request('/v1/files', { method: 'POST', json: { filename: 'p.json', purpose: 'batch' } })
    ).json()) as Json;
    expect((await expectEnvelope(await postBatch({ file_id: pending.id }), 400)).code).toBe('file_not_completed');
    const unknown = 'file_00000000000000000000';
    expect((await expectEnvelope(await postBatch({ file_id: unknown }), 404)).code).toBe('file_not_found');
    const other = await app.otherTeam();
    const theirs = await completedFile(JSON.stringify(items(1, 't')), 'batch', other.key);
    expect((await expectEnvelope(await postBatch({ file_id: theirs }), 404)).code).toBe('file_not_found');
    const both = await expectEnvelope(await postBatch({ file_id: theirs, items: items(1, 'b') }), 400);
    expect(both.detail).toMatch(/file_id: send items or file_id, not both/);
    expect((await expectEnvelope(await postBatch({}), 400)).detail).toMatch(/^items: is required/);
    expect((await expectEnvelope(await postBatch({ file_id: null, items: null }), 400)).code).toBe('validation_error');
    expect(((await (await app.request('/v1/batches?limit=100')).json()) as Json).data.length).toBe(before);
  });

  it('runs a 10,000-item batch from a JSON Lines file to the end', async () => {
    const lines = items(10_000, 'k').map((item) => JSON.stringify(item));
    const fileId = await completedFile(`${lines.join('\n')}\n`);
    const file = (await (await app.request(`/v1/files/${fileId}`)).json()) as Json;
    expect(file).toMatchObject({ status: 'completed', items_count: 10_000 });
    const started = Date.now();
    const res = await postBatch({ file_id: fileId });
    expect(res.status).toBe(200);
    const batch = (await res.json()) as Json;
    expect(batch.total_urls).toBe(10_000);
    const accepted = Date.now() - started;
    const done = await waitForBatch(batch.id, 560_000);
    expect(done).toMatchObject({ status: 'completed', total_urls: 10_000, completed_urls: 10_000, items_failed: 0 });
    const last = (await (await app.request(`/v1/batches/${batch.id}/items?limit=100&cursor=9900`)).json()) as Json;
    expect(last.items.at(-1)).toMatchObject({ custom_id: 'k9999', status: 'completed' });
    console.log(`10,000 items from a file: accepted in ${accepted} ms, completed in ${Date.now() - started} ms`);
  }, 600_000);
});
