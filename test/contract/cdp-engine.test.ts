import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure } from '../../engines/cdp/cdp-connection.js';
import { createCdpEngine, type CdpEngineOptions } from '../../engines/cdp/cdp.engine.js';
import type { BrowserEngine } from '../../engines/playwright/browser-engine.js';
import { EngineFallbackError } from '../../src/engine/errors.js';
import { createOutboundGuard, type OutboundPolicy } from '../../src/engine/outbound-guard.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startRemoteChromium, type RemoteChromium } from '../support/remote-chromium.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { describeBrowserGuard } from './browser-guard.contract.js';
import { describeEngineContract } from './engine.contract.js';
import { fetchWith } from './playwright-support.js';

// The cdp engine against a real remote browser: Debian's Chromium started on its own with
// --remote-debugging-port on 127.0.0.1, reached over the DevTools protocol.

let chrome: RemoteChromium;
beforeAll(async () => {
  chrome = await startRemoteChromium();
}, 90_000);
afterAll(async () => chrome?.kill());

function makeCdpEngine(policy: Partial<OutboundPolicy> = {}, options: Partial<CdpEngineOptions> = {}): BrowserEngine {
  return createCdpEngine({
    guard: createOutboundGuard({ allowPrivate: true, denyDomains: [], ...policy }),
    url: chrome.url,
    connectTimeoutMs: 2000,
    maxResponseBytes: 4 << 20,
    poolSize: 2,
    ...options,
  });
}

// Every proxy session asks for its own credentials here, as on a network other machines reach.
describeEngineContract(
  'cdp',
  (env) => createCdpEngine({ ...env, url: chrome.url, poolSize: 2, proxy: { credentials: true } }),
  { budgetMs: 20_000 },
);

// The remote browser runs on 127.0.0.1 beside the secret server: only the guard proxy keeps it away.
describeBrowserGuard('cdp', async (policy, resolve) =>
  createCdpEngine({
    guard: createOutboundGuard({ allowPrivate: true, denyDomains: [], ...policy }, { resolve }),
    url: chrome.url,
    connectTimeoutMs: 2000,
    maxResponseBytes: 4 << 20,
    poolSize: 2,
  }),
);

describe('the cdp engine', () => {
  let site: FixtureServer;
  beforeAll(async () => {
    site = await startFixtureServer({
      '/scripted.html': html(
        '<title>Scripted</title><div id="out"></div><script>document.getElementById("out").textContent = "rendered by " + navigator.userAgent.includes("Chrome");</script>',
      ),
    });
  });
  afterAll(async () => site?.close());

  it('connects on start, renders with the remote browser, and says so in its state and snapshots', async () => {
    const engine = makeCdpEngine();
    try {
      await engine.start();
      const page = await fetchWith(engine, site.url('/scripted.html'), { screenshot: { fullPage: false } });
      expect(page.engine).toBe('cdp');
      expect(page.text).toContain('rendered by true');
      expect(page.screenshot?.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(engine.state()).toEqual({ status: 'ready', detail: null });
      expect(engine.stats()).toMatchObject({ launches: 1, pid: null });
    } finally {
      await engine.stop();
    }
    // Stopping disconnects; the remote browser is its operator's and keeps running.
    const again = makeCdpEngine();
    try {
      expect((await fetchWith(again, site.url('/scripted.html'))).text).toContain('rendered by true');
    } finally {
      await again.stop();
    }
  });

  it('connects again when the remote browser goes away and comes back', async () => {
    const first = await startRemoteChromium();
    let second: RemoteChromium | null = null;
    const forwarder: TcpProxy = await startTcpProxy({ host: '127.0.0.1', port: first.port });
    const engine = makeCdpEngine({}, { url: `http://127.0.0.1:${forwarder.port}` });
    try {
      expect((await fetchWith(engine, site.url('/scripted.html'))).engine).toBe('cdp');
      await first.kill();
      // Reconnecting fails while nothing answers: the engine says so and pages fall back at once.
      await waitFor(() => engine.state().status === 'failing');
      expect(engine.state().detail).toMatch(/^the remote browser could not be reached/);
      const refused = await fetchWith(engine, site.url('/scripted.html')).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(EngineFallbackError);
      expect((refused as EngineFallbackError).reason).toMatch(/^the remote browser is not available: /);
      second = await startRemoteChromium();
      forwarder.retarget({ host: '127.0.0.1', port: second.port });
      // Tried again in the background (1 s, doubling), without a page asking.
      await waitFor(() => engine.state().status === 'ready');
      const page = await fetchWith(engine, site.url('/scripted.html'));
      expect(page.text).toContain('rendered by true');
      expect(engine.stats().launches).toBe(2);
    } finally {
      await engine.stop();
      await forwarder.close();
      await first.kill();
      await second?.kill();
    }
  });

  it('does not use a remote browser that cannot reach its guard proxy, and says how to fix it', async () => {
    // The proxy listens on 127.0.0.1; the browser is told to find it at 127.0.0.2, where nothing listens.
    const engine = makeCdpEngine({}, { proxy: { listenHost: '127.0.0.1', advertisedHost: '127.0.0.2' } });
    const before = site.hits('/scripted.html');
    try {
      const err = await fetchWith(engine, site.url('/scripted.html')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngineFallbackError);
      expect((err as EngineFallbackError).reason).toMatch(
        /the remote browser cannot reach this service's guard proxy.*set BROWSER_CDP_PROXY_HOST/,
      );
      expect(engine.state()).toMatchObject({ status: 'failing', detail: expect.stringMatching(/guard proxy/) });
      // Refused before the document was fetched.
      expect(site.hits('/scripted.html')).toBe(before);
    } finally {
      await engine.stop();
    }
  });

  it('never shows the token of its URL or the address it could not reach', async () => {
    const engine = makeCdpEngine({}, { url: 'ws://127.0.0.1:9/devtools/browser/x?token=cdp-secret-42' });
    try {
      const err = await fetchWith(engine, site.url('/scripted.html')).catch((e: unknown) => e);
      const reason = (err as EngineFallbackError).reason;
      expect(reason).toMatch(/^the remote browser is not available: the remote browser could not be reached \(/);
      for (const text of [reason, engine.state().detail ?? '']) {
        expect(text).not.toContain('cdp-secret-42');
        expect(text).not.toContain('127.0.0.1');
      }
    } finally {
      await engine.stop();
    }
    const described = describeFailure(
      new Error(
        'browserType.connectOverCDP: Unexpected status 401 when connecting to http://bob:pw42@10.1.2.3:3000/json/version/?token=t0k.',
      ),
      'http://bob:pw42@10.1.2.3:3000/?token=t0k',
    );
    expect(described).toMatch(/^Unexpected status 401 when connecting to /);
    for (const secret of ['bob', 'pw42', '10.1.2.3', '3000', 't0k']) expect(described).not.toContain(secret);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}
