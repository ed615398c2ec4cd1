import net from 'node:net';
import { Server as ProxyServer } from 'proxy-chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpEngine } from '../../engines/http/http.engine.js';
import type { PlaywrightEngine } from '../../engines/playwright/playwright.engine.js';
import { createOutboundGuard } from '../../src/engine/outbound-guard.js';
import { createProxyPool, parseProxyList } from '../../src/engine/proxy-pool.js';
import { createEngineRegistry, type EngineRegistry } from '../../src/engine/registry.js';
import { requiredCapabilities } from '../../src/engine/selection.js';
import type { PageRequest, ProxyChoice, ScrapeEngine } from '../../src/engine/types.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { createTestResolver, expectFailure } from './engine.contract.js';
import {
  FETCH_BUDGET_MS,
  makeEngine,
  pngSize,
  startJsSite,
  startSecretServer,
  type SecretServer,
} from './playwright-support.js';

/**
 * Proxies for both engines, through real local forward proxies (proxy-chain) that record what
 * passed through them: country selection, rotation away from a dead proxy, credentials, and the
 * outbound guard still applying in front of a proxy.
 */
describe('proxies and country, for both engines', () => {
  let site: FixtureServer;
  let secret: SecretServer;
  let usProxy: ProxyServer;
  let anyProxy: ProxyServer;
  let deadPort: number;
  let http: ScrapeEngine;
  let browser: PlaywrightEngine;
  let registry: EngineRegistry;
  const seen: { proxy: string; target: string; user: string }[] = [];
  const dns = createTestResolver({ 'internal.test': [['127.0.0.1']] });

  const recordingProxy = async (name: string, credentials?: { user: string; pass: string }) => {
    const proxy = new ProxyServer({
      port: 0,
      host: '127.0.0.1',
      prepareRequestFunction: ({ hostname, port, username, password }) => {
        if (credentials && (username !== credentials.user || password !== credentials.pass)) {
          return { requestAuthentication: true };
        }
        seen.push({ proxy: name, target: `${hostname}:${port}`, user: username });
        return {};
      },
    });
    await proxy.listen();
    return proxy;
  };
  const through = (name: string) => seen.filter((s) => s.proxy === name).map((s) => s.target);

  beforeAll(async () => {
    site = await startJsSite();
    secret = await startSecretServer();
    usProxy = await recordingProxy('us', { user: 'alice', pass: 's3cr#t' });
    anyProxy = await recordingProxy('any');
    const dead = net.createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    deadPort = (dead.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    const policy = { allowPrivate: false, denyDomains: [], allowAddresses: [`127.0.0.1:${site.port}`] };
    http = createHttpEngine({
      guard: createOutboundGuard(policy, { resolve: dns }),
      connectTimeoutMs: 2000,
      maxResponseBytes: 1 << 20,
    });
    browser = makeEngine(policy, { resolve: dns });
    registry = createEngineRegistry([http, browser]);
  });
  afterAll(async () => {
    await registry?.stop();
    await usProxy?.close(true);
    await anyProxy?.close(true);
    await site?.close();
    await secret?.close();
  });

  const pool = () =>
    createProxyPool(
      parseProxyList([
        `http://127.0.0.1:${deadPort}#us`,
        `http://alice:s3cr%23t@127.0.0.1:${usProxy.port}#us|ca`,
        `http://127.0.0.1:${anyProxy.port}`,
      ]),
    );
  const scrape = (country: string | null, path: string, browserSettings?: PageRequest['browser'], proxies = pool()) =>
    proxies.run(country, (proxy: ProxyChoice | null) => {
      const req: PageRequest = { url: site.url(path), timeoutMs: FETCH_BUDGET_MS, proxy, browser: browserSettings };
      return registry.fetch(req, { needs: requiredCapabilities(req), signal: new AbortController().signal });
    });

  it('http engine: a country picks its proxy, and a dead proxy is rotated away', async () => {
    seen.length = 0;
    const { value, proxy, warnings } = await scrape('us', '/reveal.html');
    expect(value.snapshot.engine).toBe('http');
    expect(value.snapshot.text).toContain('Opening hours');
    expect(proxy).toEqual({ url: `http://alice:s3cr%23t@127.0.0.1:${usProxy.port}`, country: 'US' });
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`^proxy http://127\\.0\\.0\\.1:${deadPort} failed \\(.*\\); retried through another proxy$`),
      ),
    ]);
    expect(through('us')).toEqual([`127.0.0.1:${site.port}`]);
    expect(seen.every((s) => s.user === 'alice')).toBe(true);
  });

  it('playwright engine: the document and everything the page loads go through the country proxy', async () => {
    seen.length = 0;
    const { value } = await scrape('CA', '/app.html', { screenshot: { fullPage: false } });
    expect(value.snapshot.engine).toBe('playwright');
    expect(value.snapshot.text).toContain('Boats return early');
    expect(pngSize(value.snapshot.screenshot)).toEqual({ width: 1024, height: 768 });
    // The document (http engine inside) and the subresources (Chromium via the guard proxy, chained).
    expect(through('us').length).toBeGreaterThanOrEqual(3);
    expect(new Set(through('us'))).toEqual(new Set([`127.0.0.1:${site.port}`]));
    expect(through('any')).toEqual([]);
  });

  it('without a proxy for the country, runs through a general proxy and warns that geo-routing was not applied', async () => {
    seen.length = 0;
    const { value, warnings } = await scrape('fr', '/app.html', { waitBeforeMs: 1 });
    expect(value.snapshot.text).toContain('Boats return early');
    expect(warnings).toEqual(['no proxy for country FR; geo-routing was not applied']);
    expect(through('any').length).toBeGreaterThanOrEqual(3);
    expect(through('us')).toEqual([]);
  });

  it('without any proxy, goes direct with the same warning', async () => {
    seen.length = 0;
    const { value, proxy, warnings } = await scrape('de', '/reveal.html', undefined, createProxyPool([]));
    expect(value.snapshot.statusCode).toBe(200);
    expect(proxy).toBeNull();
    expect(warnings).toEqual(['no proxy for country DE; geo-routing was not applied']);
    expect(seen).toEqual([]);
  });

  it('still applies the outbound guard in front of a proxy (the proxy never sees a refused target)', async () => {
    seen.length = 0;
    const target = `http://internal.test:${secret.port}/admin`;
    for (const engine of [http, browser]) {
      const err = await expectFailure(
        engine.fetchPage(
          { url: target, timeoutMs: 5000, proxy: { url: `http://127.0.0.1:${anyProxy.port}` } },
          new AbortController().signal,
        ),
      );
      expect(err).toMatchObject({ status: 403, code: 'blacklisted_domain' });
    }
    expect(seen).toEqual([]);
    expect(secret.connections()).toBe(0);
  });
});
