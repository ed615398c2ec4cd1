import { mkdtemp, readdir, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlobStore } from '../../../src/storage/create-blob-store.js';
import { createS3BlobStore } from '../../../src/storage/s3-blob-store.js';
import { startS3rver } from '../../support/s3rver.js';
import type { S3rverHandle } from '../../support/s3rver.js';

const SECRET = 'unit-test-secret-0123456789abcdef';
let dataDir = '';
let s3: S3rverHandle;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'blob-factory-'));
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('createBlobStore', () => {
  it('keeps objects in DATA_DIR/objects when no S3 is configured', async () => {
    const store = await createBlobStore(
      { s3: null },
      { dataDir, secret: SECRET, baseUrl: () => 'http://127.0.0.1:1', databaseFlushes: true },
    );
    expect(store.kind).toBe('local');
    await store.init();
    await store.put('k/v.txt', 'v', { contentType: 'text/plain' });
    expect(await readdir(path.join(dataDir, 'objects', 'blobs', 'k'))).toEqual(['v.txt']);
  });

  it('uses the configured S3 server, creating the bucket', async () => {
    const s3Config = { ...s3.credentials, bucket: 'factory-bucket', region: s3.region };
    const store = await createBlobStore(
      { s3: s3Config },
      { dataDir, secret: SECRET, baseUrl: () => 'http://unused', databaseFlushes: true },
    );
    expect(store.kind).toBe('s3');
    await store.init();
    await store.put('k/v.txt', 'v', { contentType: 'text/plain' });
    const direct = createS3BlobStore(s3Config);
    expect((await direct.get('k/v.txt'))?.toString()).toBe('v');
    expect(await store.signedGetUrl('k/v.txt', { expiresInSeconds: 60 })).toMatch(
      new RegExp(`^${s3.endpoint}/factory-bucket/k/v\\.txt\\?`),
    );
  });
});

describe('S3 blob store', () => {
  it('lets two processes create the same missing bucket at once', async () => {
    const config = { ...s3.credentials, bucket: 'raced-bucket', region: s3.region };
    const [a, b] = [createS3BlobStore(config), createS3BlobStore(config)];
    await Promise.all([a.init(), b.init()]);
    await a.put('x', 'from a', { contentType: 'text/plain' });
    expect((await b.get('x'))?.toString()).toBe('from a');
  });

  it('caps presigned URLs at the 7 days SigV4 allows', async () => {
    const store = createS3BlobStore({ ...s3.credentials, bucket: 'factory-bucket', region: s3.region });
    const url = new URL(await store.signedGetUrl('k', { expiresInSeconds: 30 * 86400 }));
    expect(url.searchParams.get('X-Amz-Expires')).toBe('604800');
    const grant = await store.presignUpload('k', { expiresInSeconds: 30 * 86400, contentType: 'application/json' });
    expect(new URL(grant.url).searchParams.get('X-Amz-Expires')).toBe('604800');
    expect(Math.abs(grant.expiresAt.getTime() - Date.now() - 604800_000)).toBeLessThan(60_000);
    await expect(store.presignUpload('k', { expiresInSeconds: 0, contentType: 'a/b' })).rejects.toThrow(/positive/);
  });

  it('accepts only a bare origin as endpoint', () => {
    const base = { accessKey: 'a', secretKey: 'b', bucket: 'bucket', region: 'us-east-1' };
    expect(() => createS3BlobStore({ ...base, endpoint: 'http://127.0.0.1:9000/prefix' })).toThrow(/bare origin/);
    expect(() => createS3BlobStore({ ...base, endpoint: 'https://s3.example.test' })).not.toThrow();
  });

  it('reports an unreachable server as a retryable storage_unavailable', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const store = createS3BlobStore({
      ...s3.credentials,
      endpoint: `http://127.0.0.1:${port}`,
      bucket: 'b',
      region: s3.region,
    });
    await expect(store.head('x')).rejects.toMatchObject({ status: 503, code: 'storage_unavailable' });
    await expect(store.put('x', 'y', { contentType: 'text/plain' })).rejects.toMatchObject({
      code: 'storage_unavailable',
    });
  });
});
