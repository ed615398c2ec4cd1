import type { Readable } from 'node:stream';
import { AppError } from '../errors.js';
import type { BlobGrant } from './blob-urls.js';

/**
 * Object storage for content the service hosts (formats, screenshots, PDFs, uploaded files).
 * Two implementations pass the same contract suite (`test/contract/blob-store.contract.ts`):
 * a directory under DATA_DIR served by the service through signed URLs, and S3/MinIO.
 *
 * Keys are `/`-separated, relative, without `..` segments
 * (`teams/team_x/scrapes/scrape_y/markdown.md`).
 *
 * @example
 * await blobs.put(`teams/${teamId}/scrapes/${id}/markdown.md`, markdown, { contentType: 'text/markdown; charset=utf-8' });
 * const url = await blobs.signedGetUrl(key, { expiresInSeconds: 7 * 86400, filename: 'page.md' });
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /** Prepares the store (creates the directory or the bucket). Idempotent, safe to race. */
  init(): Promise<void>;
  /** Releases what the store keeps ready for later writes (the local store's spare files). */
  close?(): Promise<void>;
  /**
   * Writes an object atomically: readers see the old object or the whole new one, and
   * concurrent writers leave one of their objects, whole. A stream body is consumed fully;
   * above `maxBytes` the write fails with a `payload_too_large` AppError and nothing changes.
   */
  put(key: string, body: Buffer | string | Readable, options: PutOptions): Promise<BlobInfo>;
  /** The whole object, or null when it does not exist. */
  get(key: string): Promise<Buffer | null>;
  /**
   * Opens the object, or `range` of it; null when missing. `info` describes the same
   * version as the bytes. `range.end` past the last byte is clamped; a range starting past
   * the last byte throws {@link RangeNotSatisfiableError}.
   */
  stream(key: string, range?: ByteRange): Promise<BlobStream | null>;
  head(key: string): Promise<BlobInfo | null>;
  /** Deletes objects; missing keys are not an error. */
  delete(keys: string | string[]): Promise<void>;
  /** Deletes every object whose key starts with `prefix` (a plain string prefix, as in S3). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Copies an object within the store: S3 copies server-side, the local store links the file
   * (no bytes move). An existing target is replaced, as with put. With `ifMatch`, only the
   * version whose etag it names is copied; any other throws a `blob_changed` conflict, so a
   * caller pins the version it checked (see "Uploads" in docs/storage.md). Null when the source
   * does not exist.
   */
  copy(source: string, target: string, options?: CopyOptions): Promise<BlobInfo | null>;
  /** A URL that GETs (or HEADs) the object without credentials until it expires. */
  signedGetUrl(key: string, options: SignedGetOptions): Promise<string>;
  /**
   * Grants one upload of the object's bytes without credentials until it expires: a PUT to
   * `grant.url` with `grant.headers`. What the store enforces while receiving differs (local:
   * size, type and single use; S3: the type only) and is stated in `grant.enforced`; whatever
   * it does not enforce the caller checks afterwards with `head()` (docs/storage.md, "Uploads").
   */
  presignUpload(key: string, options: SignedPutOptions): Promise<UploadGrant>;
  /**
   * Receives a PUT through one of this store's own signed upload URLs, already verified by the
   * blob routes: refuses a grant used before (`signed_url_used`), stores the body within the
   * grant's limits. Only stores that serve their signed URLs themselves (the local store) have it.
   */
  receiveSignedUpload?(grant: BlobGrant, body: Buffer | Readable): Promise<BlobInfo>;
}

export interface PutOptions {
  contentType: string;
  /** Largest accepted body; larger bodies fail with `payload_too_large`. */
  maxBytes?: number;
}

export interface BlobInfo {
  key: string;
  size: number;
  contentType: string;
  /** Opaque validator of this version of the object, without quotes. */
  etag: string;
  lastModified: Date;
}

/** Inclusive byte offsets, as in HTTP `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStream {
  /** The whole object's description (size is the full size, not the range's). */
  info: BlobInfo;
  /** The bytes actually served (end clamped to the last byte), or null for the whole object. */
  range: ByteRange | null;
  body: Readable;
}

export interface SignedGetOptions {
  /** Seconds until the URL stops working. */
  expiresInSeconds: number;
  /** Suggested download name (`Content-Disposition: attachment`). */
  filename?: string;
}

export interface CopyOptions {
  /** Copy only the version with this etag (unquoted, as in BlobInfo). */
  ifMatch?: string;
}

