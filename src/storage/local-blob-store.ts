import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '../errors.js';
import {
  assertValidContentType,
  assertValidKey,
  assertValidPrefix,
  assertValidRange,
  blobChanged,
  DEFAULT_MAX_UPLOAD_BYTES,
  RangeNotSatisfiableError,
} from './blob-store.js';
import type { BlobInfo, BlobStore, BlobStream, ByteRange } from './blob-store.js';
import { createBlobUrlSigner } from './blob-urls.js';
import type { Clock } from './blob-urls.js';
import {
  isMissing,
  linkOrCopy,
  openBlobFile,
  readExactly,
  writeBlobFile,
  writeSmallBlobFileSync,
} from './local-blob-file.js';
import type { OpenBlobFile } from './local-blob-file.js';
import { smallBody, StagingReserve, type PublishOps } from './staging-reserve.js';
import { createUploadClaims } from './upload-claims.js';

export interface LocalBlobStoreOptions {
  /** Root directory (the service passes DATA_DIR/objects). */
  dir: string;
  /** HMAC secret of the signed URLs (SIGNING_SECRET). */
  secret: string;
  /** Public base URL of the service; a function because the port is known only after listen. */
  baseUrl: () => string;
  /**
   * Flush each object to disk before publishing it (default true). The service flushes when its
   * database flushes its commits (create-blob-store.ts): an object needs to outlive a power
   * loss only if the row pointing to it does. Without flushing, a crash of the process still
   * loses nothing (the OS has the bytes); a power loss may.
   */
  flush?: boolean;
  now?: Clock;
}

/** Staging files older than this are leftovers of a crashed write (uploads may be slow). */
const STALE_STAGING_MS = 24 * 3600 * 1000;

/**
 * Objects as files under `<dir>/blobs/<key>`, written in `<dir>/staging` and renamed into
 * place (atomic on one filesystem), served by the service through signed URLs
 * (`src/http/blobs.routes.ts`). A key cannot be both an object and a prefix of another
 * object (`a` and `a/b`); such a put fails with `blob_key_conflict`. Uploads through signed
 * URLs are single-use, recorded in `<dir>/claims` (upload-claims.ts).
 *
 * @example
 * const blobs = createLocalBlobStore({ dir: path.join(dataDir, 'objects'), secret, baseUrl: () => publicUrl });
 * await blobs.init();
 */
