import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rename, rm, rmdir, unlink } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A local S3 server for tests: `s3rver` (a fake S3 on the filesystem) behind a front door
 * that closes the gaps between it and real S3 which our tests depend on:
 *
 * 1. s3rver accepts any Signature V4 (it never computes one) and serves anonymous requests.
 *    The front door verifies every request's SigV4 signature (header or presigned query)
 *    and its expiry, like S3 with a private bucket, so tampered URLs fail as they would.
 * 2. s3rver writes objects in place (readers can see half-written files, concurrent writers
 *    interleave) and tidies directories racily. Its filesystem store is patched so a PUT is
 *    staged aside and committed with a rename plus its metadata under one lock, as S3 is atomic.
 * 3. s3rver reads `Range: bytes=0-0` as the whole object; the patched read fixes end = 0.
 * 4. s3rver ignores `x-amz-copy-source-if-match` and copies in place. The front door hands the
 *    condition to the patched copy, which checks it and commits the copy under the same lock.
 *
 * @example
 * const s3 = await startS3rver();
 * const blobs = createS3BlobStore({ ...s3.credentials, bucket: 'test', region: s3.region });
 * await s3.close();
 */
export interface S3rverHandle {
  endpoint: string;
  credentials: { endpoint: string; accessKey: string; secretKey: string };
  region: string;
  /** Every request the front door refused, for debugging failed tests. */
  refused: string[];
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);
const ACCESS_KEY = 'S3RVER'; // s3rver's built-in account
const SECRET_KEY = 'S3RVER';
const REGION = 'us-east-1';

interface S3rverApp {
  store: FilesystemStore;
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
}
interface StoredObject {
  bucket: string;
  key: string;
  content: Buffer | Readable;
  metadata: Record<string, string>;
}
interface FilesystemStore {
  copyObject(
    srcBucket: string,
    srcKey: string,
    destBucket: string,
    destKey: string,
    replace: unknown,
  ): Promise<unknown>;
  getResourcePath(bucket: string, key: string, resource: string): string;
  getBucketPath(bucket: string): string;
  getMetadata(bucket: string, key: string): Promise<Record<string, string>>;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
  getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<unknown>;
  deleteObject(bucket: string, key: string): Promise<void>;
}

