import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Container } from '../../src/container.js';
import type { Actor } from '../../src/domain/auth/actor.js';
import { CrawlFrontier } from '../../src/domain/crawls/crawl-frontier.js';
import type { CrawlRecords, NewFrontierRow, PageRecord } from '../../src/domain/crawls/crawl-records.js';
import { CRAWL_JOB } from '../../src/domain/crawls/crawl-run.job.js';
import type { FrontierRow } from '../../src/domain/crawls/crawl-rows.js';
import { Page } from '../../src/domain/pages/page.entity.js';
import { startApiContainer, type ApiContainer } from '../support/api-container.js';

// What the crawl runner writes for a fetched page (CrawlRecords.recordPage), step by step on the
// Postgres server without workers: the page, its links continuing the frontier's positions up to
// the cap, the counters; and nothing at all for a runner that lost the crawl or a URL that is no
// longer its running row.

let harness: ApiContainer;
let sql: ApiContainer['sql'];
let api: Container;
let records: CrawlRecords;
let frontier: CrawlFrontier;
let actor: Actor;

beforeAll(async () => {
  harness = await startApiContainer('crawl-records');
  ({ api, actor, sql } = harness);
  records = (api.services as unknown as { crawlRecords: CrawlRecords }).crawlRecords;
  frontier = new CrawlFrontier(api.db.orm);
}, 120_000);

afterAll(() => harness?.close());

/** A crawl whose job `owner` holds, with its start URL claimed; the crawl's id and that row. */
async function runningCrawl(owner: string): Promise<{ crawlId: string; start: FrontierRow }> {
  const crawl = await api.services.crawls.create(actor, { start_url: 'http://127.0.0.1:9/', max_pages: 100 } as never);
  await sql(`update jobs set run_at = now() where id = ?`, [crawl.id]);
  const claimed = await api.queue.claim(CRAWL_JOB, owner, 10);
  expect(claimed.map((j) => j.id)).toContain(crawl.id);
  const [start] = await frontier.claimTargets(owner, crawl.id, 1);
  return { crawlId: crawl.id, start: start! };
}

function pageOf(crawlId: string, row: FrontierRow): Page {
  return Object.assign(new Page(), {
    id: row.id.replace(/^page_/, ''),
    teamId: actor.teamId,
    source: 'crawl',
    url: row.url,
    finalUrl: row.url,
    statusCode: 200,
    formats: {},
    pageMetadata: { title: `Home of ${crawlId}`, description: "it's a page" },
    links: null,
    actionsOutput: null,
    searchText: 'words on the page',
  });
}

function linksOf(n: number, external = false): NewFrontierRow[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `page_${crypto.randomUUID()}`,
    key: `127.0.0.1:9/l${i}${external ? 'x' : ''}`,
    url: `http://127.0.0.1:9/l${i}${external ? 'x' : ''}`,
    depth: 1,
    isExternal: external,
    status: external ? 'external' : 'queued',
  }));
}

function recordOf(crawlId: string, row: FrontierRow, links: NewFrontierRow[], cap = 1000): PageRecord {
  return {
    targetId: row.id,
    depth: 0,
    isExternal: false,
    page: pageOf(crawlId, row),
    redirect: null,
    links,
    frontierCap: cap,
  };
}

const frontierOf = (crawlId: string) =>
  sql<{ url: string; seq: number; status: string; page_seq: number | null }>(
    'select url, seq, status, page_seq from crawl_frontier where crawl_id = ? order by seq',
    [crawlId],
  );

describe('recording a crawled page', () => {
  it('writes the page, its links after the frontier’s last position up to the cap, and the counters', async () => {
    const { crawlId, start } = await runningCrawl('runner-1');
    // The frontier holds 1 URL and may hold 4: three of the five links enter it (positions continue
    // after the count, as they always have), the last two are dropped.
    const links = [
      ...linksOf(2),
      ...linksOf(1, true),
      ...linksOf(2).map((l) => ({ ...l, key: `${l.key}b`, url: `${l.url}b` })),
    ];
    const outcome = await records.recordPage('runner-1', crawlId, recordOf(crawlId, start, links, 4));
    expect(outcome?.outcome).toBe('recorded');
    expect(outcome?.counters).toMatchObject({
      pagesCount: 1,
      externalCount: 1,
      currentDepth: 0,
      status: 'in_progress',
    });
    expect(await frontierOf(crawlId)).toEqual([
      { url: start.url, seq: 0, status: 'done', page_seq: 1 },
      { url: 'http://127.0.0.1:9/l0', seq: 2, status: 'queued', page_seq: null },
      { url: 'http://127.0.0.1:9/l1', seq: 3, status: 'queued', page_seq: null },
      { url: 'http://127.0.0.1:9/l0x', seq: 4, status: 'external', page_seq: null },
    ]);
    const [crawl] = await sql<{ frontier_count: number }>('select frontier_count from crawls where id = ?', [crawlId]);
    expect(crawl!.frontier_count).toBe(4);
    const [page] = await sql<{ source: string; found: boolean }>(
      `select source, search_vector @@ plainto_tsquery('english', 'page words') as found from pages where id = ?`,
      [pageOf(crawlId, start).id],
    );
    expect(page).toEqual({ source: 'crawl', found: true });
  });

  it('keeps a link the crawl has seen in its row and still uses up its position', async () => {
    const { crawlId, start } = await runningCrawl('runner-2');
    await records.recordPage('runner-2', crawlId, recordOf(crawlId, start, linksOf(2)));
    const [l0] = await frontier.claimTargets('runner-2', crawlId, 1);
    const again = [...linksOf(1), ...linksOf(1).map((l) => ({ ...l, key: `${l.key}new`, url: `${l.url}new` }))];
    const outcome = await records.recordPage('runner-2', crawlId, { ...recordOf(crawlId, l0!, again), depth: 1 });
    expect(outcome?.counters).toMatchObject({ pagesCount: 2, currentDepth: 1 });
    expect((await frontierOf(crawlId)).map((r) => [r.url, r.seq, r.status])).toEqual([
      [start.url, 0, 'done'],
      ['http://127.0.0.1:9/l0', 2, 'done'],
      ['http://127.0.0.1:9/l1', 3, 'queued'],
      ['http://127.0.0.1:9/l0new', 5, 'queued'],
    ]);
  });

  it('writes nothing for a runner that lost the crawl, or for a URL that is not its running row', async () => {
    const { crawlId, start } = await runningCrawl('runner-3');
    expect(await records.recordPage('someone-else', crawlId, recordOf(crawlId, start, linksOf(3)))).toBeNull();
    await sql(`update crawl_frontier set status = 'queued' where id = ?`, [start.id]);
    expect(await records.recordPage('runner-3', crawlId, recordOf(crawlId, start, linksOf(3)))).toBeNull();
    await sql(`update jobs set lease_expires_at = now() - interval '1 second' where id = ?`, [crawlId]);
    await sql(`update crawl_frontier set status = 'running' where id = ?`, [start.id]);
    expect(await records.recordPage('runner-3', crawlId, recordOf(crawlId, start, linksOf(3)))).toBeNull();
    expect(await frontierOf(crawlId)).toEqual([{ url: start.url, seq: 0, status: 'running', page_seq: null }]);
    const [crawl] = await sql<{ pages_count: number; frontier_count: number }>(
      'select pages_count, frontier_count from crawls where id = ?',
      [crawlId],
    );
    expect(crawl).toEqual({ pages_count: 0, frontier_count: 1 });
    expect(await sql('select 1 from pages where id = ?', [pageOf(crawlId, start).id])).toEqual([]);
  });
});