export interface SignedPutOptions {
  /** Seconds until the URL stops working. */
  expiresInSeconds: number;
  /** Media type the object is stored with; an upload declaring another one is refused (unless anyContentType). */
  contentType: string;
  /** Largest accepted upload (default {@link DEFAULT_MAX_UPLOAD_BYTES}); see UploadGrant.enforced. */
  maxBytes?: number;
  /**
   * Accept an upload whatever `Content-Type` it declares (or none): for callers that check the
   * bytes themselves, so a plain client (curl sends form-urlencoded, fetch text/plain) works. The
   * local store still stores `contentType`; S3 stores what was sent. `enforced.contentType` is false.
   */
  anyContentType?: boolean;
}

/**
 * Permission for one upload, as returned by {@link BlobStore.presignUpload}.
 *
 * @example
 * const grant = await blobs.presignUpload(key, { expiresInSeconds: 600, contentType: 'application/json' });
 * await fetch(grant.url, { method: grant.method, headers: grant.headers, body });
 */
export interface UploadGrant {
  url: string;
  method: 'PUT';
  /** Headers the uploader sends as given (S3 signs them: another value fails the signature). */
  headers: Record<string, string>;
  expiresAt: Date;
  contentType: string;
  maxBytes: number;
  /** What the store refuses while receiving; the rest the caller checks with head() after the upload. */
  enforced: { contentType: boolean; maxBytes: boolean; singleUse: boolean };
}

/** Default upper bound of a signed upload (the Files API accepts JSON up to 200 MB). */
export const DEFAULT_MAX_UPLOAD_BYTES = 200 * 1024 * 1024;

/** The error of a conditional copy whose source is no longer the version asked for. */
export function blobChanged(key: string): AppError {
  return new AppError('conflict', 'blob_changed', `object ${JSON.stringify(key)} changed since it was checked`);
}

/** The requested range starts past the end of the object (HTTP 416). */
export class RangeNotSatisfiableError extends Error {
  constructor(readonly size: number) {
    super(`range not satisfiable: the object has ${size} bytes`);
    this.name = 'RangeNotSatisfiableError';
  }
}

/** The error every store throws when a body exceeds its `maxBytes`. */
export function payloadTooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', 'payload_too_large', `the object exceeds the limit of ${maxBytes} bytes`, {
    metadata: { max_bytes: String(maxBytes) },
  });
}

/** Throws unless `range` is a well-formed inclusive byte range. */
export function assertValidRange(range: ByteRange): void {
  if (
    !Number.isSafeInteger(range.start) ||
    !Number.isSafeInteger(range.end) ||
    range.start < 0 ||
    range.end < range.start
  ) {
    throw new Error(`invalid byte range ${JSON.stringify(range)}`);
  }
}

/** Throws when a key could escape its prefix or is not a plain relative path. */
export function assertValidKey(key: string): void {
  if (
    key.length === 0 ||
    key.length > 1024 ||
    key.startsWith('/') ||
    key.includes('\\') ||
    // Control characters have no business in keys and break headers and file names.
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/.test(key) ||
    key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')
  ) {
    throw new Error(`invalid object key ${JSON.stringify(key)}`);
  }
}

/**
 * Throws unless `prefix` is usable with deletePrefix: a valid key, optionally ending in `/`.
 * The empty prefix is refused so a bug cannot wipe the whole store.
 */
export function assertValidPrefix(prefix: string): void {
  assertValidKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
}

/** Throws unless `contentType` is a plausible media type that is safe to put in a header. */
export function assertValidContentType(contentType: string): void {
  if (contentType.length > 255 || !/^[\w.+-]+\/[\w.+-]+(\s*;[\x20-\x7e]*)?$/.test(contentType)) {
    throw new Error(`invalid content type ${JSON.stringify(contentType)}`);
  }
}

/** Throws unless `filename` is a plain file name (no path, no control characters). */
export function assertValidFilename(filename: string): void {
  // eslint-disable-next-line no-control-regex
  if (filename.length === 0 || filename.length > 255 || /[\u0000-\u001f\u007f/\\]/.test(filename)) {
    throw new Error(`invalid download filename ${JSON.stringify(filename)}`);
  }
}

/** The media type without parameters, lower-cased (`Text/HTML; charset=utf-8` → `text/html`). */
export function mediaTypeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * `Content-Disposition: attachment` naming `filename`, with an ASCII fallback and the
 * RFC 6266 / RFC 8187 `filename*` form for everything else.
 */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
