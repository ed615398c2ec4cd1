import { describe, expect, it } from 'vitest';
import type { CrawlEngine, CrawlWork } from '../../../src/engine/crawl-engine.js';
import type { CrawlFrontier } from '../../../src/domain/crawls/crawl-frontier.js';
import type { CrawlProgress } from '../../../src/domain/crawls/crawl-progress.js';
import type { CrawlRecords, UrlEnd } from '../../../src/domain/crawls/crawl-records.js';
import { CrawlRun } from '../../../src/domain/crawls/crawl-run.js';
import type { ClaimedCrawl, CrawlCounters, FrontierRow } from '../../../src/domain/crawls/crawl-rows.js';
import type { ScrapeExecutor } from '../../../src/domain/scrapes/scrape-executor.js';
import { AppError } from '../../../src/errors.js';
import type { Logger } from '../../../src/logger.js';

// The feed loop of a crawl run against an in-memory frontier with the claim semantics of
// CrawlFrontier.claimTargets (one depth at a time: nothing deeper than the shallowest URL still
// queued or running), where a claim answers some time after it read the frontier, as a query
// does. Each URL "fails" for good after its delay, and ending a URL queues its children.

interface Node {
  row: FrontierRow;
  status: 'waiting' | 'queued' | 'running' | 'ended';
  children: string[];
  delayMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function frontier(tree: Record<string, { children?: string[]; delayMs: number }>, claimMs: number) {
  const nodes = new Map<string, Node>();
  let seq = 0;
  const add = (id: string, depth: number): void => {
    const spec = tree[id]!;
    const row = { id, url: `http://site.test/${id}`, depth, seq: seq++, isExternal: false, attempts: 0 };
    nodes.set(id, {
      row,
      status: depth === 0 ? 'queued' : 'waiting',
      children: spec.children ?? [],
      delayMs: spec.delayMs,
    });
    for (const child of spec.children ?? []) add(child, depth + 1);
  };
  add('root', 0);
  const ended: string[] = [];
  const counters = (): CrawlCounters => ({
    status: 'in_progress',
    pagesCount: 0,
    failedCount: ended.length,
    blockedCount: 0,
    externalCount: 0,
    currentDepth: Math.max(0, ...ended.map((id) => nodes.get(id)!.row.depth)),
  });
  const frontierRows = {
    async claimTargets(_owner: string, _crawl: string, max: number) {
      const open = [...nodes.values()].filter((n) => n.status === 'queued' || n.status === 'running');
      const minDepth = Math.min(...open.map((n) => n.row.depth));
      const picked = open.filter((n) => n.status === 'queued' && n.row.depth <= minDepth).slice(0, max);
      for (const n of picked) {
        n.status = 'running';
        n.row.attempts++;
      }
      await sleep(claimMs);
      return picked.map((n) => ({ ...n.row }));
    },
    async startRow() {
      return null;
    },
  } as unknown as CrawlFrontier;
  let finished: string | null = null;
  const records = {
    async endUrl(_owner: string, _crawl: string, id: string, _end: UrlEnd) {
      const node = nodes.get(id)!;
      node.status = 'ended';
      ended.push(id);
      for (const child of node.children) nodes.get(child)!.status = 'queued';
      return counters();
    },
    async finish(_owner: string, _crawl: string, reason: string) {
      finished = reason;
      return { counters: counters() };
    },
  } as unknown as CrawlRecords;
  const engine: CrawlEngine = {
    id: 'fake',
    async run(work: CrawlWork, { signal }) {
      const inFlight = new Set<Promise<void>>();
      while (!signal.aborted && !(work.isDone() && inFlight.size === 0)) {
        const target = work.next();
        if (!target) {
          await sleep(1);
          continue;
        }
        const id = target.url.split('/').pop()!;
        const done = sleep(nodes.get(id)!.delayMs).then(() =>
          work.failed(target, new AppError('not_found', 'gone', `${target.url} is gone`)),
        );
        inFlight.add(done);
        void done.finally(() => inFlight.delete(done));
      }
    },
  };
  return { nodes, ended, engine, frontierRows, records, result: () => finished };
}

function crawlOf(maxPages: number): ClaimedCrawl {
  return {
    ...{ id: 'crawl_1', teamId: 'team_1', startUrl: 'http://site.test/root', scopeUrl: 'http://site.test/' },
    ...{ maxPages, maxDepth: null, includeUrls: [], excludeUrls: [], includeExternal: false, includeSubdomain: false },
    ...{ searchQuery: null, topN: null, followRobotsTxt: false, options: {} as ClaimedCrawl['options'], webhook: null },
    counters: {
      status: 'in_progress',
      pagesCount: 0,
      failedCount: 0,
      blockedCount: 0,
      externalCount: 0,
      currentDepth: 0,
    },
    ...{ frontierCount: 1, deadlineAt: new Date(Date.now() + 30_000), createdAt: new Date(), runs: 1 },
  };
}

describe('CrawlRun feed loop', () => {
  it('does not take the frontier for dry when URLs end while a claim is answering', async () => {
    // A ends, so the run claims again; that claim reads the frontier while B still runs at
    // depth 1 (nothing is claimable yet) and answers after B ended and queued B1. The run must
    // look again rather than finish with A1 and B1 never crawled.
    const f = frontier(
      {
        root: { children: ['A', 'B'], delayMs: 1 },
        A: { children: ['A1'], delayMs: 5 },
        B: { children: ['B1'], delayMs: 25 },
        A1: { delayMs: 1 },
        B1: { delayMs: 1 },
      },
      40,
    );
    const logger = { warn() {}, error() {}, info() {}, debug() {} } as unknown as Logger;
    const executor = { prepare: () => ({ plan: { timeoutMs: 5000 } }) } as unknown as ScrapeExecutor;
    const progress = { update() {}, async finished() {} } as unknown as CrawlProgress;
    const run = new CrawlRun(
      {
        ...{ frontier: f.frontierRows, records: f.records, engine: f.engine, executor, progress, logger },
        robotsFetch: (() => Promise.reject(new Error('no robots here'))) as never,
        settings: { concurrency: 4, hostConcurrency: 4, hostDelayMs: 0, maxAttempts: 3, retryBaseMs: 10 },
      },
      crawlOf(100),
      'owner_1',
      new AbortController().signal,
    );
    await run.execute();
    expect(f.result()).toBe('exhausted');
    expect(new Set(f.ended)).toEqual(new Set(['root', 'A', 'B', 'A1', 'B1']));
  });
});
