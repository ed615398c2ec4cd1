import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { errors } from '../errors.js';
import { payloadTooLarge } from './middleware/body-limit.js';
import type { AppEnv } from './env.js';

/**
 * The client closed the connection before it sent the whole body: nobody is left to answer,
 * and nothing went wrong on this side (the error handler logs it as such).
 */
export class ClientAbortError extends Error {
  constructor(cause?: unknown) {
    super('the client closed the connection before sending the whole request body', { cause });
    this.name = 'ClientAbortError';
  }
}

/**
 * The raw request body as text, read once and cached (the idempotency middleware hashes it,
 * the route parses it), never more than the body limit. A request that declares no body
 * (neither Content-Length nor Transfer-Encoding) is not read at all.
 */
export async function readRawBody(c: Context<AppEnv>): Promise<string> {
  const cached = c.get('rawBody');
  if (cached !== undefined) return cached;
  const limit = c.get('bodyLimit') ?? Number.POSITIVE_INFINITY;
  const incoming = c.env?.incoming;
  const text = incoming ? await readIncoming(incoming, limit) : await readWebBody(c.req.raw, limit);
  c.set('rawBody', text);
  return text;
}

/**
 * Reads the body straight from Node's request (no web Request or stream is built: ~0.3 ms a
 * request). Over the limit it stops and pauses the request, so that the 413 can read and
 * discard the rest before closing (oversized-body.ts) instead of resetting the connection.
 */
function readIncoming(incoming: IncomingMessage, limit: number): Promise<string> {
  const declared = incoming.headers['content-length'];
  if ((declared === undefined || declared === '0') && incoming.headers['transfer-encoding'] === undefined) {
    return Promise.resolve('');
  }
  if (incoming.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (fn: () => void) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      fn();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        incoming.pause(); // a chunked body has no length to check up front
        settle(() => reject(payloadTooLarge(limit)));
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks, size).toString('utf8')));
    const onError = (err: NodeJS.ErrnoException) =>
      settle(() => reject(err.code === 'ECONNRESET' ? new ClientAbortError(err) : err));
    const onClose = () => settle(() => reject(new ClientAbortError()));
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** The body of a web Request (requests made in-process with `app.request`). */
async function readWebBody(request: Request, limit: number): Promise<string> {
  const stream = request.body;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (stream) {
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw payloadTooLarge(limit);
      }
      chunks.push(read.value);
    }
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/**
 * The JSON body, or `undefined` when there is none (an SDK's `null` body counts as none).
 * Malformed JSON is a 400 naming where it broke. The Content-Type is not enforced: `curl -d`
 * sends form-urlencoded by default, and the body is JSON whatever the header says.
 */
export async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  const text = await readRawBody(c);
  if (text.trim() === '') return undefined;
  try {
    // JSON.parse does not recurse on the stack: a 100,000-deep body parses, and the depth
    // rule of parseInput (src/input-rules.ts) refuses it before anything walks it recursively.
    return (JSON.parse(text) as unknown) ?? undefined;
  } catch (err) {
    throw errors.validation(`body: not valid JSON (${(err as Error).message})`);
  }
}

/**
 * Query parameters with repeated keys gathered into arrays and a trailing `[]` stripped,
 * so `formats=a&formats=b`, `formats[]=a` and `formats=a,b` all reach the schema.
 */
export function readQuery(c: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [rawKey, value] of new URL(c.req.url).searchParams) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    const prev = out[key];
    if (prev === undefined) out[key] = rawKey.endsWith('[]') ? [value] : value;
    else out[key] = Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
