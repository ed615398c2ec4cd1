import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

let app: TestApp;
let site: FixtureServer;
beforeAll(async () => {
  site = await startFixtureServer({
    '/': html('<html><head><title>T</title></head><body><h1>Hi</h1><p><a href="/x">x</a></p></body></html>'),
  });
  app = await startTestApp({
    config: { outbound: { allowPrivate: false, denyDomains: [], allowAddresses: [`127.0.0.1:${site.port}`] } },
  });
});
afterAll(async () => {
  await app?.close();
  await site?.close();
});

const gql = async (query: string, variables: Record<string, unknown> = {}) =>
  (await (await app.request('/graphql', { method: 'POST', json: { query, variables } })).json()) as {
    data?: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    errors?: { message: string; extensions: { code: string } }[];
  };

describe('scrapes over GraphQL', () => {
  it('creates a scrape with camelCase input and reads it back, and through retrieve', async () => {
    const created = await gql(
      `mutation($input: CreateScrapeInput!) { createScrape(input: $input) {
         id retrieveId urlToScrape metadata sizeExceeded
         result { markdownContent htmlContent markdownHostedUrl linksOnPage pageMetadata { title statusCode finalUrl } } } }`,
      {
        input: {
          urlToScrape: site.url('/'),
          formats: ['markdown', 'html'],
          linksOnPage: { absoluteLinks: true },
          metadata: { some_key: 'v' },
          removeCssSelectors: ['none'],
        },
      },
    );
    expect(created.errors).toBeUndefined();
    const scrape = created.data!.createScrape;
    expect(scrape.result.markdownContent).toContain('# Hi');
    expect(scrape.result.linksOnPage).toEqual([site.url('/x')]);
    expect(scrape.metadata).toEqual({ some_key: 'v' });
    // page_metadata is a typed object over GraphQL (PageMetadata), camelCase like every field.
    expect(scrape.result.pageMetadata).toEqual({ title: 'T', statusCode: 200, finalUrl: site.url('/') });

    const got = await gql('query($id: ID!) { scrape(id: $id) { id result { markdownContent } } }', { id: scrape.id });
    expect(got.data!.scrape.result.markdownContent).toBe(scrape.result.markdownContent);

    const retrieved = await gql(
      'query($r: ID!) { retrieve(retrieveId: $r, formats: ["html"]) { htmlContent markdownContent sizeExceeded } }',
      {
        r: scrape.retrieveId,
      },
    );
    expect(retrieved.data!.retrieve).toMatchObject({ markdownContent: null, sizeExceeded: false });
    expect(retrieved.data!.retrieve.htmlContent).toContain('<h1>Hi</h1>');
  });

  it('validates with the same rules as REST, naming fields in camelCase', async () => {
    const res = await gql('mutation($input: CreateScrapeInput!) { createScrape(input: $input) { id } }', {
      input: { urlToScrape: site.url('/'), waitBeforeScraping: 99999 },
    });
    expect(res.errors![0]!.extensions.code).toBe('validation_error');
    expect(res.errors![0]!.message).toMatch(/^input\.waitBeforeScraping: /);
  });

  it('answers scrape_not_found for an unknown id', async () => {
    const res = await gql('{ scrape(id: "scrape_nope") { id } }');
    expect(res.errors![0]!.extensions.code).toBe('scrape_not_found');
  });
});
