import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboundPolicy, Resolver } from '../../src/engine/outbound-guard.js';
import type { ScrapeEngine } from '../../src/engine/types.js';
import { html, redirect, type FixtureServer } from '../support/fixture-server.js';
import { createTestResolver, expectFailure } from './engine.contract.js';
import { fetchWith, startJsSite, startSecretServer, type SecretServer } from './playwright-support.js';

/** Makes the browser engine under test with this outbound policy and DNS. */
export type MakeBrowserEngine = (policy: Partial<OutboundPolicy>, resolve: Resolver) => Promise<ScrapeEngine>;

/**
 * A page on an allowed host tries every way a browser has to reach a loopback, private or
 * metadata address. The secret server counts TCP connections, so nothing (an HTTP request, a
 * WebSocket upgrade, a CONNECT tunnel) may reach it. Every browser engine runs it: the local one
 * (playwright-guard.test.ts) and the remote one, whose browser could reach 127.0.0.1 itself
 * (cdp-engine.test.ts).
 *
 * @example
 * describeBrowserGuard('playwright', async (policy, resolve) => makeEngine(policy, { resolve }));
 */
export function describeBrowserGuard(name: string, makeEngine: MakeBrowserEngine): void {
  describe(`the outbound guard covers everything the ${name} browser loads`, () => {
    let site: FixtureServer;
    let secret: SecretServer;
    let engine: ScrapeEngine;
    const dns = createTestResolver({
      'fixture.test': [['127.0.0.1']],
      'internal.test': [['127.0.0.1']],
      localhost: [['127.0.0.1']],
      'rebind-sub.test': [['93.184.216.34'], ['127.0.0.1']],
    });

    beforeAll(async () => {
      secret = await startSecretServer();
      const s = secret.port;
      site = await startJsSite({
        '/hostile.html': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Hostile</title>
          <p id="visible">Guarded page</p><p id="named"></p>
          <img src="http://127.0.0.1:${s}/img"><img src="http://[::ffff:127.0.0.1]:${s}/img6">
          <script src="http://internal.test:${s}/script.js"></script>
          <link rel="stylesheet" href="http://localhost:${s}/style.css">
          <iframe src="http://rebind-sub.test:${s}/frame"></iframe>
          <img src="/to-secret"><img src="/to-secret-name"><img src="/to-metadata">
          <script src="http://fixture.test:${site.port}/named.js"></script>
          <script>
            fetch('http://169.254.169.254/latest/meta-data/').catch(() => {});
            fetch('http://internal.test:${s}/fetch', { mode: 'no-cors' }).catch(() => {});
            const x = new XMLHttpRequest(); x.open('GET', 'http://internal.test:${s}/xhr'); x.send();
            for (const u of ['ws://127.0.0.1:${s}/ws', 'ws://internal.test:${s}/ws2']) { try { new WebSocket(u); } catch (e) {} }
            navigator.sendBeacon('http://internal.test:${s}/beacon', 'x');
            new EventSource('http://internal.test:${s}/events');
            navigator.serviceWorker && navigator.serviceWorker.register('/sw.js').catch(() => {});
          </script>`);
        },
        '/named.js': (_req, res) => {
          res.writeHead(200, { 'content-type': 'text/javascript' });
          res.end('document.getElementById("named").textContent = "loaded through the guard resolver";');
        },
        '/to-secret': redirect(`http://127.0.0.1:${s}/redirected`),
        '/to-secret-name': redirect(`http://internal.test:${s}/redirected-name`),
        '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
        '/leave-literal.html': html(`<p>leaving</p><script>location.href = 'http://127.0.0.1:${s}/admin';</script>`),
        '/leave-name.html': html(`<p>leaving</p><script>location.href = 'http://internal.test:${s}/admin';</script>`),
      });
      engine = await makeEngine(
        { allowPrivate: false, allowAddresses: [`127.0.0.1:${site.port}`], denyDomains: ['denied.test'] },
        dns,
      );
      await engine.start?.();
    });
    afterAll(async () => {
      await engine?.stop?.();
      await site?.close();
      await secret?.close();
    });

    it('lets the page render while refusing every request towards private addresses', async () => {
      const page = await fetchWith(engine, site.url('/hostile.html'), {
        actions: [{ type: 'wait', milliseconds: 500 }],
      });
      expect(page.text).toContain('Guarded page');
      // Names resolve through the guard's resolver (Chromium itself cannot resolve .test names).
      expect(page.text).toContain('loaded through the guard resolver');
      expect(secret.connections()).toBe(0);
      const note = page.warnings?.find((w) => w.startsWith('the outbound guard refused'));
      expect(note).toMatch(/^the outbound guard refused \d+ request\(s\) the page made \(first: .*(loopback|metadata)/);
      expect(Number(/refused (\d+)/.exec(note!)![1])).toBeGreaterThanOrEqual(8);
      expect(site.hits('/sw.js')).toBe(0);
    });

    it('answers 403 when the page navigates itself to a private address', async () => {
      for (const [path, detail] of [
        ['/leave-literal.html', /127\.0\.0\.1 \(loopback\)/],
        ['/leave-name.html', /internal\.test resolves to 127\.0\.0\.1 \(loopback\)/],
      ] as const) {
        const err = await expectFailure(fetchWith(engine, site.url(path)));
        expect(err).toMatchObject({ status: 403, code: 'blacklisted_domain' });
        expect(err.detail).toMatch(/^the page navigated to http:\/\/.*\/admin, which was refused: /);
        expect(err.detail).toMatch(detail);
      }
      expect(secret.connections()).toBe(0);
    });

    it('refuses a denied domain and a metadata host for the page itself, before any browser work', async () => {
      const denied = await expectFailure(fetchWith(engine, `http://www.denied.test:${site.port}/hostile.html`));
      expect(denied).toMatchObject({ status: 403, detail: expect.stringMatching(/deny list/) });
      const metadata = await expectFailure(fetchWith(engine, 'http://169.254.169.254/latest/meta-data/'));
      expect(metadata).toMatchObject({ status: 403, detail: expect.stringMatching(/metadata/) });
    });
  });
}
