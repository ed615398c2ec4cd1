import type { Context } from 'hono';
import { errors } from '../errors.js';
import { payloadTooLarge } from './middleware/body-limit.js';
import type { AppEnv } from './env.js';

/**
 * The raw request body as text, read once and cached (the idempotency middleware hashes it,
 * the route parses it), never more than the body limit.
 */
export async function readRawBody(c: Context<AppEnv>): Promise<string> {
  const cached = c.get('rawBody');
  if (cached !== undefined) return cached;
  const limit = c.get('bodyLimit') ?? Number.POSITIVE_INFINITY;
  // A declared length was checked against the limit (body-limit.ts) and Node's parser reads
  // exactly that many bytes: read it whole, which @hono/node-server does straight from the
  // socket, without building the web Request and stream that `.body` needs (~0.3 ms a request).
  if (c.req.header('content-length') !== undefined && c.req.header('transfer-encoding') === undefined) {
    const text = await c.req.raw.text();
    c.set('rawBody', text);
    return text;
  }
  const stream = c.req.raw.body;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (stream) {
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw payloadTooLarge(limit); // a chunked body has no length to check up front
      }
      chunks.push(read.value);
    }
  }
  const text = Buffer.concat(chunks, size).toString('utf8');
  c.set('rawBody', text);
  return text;
}

/**
 * The JSON body, or `undefined` when there is none. Malformed JSON is a 400 naming where it broke.
 * The Content-Type is not enforced: `curl -d` sends form-urlencoded by default, and the body
 * is JSON whatever the header says.
 */
export async function readJsonBody(c: Context<AppEnv>): Promise<unknown> {
  const text = await readRawBody(c);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
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
