import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

// Broke: scraping a page on 127.0.0.1 or localhost answered 403 `blacklisted_domain` without
// saying how a developer allows it. The detail now names OUTBOUND_ALLOW_PRIVATE (and
// OUTBOUND_ALLOW_ADDRESSES for one internal service); metadata addresses stay refused for good.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

async function scrapeDetail(url: string): Promise<{ status: number; code: string; detail: string }> {
  const res = await app.request('/v1/scrapes', { method: 'POST', json: { url_to_scrape: url } });
  const body = (await res.json()) as { code: string; detail: string };
  return { status: res.status, code: body.code, detail: body.detail };
}

it('names the setting that allows loopback and private targets', async () => {
  for (const url of ['http://127.0.0.1:8080/page', 'http://localhost:3000/', 'http://192.168.1.10/']) {
    const refused = await scrapeDetail(url);
    expect(refused, url).toMatchObject({ status: 403, code: 'blacklisted_domain' });
    expect(refused.detail, url).toMatch(/OUTBOUND_ALLOW_PRIVATE=true/);
    expect(refused.detail, url).toMatch(/OUTBOUND_ALLOW_ADDRESSES/);
  }
});

it('offers no way around for cloud metadata endpoints', async () => {
  const refused = await scrapeDetail('http://169.254.169.254/latest/meta-data/');
  expect(refused).toMatchObject({ status: 403, code: 'blacklisted_domain' });
  expect(refused.detail).toMatch(/never fetched/);
  expect(refused.detail).not.toMatch(/OUTBOUND_ALLOW/);
});
