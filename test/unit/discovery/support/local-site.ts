import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

/**
 * A small site on 127.0.0.1 for discovery tests: exact-path routes, everything else 404.
 * Every request is recorded (path and Host header) so tests can assert what was fetched.
 */
export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface LocalSite {
  readonly origin: string;
  readonly port: number;
  url(path: string): string;
  readonly requests: { path: string; host: string }[];
  hits(path: string): number;
  route(path: string, handler: Route): void;
  close(): Promise<void>;
}

export async function startLocalSite(routes: Record<string, Route> = {}): Promise<LocalSite> {
  const table = new Map(Object.entries(routes));
  const requests: { path: string; host: string }[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push({ path, host: req.headers.host ?? '' });
    const handler = table.get(path);
    if (handler === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Not found</title>');
    } else handler(req, res);
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
    url: (path) => new URL(path, origin).href,
    requests,
    hits: (path) => requests.filter((r) => r.path === path).length,
    route: (path, handler) => void table.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A fixed answer. */
export function send(body: string | Buffer, contentType = 'application/xml', status = 200): Route {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return (_req, res) => {
    res.writeHead(status, { 'content-type': contentType, 'content-length': String(bytes.length) });
    res.end(bytes);
  };
}

/** A gzip file (not Content-Encoding: the bytes on the wire are the .gz file). */
export function sendGzip(body: string): Route {
  return send(gzipSync(Buffer.from(body)), 'application/gzip');
}

export function redirectTo(location: string, status = 301): Route {
  return (_req, res) => {
    res.writeHead(status, { location, 'content-length': '0' });
    res.end();
  };
}

/** Answers after `ms` (or never, when the client gives up first). */
export function delayed(ms: number, inner: Route): Route {
  return (req, res) => {
    const timer = setTimeout(() => inner(req, res), ms);
    req.socket.once('close', () => clearTimeout(timer));
  };
}

export function urlset(urls: readonly string[], lastmod?: string): string {
  const rows = urls.map(
    (u) => `<url><loc>${u}</loc>${lastmod === undefined ? '' : `<lastmod>${lastmod}</lastmod>`}</url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${rows.join('\n')}\n</urlset>\n`;
}

export function sitemapIndex(locs: readonly string[]): string {
  const rows = locs.map((u) => `<sitemap><loc>${u}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${rows.join('\n')}\n</sitemapindex>\n`;
}
