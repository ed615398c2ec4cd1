import { createReadStream } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import os from 'node:os';
import type { Readable } from 'node:stream';
import { Client, CopyConditions } from 'minio';
import { AppError } from '../errors.js';
import {
  assertValidContentType,
  assertValidFilename,
  assertValidKey,
  assertValidPrefix,
  assertValidRange,
  attachmentDisposition,
  blobChanged,
  DEFAULT_MAX_UPLOAD_BYTES,
  payloadTooLarge,
  RangeNotSatisfiableError,
} from './blob-store.js';
import type { BlobInfo, BlobStore, BlobStream, ByteRange } from './blob-store.js';
import { presignS3Url } from './s3-presign.js';
import { spool } from './spool.js';

export interface S3BlobStoreOptions {
  /** Bare origin of the S3 API, e.g. `http://127.0.0.1:9000` or `https://s3.eu-west-1.amazonaws.com`. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
  /** Where stream bodies larger than a few MB wait for their upload (default: the OS temp dir). */
  spoolDir?: string;
}

/** DeleteObjects accepts at most 1000 keys per request. */
const DELETE_BATCH = 1000;
/** SigV4 presigned URLs live at most 7 days; longer requests get the longest S3 allows. */
const MAX_PRESIGN_SECONDS = 7 * 86400;

/**
 * S3 or MinIO through the `minio` client, path-style addressing. Presigned GET and PUT URLs
 * go straight to the storage server; the bucket is created by init() when missing. A presigned
 * PUT binds the content type (a signed header); S3 cannot bind a size limit or single use to a
 * PUT URL, so callers check uploads with head() and pin them with copy() (docs/storage.md).
 *
 * @example
 * const blobs = createS3BlobStore({ endpoint: 'http://127.0.0.1:9000', accessKey, secretKey, bucket: 'web-content', region: 'us-east-1' });
 * await blobs.init();
 */
