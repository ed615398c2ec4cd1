import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope } from '../support/envelope.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

const page = (title: string, body: string) =>
  html(`<html><head><title>${title}</title></head><body><main>${body}</main></body></html>`);

let site: FixtureServer;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureServer({
    '/pricing': page(
      'Acme pricing',
      `<h1>Acme plans</h1>
       <p>Plan: Starter</p><p>Price: 9 EUR per month</p><p>Seats: 3</p>
       <h2>Support</h2><p>Email support answers within two working days.</p>`,
    ),
    '/about': page('About Acme', '<h1>About</h1><p>Acme was founded in 1999 in a garage in Ghent.</p>'),
    '/products': page(
      'Acme products',
      `<h1>Products</h1><table><thead><tr><th>Name</th><th>Price</th></tr></thead>
       <tbody><tr><td>Anvil</td><td>$120</td></tr><tr><td>Rocket skates</td><td>$340</td></tr></tbody></table>`,
    ),
    '/broken': (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><body>down</body></html>');
    },
  });
  app = await startTestApp({ config: { outbound: allowLocalPorts(site.port) } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

async function answerCount(key?: string): Promise<number> {
  const res = await app.request('/v1/answers', { headers: { 'content-type': 'application/json' }, key });
  expect(res.status).toBe(200);
  return ((await res.json()) as Body).data.length;
}

describe('answers without a model (the default)', () => {
  it('fills json_format from the given URLs with the deterministic extractor, and says so', async () => {
    const res = await app.request('/v1/answers', {
      method: 'POST',
      json: {
        task: 'What does the Acme Starter plan cost?',
        json_format: { plan: '', price: '', seats: 0 },
        urls: [site.url('/pricing'), site.url('/about')],
        metadata: { ref: 'a1' },
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    expect(body).toMatchObject({
      object: 'answer',
      status: 'completed',
      task: 'What does the Acme Starter plan cost?',
      metadata: { ref: 'a1' },
    });
    expect(body.id).toMatch(/^answer_[0-9a-z]{20}$/);
    expect(body.created).toBeTypeOf('number');
    expect(typeof body.result.json_content).toBe('string');
    expect(JSON.parse(body.result.json_content)).toEqual({ plan: 'Starter', price: '9 EUR per month', seats: 3 });
    expect(body.result.sources).toEqual([site.url('/pricing')]);
    expect(body.warning).toMatch(/without a model/);
    const hosted = await fetch(body.result.json_hosted_url);
    expect(hosted.status).toBe(200);
    expect(JSON.parse(await hosted.text())).toEqual(JSON.parse(body.result.json_content));

    const got = (await (
      await app.request(`/v1/answers/${body.id}`, { headers: { 'content-type': 'application/json' } })
    ).json()) as Body;
    expect(got).toMatchObject({ id: body.id, status: 'completed', result: { json_content: body.result.json_content } });
  });

  it('the SDK shape: answers.create(task) with a URL in the task and no json_format', async () => {
    // The official Node SDK sends {task, json_format} with json_format undefined (dropped by JSON).
    const res = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: `When was Acme founded? See ${site.url('/about')}.`, json_format: undefined },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    const content = JSON.parse(body.result.json_content);
    expect(Object.keys(content)).toEqual(['answer']);
    expect(content.answer).toContain('founded in 1999');
    expect(body.result.sources).toEqual([site.url('/about')]);
    expect(body.warning).toMatch(/without a model/);
  });

  it('the Python SDK shape: json_format null, a string json_format', async () => {
    const res = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: `Where was Acme founded? ${site.url('/about')}`, json_format: 'the city', metadata: null },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    expect(JSON.parse(body.result.json_content).answer).toContain('Ghent');
  });

  it('the Python SDK’s example: a list of products from a table', async () => {
    const body = (await (
      await app.request('/v1/answers', {
        method: 'POST',
        json: {
          task: 'Extract all product names and prices from the webpage',
          json_format: { products: [{ name: '', price: '' }] },
          urls: [site.url('/products')],
        },
      })
    ).json()) as Body;
    expect(JSON.parse(body.result.json_content)).toEqual({
      products: [
        { name: 'Anvil', price: '$120' },
        { name: 'Rocket skates', price: '$340' },
      ],
    });
  });

  it('json_format as a JSON Schema; json_format null (the Python SDK) is the default shape', async () => {
    const schema = {
      type: 'object',
      properties: { plan: { type: 'string' }, seats: { type: 'integer' } },
      required: ['plan'],
    };
    const body = (await (
      await app.request('/v1/answers', {
        method: 'POST',
        json: { task: 'starter seats', json_format: schema, urls: [site.url('/pricing')] },
      })
    ).json()) as Body;
    expect(JSON.parse(body.result.json_content)).toEqual({ plan: 'Starter', seats: 3 });
    const plain = (await (
      await app.request('/v1/answers', {
        method: 'POST',
        json: { task: `Who answers support email? ${site.url('/pricing')}`, json_format: null },
      })
    ).json()) as Body;
    expect(JSON.parse(plain.result.json_content).answer).toContain('Email support answers within two working days');
  });

  it('a source that fails is left out and named in the warning', async () => {
    const res = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: 'price of starter', json_format: { price: '' }, urls: [site.url('/broken'), site.url('/pricing')] },
    });
    const body = (await res.json()) as Body;
    expect(body.status).toBe('completed');
    expect(JSON.parse(body.result.json_content)).toEqual({ price: '9 EUR per month' });
    expect(body.warning).toContain(`${site.url('/broken')}: answered HTTP 500`);
  });

  it('searches the team’s stored pages when no URL is given, never another team’s', async () => {
    const other = await app.otherTeam();
    const scrape = await app.request('/v1/scrapes', {
      method: 'POST',
      json: { url_to_scrape: site.url('/pricing') },
      key: other.key,
    });
    expect(scrape.status).toBe(200);
    const mine = (await (
      await app.request('/v1/answers', {
        method: 'POST',
        json: { task: 'Acme Starter plan price', json_format: { price: '' } },
      })
    ).json()) as Body;
    expect(mine.status).toBe('completed');
    expect(mine.result.sources).toEqual([]);
    expect(JSON.parse(mine.result.json_content)).toEqual({ price: null });
    expect(mine.warning).toMatch(/search found no sources/);

    const fetched = site.hits('/pricing');
    const theirs = (await (
      await app.request('/v1/answers', {
        method: 'POST',
        json: { task: 'Acme Starter plan price', json_format: { price: '' } },
        key: other.key,
      })
    ).json()) as Body;
    expect(theirs.result.sources).toEqual([site.url('/pricing')]);
    expect(JSON.parse(theirs.result.json_content)).toEqual({ price: '9 EUR per month' });
    // A stored page is read from storage, not fetched again.
    expect(site.hits('/pricing')).toBe(fetched);
    // Another team's answer is not found.
    const res = await app.request(`/v1/answers/${theirs.id}`, { headers: { 'content-type': 'application/json' } });
    expect((await expectEnvelope(res, 404)).code).toBe('answer_not_found');
  });
});

