import { randomBytes } from 'node:crypto';
import { AppError } from '../errors.js';
import { assertValidContentType, assertValidFilename, assertValidKey, DEFAULT_MAX_UPLOAD_BYTES } from './blob-store.js';
import type { SignedGetOptions, SignedPutOptions } from './blob-store.js';
import { signParams, verifyParams } from './signed-params.js';

/*
 * Signed URLs of the local blob store: `{baseUrl}/blobs/<key>?expires=<epoch s>[&filename=…]&sig=<hex>`
 * for GET/HEAD, `…?content_type=…&expires=…&id=…&max_bytes=…&sig=…` for PUT. The signature covers
 * the method, the key and every query parameter, so nothing can be added, dropped or changed.
 * `id` is random: it makes every upload URL a distinct credential that can be used once.
 */

const SIG = 'sig';

export type BlobUrlMethod = 'GET' | 'PUT';

/** Clock in epoch milliseconds; tests pass a fixed one. */
export type Clock = () => number;

export interface BlobUrlSignerOptions {
  secret: string;
  /** The service's public base URL; a function because the port is known only after listen. */
  baseUrl: () => string;
  now?: Clock;
}

export interface BlobUrlSigner {
  signGet(key: string, options: SignedGetOptions): string;
  signPut(key: string, options: SignedPutOptions): SignedPut;
}

export interface SignedPut {
  url: string;
  /** Epoch seconds after which the URL stops working. */
  expires: number;
  /** The grant's random id (see {@link BlobGrant.id}). */
  id: string;
}

/** What a verified URL allows. */
export interface BlobGrant {
  key: string;
  method: BlobUrlMethod;
  /** Epoch seconds after which the URL stops working. */
  expires: number;
  filename?: string;
  contentType?: string;
  /** PUT only: any declared content type is accepted (the object is stored as `contentType`). */
  anyContentType?: boolean;
  maxBytes?: number;
  /** PUT only: random, unique per signed upload URL; the local store records its use. */
  id?: string;
}

export interface BlobUrlVerifier {
  /**
   * Checks a request's signature; throws a `forbidden` AppError (`signed_url_invalid` or
   * `signed_url_expired`) unless the URL was signed for this method and key and is current.
   */
  verify(method: BlobUrlMethod, key: string, query: URLSearchParams): BlobGrant;
}

/** Method and key are bound through the scope, apart from the query parameters. */
function scopeOf(method: BlobUrlMethod, key: string): string {
  return `blob-url ${method} ${encodeURIComponent(key)}`;
}

/** URL path of a key under the blob routes: each segment percent-encoded. */
export function blobPath(key: string): string {
  return `/blobs/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/**
 * Signs URLs the blob routes will accept.
 *
 * @example
 * const urls = createBlobUrlSigner({ secret, baseUrl: () => 'https://api.example.com' });
 * urls.signGet('teams/t/scrapes/s/page.pdf', { expiresInSeconds: 600, filename: 'page.pdf' });
 */
export function createBlobUrlSigner(options: BlobUrlSignerOptions): BlobUrlSigner {
  const now = options.now ?? Date.now;
  const build = (method: BlobUrlMethod, key: string, params: Record<string, string>): string => {
    assertValidKey(key);
    const sig = signParams(options.secret, scopeOf(method, key), params);
    const query = new URLSearchParams({ ...params, [SIG]: sig });
    return `${options.baseUrl().replace(/\/+$/, '')}${blobPath(key)}?${query.toString()}`;
  };
  const expiresAt = (seconds: number): string => {
    if (!Number.isInteger(seconds) || seconds < 1) throw new Error('expiresInSeconds must be a positive integer');
    return String(Math.floor(now() / 1000) + seconds);
  };
  return {
    signGet(key, { expiresInSeconds, filename }) {
      const params: Record<string, string> = { expires: expiresAt(expiresInSeconds) };
      if (filename !== undefined) {
        assertValidFilename(filename);
        params.filename = filename;
      }
      return build('GET', key, params);
    },
    signPut(key, { expiresInSeconds, contentType, maxBytes = DEFAULT_MAX_UPLOAD_BYTES, anyContentType }) {
      assertValidContentType(contentType);
      if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new Error('maxBytes must be a non-negative integer');
      const expires = expiresAt(expiresInSeconds);
      const id = randomBytes(16).toString('base64url');
      const params: Record<string, string> = { expires, content_type: contentType, max_bytes: String(maxBytes), id };
      if (anyContentType) params.any_type = '1';
      const url = build('PUT', key, params);
      return { url, expires: Number(expires), id };
    },
  };
}

/** Verifies URLs made by a signer with the same secret (see {@link BlobUrlVerifier.verify}). */
export function createBlobUrlVerifier(secret: string, options: { now?: Clock } = {}): BlobUrlVerifier {
  const now = options.now ?? Date.now;
  return {
    verify(method, key, query) {
      // No prototype: a parameter named `__proto__` must be signed like any other.
      const params: Record<string, string> = Object.create(null) as Record<string, string>;
      let sig: string | null = null;
      for (const [name, value] of query) {
        // A repeated parameter would let a client smuggle a second value past the check.
        if (Object.hasOwn(params, name) || (name === SIG && sig !== null))
          throw invalid('a query parameter is repeated');
        if (name === SIG) sig = value;
        else params[name] = value;
      }
      if (sig === null || !verifyParams(secret, scopeOf(method, key), params, sig)) {
        throw invalid('the signature does not match this URL');
      }
      const grant = toGrant(method, key, params);
      if (Math.floor(now() / 1000) > grant.expires) {
        throw new AppError('forbidden', 'signed_url_expired', 'this signed URL has expired; request a new one');
      }
      return grant;
    },
  };
}

function toGrant(method: BlobUrlMethod, key: string, params: Record<string, string>): BlobGrant {
  // Only URLs this module signed get here, so a malformed value means a bug or an old format.
  const expires = Number(params.expires);
  if (!Number.isSafeInteger(expires)) throw invalid('the URL has no valid expiry');
  const grant: BlobGrant = { key, method, expires };
  if (params.filename !== undefined) grant.filename = params.filename;
  if (method === 'PUT') {
    const maxBytes = Number(params.max_bytes);
    if (
      params.content_type === undefined ||
      !Number.isSafeInteger(maxBytes) ||
      !/^[\w-]{16,64}$/.test(params.id ?? '')
    ) {
      throw invalid('the upload URL lacks its content type, size limit or id');
    }
    grant.contentType = params.content_type;
    if (params.any_type === '1') grant.anyContentType = true;
    grant.maxBytes = maxBytes;
    grant.id = params.id;
  }
  return grant;
}

function invalid(detail: string): AppError {
  return new AppError('forbidden', 'signed_url_invalid', `invalid signed URL: ${detail}`);
}
