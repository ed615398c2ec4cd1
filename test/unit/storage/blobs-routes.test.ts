import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../../../src/errors.js';
import type { BlobStore } from '../../../src/storage/blob-store.js';
import { createBlobUrlVerifier } from '../../../src/storage/blob-urls.js';
import { createLocalBlobStore } from '../../../src/storage/local-blob-store.js';
import { createBlobTestApp, DOCS_URL } from './blob-app.js';

const SECRET = 'unit-test-secret-0123456789abcdef';
const BASE = 'http://blobs.test';
let dir = '';
let store: BlobStore;
let app: ReturnType<typeof createBlobTestApp>;
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'blob-routes-'));
  store = createLocalBlobStore({ dir, secret: SECRET, baseUrl: () => BASE });
  await store.init();
  app = createBlobTestApp(store, createBlobUrlVerifier(SECRET));
  await store.put('t/data.bin', BYTES, { contentType: 'application/octet-stream' });
  await store.put('t/page.html', '<script>alert(1)</script>', { contentType: 'text/html; charset=utf-8' });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const request = (url: string, init?: RequestInit) => app.request(url.replace(BASE, ''), init);
const getUrl = (key: string, filename?: string) => store.signedGetUrl(key, { expiresInSeconds: 300, filename });

async function expectEnvelope(response: Response, status: number, code: string): Promise<ErrorEnvelope> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const envelope = (await response.json()) as ErrorEnvelope;
  expect(envelope).toMatchObject({ object: 'error', status, code });
  expect(envelope.type).toMatch(new RegExp(`^${DOCS_URL}/api-reference/errors/`));
  return envelope;
}

