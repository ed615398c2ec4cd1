import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BlobStore, UploadGrant } from '../../src/storage/blob-store.js';

/** What the upload part needs from the enclosing contract: the store and a per-test key. */
export interface UploadContractContext {
  store(): BlobStore;
  key(rest: string): string;
}

/**
 * The "presigned upload" part of the BlobStore contract: a grant from `presignUpload` is used
 * with plain `fetch`, no credentials, as a client of the Files API would. A store states in
 * `grant.enforced` what it refuses while receiving (the local store: type, size, reuse; S3:
 * type); for the rest the contract checks that head() and copy({ ifMatch }) let the caller
 * refuse afterwards, which is what the Files API's complete step does.
 */
export function describeUploadContract({ store, key }: UploadContractContext): void {
  const grantFor = (k: string, maxBytes?: number) =>
    store().presignUpload(key(k), { expiresInSeconds: 60, contentType: 'application/json', maxBytes });
  const upload = (grant: UploadGrant, body: string, headers: Record<string, string> = grant.headers) =>
    fetch(grant.url, { method: grant.method, headers, body });

  describe('presigned upload', () => {
    it('grants an upload that a plain HTTP client completes without credentials', async () => {
      const grant = await grantFor('files/a.json', 4096);
      expect(grant).toMatchObject({ method: 'PUT', contentType: 'application/json', maxBytes: 4096 });
      expect(grant.headers).toEqual({ 'content-type': 'application/json' });
      expect(Math.abs(grant.expiresAt.getTime() - Date.now() - 60_000)).toBeLessThan(5_000);
      const body = JSON.stringify({ items: [{ custom_id: 'a', url: 'https://example.com/ü' }] });
      const response = await upload(grant, body);
      expect(response.status).toBe(200);
      const head = await store().head(key('files/a.json'));
      expect(head).toMatchObject({ size: Buffer.byteLength(body), contentType: 'application/json' });
      expect(response.headers.get('etag')).toBe(`"${head!.etag}"`);
      expect((await store().get(key('files/a.json')))?.toString()).toBe(body);
      expect((await fetch(grant.url)).status).toBe(403); // an upload URL does not read
    });

    it('uploads to keys with spaces, unicode and URL-special characters', async () => {
      const grant = await grantFor('files/dir with space/ünï &+=;,.json');
      expect((await upload(grant, '[1]')).status).toBe(200);
      expect((await store().get(key('files/dir with space/ünï &+=;,.json')))?.toString()).toBe('[1]');
    });

    it('refuses another content type without spending the URL', async () => {
      const grant = await grantFor('files/typed.json');
      const wrong = await upload(grant, '<h1>x</h1>', { 'content-type': 'text/html' });
      expect([400, 403]).toContain(wrong.status);
      expect(await store().head(key('files/typed.json'))).toBeNull();
      expect((await upload(grant, '{}')).status).toBe(200);
    });

    it('accepts any declared type, or none, when the grant says so', async () => {
      for (const [name, headers] of [
        ['plain', { 'content-type': 'text/plain;charset=UTF-8' }],
        ['form', { 'content-type': 'application/x-www-form-urlencoded' }],
        ['none', {}],
      ] as const) {
        const grant = await store().presignUpload(key(`files/any-${name}.json`), {
          expiresInSeconds: 60,
          contentType: 'application/json',
          anyContentType: true,
        });
        expect(grant.enforced.contentType).toBe(false);
        const response = await upload(grant, '{"any":true}', headers);
        expect(response.status, name).toBe(200);
        expect((await store().get(key(`files/any-${name}.json`)))?.toString()).toBe('{"any":true}');
      }
    });

    it("refuses a flipped signature, another key's signature and an added parameter", async () => {
      const mine = new URL((await grantFor('files/mine.json')).url);
      const theirs = new URL((await grantFor('files/theirs.json')).url);
      const flipped = new URL(mine);
      const [sigName, sig] = [...flipped.searchParams].find(([n]) => n === 'sig' || n === 'X-Amz-Signature')!;
      flipped.searchParams.set(sigName, sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0'));
      const borrowed = new URL(theirs);
      borrowed.pathname = mine.pathname;
      const extra = new URL(mine);
      extra.searchParams.append('max_bytes', '999999999');
      for (const tampered of [flipped, borrowed, extra]) {
        const response = await fetch(tampered, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: '{"tampered":true}',
        });
        expect(response.status, tampered.href).toBe(403);
      }
      expect(await store().head(key('files/mine.json'))).toBeNull();
      expect(await store().head(key('files/theirs.json'))).toBeNull();
    });

    it('refuses an upload after its URL expired and keeps nothing', async () => {
      const grant = await store().presignUpload(key('files/late.json'), {
        expiresInSeconds: 1,
        contentType: 'application/json',
      });
      // Expiry has one-second resolution: 2.2 s is past it whatever the sub-second start.
      await new Promise((resolve) => setTimeout(resolve, 2200));
      const response = await upload(grant, '{"late":true}');
      expect(response.status).toBe(403);
      expect(await store().head(key('files/late.json'))).toBeNull();
    });

    it('stops an oversized upload while receiving, or shows its size to the caller', async () => {
      const grant = await grantFor('files/big.json', 1024);
      const response = await upload(grant, `"${'x'.repeat(4094)}"`);
      const head = await store().head(key('files/big.json'));
      if (grant.enforced.maxBytes) {
        expect(response.status).toBe(413);
        expect(head).toBeNull();
      } else {
        expect(response.status).toBe(200);
        expect(head!.size).toBeGreaterThan(grant.maxBytes); // complete refuses it
      }
    });

    it('uses a URL once where the store can; otherwise copy pins the version checked', async () => {
      const grant = await grantFor('files/once.json');
      expect((await upload(grant, '{"v":1}')).status).toBe(200);
      const checked = (await store().head(key('files/once.json')))!;
      const again = await upload(grant, '{"v":2}');
      if (grant.enforced.singleUse) {
        expect(again.status).toBe(403);
        expect((await store().get(key('files/once.json')))?.toString()).toBe('{"v":1}');
      } else {
        expect(again.status).toBe(200);
        const pinned = store().copy(key('files/once.json'), key('files/kept.json'), { ifMatch: checked.etag });
        await expect(pinned).rejects.toMatchObject({ status: 409, code: 'blob_changed' });
        expect(await store().head(key('files/kept.json'))).toBeNull();
      }
      const current = (await store().head(key('files/once.json')))!;
      const copied = await store().copy(key('files/once.json'), key('files/kept.json'), { ifMatch: current.etag });
      expect(copied).toMatchObject({ key: key('files/kept.json'), size: current.size, etag: current.etag });
      await store().put(key('files/once.json'), randomBytes(64), { contentType: 'application/octet-stream' });
      expect(await store().head(key('files/kept.json'))).toMatchObject({ etag: current.etag, size: current.size });
    });
  });
}
