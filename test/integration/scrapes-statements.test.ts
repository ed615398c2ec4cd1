import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

// What a scrape costs the database (docs/benchmarks.md, "The request and write path"): with
// the key known, one statement that stores the page and the scrape together, and before it one
// that reads the pieces of the page's text this process has not seen yet (search-vector.ts).
// Its values are written into the SQL (src/db/sql.ts says why), so quotes and backslashes must
// come back intact.

// Quotes and a backslash: what SQL written by hand would have to escape.
const TITLE = `Statements per scrape: it's one \\ "counted"`;
const PAGE = `<!doctype html><html><head><title>${TITLE}</title></head><body><main><h1>Counted</h1>
<p>A paragraph with an apostrophe's worth of text, and a backslash \\ too.</p></main></body></html>`;

let app: TestApp;
let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer({
    '/page': html(PAGE),
    '/new': html('<html><body><main><p>Unseen gleaming words: quokka, xylophone.</p></main></body></html>'),
  });
  // The pieces are remembered on the embedded database by default; asked for here on the server.
  app = await startTestApp({ config: { outbound: allowLocalPorts(site.port), pages: { searchPieces: 100_000 } } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

/** The SQL text of every statement sent through `pg` while `run` runs. */
async function statementsDuring(run: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const original = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text: string };
    seen.push(typeof first === 'string' ? first : first.text);
    return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return seen;
}

const scrape = async () => {
  const res = await app.request('/v1/scrapes', { method: 'POST', json: { url_to_scrape: site.url('/page') } });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; result: { markdown_content: string } };
};

describe('a scrape and the database', () => {
  it('stores the page and the scrape with one statement, quotes and backslashes intact', async () => {
    await scrape(); // the key is looked up once, then cached; the page's pieces are remembered
    let body: Awaited<ReturnType<typeof scrape>> | undefined;
    const statements = await statementsDuring(async () => {
      body = await scrape();
    });
    // A key lookup may come back when the cache of verified keys expired between the two.
    const own = statements.filter((sql) => !/from "api_keys"/.test(sql));
    expect(own).toHaveLength(1);
    expect(own[0]).toMatch(/^with page as \(insert into pages .* insert into scrapes/s);

    // What was written into the SQL is what was stored.
    const { rows } = await app.container.db.orm.em
      .getConnection()
      .getKnex()
      .raw<{ rows: { title: string; found: boolean }[] }>(
        `select p.page_metadata->>'title' as title, p.search_vector @@ plainto_tsquery('english', 'apostrophe') as found
         from scrapes s join pages p on p.id = s.page_id where s.id = ?`,
        [body!.id],
      );
    expect(rows).toEqual([{ title: TITLE, found: true }]);
  });

  it('reads the pieces of a page it has not seen in one statement before the insert', async () => {
    await scrape();
    const statements = await statementsDuring(async () => {
      const res = await app.request('/v1/scrapes', { method: 'POST', json: { url_to_scrape: site.url('/new') } });
      expect(res.status).toBe(200);
    });
    const own = statements.filter((sql) => !/from "api_keys"/.test(sql));
    expect(own).toHaveLength(2);
    expect(own[0]).toMatch(/^select to_tsvector\('english', t\.text\)::text as vector from json_array_elements_text/);
    expect(own[1]).toMatch(/^with page as \(insert into pages .*::tsvector, to_tsvector/s);
  });
});
