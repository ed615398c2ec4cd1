import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ORIGIN_PLACEHOLDER } from './site/page-chrome.js';

export interface StaticSiteOptions {
  /** Directory of a generated site (bench/generate-site.ts). */
  root: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Serve `Content-Encoding: gzip` to clients that accept it (bodies compressed once, at start). */
  gzip?: boolean;
  /** Delay before each response, to stand in for network latency (default 0). */
  delayMs?: number;
}

export interface StaticSite {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  /** Requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

interface Entry {
  body: Buffer;
  gzipped: Buffer | null;
  type: string;
  /** Holds the origin placeholder: bodies are rewritten per Host header (and cached). */
  templated: boolean;
  perHost: Map<string, Buffer>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.gz': 'application/gzip',
  '.txt': 'text/plain; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
};
/** A 1×1 transparent PNG for every `/images/...` URL and the favicon: pages reference images, none are stored. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A static server for the generated site: every file held in memory (so the server costs little
 * CPU next to what it serves), HTTP/1.1 keep-alive, optional gzip, sitemaps and robots.txt with the
 * origin the client used. Reusable by the scrape, batch and crawl benchmarks.
 *
 * @example
 * const site = await startStaticSite({ root: 'bench/site/out' });
 * await fetch(`${site.origin}/robots.txt`);
 * await site.close();
 */
export async function startStaticSite(options: StaticSiteOptions): Promise<StaticSite> {
  const files = await loadFiles(options.root, options.gzip === true);
  let requests = 0;
  const delayMs = options.delayMs ?? 0;
  const server = http.createServer((req, res) => {
    requests += 1;
    const respond = () => serve(files, req, res, options.gzip === true);
    if (delayMs > 0) setTimeout(respond, delayMs);
    else respond();
  });
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function loadFiles(root: string, gzip: boolean): Promise<Map<string, Entry>> {
  const files = new Map<string, Entry>();
  for (const relative of await fs.readdir(root, { recursive: true })) {
    const full = path.join(root, relative);
    if (!(await fs.stat(full)).isFile()) continue;
    const body = await fs.readFile(full);
    const ext = path.extname(full);
    const textual = ext !== '.gz';
    const templated = ext === '.gz' ? gunzipSync(body).includes(ORIGIN_PLACEHOLDER) : body.includes(ORIGIN_PLACEHOLDER);
    files.set(`/${relative.split(path.sep).join('/')}`, {
      body,
      gzipped: gzip && textual && !templated ? gzipSync(body) : null,
      type: TYPES[ext] ?? 'application/octet-stream',
      templated,
      perHost: new Map(),
    });
  }
  return files;
}

function serve(files: Map<string, Entry>, req: http.IncomingMessage, res: http.ServerResponse, gzip: boolean): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-length': 0 }).end();
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://site').pathname);
  } catch {
    res.writeHead(400, { 'content-length': 0 }).end();
    return;
  }
  if (pathname.endsWith('/')) pathname += 'index.html';
  if (pathname.startsWith('/images/') || pathname === '/favicon.ico') {
    send(req, res, 200, { 'content-type': 'image/png', 'cache-control': 'max-age=86400' }, PIXEL);
    return;
  }
  const entry = files.get(pathname);
  if (!entry) {
    send(req, res, 404, { 'content-type': 'text/html; charset=utf-8' }, Buffer.from('<h1>Not found</h1>'));
    return;
  }
  const headers: http.OutgoingHttpHeaders = { 'content-type': entry.type, 'cache-control': 'max-age=300' };
  if (entry.templated) {
    send(req, res, 200, headers, withOrigin(entry, req.headers.host ?? 'localhost'));
  } else if (gzip && entry.gzipped && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    send(req, res, 200, { ...headers, 'content-encoding': 'gzip', vary: 'Accept-Encoding' }, entry.gzipped);
  } else {
    send(req, res, 200, gzip ? { ...headers, vary: 'Accept-Encoding' } : headers, entry.body);
  }
}

function withOrigin(entry: Entry, host: string): Buffer {
  let body = entry.perHost.get(host);
  if (!body) {
    const compressed = entry.type === TYPES['.gz'];
    const text = (compressed ? gunzipSync(entry.body) : entry.body).toString('utf8');
    const replaced = Buffer.from(text.replaceAll(ORIGIN_PLACEHOLDER, `http://${host}`));
    body = compressed ? gzipSync(replaced) : replaced;
    if (entry.perHost.size >= 16) entry.perHost.clear(); // a bound, should clients vary Host
    entry.perHost.set(host, body);
  }
  return body;
}

function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  headers: http.OutgoingHttpHeaders,
  body: Buffer,
): void {
  res.writeHead(status, { ...headers, 'content-length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}