/** A completed file of `purpose` holding `body`. */
async function completedFile(body: string, purpose: 'batch' | 'context', key?: string): Promise<string> {
  const auth = key ? { key } : {};
  const grant = (await (
    await app.request('/v1/files', { method: 'POST', json: { filename: 'context.json', purpose }, ...auth })
  ).json()) as Body;
  const put = await fetch(grant.upload_url, { method: 'PUT', headers: grant.upload_headers, body });
  expect(put.status).toBe(200);
  const done = await app.request(`/v1/files/${grant.id}/complete`, { method: 'POST', ...auth });
  expect(done.status).toBe(200);
  return grant.id as string;
}

describe('context files', () => {
  it('a context file is read as a source, cited by its id', async () => {
    const fileId = await completedFile(
      JSON.stringify({ warehouse: 'Ghent', opening_hours: 'Mon-Fri 8-18' }),
      'context',
    );
    const body = (await (
      await app.request('/v1/answers', {
        method: 'POST',
        json: {
          task: 'warehouse opening hours',
          json_format: { opening_hours: '' },
          urls: [site.url('/about')],
          context_file_ids: [fileId],
        },
      })
    ).json()) as Body;
    expect(body.status).toBe('completed');
    expect(JSON.parse(body.result.json_content)).toEqual({ opening_hours: 'Mon-Fri 8-18' });
    expect(body.result.sources).toEqual([fileId]);
  });

  it('another team’s file → 404; a batch file → 400; nothing created', async () => {
    const other = await app.otherTeam();
    const theirs = await completedFile('{"a": 1}', 'context', other.key);
    const batchFile = await completedFile(JSON.stringify([{ custom_id: 'a', url: site.url('/about') }]), 'batch');
    const before = await answerCount();
    const notFound = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: 'x', context_file_ids: [theirs] },
    });
    expect((await expectEnvelope(notFound, 404)).code).toBe('file_not_found');
    const wrong = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: 'x', context_file_ids: [batchFile] },
    });
    expect((await expectEnvelope(wrong, 400)).code).toBe('invalid_file_purpose');
    expect(await answerCount()).toBe(before);
  });
});