export function createLocalBlobStore(options: LocalBlobStoreOptions): BlobStore {
  const root = path.resolve(options.dir);
  const blobsDir = path.join(root, 'blobs');
  const stagingDir = path.join(root, 'staging');
  const signer = createBlobUrlSigner({ secret: options.secret, baseUrl: options.baseUrl, now: options.now });
  const claims = createUploadClaims(path.join(root, 'claims'), options.now);
  let staged: Promise<unknown> | null = null;
  const reserve = options.flush === false ? new StagingReserve(stagingDir) : null;

  const pathOf = (key: string): string => {
    assertValidKey(key);
    return path.join(blobsDir, ...key.split('/'));
  };
  const ensureDirs = (): Promise<unknown> =>
    (staged ??= Promise.all([mkdir(blobsDir, { recursive: true }), mkdir(stagingDir, { recursive: true })]).catch(
      (err: unknown) => {
        staged = null;
        throw err;
      },
    ));

  /** Removes now-empty directories from `dir` up to (not including) the blobs root. */
  const prune = async (dir: string): Promise<void> => {
    for (let current = dir; current.startsWith(blobsDir + path.sep); current = path.dirname(current)) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty, already gone, or raced by a writer: all fine
      }
    }
  };

  const withFile = async <T>(key: string, use: (file: OpenBlobFile) => Promise<T>): Promise<T | null> => {
    const file = await openBlobFile(pathOf(key));
    if (!file) return null;
    try {
      return await use(file);
    } finally {
      await file.handle.close();
    }
  };

  const store: BlobStore = {
    kind: 'local',

    async init() {
      await ensureDirs();
      await removeStaleStaging(stagingDir);
      await claims.sweep();
    },

    async close() {
      reserve?.discard();
    },

    async put(key, body, { contentType, maxBytes }) {
      const target = pathOf(key);
      assertValidContentType(contentType);
      await ensureDirs();
      const small = reserve ? smallBody(body, maxBytes) : null;
      const spare = small ? reserve!.takeFile() : undefined;
      if (small && spare) {
        try {
          const written = writeSmallBlobFileSync(spare, small, contentType);
          await publish(spare, target, key, reserve!.syncOps);
          return { key, ...written };
        } catch (err) {
          rmSync(spare, { force: true });
          // Another process's clean-up took the spare file (it was over a day old): write anew.
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
      }
      const temp = path.join(stagingDir, `${randomUUID()}.tmp`);
      try {
        // A small body was encoded already when checking its size: write those bytes.
        const written = await writeBlobFile(temp, small ?? body, { contentType, maxBytes, flush: options.flush });
        await publish(temp, target, key, ASYNC_FS);
        return { key, ...written };
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },

    async get(key) {
      return withFile(key, (file) => readExactly(file.handle, file.dataOffset, file.size));
    },

    async stream(key, range) {
      if (range) assertValidRange(range);
      const file = await openBlobFile(pathOf(key));
      return file && streamFile(key, file, range);
    },

    async head(key) {
      return withFile(key, async (file) => infoOf(key, file));
    },

    async delete(keys) {
      const paths = (Array.isArray(keys) ? keys : [keys]).map(pathOf);
      for (const file of paths) {
        try {
          await unlink(file);
        } catch (err) {
          // EISDIR/EPERM: the key names a prefix, not an object; nothing to delete.
          const code = (err as NodeJS.ErrnoException).code;
          if (!isMissing(err) && code !== 'EISDIR' && code !== 'EPERM') throw err;
        }
        await prune(path.dirname(file));
      }
    },

    async deletePrefix(prefix) {
      assertValidPrefix(prefix);
      const slash = prefix.lastIndexOf('/');
      const parent = slash === -1 ? blobsDir : path.join(blobsDir, ...prefix.slice(0, slash).split('/'));
      const start = prefix.slice(slash + 1);
      let names: string[];
      try {
        names = await readdir(parent);
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      const doomed = names.filter((name) => name.startsWith(start));
      await Promise.all(doomed.map((name) => rm(path.join(parent, name), { recursive: true, force: true })));
      await prune(parent);
    },

    async signedGetUrl(key, signOptions) {
      return signer.signGet(key, signOptions);
    },

    async copy(source, target, { ifMatch } = {}) {
      const from = pathOf(source);
      const to = pathOf(target);
      await ensureDirs();
      const temp = path.join(stagingDir, `${randomUUID()}.tmp`);
      if (!(await linkOrCopy(from, temp))) return null;
      try {
        // The staged name is ours alone: what it holds now is exactly what gets published.
        const file = await openBlobFile(temp);
        if (!file) throw new Error(`${from} vanished from staging`);
        const info = infoOf(target, file);
        await file.handle.close();
        if (ifMatch !== undefined && info.etag !== ifMatch) throw blobChanged(source);
        await publish(temp, to, target, ASYNC_FS);
        return info;
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },

    async presignUpload(key, signOptions) {
      const { url, expires } = signer.signPut(key, signOptions);
      return {
        url,
        method: 'PUT',
        headers: { 'content-type': signOptions.contentType },
        expiresAt: new Date(expires * 1000),
        contentType: signOptions.contentType,
        maxBytes: signOptions.maxBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
        enforced: { contentType: !signOptions.anyContentType, maxBytes: true, singleUse: true },
      };
    },

    async receiveSignedUpload(grant, body) {
      const { key, id, expires, contentType, maxBytes } = grant;
      if (id === undefined || contentType === undefined || maxBytes === undefined) {
        throw new Error('receiveSignedUpload needs a verified PUT grant');
      }
      const claim = await claims.claim(id, expires);
      try {
        const info = await store.put(key, body, { contentType, maxBytes });
        await claim.commit();
        return info;
      } catch (err) {
        await claim.release();
        throw err;
      }
    },
  };
  return store;
}

function infoOf(key: string, file: OpenBlobFile): BlobInfo {
  return { key, size: file.size, contentType: file.contentType, etag: file.etag, lastModified: file.lastModified };
}

/** Streams from the already open file, so the bytes belong to the version `info` describes. */
async function streamFile(key: string, file: OpenBlobFile, range: ByteRange | undefined): Promise<BlobStream> {
  const info = infoOf(key, file);
  if (range && range.start >= file.size) {
    await file.handle.close();
    throw new RangeNotSatisfiableError(file.size);
  }
  const served = range ? { start: range.start, end: Math.min(range.end, file.size - 1) } : null;
  if (file.size === 0) {
    await file.handle.close();
    return { info, range: served, body: Readable.from([]) };
  }
  const start = file.dataOffset + (served?.start ?? 0);
  const end = file.dataOffset + (served?.end ?? file.size - 1);
  // autoClose (the default) closes the handle when the stream ends or is destroyed.
  return { info, range: served, body: file.handle.createReadStream({ start, end }) };
}

/** Publishing through libuv's thread pool (the usual path). */
const ASYNC_FS: PublishOps = { mkdir: (dir) => mkdir(dir, { recursive: true }), rename };

/** Renames the staged file over the object, creating parent directories as needed. */
async function publish(temp: string, target: string, key: string, fs: PublishOps): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.mkdir(path.dirname(target));
      await fs.rename(temp, target);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A concurrent delete pruned the (then empty) parent between mkdir and rename.
      if (code === 'ENOENT' && attempt < 3) continue;
      if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR' || code === 'ENOTEMPTY') {
        throw new AppError(
          'conflict',
          'blob_key_conflict',
          `object key ${JSON.stringify(key)} conflicts with an existing object or prefix`,
          { cause: err },
        );
      }
      throw err;
    }
  }
}

async function removeStaleStaging(stagingDir: string): Promise<void> {
  const cutoff = Date.now() - STALE_STAGING_MS;
  for (const name of await readdir(stagingDir)) {
    const file = path.join(stagingDir, name);
    const info = await stat(file).catch(() => null);
    if (info && info.mtimeMs < cutoff) await rm(file, { force: true, recursive: true });
  }
}
