import { readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * A local HTTP server on 127.0.0.1 with a route table, for tests that fetch "the web"
 * without touching the internet. Routes match the exact path (query ignored), or a prefix
 * ending in `*`; unknown paths answer 404. Every request is recorded in `requests`.
 *
 * @example
 * const site = await startFixtureServer({
 *   '/': html('<h1>Hi</h1>'),
 *   '/old': redirect('/'),
 *   '/slow': trickle(['<p>', 'never ends'], { intervalMs: 100, end: false }),
 *   '/files/*': serveDir('test/fixtures/site'),
 *   '/custom': (req, res) => res.end(req.headers['user-agent']),
 * });
 * await fetch(site.url('/old'));
 * await site.close();
 */
export interface FixtureServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly port: number;
  /** Absolute URL of `pathname` on this server. */
  url(pathname: string): string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** How many requests reached `pathname`. */
  hits(pathname: string): number;
  /** Adds or replaces a route while running. */
  route(pattern: string, handler: FixtureHandler): void;
  /** Closes the server and every open connection (slow responses included). */
  close(): Promise<void>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export type FixtureHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export interface StaticOptions {
  status?: number;
  headers?: Record<string, string>;
  /** Compress the body with this encoding and say so in Content-Encoding. */
  encoding?: 'gzip' | 'br' | 'deflate';
}

export async function startFixtureServer(routes: Record<string, FixtureHandler> = {}): Promise<FixtureServer> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture.local');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers });
    const handler = findRoute(table, url.pathname);
    Promise.resolve(handler ? handler(req, res, url) : notFound(res)).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fixture handler failed: ${(err as Error).message}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (pathname) => new URL(pathname, origin).href,
    requests,
    hits: (pathname) => requests.filter((r) => r.path === pathname).length,
    route: (pattern, handler) => void table.set(pattern, handler),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function findRoute(table: Map<string, FixtureHandler>, pathname: string): FixtureHandler | undefined {
  const exact = table.get(pathname);
  if (exact) return exact;
  let best: [string, FixtureHandler] | undefined;
  for (const [pattern, handler] of table) {
    if (!pattern.endsWith('*')) continue;
    const prefix = pattern.slice(0, -1);
    if (pathname.startsWith(prefix) && (!best || prefix.length > best[0].length)) best = [prefix, handler];
  }
  return best?.[1];
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
}

/** A fixed response: body bytes, status, headers, optional compression. */
export function respond(body: string | Buffer, contentType: string, options: StaticOptions = {}): FixtureHandler {
  const raw = typeof body === 'string' ? Buffer.from(body) : body;
  const encoded = options.encoding ? compress(raw, options.encoding) : raw;
  const headers: Record<string, string> = {
    'content-type': contentType,
    'content-length': String(encoded.length),
    ...(options.encoding ? { 'content-encoding': options.encoding } : {}),
    ...options.headers,
  };
  return (_req, res) => {
    res.writeHead(options.status ?? 200, headers);
    res.end(encoded);
  };
}

export const html = (markup: string, options: StaticOptions = {}) =>
  respond(markup, 'text/html; charset=utf-8', options);

/** A redirect to `location` (relative or absolute). */
export function redirect(location: string, status: 301 | 302 | 303 | 307 | 308 = 302): FixtureHandler {
  return (_req, res) => {
    res.writeHead(status, { location, 'content-type': 'text/plain', 'content-length': '0' });
    res.end();
  };
}

/**
 * Sends `chunks` one every `intervalMs`; with `end: false` the response never finishes
 * (until the client gives up or the server closes).
 */
export function trickle(
  chunks: Array<string | Buffer>,
  options: { intervalMs: number; end?: boolean; contentType?: string },
): FixtureHandler {
  return (req, res) => {
    res.writeHead(200, { 'content-type': options.contentType ?? 'text/html; charset=utf-8' });
    let index = 0;
    const timer = setInterval(() => {
      const chunk = chunks[index++];
      if (chunk !== undefined) res.write(chunk);
      else if (options.end !== false) {
        clearInterval(timer);
        res.end();
      }
    }, options.intervalMs);
    req.socket.once('close', () => clearInterval(timer));
  };
}

/** Serves files under `dir` for a `/prefix/*` route; the content type follows the extension. */
export function serveDir(
  dir: string,
  options: { prefix?: string; types?: Record<string, string> } = {},
): FixtureHandler {
  const root = path.resolve(dir);
  return async (_req, res, url) => {
    const relative = decodeURIComponent(url.pathname.slice((options.prefix ?? '').length));
    const file = path.resolve(root, `.${path.sep}${relative}`);
    if (!file.startsWith(root + path.sep)) return notFound(res);
    const body = await readFile(file).catch(() => null);
    if (!body) return notFound(res);
    const type = options.types?.[path.extname(file)] ?? CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'content-length': String(body.length) });
    res.end(body);
  };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.xhtml': 'application/xhtml+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.pdf': 'application/pdf',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.png': 'image/png',
};

function compress(body: Buffer, encoding: 'gzip' | 'br' | 'deflate'): Buffer {
  if (encoding === 'gzip') return zlib.gzipSync(body);
  if (encoding === 'br') return zlib.brotliCompressSync(body);
  return zlib.deflateSync(body);
}
