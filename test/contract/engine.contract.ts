import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundGuard, type OutboundGuard, type Resolver } from '../../src/engine/outbound-guard.js';
import type { PageSnapshot, ScrapeEngine } from '../../src/engine/types.js';
import { AppError } from '../../src/errors.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { CONTRACT_MAX_BYTES, startContractSite } from './engine-fixture-site.js';

/** What the contract hands an engine factory: the guard to use and the limits to enforce. */
export interface EngineContractEnv {
  guard: OutboundGuard;
  connectTimeoutMs: number;
  maxResponseBytes: number;
}

export type MakeEngine = (env: EngineContractEnv) => ScrapeEngine | Promise<ScrapeEngine>;

/** A PUBLIC address handed out only to the test's own check, never to an engine. */
const PUBLIC_DECOY = '93.184.216.34';

/**
 * DNS is the outer edge tests replace: names map to answer sequences (the last answer
 * repeats), unknown names fail like NXDOMAIN. `calls` counts lookups per name.
 */
export function createTestResolver(table: Record<string, string[][]>): Resolver & { calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const resolver = async (hostname: string) => {
    const count = calls.get(hostname) ?? 0;
    calls.set(hostname, count + 1);
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    const answer = answers[Math.min(count, answers.length - 1)] ?? [];
    return answer.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolver, { calls });
}

export async function expectFailure(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof AppError)) throw new Error(`expected an AppError, got ${String(err)}`, { cause: err });
  return err;
}

/**
 * The behaviour every engine must have, run against a local fixture site. Call it from
 * `test/contract/<engine>-engine.test.ts`:
 *
 * @example
 * describeEngineContract('http', (env) => createHttpEngine(env));
 */
