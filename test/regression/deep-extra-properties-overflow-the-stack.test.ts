import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_DEPTH } from '../../src/validation.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope, graphql } from '../support/envelope.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { captureLogs } from '../support/log-capture.js';

// Broke: nested objects that keep extra properties (links_on_page, parser, llm_extract.schema,
// ...) accepted JSON of any depth; storing it ran JSON.stringify into "Maximum call stack size
// exceeded" and answered 500.
let app: TestApp;
let site: FixtureServer;
const logs = captureLogs();
beforeAll(async () => {
  site = await startFixtureServer({ '/': html('<h1>Hi</h1>') });
  app = await startTestApp({ logger: logs.logger, config: { outbound: allowLocalPorts(site.port) } });
});
afterAll(async () => {
  await app?.close();
  await site?.close();
});

/** `depth` arrays nested in each other, as JSON text. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const item = '{"custom_id":"a","url":"https://example.com/"}';

const post = (path: string, body: string) =>
  app.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

async function batchCount(): Promise<number> {
  const rows = await app.container.db.orm.em
    .getConnection()
    .execute<{ n: number }[]>('select count(*)::int as n from batches');
  return rows[0]!.n;
}

describe('REST', () => {
  it('answers 10,000-deep extra properties on a batch with 400 naming the field', async () => {
    const before = await batchCount();
    const res = await post('/v1/batches', `{"items":[${item}],"links_on_page":{"x":${nested(10_000)}}}`);
    const body = await expectEnvelope(res, 400);
    expect(body.code).toBe('validation_error');
    expect(body.metadata.field).toMatch(/^links_on_page\.x/);
    expect(body.detail).toContain(`nested more than ${MAX_INPUT_DEPTH} levels`);
    expect(await batchCount()).toBe(before);
  });

  it('answers a 100,000-deep scrape body with 400, parsing it without a crash', async () => {
    const url = JSON.stringify(site.url('/'));
    const res = await post('/v1/scrapes', `{"url":${url},"links_on_page":{"x":${nested(100_000)}}}`);
    expect((await expectEnvelope(res, 400)).metadata.field).toMatch(/^links_on_page\.x/);
    const deepObject = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
    const res2 = await post('/v1/scrapes', `{"url":${url},"llm_extract":{"schema":{"o":${deepObject}}}}`);
    expect((await expectEnvelope(res2, 400)).metadata.field).toMatch(/^llm_extract\.schema\.o\.a\.a/);
    expect(logs.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
  });

  it('accepts values nested up to the limit', async () => {
    // The body is level 1, links_on_page 2, x 3: the arrays fill the rest.
    const res = await post('/v1/batches', `{"items":[${item}],"links_on_page":{"x":${nested(MAX_INPUT_DEPTH - 2)}}}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const over = await post('/v1/batches', `{"items":[${item}],"links_on_page":{"x":${nested(MAX_INPUT_DEPTH - 1)}}}`);
    expect(over.status).toBe(400);
  });
});

describe('GraphQL', () => {
  it('answers a deep JSON argument with a validation error naming it', async () => {
    const result = await graphql(
      app.url,
      app.key,
      'mutation($in: CreateBatchInput!) { createBatch(input: $in) { id } }',
      `{"in":{"items":[{"customId":"a","url":"https://example.com/"}],"linksOnPage":{"x":${nested(10_000)}}}}`,
    );
    expect(result.errors?.[0]?.extensions.code).toBe('validation_error');
    // Named by the variable it came in (graphql-yoga refuses it before the arguments are read).
    expect(result.errors?.[0]?.message).toMatch(/^\$in\.linksOnPage\.x.*nested more than/);
  });
});