describe('bad input: the envelope, and no answer created', () => {
  it.each([
    ['no task', {}],
    ['empty task', { task: '' }],
    ['blank task', { task: '   ' }],
    ['task not a string', { task: 42 }],
    ['task an object', { task: { q: 'x' } }],
    ['task 100 KB', { task: 'x'.repeat(100_000) }],
    ['json_format a number', { task: 'x', json_format: 42 }],
    ['json_format an array', { task: 'x', json_format: ['plan'] }],
    ['json_format a boolean', { task: 'x', json_format: true }],
    ['json_format an empty string', { task: 'x', json_format: '' }],
    [
      'json_format an invalid schema',
      { task: 'x', json_format: { type: 'object', properties: { a: { type: 'nope' } } } },
    ],
    ['urls empty', { task: 'x', urls: [] }],
    ['urls not URLs', { task: 'x', urls: ['ftp://example.com'] }],
    ['unknown field', { task: 'x', jsonFormat: {} }],
    ['unknown search provider', { task: 'x', search: { provider: 'google' } }],
    ['search limit 0', { task: 'x', search: { limit: 0 } }],
    ['context_file_ids not ids', { task: 'x', context_file_ids: ['../etc'] }],
  ])('%s → 400', async (_name, json) => {
    const before = await answerCount();
    const res = await app.request('/v1/answers', { method: 'POST', json });
    expect((await expectEnvelope(res, 400)).code).toBe('validation_error');
    expect(await answerCount()).toBe(before);
  });

  it('an unknown context file → 404 file_not_found; a private URL → 403', async () => {
    const before = await answerCount();
    const res = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: 'x', context_file_ids: ['file_abc123'] },
    });
    expect((await expectEnvelope(res, 404)).code).toBe('file_not_found');
    const blocked = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: 'x', urls: ['http://10.0.0.1/admin'] },
    });
    expect((await expectEnvelope(blocked, 403)).code).toBe('blacklisted_domain');
    expect(await answerCount()).toBe(before);
  });

  it('unknown answer id → 404', async () => {
    const res = await app.request('/v1/answers/answer_doesnotexist', {
      headers: { 'content-type': 'application/json' },
    });
    expect((await expectEnvelope(res, 404)).code).toBe('answer_not_found');
  });
});

describe('on the embedded database (PGlite)', () => {
  it('answers, lists and reads back', async () => {
    const embedded = await startTestApp({ database: 'pglite', config: { outbound: allowLocalPorts(site.port) } });
    try {
      const created = (await (
        await embedded.request('/v1/answers', {
          method: 'POST',
          json: { task: 'Starter price', json_format: { price: '' }, urls: [site.url('/pricing')] },
        })
      ).json()) as Body;
      expect(created.status).toBe('completed');
      expect(JSON.parse(created.result.json_content)).toEqual({ price: '9 EUR per month' });
      const list = (await (
        await embedded.request('/v1/answers', { headers: { 'content-type': 'application/json' } })
      ).json()) as Body;
      expect(list.data.map((a: Body) => a.id)).toEqual([created.id]);
    } finally {
      await embedded.close();
    }
  }, 60_000);
});

describe('retention', () => {
  it('the maintenance round removes answers older than RETENTION_DAYS with their JSON', async () => {
    const created = (await (
      await app.request('/v1/answers', {
        method: 'POST',
        json: { task: 'Starter price', json_format: { price: '' }, urls: [site.url('/pricing')] },
      })
    ).json()) as Body;
    expect((await fetch(created.result.json_hosted_url)).status).toBe(200);
    const task = app.container.modules.maintenance().find((m) => m.module === 'answers')!.task;
    const later = new Date(Date.now() + (app.config.retentionDays + 1) * 86_400_000);
    const removed = await task(later);
    expect(removed.answers).toBeGreaterThan(0);
    expect(await answerCount()).toBe(0);
    expect((await fetch(created.result.json_hosted_url)).status).toBe(404);
  });
});