export async function startS3rver(): Promise<S3rverHandle> {
  const root = await mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const S3rver = require('s3rver') as new (options: Record<string, unknown>) => S3rverApp;
  const app = new S3rver({ directory: path.join(root, 'data'), silent: true, vhostBuckets: false });
  await mkdir(path.join(root, 'data'), { recursive: true });
  const copyConditions = new Map<string, string>();
  patchStore(app.store, path.join(root, 'staging'), copyConditions);
  const handle = app.callback();
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    const problem = checkSignature(req);
    if (problem === null) {
      const condition = req.headers['x-amz-copy-source-if-match'];
      if (req.method === 'PUT' && typeof condition === 'string' && req.headers['x-amz-copy-source']) {
        // Keyed by target: enough for tests, which never race two conditional copies to one key.
        copyConditions.set(decodeURIComponent((req.url ?? '').split('?', 1)[0]!.slice(1)), condition);
      }
      return handle(req, res);
    }
    refused.push(`${req.method} ${req.url}: ${problem}`);
    req.resume();
    res.writeHead(403, { 'content-type': 'application/xml' });
    res.end(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>${problem}</Message></Error>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    credentials: { endpoint, accessKey: ACCESS_KEY, secretKey: SECRET_KEY },
    region: REGION,
    refused,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Null when `req` carries a valid, unexpired SigV4 signature; otherwise why not. */
function checkSignature(req: http.IncomingMessage): string | null {
  const [rawPath = '/', rawQuery = ''] = (req.url ?? '/').split('?', 2);
  const pairs = rawQuery === '' ? [] : rawQuery.split('&');
  const query = new URLSearchParams(rawQuery);
  let auth: { credential: string; signedHeaders: string; signature: string; date: string; payload: string };
  if (query.has('X-Amz-Signature')) {
    const date = query.get('X-Amz-Date') ?? '';
    const expires = Number(query.get('X-Amz-Expires'));
    if (Date.now() > parseAmzDate(date) + expires * 1000) return 'Request has expired';
    auth = {
      credential: query.get('X-Amz-Credential') ?? '',
      signedHeaders: query.get('X-Amz-SignedHeaders') ?? '',
      signature: query.get('X-Amz-Signature') ?? '',
      date,
      payload: 'UNSIGNED-PAYLOAD',
    };
  } else {
    const header = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(
      req.headers.authorization ?? '',
    );
    if (!header) return 'anonymous access is denied';
    auth = {
      credential: header[1] ?? '',
      signedHeaders: header[2] ?? '',
      signature: header[3] ?? '',
      date: String(req.headers['x-amz-date'] ?? ''),
      payload: String(req.headers['x-amz-content-sha256'] ?? ''),
    };
  }
  const [accessKey, ...scopeParts] = auth.credential.split('/');
  if (accessKey !== ACCESS_KEY) return 'unknown access key';
  const scope = scopeParts.join('/');
  const canonicalQuery = pairs
    .filter((pair) => !pair.startsWith('X-Amz-Signature='))
    .map((pair) => (pair.includes('=') ? pair : `${pair}=`))
    .sort()
    .join('&');
  const headerNames = auth.signedHeaders.split(';');
  const canonicalHeaders = headerNames.map(
    (name) => `${name}:${String(req.headers[name] ?? '').replace(/ +/g, ' ')}\n`,
  );
  const canonicalRequest = [
    req.method,
    rawPath,
    canonicalQuery,
    canonicalHeaders.join(''),
    auth.signedHeaders,
    auth.payload,
  ].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', auth.date, scope, sha256(canonicalRequest)].join('\n');
  const [day = '', region = '', service = ''] = scopeParts;
  let key = hmac(`AWS4${SECRET_KEY}`, day);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
  const expected = createHmac('sha256', key).update(stringToSign).digest();
  const given = Buffer.from(auth.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'SignatureDoesNotMatch';
}

function parseAmzDate(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!) : NaN;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest();

/** Makes s3rver's filesystem store atomic per object (see the module comment). */
function patchStore(store: FilesystemStore, stagingDir: string, copyConditions: Map<string, string>): void {
  const S3Object = require('s3rver/lib/models/object') as new (
    bucket: string,
    key: string,
    content: Readable | null,
    metadata: Record<string, string>,
  ) => { range?: { start: number; end: number } };
  let queue: Promise<unknown> = Promise.resolve();
  // One lock for every commit, delete and open: a fake server has no need for more.
  const locked = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };

  store.putObject = async (object) => {
    await mkdir(stagingDir, { recursive: true });
    const temp = path.join(stagingDir, randomUUID());
    const hash = createHash('md5');
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    if (Buffer.isBuffer(object.content)) counter.end(object.content);
    else object.content.pipe(counter);
    await pipeline(counter, createWriteStream(temp));
    const md5 = hash.digest('hex');
    return locked(async () => {
      const target = store.getResourcePath(object.bucket, object.key, 'object');
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temp, target);
      await store.putMetadata(object.bucket, object.key, object.metadata, md5);
      return { size, md5 };
    });
  };

  store.getObject = (bucket, key, options) =>
    locked(async () => {
      let metadata: Record<string, string>;
      try {
        metadata = await store.getMetadata(bucket, key);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      const size = Number(metadata['content-length']);
      const ranged = options !== undefined && (options.start !== undefined || options.end !== undefined);
      const range = { start: options?.start ?? 0, end: Math.min(options?.end ?? Infinity, Math.max(0, size - 1)) };
      if (ranged && (range.start >= size || range.end < range.start)) {
        return Object.assign(new S3Object(bucket, key, null, metadata), { range });
      }
      const content = createReadStream(store.getResourcePath(bucket, key, 'object'), ranged ? range : {});
      await new Promise((resolve, reject) => content.once('open', resolve).once('error', reject));
      const object = new S3Object(bucket, key, content, metadata);
      return ranged ? Object.assign(object, { range }) : object;
    });

  const S3Error = require('s3rver/lib/models/error') as new (code: string, message: string) => Error;
  const putObject = store.putObject.bind(store);
  store.copyObject = async (srcBucket, srcKey, destBucket, destKey, replace) => {
    const expected = copyConditions.get(`${destBucket}/${destKey}`);
    copyConditions.delete(`${destBucket}/${destKey}`);
    const staged = path.join(stagingDir, randomUUID());
    await mkdir(stagingDir, { recursive: true });
    // Read source bytes and metadata together under the lock, then commit like a PUT.
    const metadata = await locked(async () => {
      const current = await store.getMetadata(srcBucket, srcKey);
      if (expected !== undefined && expected.replace(/"/g, '') !== String(current.etag).replace(/"/g, '')) {
        throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
      }
      await copyFile(store.getResourcePath(srcBucket, srcKey, 'object'), staged);
      return current;
    });
    try {
      const content = createReadStream(staged);
      await putObject({
        bucket: destBucket,
        key: destKey,
        content,
        metadata: replace ? (replace as Record<string, string>) : metadata,
      });
    } finally {
      await rm(staged, { force: true });
    }
    return store.getMetadata(destBucket, destKey);
  };

  store.deleteObject = (bucket, key) =>
    locked(async () => {
      for (const resource of ['object', 'object.md5', 'metadata.json']) {
        await unlink(store.getResourcePath(bucket, key, resource)).catch(() => undefined);
      }
      const parts = key.split('/').slice(0, -1);
      for (; parts.length > 0; parts.pop()) {
        const stop = await rmdir(path.join(store.getBucketPath(bucket), ...parts)).then(
          () => false,
          () => true,
        );
        if (stop) break;
      }
    });
}