export function describeEngineContract(
  name: string,
  makeEngine: MakeEngine,
  options: { budgetMs?: number } = {},
): void {
  // The time budget of a fetch whose test is not about time: a browser engine needs more than a
  // plain client on a loaded 2-core machine (a fresh context and page alone cost Chromium ~0.5 s).
  const budgetMs = options.budgetMs ?? 5000;
  describe(`engine contract: ${name}`, () => {
    let site: FixtureServer;
    let secret: FixtureServer;
    let strict: ScrapeEngine;
    let open: ScrapeEngine;
    let strictGuard: OutboundGuard;
    const dns = createTestResolver({
      'fixture.test': [['127.0.0.1']],
      'internal.test': [['127.0.0.1']],
      'rebind.test': [[PUBLIC_DECOY], ['127.0.0.1']],
      'mixed.test': [['127.0.0.1', PUBLIC_DECOY]],
    });
    const limits = { connectTimeoutMs: 2000, maxResponseBytes: CONTRACT_MAX_BYTES };
    const get = (engine: ScrapeEngine, url: string, timeoutMs = budgetMs, signal = new AbortController().signal) =>
      engine.fetchPage({ url, timeoutMs }, signal);

    beforeAll(async () => {
      site = await startContractSite();
      secret = await startFixtureServer({ '/secret': html('<h1>internal admin</h1>') });
      // Strict: no private networks, except exactly the fixture site's address and port.
      strictGuard = createOutboundGuard(
        { allowPrivate: false, denyDomains: ['denied.test'], allowAddresses: [`127.0.0.1:${site.port}`] },
        { resolve: dns },
      );
      strict = await makeEngine({ guard: strictGuard, ...limits });
      open = await makeEngine({
        guard: createOutboundGuard({ allowPrivate: true, denyDomains: [] }, { resolve: dns }),
        ...limits,
      });
      await strict.start?.();
      await open.start?.();
    });
    afterAll(async () => {
      await strict?.stop?.();
      await open?.stop?.();
      await site?.close();
      await secret?.close();
    });

    describe('pages', () => {
      it('fetches a plain HTML page', async () => {
        const page = await get(strict, site.url('/article.html'));
        expect(page).toMatchObject({ statusCode: 200, contentType: 'text/html', engine: strict.id, redirects: [] });
        expect(page.url).toBe(site.url('/article.html'));
        expect(page.finalUrl).toBe(site.url('/article.html'));
        expect(page.text).toContain('Fishing boats leave before dawn');
        expect(page.text).toContain('Café owners');
        expect(Buffer.isBuffer(page.body)).toBe(true);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        for (const header of Object.keys(page.headers)) expect(header).toBe(header.toLowerCase());
      });

      it('resolves host names through the guard (a name allowed by its address is fetched)', async () => {
        const before = dns.calls.get('fixture.test') ?? 0;
        const page = await get(strict, `http://fixture.test:${site.port}/article.html`);
        expect(page.statusCode).toBe(200);
        expect(page.text).toContain('The quiet harbour');
        expect(dns.calls.get('fixture.test')).toBeGreaterThan(before);
      });

      it.each([404, 500])('returns a %i page as a snapshot, not an error', async (status) => {
        const page = await get(strict, site.url(`/status/${status}`));
        expect(page.statusCode).toBe(status);
        expect(page.text).toMatch(status === 404 ? /Page not found here/ : /Server exploded/);
      });

      it.each(['gzip', 'br', 'deflate'])('decompresses %s', async (encoding) => {
        const page = await get(strict, site.url(`/encoding/${encoding}`));
        expect(page.statusCode).toBe(200);
        expect(page.text).toContain('Fishing boats leave before dawn');
        expect(page.text).toContain('120 kg');
      });

      it.each([
        ['/site/data.json', 'application/json', '"naïve café"'],
        ['/site/notes.txt', 'text/plain', 'Second line with ümlauts.'],
        ['/site/feed.xml', 'application/xml', '<title>First post</title>'],
        ['/site/page.xhtml', 'application/xhtml+xml', 'très bien'],
      ])('decodes %s (%s) into text', async (path, type, expected) => {
        const page = await get(strict, site.url(path));
        expect(page.contentType).toBe(type);
        expect(page.text).toContain(expected);
      });

      it('keeps PDF bytes without text', async () => {
        const page = await get(strict, site.url('/site/document.pdf'));
        expect(page.contentType).toBe('application/pdf');
        expect(page.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        expect(page.pdf?.equals(page.body)).toBe(true);
        expect(page.text).toBeUndefined();
      });
    });

    describe('charsets', () => {
      it.each([
        ['/charset/shift-jis-header', '今日は晴れです。', 'shift_jis'],
        ['/charset/shift-jis-meta', '東京の天気', 'shift_jis'],
        ['/charset/windows-1251-meta', 'Сегодня солнечно', 'windows-1251'],
        ['/charset/bom-beats-header', 'Grüße aus Köln — 北京 — Ελληνικά', 'utf-8'],
        ['/charset/xml-declaration', 'Привет, мир', 'windows-1251'],
        ['/charset/undeclared', 'Zürich, São Paulo, Kraków', 'utf-8'],
      ])('%s comes out as correct UTF-8', async (path, expected, charset) => {
        const page: PageSnapshot = await get(strict, site.url(path));
        expect(page.text).toContain(expected);
        expect(page.text).not.toContain('\uFFFD');
        expect(page.text?.charCodeAt(0)).not.toBe(0xfeff);
        expect(page.charset).toBe(charset); // every engine reports what it decoded
      });
    });

    describe('redirects', () => {
      it('follows a chain of redirects (301, 302, 303, 307, 308; relative and absolute)', async () => {
        const page = await get(strict, site.url('/chain/4'));
        expect(page.finalUrl).toBe(site.url('/article.html'));
        expect(page.redirects).toEqual(['/chain/4', '/chain/3', '/chain/2', '/chain/1', '/chain/0'].map(site.url));
        expect(page.text).toContain('The quiet harbour');
      });

      it('follows 10 redirects and refuses the 11th', async () => {
        const ten = await get(strict, site.url('/chain/9'));
        expect(ten.redirects).toHaveLength(10);
        const err = await expectFailure(get(strict, site.url('/chain/10')));
        expect(err).toMatchObject({ status: 502, code: 'upstream_error' });
        expect(err.detail).toMatch(/too many redirects/);
      });

      it('stops an endless redirect loop after at most 10 redirects', async () => {
        const before = site.hits('/loop');
        const err = await expectFailure(get(strict, site.url('/loop')));
        expect(err).toMatchObject({ status: 502, code: 'upstream_error' });
        expect(err.detail).toMatch(/too many redirects/);
        expect(site.hits('/loop') - before).toBeLessThanOrEqual(11);
      });
    });

    describe('limits', () => {
      it.each(['/large/declared', '/large/streamed', '/large/gzip-bomb'])(
        'stops downloading %s past the maximum response size (502)',
        async (path) => {
          const err = await expectFailure(get(strict, site.url(path)));
          expect(err).toMatchObject({ status: 502, code: 'upstream_error' });
          expect(err.detail).toMatch(new RegExp(`larger than the ${CONTRACT_MAX_BYTES}-byte limit`));
        },
      );

      it('gives up on a page that never finishes sending (504)', async () => {
        const started = Date.now();
        const err = await expectFailure(get(strict, site.url('/slow/never-ends'), 700));
        expect(err).toMatchObject({ status: 504, code: 'request_timeout' });
        expect(Date.now() - started).toBeLessThan(3000);
      });

      it('stops promptly when the caller aborts, with the caller reason', async () => {
        const controller = new AbortController();
        setTimeout(() => controller.abort(new Error('client went away')), 300);
        const started = Date.now();
        const err = await get(strict, site.url('/slow/never-ends'), 20_000, controller.signal).catch((e: unknown) => e);
        expect((err as Error).message).toBe('client went away');
        expect(Date.now() - started).toBeLessThan(3000);
      });
    });

    describe('outbound guard', () => {
      const refused = async (promise: Promise<unknown>, detail: RegExp) => {
        const err = await expectFailure(promise);
        expect(err).toMatchObject({ status: 403, code: 'blacklisted_domain' });
        expect(err.detail).toMatch(detail);
        expect(secret.hits('/secret')).toBe(0);
      };

      it('refuses a loopback address, however it is written', async () => {
        for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '0x7f.1', '2130706433', '0177.0.0.1', '127.1']) {
          await refused(get(strict, `http://${host}:${secret.port}/secret`), /loopback/);
        }
      });

      it('refuses a host name that resolves to 127.0.0.1, at connect time', async () => {
        await refused(
          get(strict, `http://internal.test:${secret.port}/secret`),
          /internal\.test resolves to 127\.0\.0\.1/,
        );
      });

      it('refuses a name when any of its addresses is private', async () => {
        await refused(get(strict, `http://mixed.test:${secret.port}/secret`), /127\.0\.0\.1 \(loopback\)/);
      });

      it('refuses a redirect to a private address', async () => {
        site.route('/to-private', (req, res, url) => {
          res.writeHead(302, { location: `http://internal.test:${secret.port}/secret` }).end();
          void req;
          void url;
        });
        await refused(get(strict, site.url('/to-private')), /internal\.test resolves to 127\.0\.0\.1/);
        site.route(
          '/to-literal',
          (_req, res) => void res.writeHead(302, { location: `http://[::1]:${secret.port}/secret` }).end(),
        );
        await refused(get(strict, site.url('/to-literal')), /::1 \(loopback\)/);
      });

      it('is not fooled by DNS rebinding (public at check time, 127.0.0.1 at connect time)', async () => {
        // What a service does at validation: the name looks public then.
        await expect(strictGuard.assertAllowed(`http://rebind.test:${secret.port}/secret`)).resolves.toEqual([
          { address: PUBLIC_DECOY, family: 4 },
        ]);
        await refused(get(strict, `http://rebind.test:${secret.port}/secret`), /rebind\.test resolves to 127\.0\.0\.1/);
        site.route(
          '/to-rebind',
          (_req, res) => void res.writeHead(302, { location: `http://rebind.test:${secret.port}/secret` }).end(),
        );
        await refused(get(strict, site.url('/to-rebind')), /rebind\.test resolves to 127\.0\.0\.1/);
      });

      it('refuses denied domains and non-http schemes in redirects', async () => {
        await refused(get(strict, `http://www.denied.test:${site.port}/article.html`), /deny list/);
        site.route('/to-file', (_req, res) => void res.writeHead(302, { location: 'file:///etc/passwd' }).end());
        await refused(get(strict, site.url('/to-file')), /file: URLs are not fetched/);
      });
    });

    describe('network failures', () => {
      it('reports a DNS failure as 502 naming the host', async () => {
        const err = await expectFailure(get(open, 'http://no-such-host.test/'));
        expect(err).toMatchObject({ status: 502, code: 'upstream_error' });
        expect(err.detail).toMatch(/no-such-host\.test/);
      });

      it('reports a refused connection as 502', async () => {
        const gone = await startFixtureServer();
        const port = gone.port;
        await gone.close();
        const err = await expectFailure(get(open, `http://127.0.0.1:${port}/`));
        expect(err).toMatchObject({ status: 502, code: 'upstream_error' });
        expect(err.detail).toMatch(/refused/);
      });

      it('reports a TLS failure as 502', async () => {
        const err = await expectFailure(get(open, `https://127.0.0.1:${site.port}/article.html`));
        expect(err).toMatchObject({ status: 502, code: 'upstream_error' });
        expect(err.detail).toMatch(/TLS/);
      });
    });
  });
}
