import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  html,
  redirect,
  respond,
  serveDir,
  startFixtureServer,
  trickle,
  type FixtureHandler,
  type FixtureServer,
} from '../support/fixture-server.js';

export const SITE_DIR = path.resolve(import.meta.dirname, '../fixtures/site');

/** Response size limit the contract engines are built with; `/large` pages exceed it. */
export const CONTRACT_MAX_BYTES = 256 * 1024;

const file = (name: string) => readFileSync(path.join(SITE_DIR, name));
const article = file('article.html');

/**
 * The fixture site every engine's contract runs against. Charset pages are served with
 * exactly the Content-Type each case needs (header, meta only, BOM against a wrong header).
 */
export function startContractSite(): Promise<FixtureServer> {
  const routes: Record<string, FixtureHandler> = {
    '/article.html': respond(article, 'text/html; charset=utf-8'),
    '/status/404': html('<!doctype html><title>Missing</title><h1>Page not found here</h1>', { status: 404 }),
    '/status/500': html('<!doctype html><title>Broken</title><h1>Server exploded</h1>', { status: 500 }),
    '/charset/shift-jis-header': respond(file('shift-jis-header.html'), 'text/html; charset=Shift_JIS'),
    '/charset/shift-jis-meta': respond(file('shift-jis-meta.html'), 'text/html'),
    '/charset/windows-1251-meta': respond(file('windows-1251-meta.html'), 'text/html'),
    '/charset/bom-beats-header': respond(file('utf8-bom.html'), 'text/html; charset=windows-1252'),
    '/charset/xml-declaration': respond(file('windows-1251.xml'), 'application/xml'),
    '/charset/undeclared': respond(file('undeclared-utf8.html'), 'text/html'),
    '/encoding/gzip': respond(article, 'text/html; charset=utf-8', { encoding: 'gzip' }),
    '/encoding/br': respond(article, 'text/html; charset=utf-8', { encoding: 'br' }),
    '/encoding/deflate': respond(article, 'text/html; charset=utf-8', { encoding: 'deflate' }),
    '/large/declared': respond(Buffer.alloc(CONTRACT_MAX_BYTES * 4, 'a'), 'text/html'),
    '/large/streamed': trickle(largeChunks(), { intervalMs: 1 }),
    '/large/gzip-bomb': respond(zlib.gzipSync(Buffer.alloc(CONTRACT_MAX_BYTES * 40, ' ')), 'text/html', {
      headers: { 'content-encoding': 'gzip' },
    }),
    '/slow/never-ends': trickle(['<!doctype html><p>first bytes', ' and then'], { intervalMs: 200, end: false }),
    '/loop': redirect('/loop', 302),
    '/site/*': serveDir(SITE_DIR, { prefix: '/site/' }),
  };
  // /chain/5 → /chain/4 → … → /chain/0 → /article.html, mixing statuses and absolute/relative forms.
  const statuses = [301, 302, 303, 307, 308] as const;
  for (let n = 1; n <= 12; n++) {
    routes[`/chain/${n}`] = (req, res) => {
      const target = n % 2 === 0 ? `http://${req.headers.host}/chain/${n - 1}` : `/chain/${n - 1}`;
      return redirect(target, statuses[n % statuses.length])(req, res, new URL(target, 'http://x'));
    };
  }
  routes['/chain/0'] = redirect('/article.html', 301);
  return startFixtureServer(routes);
}

/** 1 MiB in 64 KiB pieces without a Content-Length, so only counting the stream catches it. */
function largeChunks(): Buffer[] {
  return Array.from({ length: 16 }, () => Buffer.alloc(64 * 1024, 'b'));
}
