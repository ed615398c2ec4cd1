import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../../src/storage/blob-store.js';
import { createBlobUrlVerifier } from '../../../src/storage/blob-urls.js';
import { createLocalBlobStore } from '../../../src/storage/local-blob-store.js';
import { createBlobTestApp, listen } from './blob-app.js';
import type { Listening } from './blob-app.js';

/** The blob routes over a real socket: streaming, ranges and early 413s as clients see them. */
const SECRET = 'unit-test-secret-0123456789abcdef';
const LARGE = randomBytes(8 * 1024 * 1024);
let dir = '';
let store: BlobStore;
let server: Listening;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'blob-wire-'));
  store = createLocalBlobStore({ dir, secret: SECRET, baseUrl: () => server.origin });
  server = await listen(createBlobTestApp(store, createBlobUrlVerifier(SECRET)));
  await store.put('wire/large.bin', LARGE, { contentType: 'application/octet-stream' });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  chunks: number;
}

/** A plain node:http request, so nothing buffers or rewrites what the server sends. */
function raw(url: string, options: http.RequestOptions = {}, write?: (req: http.ClientRequest) => void): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          chunks: chunks.length,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (write) write(req);
    else req.end();
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('blob routes over a listening server', () => {
  it('streams a large object in many chunks with the exact length', async () => {
    const response = await raw(await store.signedGetUrl('wire/large.bin', { expiresInSeconds: 60 }));
    expect(response.status).toBe(200);
    expect(response.headers['content-length']).toBe(String(LARGE.length));
    expect(response.headers['transfer-encoding']).toBeUndefined();
    expect(response.chunks).toBeGreaterThan(1);
    expect(sha256(response.body)).toBe(sha256(LARGE));
  });

  it('serves a range from the middle of a large object', async () => {
    const url = await store.signedGetUrl('wire/large.bin', { expiresInSeconds: 60 });
    const response = await raw(url, { headers: { range: 'bytes=5000000-5999999' } });
    expect(response.status).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes 5000000-5999999/${LARGE.length}`);
    expect(response.headers['content-length']).toBe('1000000');
    expect(response.body.equals(LARGE.subarray(5_000_000, 6_000_000))).toBe(true);
  });

  it('answers HEAD with the length and no body', async () => {
    const url = await store.signedGetUrl('wire/large.bin', { expiresInSeconds: 60 });
    const response = await raw(url, { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers['content-length']).toBe(String(LARGE.length));
    expect(response.body.length).toBe(0);
  });

  it('closes the file when a client abandons a download', async () => {
    const fds = async () => (await readdir('/proc/self/fd')).length;
    const before = await fds();
    const url = await store.signedGetUrl('wire/large.bin', { expiresInSeconds: 60 });
    await new Promise<void>((resolve, reject) => {
      const req = http.get(url, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    });
    for (let i = 0; i < 50 && (await fds()) > before; i++) await sleep(20);
    expect(await fds()).toBeLessThanOrEqual(before);
  });

  it('accepts a large chunked upload and stores it whole', async () => {
    const upload = randomBytes(6 * 1024 * 1024);
    const { url } = await store.presignUpload('wire/upload.bin', {
      expiresInSeconds: 60,
      contentType: 'application/octet-stream',
      maxBytes: 7 * 1024 * 1024,
    });
    const response = await raw(url, { method: 'PUT' }, (req) => {
      for (let i = 0; i < upload.length; i += 256 * 1024) req.write(upload.subarray(i, i + 256 * 1024));
      req.end();
    });
    expect(response.status).toBe(200);
    expect(sha256((await store.get('wire/upload.bin'))!)).toBe(sha256(upload));
  });

  it('answers 413 to a chunked upload that outgrows its limit, and stores nothing', async () => {
    const { url } = await store.presignUpload('wire/too-big.json', {
      expiresInSeconds: 60,
      contentType: 'application/json',
      maxBytes: 1024 * 1024,
    });
    const response = await raw(url, { method: 'PUT', headers: { 'content-type': 'application/json' } }, (req) => {
      req.on('error', () => undefined); // the server may stop reading once it has answered
      for (let i = 0; i < 32; i++) req.write(Buffer.alloc(64 * 1024, 0x20));
      req.end();
    });
    expect(response.status).toBe(413);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(response.body.toString())).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(await store.head('wire/too-big.json')).toBeNull();
    expect(await readdir(path.join(dir, 'staging'))).toEqual([]);
    // The server is still healthy for the next client.
    const again = await raw(await store.signedGetUrl('wire/large.bin', { expiresInSeconds: 60 }), { method: 'HEAD' });
    expect(again.status).toBe(200);
  });
});