describe('GET and HEAD /blobs/*', () => {
  it('serves the object with its metadata and protective headers', async () => {
    const response = await request(await getUrl('t/page.html', 'page.html'));
    expect(response.status).toBe(200);
    const head = await store.head('t/page.html');
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-length': '25',
      'accept-ranges': 'bytes',
      etag: `"${head!.etag}"`,
      'last-modified': head!.lastModified.toUTCString(),
      'content-disposition': `attachment; filename="page.html"; filename*=UTF-8''page.html`,
      'content-security-policy': "default-src 'none'; sandbox",
      'x-content-type-options': 'nosniff',
    });
    expect(response.headers.get('cache-control')).toMatch(/^private, max-age=(29\d|300)$/);
    expect(await response.text()).toBe('<script>alert(1)</script>');
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await request(await getUrl('t/data.bin'), { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe('1000');
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect((await response.arrayBuffer()).byteLength).toBe(0);
    const ranged = await request(await getUrl('t/data.bin'), { method: 'HEAD', headers: { range: 'bytes=0-9' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('10');
  });

  it.each([
    ['bytes=0-0', 0, 0],
    ['bytes=100-199', 100, 199],
    ['bytes=990-', 990, 999],
    ['bytes=-10', 990, 999],
    ['bytes=900-5000', 900, 999],
  ])('serves %s as 206', async (range, start, end) => {
    const response = await request(await getUrl('t/data.bin'), { headers: { range } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes ${start}-${end}/1000`);
    expect(response.headers.get('content-length')).toBe(String(end - start + 1));
    expect(Buffer.from(await response.arrayBuffer()).equals(BYTES.subarray(start, end + 1))).toBe(true);
  });

  it('answers 416 with the size for a range past the end', async () => {
    const response = await request(await getUrl('t/data.bin'), { headers: { range: 'bytes=1000-' } });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe('bytes */1000');
  });

  it('serves the whole object for multi-range, malformed and stale If-Range requests', async () => {
    const url = await getUrl('t/data.bin');
    const etag = `"${(await store.head('t/data.bin'))!.etag}"`;
    const variants: Record<string, string>[] = [
      { range: 'bytes=0-1,5-6' },
      { range: 'bytes=9-2' },
      { range: 'bytes=0-1', 'if-range': '"stale"' },
      { range: 'bytes=0-1', 'if-range': 'Wed, 21 Oct 2015 07:28:00 GMT' },
    ];
    for (const headers of variants) {
      const response = await request(url, { headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBe(1000);
    }
    const current = await request(url, { headers: { range: 'bytes=0-1', 'if-range': etag } });
    expect(current.status).toBe(206);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const etag = `"${(await store.head('t/data.bin'))!.etag}"`;
    const response = await request(await getUrl('t/data.bin'), { headers: { 'if-none-match': `"other", ${etag}` } });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe(etag);
    const changed = await request(await getUrl('t/data.bin'), { headers: { 'if-none-match': '"other"' } });
    expect(changed.status).toBe(200);
  });

  it('answers 403 in the error envelope for bad or expired signatures', async () => {
    const url = new URL(await getUrl('t/data.bin'));
    url.searchParams.set('sig', '0'.repeat(64));
    await expectEnvelope(await request(url.href), 403, 'signed_url_invalid');
    await expectEnvelope(await request(`${BASE}/blobs/t/data.bin`), 403, 'signed_url_invalid');
    await expectEnvelope(await request(`${BASE}/blobs/t/%E0%A4%A.bin?sig=x`), 403, 'signed_url_invalid');

    const expired = await store.signedGetUrl('t/data.bin', { expiresInSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2100)); // expiries have one-second resolution
    const envelope = await expectEnvelope(await request(expired), 403, 'signed_url_expired');
    expect(envelope.detail).toMatch(/expired/);
  });

  it('answers 404 in the envelope for a signed URL whose object is gone', async () => {
    await store.put('t/gone', 'x', { contentType: 'text/plain' });
    const url = await getUrl('t/gone');
    await store.delete('t/gone');
    await expectEnvelope(await request(url), 404, 'blob_not_found');
    expect((await request(url, { method: 'HEAD' })).status).toBe(404);
  });

  it('does not let a dot-dot path reach outside the store', async () => {
    // URL parsing folds ../ away before routing; whatever is left must still carry a signature.
    for (const p of ['/blobs/../../etc/passwd', '/blobs/%2e%2e/%2e%2e/etc/passwd', '/blobs/a/..%2F..%2Fetc%2Fpasswd']) {
      const response = await app.request(`${p}?expires=99999999999&sig=${'0'.repeat(64)}`);
      expect([403, 404], p).toContain(response.status);
    }
  });
});

describe('PUT /blobs/*', () => {
  const putUrl = async (key: string, maxBytes?: number) =>
    (await store.presignUpload(key, { expiresInSeconds: 300, contentType: 'application/json', maxBytes })).url;

  it('stores the upload with the signed content type', async () => {
    const body = JSON.stringify({ hello: 'wörld' });
    const response = await request(await putUrl('up/a.json'), {
      method: 'PUT',
      body,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(200);
    const head = await store.head('up/a.json');
    expect(response.headers.get('etag')).toBe(`"${head!.etag}"`);
    expect(head).toMatchObject({ contentType: 'application/json', size: Buffer.byteLength(body) });
    const untyped = await request(await putUrl('up/b.json'), { method: 'PUT', body: new Uint8Array([123, 125]) });
    expect(untyped.status).toBe(200);
    expect((await store.get('up/b.json'))?.toString()).toBe('{}');
  });

  it('refuses another content type with 400 and writes nothing', async () => {
    const response = await request(await putUrl('up/typed.json'), {
      method: 'PUT',
      body: '<html>',
      headers: { 'content-type': 'text/html' },
    });
    await expectEnvelope(response, 400, 'content_type_mismatch');
    expect(await store.head('up/typed.json')).toBeNull();
  });

  it('refuses bodies over the signed limit with 413, announced or streamed, and writes nothing', async () => {
    const announced = await request(await putUrl('up/big.json', 10), {
      method: 'PUT',
      body: '{"a":"0123456789"}',
      headers: { 'content-type': 'application/json' },
    });
    const envelope = await expectEnvelope(announced, 413, 'payload_too_large');
    expect(envelope.metadata).toMatchObject({ max_bytes: '10' });
    const chunks = [Buffer.from('{"a":"'), Buffer.alloc(64, 'x'), Buffer.from('"}')];
    const streamed = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const response = await request(await putUrl('up/big.json', 10), {
      method: 'PUT',
      body: streamed,
      // @ts-expect-error undici needs this for stream bodies; the DOM type lacks it
      duplex: 'half',
    });
    await expectEnvelope(response, 413, 'payload_too_large');
    expect(await store.head('up/big.json')).toBeNull();
  });

  it('refuses a GET URL for uploads and an upload URL for reads', async () => {
    await expectEnvelope(
      await request(await getUrl('t/data.bin'), { method: 'PUT', body: 'x' }),
      403,
      'signed_url_invalid',
    );
    await expectEnvelope(await request(await putUrl('t/data.bin')), 403, 'signed_url_invalid');
    expect((await store.get('t/data.bin'))?.equals(BYTES)).toBe(true);
  });
});
