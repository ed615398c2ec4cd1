import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSearchSetup } from '../../../src/plugins.js';
import { createOutboundGuard } from '../../../src/engine/outbound-guard.js';
import { expectFailure } from '../../contract/engine.contract.js';
import type { SearchProvider } from '../../../src/search/search-provider.js';
import { startFakeSearxng, type FakeSearxng, type FakeSearxngResult } from '../../support/fake-searxng.js';
import { html, startFixtureServer, type FixtureServer } from '../../support/fixture-server.js';

let site: FixtureServer;
let searxng: FakeSearxng;
const opened: SearchProvider[] = [];
const team = { teamId: 'team_a', signal: new AbortController().signal };

function provider(timeoutMs = 10_000, url = searxng.url): SearchProvider {
  // Production's policy: private addresses refused; the configured SearXNG host is trusted.
  const guard = createOutboundGuard({ allowPrivate: false, denyDomains: [] });
  const [created] = createSearchSetup({ searxng: { url, timeoutMs } }, { guard }).plugins;
  opened.push(created!);
  return created!;
}

function results(count: number): FakeSearxngResult[] {
  return Array.from({ length: count }, (_, i) => ({
    url: site.url(`/page-${i}`),
    title: `Page ${i}`,
    content: `About   anvils,\n part ${i}.`,
  }));
}

beforeAll(async () => {
  site = await startFixtureServer({ '/page-*': html('<h1>Anvils</h1>') });
  searxng = await startFakeSearxng(() => ({ results: [] }));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close?.()));
  searxng.queries.length = 0;
});
afterAll(async () => {
  await searxng.close();
  await site.close();
});

describe('SearXNG search provider', () => {
  it('is absent when SEARXNG_URL is unset', () => {
    const guard = createOutboundGuard({ allowPrivate: false, denyDomains: [] });
    expect(createSearchSetup({ searxng: null }, { guard })).toMatchObject({
      plugins: [],
      unavailable: [{ id: 'searxng', reason: 'SEARXNG_URL is not set' }],
    });
  });

  it("asks SearXNG's JSON API and returns url, title and snippet pointing at the fixture site", async () => {
    searxng.answer = () => ({ results: results(3) });
    const found = await provider().search('  anvil prices ', { ...team, limit: 5 });
    expect(found).toEqual(
      [0, 1, 2].map((i) => ({ url: site.url(`/page-${i}`), title: `Page ${i}`, snippet: `About anvils, part ${i}.` })),
    );
    expect(searxng.queries).toHaveLength(1);
    expect(Object.fromEntries(searxng.queries[0]!)).toEqual({ q: 'anvil prices', format: 'json', pageno: '1' });
    expect(searxng.server.requests[0]!.headers.accept).toBe('application/json');
  });

  it('reads further pages until the limit, without duplicates or non-http URLs', async () => {
    const list = results(25);
    list[11] = { ...list[3]!, url: `${list[3]!.url}#section` };
    list[12] = { url: 'javascript:alert(1)', title: 'x', content: '' };
    searxng.answer = () => ({ results: list });
    const found = await provider().search('anvils', { ...team, limit: 15 });
    expect(found).toHaveLength(15);
    expect(new Set(found.map((r) => r.url.replace(/#.*/, ''))).size).toBe(15);
    expect(found.some((r) => r.url.startsWith('javascript:'))).toBe(false);
    expect(searxng.queries.map((q) => q.get('pageno'))).toEqual(['1', '2']);
  });

  it('returns an empty list when nothing is found', async () => {
    searxng.answer = () => ({ results: [] });
    await expect(provider().search('zzzz', { ...team, limit: 5 })).resolves.toEqual([]);
  });

  it('answers 503 search_unavailable when every engine failed', async () => {
    searxng.answer = () => ({
      results: [],
      unresponsive: [
        ['google', 'timeout'],
        ['brave', 'CAPTCHA'],
      ],
    });
    const err = await expectFailure(provider().search('anvils', { ...team, limit: 5 }));
    expect(err).toMatchObject({ status: 503, code: 'search_unavailable' });
    expect(err.detail).toBe("SearXNG's engines did not answer: google: timeout, brave: CAPTCHA");
  });

  it('explains a 403: JSON output not enabled', async () => {
    searxng.answer = () => ({ status: 403 });
    const err = await expectFailure(provider().search('anvils', { ...team, limit: 5 }));
    expect(err).toMatchObject({ status: 502, code: 'search_error' });
    expect(err.detail).toMatch(/add `json` to `search.formats`/);
  });

  it('answers 503 with Retry-After when SearXNG rate limits, and 503 when it fails', async () => {
    searxng.answer = () => ({ status: 429, headers: { 'retry-after': '30' } });
    const limited = await expectFailure(provider().search('anvils', { ...team, limit: 5 }));
    expect(limited).toMatchObject({ status: 503, code: 'search_unavailable', headers: { 'Retry-After': '30' } });
    searxng.answer = () => ({ status: 500 });
    expect(await expectFailure(provider().search('anvils', { ...team, limit: 5 }))).toMatchObject({
      status: 503,
      detail: 'SearXNG failed (500)',
    });
  });

  it('answers 502 search_error for a body that is not its JSON', async () => {
    searxng.answer = () => ({ garbage: '{"unexpected": true}' });
    const err = await expectFailure(provider().search('anvils', { ...team, limit: 5 }));
    expect(err).toMatchObject({
      status: 502,
      code: 'search_error',
      detail: "SearXNG's answer is not its JSON search format",
    });
  });

  it('answers 503 search_unavailable when SearXNG is down', async () => {
    const down = await startFakeSearxng(() => ({ results: [] }));
    await down.close();
    const err = await expectFailure(provider(10_000, down.url).search('anvils', { ...team, limit: 5 }));
    expect(err).toMatchObject({
      status: 503,
      code: 'search_unavailable',
      detail: 'SearXNG could not be reached (ECONNREFUSED)',
    });
  });

  it('answers 504 request_timeout when SearXNG is too slow', async () => {
    searxng.answer = () => ({ hang: true });
    const err = await expectFailure(provider(800).search('anvils', { ...team, limit: 5 }));
    expect(err).toMatchObject({ status: 504, code: 'request_timeout', detail: 'SearXNG did not answer within 800 ms' });
  });

  it("rejects with the caller's reason when the caller aborts, and refuses an empty query", async () => {
    searxng.answer = () => ({ hang: true });
    const controller = new AbortController();
    const search = provider().search('anvils', { teamId: 'team_a', limit: 5, signal: controller.signal });
    await expect.poll(() => searxng.queries.length).toBe(1);
    controller.abort(new Error('client went away'));
    await expect(search).rejects.toThrow('client went away');
    expect(await expectFailure(provider().search('   ', { ...team, limit: 5 }))).toMatchObject({ status: 400 });
  });
});
