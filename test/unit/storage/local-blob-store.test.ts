import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { startTsWorker } from '../../../src/runtime/worker-thread.js';
import { createLocalBlobStore } from '../../../src/storage/local-blob-store.js';

const SECRET = 'unit-test-secret-0123456789abcdef';
let dir = '';
const open = () => createLocalBlobStore({ dir, secret: SECRET, baseUrl: () => 'http://127.0.0.1:1' });

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'local-blobs-'));
});
afterEach(async () => {
  // maxRetries: an unflushed store may still be topping up its staging reserve.
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

describe('local blob store', () => {
  it('keeps objects and their content types across a restart', async () => {
    const first = open();
    await first.init();
    const put = await first.put('teams/t1/page.html', '<p>x</p>', { contentType: 'text/html; charset=utf-8' });
    const second = open(); // a new process on the same directory
    await second.init();
    expect(await second.head('teams/t1/page.html')).toEqual({ ...put, lastModified: expect.any(Date) });
    expect((await second.get('teams/t1/page.html'))?.toString()).toBe('<p>x</p>');
  });

  it('lays objects out as one file per key under blobs/, nothing left in staging', async () => {
    const store = open();
    await store.init();
    await store.put('a/b/c.txt', 'hello', { contentType: 'text/plain' });
    expect(await listFiles(dir)).toEqual([path.join('blobs', 'a', 'b', 'c.txt')]);
    const raw = await readFile(path.join(dir, 'blobs', 'a', 'b', 'c.txt'));
    expect(raw.subarray(0, 4).toString()).toBe('GLB1');
    expect(raw.subarray(raw.length - 5).toString()).toBe('hello');
  });

  it('never writes outside its directory, whatever the key', async () => {
    const store = open();
    const outside = path.join(dir, '..', `escaped-${path.basename(dir)}`);
    for (const key of ['../escaped', `../${path.basename(outside)}`, 'a/../../x', '/tmp/abs', 'a\\..\\..\\x']) {
      await expect(store.put(key, 'x', { contentType: 'text/plain' })).rejects.toThrow(/invalid object key/);
      await expect(store.get(key)).rejects.toThrow(/invalid object key/);
      await expect(store.delete(key)).rejects.toThrow(/invalid object key/);
    }
    await expect(store.deletePrefix('../')).rejects.toThrow(/invalid object key/);
    await expect(readdir(outside)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports a key that is both an object and a prefix as a conflict', async () => {
    const store = open();
    await store.put('a/b', 'object', { contentType: 'text/plain' });
    const err = await store.put('a/b/c', 'below an object', { contentType: 'text/plain' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 409, code: 'blob_key_conflict' });
    await store.put('x/y/z', 'deep', { contentType: 'text/plain' });
    await expect(store.put('x/y', 'over a prefix', { contentType: 'text/plain' })).rejects.toMatchObject({
      code: 'blob_key_conflict',
    });
    expect(await store.head('x/y')).toBeNull(); // a prefix is not an object
    await store.delete('x/y'); // and deleting it deletes nothing
    expect((await store.get('x/y/z'))?.toString()).toBe('deep');
    expect(await listFiles(path.join(dir, 'staging'))).toEqual([]);
  });

  it('removes directories left empty by deletes', async () => {
    const store = open();
    await store.put('t/1/a/x', 'x', { contentType: 'text/plain' });
    await store.put('t/1/b/y', 'y', { contentType: 'text/plain' });
    await store.delete('t/1/a/x');
    expect(await readdir(path.join(dir, 'blobs', 't', '1'))).toEqual(['b']);
    await store.deletePrefix('t/1/');
    expect(await readdir(path.join(dir, 'blobs'))).toEqual([]);
  });

  it('cleans staging files a crashed writer left behind, but not fresh ones', async () => {
    await mkdir(path.join(dir, 'staging'), { recursive: true });
    const stale = path.join(dir, 'staging', 'stale.tmp');
    const fresh = path.join(dir, 'staging', 'fresh.tmp');
    await writeFile(stale, 'x');
    await writeFile(fresh, 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 86400_000);
    await utimes(stale, twoDaysAgo, twoDaysAgo);
    await open().init();
    expect(await readdir(path.join(dir, 'staging'))).toEqual(['fresh.tmp']);
  });

  describe('unflushed, with the staging reserve', () => {
    const unflushed = () =>
      createLocalBlobStore({ dir, secret: SECRET, baseUrl: () => 'http://127.0.0.1:1', flush: false });
    const staging = () => readdir(path.join(dir, 'staging'));
    const reserveReady = async (): Promise<void> => {
      await expect.poll(async () => (await staging()).filter((n) => n.startsWith('reserve-')).length).toBe(32);
    };

    it('makes spare files and directories from the first put on, and writes objects into them', async () => {
      const store = unflushed();
      await store.init();
      expect(await staging()).toEqual([]); // a thread that never writes makes none
      await store.put('teams/t/pages/first/content.md', 'first', { contentType: 'text/markdown' });
      await reserveReady();
      const spares = new Set(await staging());
      for (let i = 0; i < 12; i++) {
        await store.put(`teams/t/pages/p${i}/content.md`, `# page ${i}`, { contentType: 'text/markdown' });
      }
      await store.put('teams/t/pages/p0/content.html', '<h1>page 0</h1>', { contentType: 'text/html' });
      // The objects took spares (files and their page directories) instead of new ones...
      const left = await staging();
      expect(left.filter((n) => spares.has(n)).length).toBeLessThan(spares.size);
      // ...and the reserve is topped up again in the background.
      await reserveReady();
      expect((await store.get('teams/t/pages/p7/content.md'))?.toString()).toBe('# page 7');
      expect((await store.get('teams/t/pages/p0/content.html'))?.toString()).toBe('<h1>page 0</h1>');
      expect(await readdir(path.join(dir, 'blobs', 'teams', 't', 'pages', 'p0'))).toEqual([
        'content.html',
        'content.md',
      ]);
      expect(await store.head('teams/t/pages/p3/content.md')).toMatchObject({ contentType: 'text/markdown', size: 8 });
    });

    it('writes anew when another process cleaned the spares away', async () => {
      const store = unflushed();
      await store.init();
      await store.put('warm/up', 'x', { contentType: 'text/plain' });
      await reserveReady();
      for (const name of await staging()) await rm(path.join(dir, 'staging', name), { recursive: true });
      await store.put('teams/t/pages/q/content.md', 'still stored', { contentType: 'text/markdown' });
      expect((await store.get('teams/t/pages/q/content.md'))?.toString()).toBe('still stored');
    });

    it('still reports key conflicts and leaves no spare in an object directory', async () => {
      const store = unflushed();
      await store.init();
      await store.put('a/b', 'object', { contentType: 'text/plain' });
      await reserveReady();
      await expect(store.put('a/b/c', 'below an object', { contentType: 'text/plain' })).rejects.toMatchObject({
        code: 'blob_key_conflict',
      });
      expect(await listFiles(path.join(dir, 'blobs'))).toEqual([path.join('a', 'b')]);
    });

    it('removes its spares when closed, and writes the usual way after', async () => {
      const store = unflushed();
      await store.init();
      await store.put('one/x', 'x', { contentType: 'text/plain' });
      await reserveReady();
      await store.close?.();
      expect(await staging()).toEqual([]);
      await store.put('two/y', 'y', { contentType: 'text/plain' });
      expect((await store.get('two/y'))?.toString()).toBe('y');
      expect(await staging()).toEqual([]);
    });

    it('removes its spares when its thread exits', async () => {
      const worker = startTsWorker(new URL('./reserve-thread.ts', import.meta.url), { data: { dir } });
      const code = await new Promise<number>((resolve, reject) => {
        worker.once('exit', resolve);
        worker.once('error', reject);
      });
      expect(code).toBe(0);
      expect(await staging()).toEqual([]);
      expect(await listFiles(path.join(dir, 'blobs'))).toEqual([path.join('t', 'p', 'content.md')]);
    });

    it('writes large objects the usual way', async () => {
      const store = unflushed();
      await store.init();
      const big = 'x'.repeat(300 * 1024);
      await store.put('big/one', big, { contentType: 'text/plain' });
      expect((await store.get('big/one'))?.length).toBe(big.length);
    });
  });

  it('refuses to read a file that is not one of its objects', async () => {
    await mkdir(path.join(dir, 'blobs'), { recursive: true });
    await writeFile(path.join(dir, 'blobs', 'planted'), 'plain file dropped in by hand');
    await expect(open().head('planted')).rejects.toThrow(/not an object file/);
  });

  it('signs URLs against the base URL known at signing time', async () => {
    let base = 'http://127.0.0.1:1';
    const store = createLocalBlobStore({ dir, secret: SECRET, baseUrl: () => base });
    base = 'http://127.0.0.1:4321/';
    expect(await store.signedGetUrl('a/b', { expiresInSeconds: 5 })).toMatch(
      /^http:\/\/127\.0\.0\.1:4321\/blobs\/a\/b\?expires=/,
    );
  });
});
