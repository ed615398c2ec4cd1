import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { Env } from 'hono';
import { AppError, errors } from '../errors.js';
import { attachmentDisposition, mediaTypeOf, payloadTooLarge } from '../storage/blob-store.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { BlobGrant, BlobUrlVerifier } from '../storage/blob-urls.js';
import { contentRange } from '../storage/byte-range.js';
import { readBlobForHttp } from '../storage/serve-blob.js';
import type { BlobReadPlan } from '../storage/serve-blob.js';

/**
 * Signed object URLs of the local blob store: GET and HEAD `/blobs/<key>` (ranges,
 * conditional requests) and PUT `/blobs/<key>` (signed uploads, each URL used once). Mount at the root of the
 * app (`app.route('/', createBlobRoutes(blobs, verifier))`), outside authentication and
 * outside the JSON body-size limit: the signature is the credential and uploads may be large.
 * Failures are thrown as AppErrors for the app's error handler.
 *
 * @example
 * app.route('/', createBlobRoutes(blobs, createBlobUrlVerifier(secret)));
 */
export function createBlobRoutes<E extends Env = Env>(store: BlobStore, verifier: BlobUrlVerifier): Hono<E> {
  const app = new Hono<E>();

  // Hono answers HEAD with this GET handler and drops the body; we skip opening it.
  app.get('/blobs/*', async (c) => {
    const url = new URL(c.req.url);
    const key = keyFromPath(url.pathname);
    const grant = verifier.verify('GET', key, url.searchParams);
    const plan = await readBlobForHttp(store, key, {
      method: c.req.method === 'HEAD' ? 'HEAD' : 'GET',
      range: c.req.header('range'),
      ifRange: c.req.header('if-range'),
      ifNoneMatch: c.req.header('if-none-match'),
    });
    if (!plan) throw errors.notFound('blob', key);
    return toResponse(plan, grant);
  });

  app.put('/blobs/*', async (c) => {
    const url = new URL(c.req.url);
    const key = keyFromPath(url.pathname);
    const grant = verifier.verify('PUT', key, url.searchParams);
    const { contentType, maxBytes } = grant;
    if (contentType === undefined || maxBytes === undefined) throw new Error('upload grant without its limits');
    // Only a store that signs its own upload URLs receives them; no other URL verifies here.
    if (!store.receiveSignedUpload)
      throw new AppError('forbidden', 'signed_url_invalid', 'uploads are not received here');
    const sent = c.req.header('content-type');
    if (sent && !grant.anyContentType && mediaTypeOf(sent) !== mediaTypeOf(contentType)) {
      throw new AppError(
        'validation',
        'content_type_mismatch',
        `this upload URL accepts ${mediaTypeOf(contentType)}, not ${mediaTypeOf(sent)}`,
      );
    }
    // Refuse early when the client announces too much, before reading any of it.
    if (Number(c.req.header('content-length') ?? 0) > maxBytes) throw payloadTooLarge(maxBytes);
    const body = c.req.raw.body ? readableOf(c.req.raw.body) : Buffer.alloc(0);
    const info = await store.receiveSignedUpload(grant, body);
    return c.body(null, 200, { etag: `"${info.etag}"` });
  });

  return app;
}

/** The key from `/blobs/<percent-encoded segments>`; undecodable input cannot carry a valid signature. */
function keyFromPath(pathname: string): string {
  const encoded = pathname.replace(/^\/blobs\//, '');
  try {
    return encoded.split('/').map(decodeURIComponent).join('/');
  } catch {
    throw new AppError('forbidden', 'signed_url_invalid', 'invalid signed URL: the object path is malformed');
  }
}

/** How much of an abandoned upload is read and dropped to keep the connection usable. */
const DISCARD_LIMIT = 16 * 1024 * 1024;

/**
 * The request body as a Node stream. When abandoned (an upload over its limit) the rest of
 * the body is read and dropped, up to DISCARD_LIMIT, rather than cancelled: cancelling resets
 * the connection, so the client would see a broken pipe instead of our 413, and a half-read
 * body would stall the next request on a kept-alive connection.
 */
function readableOf(body: ReadableStream<Uint8Array>): Readable {
  const reader = body.getReader();
  return new Readable({
    read() {
      reader.read().then(
        ({ done, value }) => this.push(done ? null : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
        (err: unknown) => this.destroy(err as Error),
      );
    },
    destroy(err, callback) {
      void discard(reader);
      callback(err);
    },
  });
}

async function discard(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    for (let dropped = 0; dropped <= DISCARD_LIMIT;) {
      const { done, value } = await reader.read();
      if (done) return;
      dropped += value.byteLength;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing left to keep usable.
  }
}

function toResponse(plan: BlobReadPlan, grant: BlobGrant): Response {
  const { info } = plan;
  const headers = new Headers({
    'accept-ranges': 'bytes',
    etag: `"${info.etag}"`,
    'last-modified': info.lastModified.toUTCString(),
    // Cacheable by the client for as long as the URL itself is valid.
    'cache-control': `private, max-age=${Math.max(0, grant.expires - Math.floor(Date.now() / 1000))}`,
    // Hosted HTML is served from the API's origin: never let it run scripts there.
    'content-security-policy': "default-src 'none'; sandbox",
    'x-content-type-options': 'nosniff',
  });
  if (plan.status === 416) {
    headers.set('content-range', `bytes */${info.size}`);
    return new Response(null, { status: 416, headers });
  }
  if (plan.status === 304) return new Response(null, { status: 304, headers });
  headers.set('content-type', info.contentType);
  if (grant.filename !== undefined) headers.set('content-disposition', attachmentDisposition(grant.filename));
  if (plan.range) {
    headers.set('content-range', contentRange(plan.range, info.size));
    headers.set('content-length', String(plan.range.end - plan.range.start + 1));
  } else {
    headers.set('content-length', String(info.size));
  }
  const body = plan.body ? (Readable.toWeb(plan.body) as unknown as ReadableStream<Uint8Array>) : null;
  return new Response(body, { status: plan.status, headers });
}
