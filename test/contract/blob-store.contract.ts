import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { RangeNotSatisfiableError } from '../../src/storage/blob-store.js';
import type { BlobStore } from '../../src/storage/blob-store.js';
import { describeUploadContract } from './blob-upload.contract.js';

/** A store under test and whatever must be stopped after it (servers, temp dirs). */
export interface BlobStoreFixture {
  store: BlobStore;
  close(): Promise<void>;
}

/**
 * The behaviour every BlobStore implementation must have. Signed URLs are fetched with
 * plain `fetch`, no credentials, so each fixture must serve them on 127.0.0.1.
 *
 * @example
 * describeBlobStoreContract('local', async () => ({ store, close: () => server.close() }));
 */
export function describeBlobStoreContract(name: string, factory: () => Promise<BlobStoreFixture>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let fixture: BlobStoreFixture | undefined;
    let store: BlobStore;
    let prefix = '';
    const key = (rest: string): string => `${prefix}/${rest}`;

    beforeAll(async () => {
      fixture = await factory();
      store = fixture.store;
      // Two processes may start at once: init must tolerate racing itself.
      await Promise.all([store.init(), store.init()]);
      await store.init();
    });
    afterAll(async () => {
      await fixture?.close();
    });
    beforeEach(() => {
      prefix = `contract-${randomUUID()}`;
    });

    it('stores UTF-8 text and reports its byte size, type, etag and date', async () => {
      const text = 'héllo wörld ✓ 日本語 🚀\n';
      const put = await store.put(key('notes/page.md'), text, { contentType: 'text/markdown; charset=utf-8' });
      const head = await store.head(key('notes/page.md'));
      expect(head).toEqual(expect.objectContaining({ key: key('notes/page.md'), size: Buffer.byteLength(text) }));
      expect(head?.contentType).toBe('text/markdown; charset=utf-8');
      expect(head?.etag).toBe(put.etag);
      expect(head?.etag).toMatch(/^[^"]+$/);
      expect(Math.abs((head?.lastModified.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
      expect(put.size).toBe(Buffer.byteLength(text));
      expect((await store.get(key('notes/page.md')))?.toString('utf8')).toBe(text);
    });

    it('stores binary content byte for byte, and empty objects', async () => {
      const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(4096)]);
      await store.put(key('bin'), bytes, { contentType: 'application/octet-stream' });
      expect((await store.get(key('bin')))?.equals(bytes)).toBe(true);

      await store.put(key('empty'), '', { contentType: 'text/plain' });
      expect(await store.head(key('empty'))).toEqual(expect.objectContaining({ size: 0, contentType: 'text/plain' }));
      expect((await store.get(key('empty')))?.length).toBe(0);
      const opened = await store.stream(key('empty'));
      expect((await collect(opened!.body)).length).toBe(0);
    });

    it('answers null for missing objects and ignores deletes of them', async () => {
      expect(await store.get(key('missing'))).toBeNull();
      expect(await store.head(key('missing'))).toBeNull();
      expect(await store.stream(key('missing'))).toBeNull();
      expect(await store.stream(key('missing'), { start: 0, end: 10 })).toBeNull();
      await expect(store.delete(key('missing'))).resolves.toBeUndefined();
      await expect(store.deletePrefix(key('nothing/'))).resolves.toBeUndefined();
    });

    it('overwrites an object with new bytes and a new content type', async () => {
      const first = await store.put(key('doc'), 'first version, longer than the second', { contentType: 'text/plain' });
      const second = await store.put(key('doc'), '{"v":2}', { contentType: 'application/json' });
      expect(second.etag).not.toBe(first.etag);
      expect((await store.get(key('doc')))?.toString()).toBe('{"v":2}');
      expect(await store.head(key('doc'))).toEqual(
        expect.objectContaining({ size: 7, contentType: 'application/json' }),
      );
    });

    it('streams a large object in and out without losing a byte', async () => {
      const chunks = Array.from({ length: 40 }, () => randomBytes(128 * 1024)); // 5 MiB
      const whole = Buffer.concat(chunks);
      const info = await store.put(key('large.bin'), Readable.from(chunks), { contentType: 'application/pdf' });
      expect(info.size).toBe(whole.length);
      const opened = await store.stream(key('large.bin'));
      expect(opened?.info.size).toBe(whole.length);
      expect(opened?.range).toBeNull();
      expect(sha256(await collect(opened!.body))).toBe(sha256(whole));
      expect(sha256((await store.get(key('large.bin')))!)).toBe(sha256(whole));
    });

    it('refuses a streamed body over maxBytes and leaves the old object in place', async () => {
      await store.put(key('limited'), 'old', { contentType: 'text/plain' });
      const tooBig = Readable.from(Array.from({ length: 20 }, () => Buffer.alloc(64 * 1024, 1)));
      const failure = await store
        .put(key('limited'), tooBig, { contentType: 'text/plain', maxBytes: 1024 * 1024 })
        .catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(AppError);
      expect((failure as AppError).status).toBe(413);
      expect((await store.get(key('limited')))?.toString()).toBe('old');
      await expect(
        store.put(key('fresh'), Buffer.alloc(11), { contentType: 'text/plain', maxBytes: 10 }),
      ).rejects.toMatchObject({ code: 'payload_too_large' });
      expect(await store.head(key('fresh'))).toBeNull();
    });

    it('serves byte ranges with the whole object size, clamping the end', async () => {
      const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
      await store.put(key('ranged'), bytes, { contentType: 'application/octet-stream' });
      const read = async (start: number, end: number) => {
        const opened = (await store.stream(key('ranged'), { start, end }))!;
        return { range: opened.range, size: opened.info.size, bytes: await collect(opened.body) };
      };
      expect(await read(0, 0)).toEqual({ range: { start: 0, end: 0 }, size: 1000, bytes: bytes.subarray(0, 1) });
      expect(await read(10, 19)).toEqual({ range: { start: 10, end: 19 }, size: 1000, bytes: bytes.subarray(10, 20) });
      expect(await read(990, 5000)).toEqual({
        range: { start: 990, end: 999 },
        size: 1000,
        bytes: bytes.subarray(990),
      });
      const past = await store.stream(key('ranged'), { start: 1000, end: 1001 }).catch((err: unknown) => err);
      expect(past).toBeInstanceOf(RangeNotSatisfiableError);
      expect((past as RangeNotSatisfiableError).size).toBe(1000);
    });

    it('deletes single keys, lists of keys, and prefixes', async () => {
      const keys = ['p/a/1', 'p/a/2', 'p/ab', 'p/b/1', 'q/1', ...Array.from({ length: 25 }, (_, i) => `p/many/${i}`)];
      await Promise.all(keys.map((k) => store.put(key(k), k, { contentType: 'text/plain' })));
      await store.delete(key('q/1'));
      await store.delete([key('p/many/0'), key('p/many/1'), key('p/never')]);
      expect(await store.head(key('q/1'))).toBeNull();
      expect(await store.head(key('p/many/1'))).toBeNull();
      expect(await store.head(key('p/many/2'))).not.toBeNull();

      await store.deletePrefix(key('p/a/'));
      expect(await present(['p/a/1', 'p/a/2', 'p/ab', 'p/b/1'])).toEqual([false, false, true, true]);
      await store.deletePrefix(key('p/a')); // a plain string prefix, as in S3
      expect(await present(['p/ab', 'p/b/1'])).toEqual([false, true]);
      await store.deletePrefix(key('p/'));
      expect(await present(['p/b/1', 'p/many/2', 'p/many/24'])).toEqual([false, false, false]);
    });

    it('round-trips keys with spaces, unicode and URL-special characters, also through signed URLs', async () => {
      const odd = key('dir with space/ünï cödé &+=?#%;,.txt');
      await store.put(odd, 'odd', { contentType: 'text/plain' });
      expect((await store.get(odd))?.toString()).toBe('odd');
      const response = await fetch(await store.signedGetUrl(odd, { expiresInSeconds: 60 }));
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('odd');
    });

    it('rejects keys that could escape their prefix', async () => {
      for (const bad of ['../x', `${prefix}/../x`, '/abs', 'a//b', 'a/./b', '', 'a\\b']) {
        await expect(store.put(bad, 'x', { contentType: 'text/plain' }), bad).rejects.toThrow(/invalid object key/);
      }
      await expect(store.deletePrefix('')).rejects.toThrow(/invalid object key/);
    });

    it('serves a signed GET without credentials, with type, filename and ranges', async () => {
      const body = '<h1>hosted</h1>';
      await store.put(key('page.html'), body, { contentType: 'text/html; charset=utf-8' });
      const url = await store.signedGetUrl(key('page.html'), { expiresInSeconds: 60, filename: 'page ü.html' });
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
      expect(response.headers.get('content-disposition')).toContain("filename*=UTF-8''page%20%C3%BC.html");
      expect(await response.text()).toBe(body);

      const partial = await fetch(url, { headers: { range: 'bytes=1-2' } });
      expect(partial.status).toBe(206);
      expect(partial.headers.get('content-range')).toBe(`bytes 1-2/${Buffer.byteLength(body)}`);
      expect(await partial.text()).toBe('h1');
    });

    it('refuses tampered signed URLs', async () => {
      await store.put(key('secret.txt'), 'secret', { contentType: 'text/plain' });
      await store.put(key('other.txt'), 'other', { contentType: 'text/plain' });
      const url = new URL(await store.signedGetUrl(key('secret.txt'), { expiresInSeconds: 60 }));
      expect((await fetch(url)).status).toBe(200);

      const flipped = new URL(url);
      const [sigName, sig] = [...flipped.searchParams].find(([n]) => n === 'sig' || n === 'X-Amz-Signature')!;
      flipped.searchParams.set(sigName, sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0'));
      const otherKey = new URL(url.href.replace('secret.txt', 'other.txt'));
      const unsigned = new URL(url);
      unsigned.search = '';
      const extra = new URL(url);
      extra.searchParams.append('response-content-type', 'text/html');
      for (const tampered of [flipped, otherKey, unsigned, extra]) {
        const response = await fetch(tampered);
        expect(response.status, tampered.href).toBe(403);
        expect(await response.text()).not.toContain('secret');
      }
    });

    it('stops honouring signed URLs once they expire', async () => {
      await store.put(key('brief.txt'), 'brief', { contentType: 'text/plain' });
      const getUrl = await store.signedGetUrl(key('brief.txt'), { expiresInSeconds: 1 });
      const grant = await store.presignUpload(key('late.json'), {
        expiresInSeconds: 1,
        contentType: 'application/json',
      });
      expect((await fetch(getUrl)).status).toBe(200);
      await sleep(3200); // expiries have one-second resolution
      expect((await fetch(getUrl)).status).toBe(403);
      const late = await fetch(grant.url, { method: 'PUT', body: '{}', headers: grant.headers });
      expect(late.status).toBe(403);
      expect(await store.head(key('late.json'))).toBeNull();
    });

    it('leaves one whole object when writers race on the same key', async () => {
      const writers = Array.from({ length: 8 }, (_, i) => ({
        body: Buffer.alloc(256 * 1024 + i, i + 1),
        contentType: `application/x-writer-${i}`,
      }));
      await Promise.all(writers.map((w) => store.put(key('contended'), w.body, { contentType: w.contentType })));
      const stored = (await store.get(key('contended')))!;
      const head = (await store.head(key('contended')))!;
      const winner = writers.findIndex((w) => w.body.equals(stored));
      expect(winner).toBeGreaterThanOrEqual(0);
      expect(head.contentType).toBe(writers[winner]!.contentType);
      expect(head.size).toBe(stored.length);
    });

    it('copies an object with its type, replacing the target, and keeps the copy when the source changes', async () => {
      const source = await store.put(key('src.json'), '{"a":1}', { contentType: 'application/json' });
      await store.put(key('dst.json'), 'old target', { contentType: 'text/plain' });
      const copied = await store.copy(key('src.json'), key('dst.json'));
      expect(copied).toMatchObject({ key: key('dst.json'), size: 7, contentType: 'application/json' });
      expect(await store.head(key('dst.json'))).toMatchObject({ size: 7, contentType: 'application/json' });
      expect((await store.get(key('dst.json')))?.toString()).toBe('{"a":1}');
      await store.put(key('src.json'), 'changed', { contentType: 'text/plain' });
      await store.delete(key('src.json'));
      expect((await store.get(key('dst.json')))?.toString()).toBe('{"a":1}');
      expect(source.etag).toBe(copied!.etag);
    });

    it('copies only the version asked for, and answers null for a missing source', async () => {
      const first = await store.put(key('pin/src'), 'first', { contentType: 'text/plain' });
      await store.put(key('pin/src'), 'second', { contentType: 'text/plain' });
      const stale = store.copy(key('pin/src'), key('pin/dst'), { ifMatch: first.etag });
      await expect(stale).rejects.toMatchObject({ status: 409, code: 'blob_changed' });
      expect(await store.head(key('pin/dst'))).toBeNull();
      expect(await store.copy(key('pin/missing'), key('pin/dst'))).toBeNull();
      expect(await store.copy(key('pin/missing'), key('pin/dst'), { ifMatch: first.etag })).toBeNull();
      expect(await store.head(key('pin/dst'))).toBeNull();
    });

    describeUploadContract({ store: () => store, key });

    async function present(rest: string[]): Promise<boolean[]> {
      return Promise.all(rest.map(async (r) => (await store.head(key(r))) !== null));
    }
  });
}

async function collect(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