export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore {
  const client = createClient(options);
  const { bucket } = options;
  const endpoint = new URL(options.endpoint);
  const keys = { accessKey: options.accessKey, secretKey: options.secretKey };
  const spoolDir = options.spoolDir ?? os.tmpdir();

  const head = async (key: string): Promise<BlobInfo | null> => {
    assertValidKey(key);
    try {
      const stat = await client.statObject(bucket, key);
      const type = stat.metaData['content-type'] as string | undefined;
      return {
        key,
        size: stat.size,
        contentType: type ?? 'application/octet-stream',
        etag: stat.etag,
        lastModified: stat.lastModified,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw storageError(err);
    }
  };

  const stream = async (key: string, range?: ByteRange): Promise<BlobStream | null> => {
    assertValidKey(key);
    if (range) assertValidRange(range);
    let response: IncomingMessage;
    try {
      response = (
        range
          ? await client.getPartialObject(bucket, key, range.start, range.end - range.start + 1)
          : await client.getObject(bucket, key)
      ) as IncomingMessage;
    } catch (err) {
      if (isNotFound(err)) return null;
      if (errorCode(err) === 'InvalidRange') throw new RangeNotSatisfiableError((await head(key))?.size ?? 0);
      throw storageError(err);
    }
    let served: { range: ByteRange; size: number } | null;
    try {
      served = range ? parseContentRange(response.headers) : null;
    } catch (err) {
      response.destroy();
      throw err;
    }
    const size = served ? served.size : Number(response.headers['content-length']);
    return { info: infoFromHeaders(key, size, response.headers), range: served && served.range, body: response };
  };

  const upload = async (key: string, body: Buffer | string | Readable, contentType: string, maxBytes?: number) => {
    const meta = { 'Content-Type': contentType };
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      const buffer = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
      if (maxBytes !== undefined && buffer.length > maxBytes) throw payloadTooLarge(maxBytes);
      return { size: buffer.length, result: await client.putObject(bucket, key, buffer, buffer.length, meta) };
    }
    const spooled = await spool(body, { dir: spoolDir, maxBytes });
    if (spooled.kind === 'memory') {
      const { buffer } = spooled;
      return { size: buffer.length, result: await client.putObject(bucket, key, buffer, buffer.length, meta) };
    }
    try {
      const stream = createReadStream(spooled.path);
      return { size: spooled.size, result: await client.putObject(bucket, key, stream, spooled.size, meta) };
    } finally {
      await spooled.cleanup();
    }
  };

  const removeBatch = async (keys: string[]): Promise<void> => {
    const failures = await client.removeObjects(bucket, keys).catch((err: unknown) => {
      throw storageError(err);
    });
    if (failures.length > 0) throw storageError(new Error(`could not delete ${failures.length} object(s)`), failures);
  };

  return {
    kind: 's3',

    async init() {
      try {
        if (await client.bucketExists(bucket)) return;
        await client.makeBucket(bucket, options.region);
      } catch (err) {
        // Another process created it between our check and our request: that is success.
        const code = errorCode(err);
        if (code === 'BucketAlreadyOwnedByYou' || code === 'BucketAlreadyExists') return;
        throw storageError(err);
      }
    },

    async put(key, body, { contentType, maxBytes }) {
      assertValidKey(key);
      assertValidContentType(contentType);
      try {
        const { size, result } = await upload(key, body, contentType, maxBytes);
        // PUT answers with no date of its own; the completion time is the closest estimate.
        return { key, size, contentType, etag: result.etag, lastModified: new Date() };
      } catch (err) {
        throw err instanceof AppError ? err : storageError(err);
      }
    },

    async get(key) {
      const opened = await stream(key);
      if (!opened) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of opened.body) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },

    stream,

    head,

    async delete(keys) {
      const list = Array.isArray(keys) ? keys : [keys];
      list.forEach(assertValidKey);
      for (let i = 0; i < list.length; i += DELETE_BATCH) await removeBatch(list.slice(i, i + DELETE_BATCH));
    },

    async deletePrefix(prefix) {
      assertValidPrefix(prefix);
      let batch: string[] = [];
      try {
        for await (const item of client.listObjectsV2(bucket, prefix, true)) {
          if (item.name === undefined) continue;
          batch.push(item.name);
          if (batch.length === DELETE_BATCH) {
            await removeBatch(batch);
            batch = [];
          }
        }
      } catch (err) {
        throw err instanceof AppError ? err : storageError(err);
      }
      if (batch.length > 0) await removeBatch(batch);
    },

    async signedGetUrl(key, { expiresInSeconds, filename }) {
      assertValidKey(key);
      const headers: Record<string, string> = {};
      if (filename !== undefined) {
        assertValidFilename(filename);
        headers['response-content-disposition'] = attachmentDisposition(filename);
      }
      return client.presignedGetObject(bucket, key, presignSeconds(expiresInSeconds), headers);
    },

    async copy(source, target, { ifMatch } = {}) {
      assertValidKey(source);
      assertValidKey(target);
      const conditions = new CopyConditions();
      if (ifMatch !== undefined) conditions.setMatchETag(`"${ifMatch}"`);
      try {
        await client.copyObject(bucket, target, `${bucket}/${source}`, conditions);
      } catch (err) {
        if (isNotFound(err)) return null;
        if (errorCode(err) === 'PreconditionFailed') throw blobChanged(source);
        throw storageError(err);
      }
      // The copy answers only etag and date; the target is ours, so head() describes the copy.
      return head(target);
    },

    async presignUpload(key, { expiresInSeconds, contentType, maxBytes = DEFAULT_MAX_UPLOAD_BYTES, anyContentType }) {
      assertValidKey(key);
      assertValidContentType(contentType);
      const seconds = presignSeconds(expiresInSeconds);
      const now = new Date();
      // A signed header must be sent with exactly its value: not signing it accepts any type.
      const headers = { 'content-type': contentType };
      const signed: Record<string, string> = anyContentType ? {} : headers;
      const url = presignS3Url({
        method: 'PUT',
        endpoint,
        bucket,
        key,
        region: options.region,
        ...keys,
        expiresInSeconds: seconds,
        now,
        headers: signed,
      });
      return {
        url,
        method: 'PUT',
        headers,
        expiresAt: new Date(now.getTime() + seconds * 1000),
        contentType,
        maxBytes,
        enforced: { contentType: !anyContentType, maxBytes: false, singleUse: false },
      };
    },
  };
}

function presignSeconds(expiresInSeconds: number): number {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1) {
    throw new Error('expiresInSeconds must be a positive integer');
  }
  return Math.min(expiresInSeconds, MAX_PRESIGN_SECONDS);
}

function createClient(options: S3BlobStoreOptions): Client {
  const url = new URL(options.endpoint);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.username !== '') {
    throw new Error(`S3 endpoint must be a bare origin like http://127.0.0.1:9000, got ${options.endpoint}`);
  }
  const useSSL = url.protocol === 'https:';
  return new Client({
    endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (useSSL ? 443 : 80) : Number(url.port),
    useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region: options.region,
    pathStyle: true,
  });
}

function infoFromHeaders(key: string, size: number, headers: IncomingHttpHeaders): BlobInfo {
  return {
    key,
    size,
    contentType: headers['content-type'] ?? 'application/octet-stream',
    etag: (headers.etag ?? '').replace(/^(W\/)?"|"$/g, ''),
    lastModified: new Date(headers['last-modified'] ?? Date.now()),
  };
}

function parseContentRange(headers: IncomingHttpHeaders): { range: ByteRange; size: number } {
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(headers['content-range'] ?? '');
  if (!match) throw storageError(new Error(`ranged GET answered without a usable Content-Range`));
  return { range: { start: Number(match[1]), end: Number(match[2]) }, size: Number(match[3]) };
}

function errorCode(err: unknown): string | undefined {
  return (err as { code?: string } | null)?.code;
}

function isNotFound(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'NoSuchKey' || code === 'NotFound';
}

/** Failures of the storage server: the client may retry later; details go to the log via `cause`. */
function storageError(err: unknown, failures?: unknown): AppError {
  return new AppError('unavailable', 'storage_unavailable', 'object storage could not complete the request', {
    cause: failures === undefined ? err : { err, failures },
  });
}
