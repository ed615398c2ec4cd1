import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../../../src/errors.js';
import type { BlobStore, UploadGrant } from '../../../src/storage/blob-store.js';
import { createBlobUrlVerifier } from '../../../src/storage/blob-urls.js';
import { createLocalBlobStore } from '../../../src/storage/local-blob-store.js';
import { createBlobTestApp, listen } from './blob-app.js';
import type { Listening } from './blob-app.js';

/** Signed uploads of the local store as a client meets them: single use, limits, no leftovers. */
const SECRET = 'unit-test-secret-0123456789abcdef';
let dir = '';
let server: Listening;
let store: BlobStore;

const openStore = (now?: () => number) =>
  createLocalBlobStore({ dir, secret: SECRET, baseUrl: () => server.origin, now });
const grantFor = (key: string, maxBytes?: number) =>
  store.presignUpload(key, { expiresInSeconds: 300, contentType: 'application/json', maxBytes });
const put = (grant: UploadGrant, body: string) => fetch(grant.url, { method: 'PUT', headers: grant.headers, body });

async function expectEnvelope(response: Response, status: number, code: string): Promise<ErrorEnvelope> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const envelope = (await response.json()) as ErrorEnvelope;
  expect(envelope).toMatchObject({ object: 'error', status, code });
  return envelope;
}

/** Files left in staging/ (writes in progress) and claims/ (upload URLs in use or used). */
async function leftovers(): Promise<{ staging: string[]; claims: string[] }> {
  const list = (sub: string) => readdir(path.join(dir, sub)).catch(() => [] as string[]);
  return { staging: await list('staging'), claims: await list('claims') };
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'signed-upload-'));
  store = openStore();
  server = await listen(createBlobTestApp(store, createBlobUrlVerifier(SECRET)));
  await store.init();
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('local signed uploads', () => {
  it('refuses a second PUT through the same URL and keeps the first upload', async () => {
    const grant = await grantFor('files/once.json');
    expect((await put(grant, '{"v":1}')).status).toBe(200);
    const envelope = await expectEnvelope(await put(grant, '{"v":2}'), 403, 'signed_url_used');
    expect(envelope.detail).toMatch(/used already/);
    expect((await store.get('files/once.json'))?.toString()).toBe('{"v":1}');
    // Deleting the object does not make the URL usable again.
    await store.delete('files/once.json');
    await expectEnvelope(await put(grant, '{"v":3}'), 403, 'signed_url_used');
    expect(await store.head('files/once.json')).toBeNull();
  });

  it('refuses the URL in another process sharing the directory', async () => {
    const grant = await grantFor('files/shared.json');
    expect((await put(grant, '[]')).status).toBe(200);
    const other = openStore();
    const otherServer = await listen(createBlobTestApp(other, createBlobUrlVerifier(SECRET)));
    try {
      const url = grant.url.replace(server.origin, otherServer.origin);
      const response = await fetch(url, { method: 'PUT', headers: grant.headers, body: '[1]' });
      await expectEnvelope(response, 403, 'signed_url_used');
    } finally {
      await otherServer.close();
    }
  });

  it('refuses a PUT while another through the same URL is still receiving', async () => {
    const grant = await grantFor('files/slow.json');
    const first = http.request(grant.url, { method: 'PUT', headers: grant.headers });
    const answered = new Promise<number>((resolve, reject) => {
      first.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      first.on('error', reject);
    });
    first.write('{"part":"');
    await waitFor(async () => (await leftovers()).claims.length === 1);
    const envelope = await expectEnvelope(await put(grant, '{}'), 403, 'signed_url_used');
    expect(envelope.detail).toMatch(/in progress/);
    first.end('one"}');
    expect(await answered).toBe(200);
    expect((await store.get('files/slow.json'))?.toString()).toBe('{"part":"one"}');
  });

  it('leaves no bytes and no claim behind when an upload fails, so the URL can be retried', async () => {
    const grant = await grantFor('files/retry.json', 16);
    await expectEnvelope(await put(grant, `"${'x'.repeat(64)}"`), 413, 'payload_too_large');
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode('"0123456789"'));
        controller.close();
      },
    });
    const streamed = await fetch(grant.url, {
      method: 'PUT',
      headers: grant.headers,
      body: chunked,
      // @ts-expect-error undici needs this for stream bodies; the DOM type lacks it
      duplex: 'half',
    });
    await expectEnvelope(streamed, 413, 'payload_too_large');
    await expectEnvelope(
      await fetch(grant.url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: '{}' }),
      400,
      'content_type_mismatch',
    );
    expect(await store.head('files/retry.json')).toBeNull();
    expect(await leftovers()).toEqual({ staging: [], claims: [] });
    expect((await put(grant, '{"ok":1}')).status).toBe(200);
    expect((await leftovers()).claims).toHaveLength(1);
  });

  it("answers 403 envelopes for another key's signature and for an expired URL", async () => {
    const mine = new URL((await grantFor('files/mine.json')).url);
    const theirs = new URL((await grantFor('files/theirs.json')).url);
    theirs.pathname = mine.pathname;
    const borrowed = await fetch(theirs, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '1' });
    await expectEnvelope(borrowed, 403, 'signed_url_invalid');

    const late = createBlobUrlVerifier(SECRET, { now: () => Date.now() + 301_000 });
    const lateServer = await listen(createBlobTestApp(store, late));
    try {
      const expired = await fetch(mine.href.replace(server.origin, lateServer.origin), {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: '1',
      });
      await expectEnvelope(expired, 403, 'signed_url_expired');
    } finally {
      await lateServer.close();
    }
    expect(await store.head('files/mine.json')).toBeNull();
    expect(await leftovers()).toEqual({ staging: [], claims: [] });
  });

  it('sweeps the records of URLs an hour past their expiry, and keeps the others', async () => {
    const claims = path.join(dir, 'claims');
    await mkdir(claims, { recursive: true });
    const nowS = Math.floor(Date.now() / 1000);
    const old = `${nowS - 3700}-${'a'.repeat(22)}`;
    const recent = `${nowS - 60}-${'b'.repeat(22)}`;
    await writeFile(path.join(claims, old), 'done');
    await writeFile(path.join(claims, recent), 'done');
    await openStore().init();
    expect(await readdir(claims)).toEqual([recent]);
  });
});

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}
