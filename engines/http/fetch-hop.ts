import type { IncomingHttpHeaders } from 'node:http';
import { gotScraping, TransformHeadersAgent, type GotScraping } from 'got-scraping';
import { errors } from '../../src/errors.js';
import type { GuardedAgents } from '../../src/engine/guarded-agents.js';

/** Redirect bodies are read (so the socket can be reused) only when this small. */
const REDIRECT_BODY_BYTES = 64 * 1024;

export interface HopResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface HopOptions {
  headers: Record<string, string>;
  signal: AbortSignal;
  /** Upstream proxy (`http://user:pass@host:port`); got-scraping then connects through its own agents. */
  proxyUrl?: string;
  maxBytes: number;
}

/**
 * A got-scraping client for single hops: no redirects followed (the engine follows them so the
 * guard sees every one), no retries, HTTP/1.1 over the guarded keep-alive agents, got-scraping's
 * header ordering and TLS fingerprint, its own header generator off (see browser-headers.ts).
 */
export function createHopClient(agents: GuardedAgents, connectTimeoutMs: number): GotScraping {
  return gotScraping.extend({
    http2: false,
    followRedirect: false,
    retry: { limit: 0 },
    throwHttpErrors: false,
    decompress: true,
    timeout: { connect: connectTimeoutMs, secureConnect: connectTimeoutMs },
    agent: {
      http: new TransformHeadersAgent(agents.http),
      https: new TransformHeadersAgent(agents.https),
    },
    context: { useHeaderGenerator: false },
  });
}

/** Attempts of one hop whose kept-alive connection turned out to be closed by the server. */
const STALE_SOCKET_ATTEMPTS = 3;

/**
 * Sends one GET and reads the body, aborting as soon as it grows past `maxBytes`. A kept-alive
 * connection the server closed while it sat idle (its keep-alive timeout raced our reuse) fails
 * with ECONNRESET or EPIPE before any response: the GET is sent again, as browsers do, on
 * another connection. A fresh connection failing that way is the server's answer and is final.
 */
export async function fetchHop(client: GotScraping, url: URL, options: HopOptions): Promise<HopResponse> {
  for (let attempt = 1; ; attempt++) {
    const stream = client.stream(url, {
      headers: options.headers,
      signal: options.signal,
      ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
    });
    let answered = false;
    stream.once('response', () => (answered = true));
    try {
      return await readHop(stream, url, options);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const stale = stream.reusedSocket === true && !answered && (code === 'ECONNRESET' || code === 'EPIPE');
      if (!stale || attempt >= STALE_SOCKET_ATTEMPTS || options.signal.aborted) throw err;
    }
  }
}

async function readHop(stream: ReturnType<GotScraping['stream']>, url: URL, options: HopOptions): Promise<HopResponse> {
  try {
    const response = await new Promise<{ statusCode: number; headers: IncomingHttpHeaders }>((resolve, reject) => {
      stream.once('response', resolve);
      stream.once('error', reject);
    });
    const headers = flattenHeaders(response.headers);
    const declared = Number(headers['content-length'] ?? NaN);
    const isRedirect = response.statusCode >= 300 && response.statusCode < 400 && headers.location !== undefined;
    if (isRedirect && !(declared <= REDIRECT_BODY_BYTES)) {
      stream.destroy();
      return { statusCode: response.statusCode, headers, body: Buffer.alloc(0) };
    }
    if (declared > options.maxBytes) throw tooLarge(url, options.maxBytes, `declares ${declared} bytes`);
    const body = await readLimited(stream, url, isRedirect ? REDIRECT_BODY_BYTES : options.maxBytes);
    return { statusCode: response.statusCode, headers, body };
  } finally {
    if (!stream.destroyed && !stream.readableEnded) stream.destroy();
  }
}

async function readLimited(stream: AsyncIterable<Buffer>, url: URL, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    // Counted after decompression, so a small gzip bomb is caught too.
    if (size > maxBytes) throw tooLarge(url, maxBytes, 'kept sending');
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
}

function tooLarge(url: URL, maxBytes: number, how: string) {
  return errors.upstream(
    `response from ${url.host} is larger than the ${maxBytes}-byte limit (${how}); download stopped`,
  );
}

/** Lowercase names, repeated headers joined (`set-cookie` with newlines, others with commas). */
function flattenHeaders(raw: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  }
  return headers;
}
