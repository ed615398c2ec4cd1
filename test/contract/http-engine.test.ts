import http from 'node:http';
import net from 'node:net';
import { Server as ProxyServer } from 'proxy-chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpEngine } from '../../engines/http/http.engine.js';
import { EngineFallbackError } from '../../src/engine/errors.js';
import { createOutboundGuard } from '../../src/engine/outbound-guard.js';
import type { ScrapeEngine } from '../../src/engine/types.js';
import { html, redirect, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { createTestResolver, describeEngineContract, expectFailure } from './engine.contract.js';

describeEngineContract('http', (env) => createHttpEngine(env));

describe('http engine specifics', () => {
  let site: FixtureServer;
  let other: FixtureServer;
  let proxy: ProxyServer;
  const proxied: string[] = [];
  const dns = createTestResolver({ 'internal.test': [['127.0.0.1']] });
  const engines: ScrapeEngine[] = [];
  const make = (options: { userAgent?: string; allowAddresses?: string[] } = {}) => {
    const guard = createOutboundGuard(
      { allowPrivate: !options.allowAddresses, denyDomains: [], allowAddresses: options.allowAddresses },
      { resolve: dns },
    );
    const engine = createHttpEngine({
      guard,
      connectTimeoutMs: 2000,
      maxResponseBytes: 1 << 20,
      userAgent: options.userAgent,
    });
    engines.push(engine);
    return engine;
  };
  const get = (engine: ScrapeEngine, url: string, extra: { headers?: Record<string, string>; proxy?: string } = {}) =>
    engine.fetchPage(
      { url, timeoutMs: 5000, headers: extra.headers, proxy: extra.proxy ? { url: extra.proxy } : null },
      new AbortController().signal,
    );

  beforeAll(async () => {
    site = await startFixtureServer({ '/': html('<p>home</p>') });
    other = await startFixtureServer({ '/landing': html('<p>landing</p>') });
    site.route('/same-origin', redirect('/'));
    site.route('/cross-origin', redirect(other.url('/landing')));
    proxy = new ProxyServer({
      port: 0,
      host: '127.0.0.1',
      prepareRequestFunction: ({ hostname, port }) => {
        proxied.push(`${hostname}:${port}`);
        return {};
      },
    });
    await proxy.listen();
  });
  afterAll(async () => {
    for (const engine of engines) await engine.stop?.();
    await proxy.close(true);
    await site.close();
    await other.close();
  });

  it('sends realistic browser headers, rotating among a pool', async () => {
    const engine = make();
    for (let i = 0; i < 4; i++) await get(engine, site.url('/'));
    const sent = site.requests.slice(-4).map((r) => r.headers);
    for (const headers of sent) {
      expect(headers['user-agent']).toMatch(/^Mozilla\/5\.0 /);
      expect(headers['accept-language']).toMatch(/en/);
      expect(headers['accept-encoding']).toBe('gzip, deflate, br');
    }
  });

  it('uses the operator user agent when configured, and request headers win', async () => {
    const engine = make({ userAgent: 'GleanerBot/1.0' });
    await get(engine, site.url('/'), { headers: { 'X-Trace': 'abc', 'Accept-Language': 'de-DE' } });
    const headers = site.requests.at(-1)!.headers;
    expect(headers['user-agent']).toBe('GleanerBot/1.0');
    expect(headers['sec-ch-ua']).toBeUndefined();
    expect(headers['x-trace']).toBe('abc');
    expect(headers['accept-language']).toBe('de-DE');
  });

  it('keeps credentials on same-origin redirects and drops them across origins', async () => {
    const engine = make();
    const secrets = { authorization: 'Bearer s3cret', cookie: 'session=1' };
    await get(engine, site.url('/same-origin'), { headers: secrets });
    expect(site.requests.at(-1)!.headers.authorization).toBe('Bearer s3cret');
    const page = await get(engine, site.url('/cross-origin'), { headers: secrets });
    expect(page.finalUrl).toBe(other.url('/landing'));
    const landing = other.requests.at(-1)!.headers;
    expect(landing.authorization).toBeUndefined();
    expect(landing.cookie).toBeUndefined();
  });

  it('goes through the requested proxy', async () => {
    const engine = make();
    const before = proxied.length;
    const page = await get(engine, site.url('/'), { proxy: `http://127.0.0.1:${proxy.port}` });
    expect(page.text).toBe('<p>home</p>');
    expect(proxied.slice(before)).toEqual([`127.0.0.1:${site.port}`]);
  });

  it('checks the target before handing it to a proxy (the proxy resolves it, not us)', async () => {
    const engine = make({ allowAddresses: [`127.0.0.1:${site.port}`] });
    const before = proxied.length;
    const landingHits = other.hits('/landing');
    const err = await expectFailure(
      get(engine, `http://internal.test:${other.port}/landing`, { proxy: `http://127.0.0.1:${proxy.port}` }),
    );
    expect(err).toMatchObject({ status: 403, code: 'blacklisted_domain' });
    expect(proxied.length).toBe(before);
    expect(other.hits('/landing')).toBe(landingHits);
  });

  it('gives up connecting after the connect timeout (504), within the total budget', async () => {
    // A TCP server that accepts but never answers the TLS handshake.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const guard = createOutboundGuard({ allowPrivate: true, denyDomains: [] });
      const engine = createHttpEngine({ guard, connectTimeoutMs: 300, maxResponseBytes: 1 << 20 });
      engines.push(engine);
      const started = Date.now();
      const err = await expectFailure(
        engine.fetchPage({ url: `https://127.0.0.1:${port}/`, timeoutMs: 10_000 }, new AbortController().signal),
      );
      expect(err).toMatchObject({ status: 504, code: 'request_timeout' });
      expect(err.detail).toMatch(/could not connect to 127\.0\.0\.1:\d+ within 300 ms/);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      silent.close();
    }
  });

  it('falls back for proxy schemes it cannot speak', async () => {
    const engine = make();
    const err = await get(engine, site.url('/'), { proxy: 'socks5://127.0.0.1:1080' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineFallbackError);
  });

  it('sends the GET again when a kept-alive connection was closed as it was reused, not when a fresh one was', async () => {
    // A server that drops the second request of every connection without answering: what a
    // client sees when the server's keep-alive timeout fires just as the connection is reused.
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      const socket = req.socket as net.Socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      seen.push(`${req.url} #${socket.served}`);
      if (socket.served > 1 || req.url === '/always-dropped') return void socket.destroy();
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>page ${req.url}</p>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    try {
      const engine = make();
      expect((await get(engine, `${origin}/a`)).text).toContain('page /a');
      expect((await get(engine, `${origin}/b`)).text).toContain('page /b');
      expect(seen).toEqual(['/a #1', '/b #2', '/b #1']);
      const err = await expectFailure(get(engine, `${origin}/always-dropped`));
      expect(err).toMatchObject({ status: 502, code: 'upstream_error' });
      expect(err.detail).toMatch(/closed the connection \(ECONNRESET\)/);
      // Sent on the connection /b left open (dropped, so sent again), then on a fresh one: final.
      expect(seen.filter((s) => s.startsWith('/always-dropped'))).toEqual(['/always-dropped #2', '/always-dropped #1']);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
