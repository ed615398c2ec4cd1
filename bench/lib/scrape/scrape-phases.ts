import type { ForkedChild } from '../child-process.js';
import { type PhaseResult, runFixedConcurrency } from '../measure/fixed-concurrency.js';
import type { ServiceProcess } from '../service-process.js';
import { accounted, type PhaseRecord, type RoundUse, type Side, toRecord } from './phase-accounting.js';
import { createScrapeClient, scrapeBody } from './scrape-client.js';

/** One side of the comparison, able to scrape a list of pages at a concurrency. */
export interface BenchSide {
  side: Side;
  pid: number;
  /** Scrapes `urls` with `concurrency` in flight; the reference also reports its stage timings. */
  run(urls: readonly string[], concurrency: number): Promise<{ phase: PhaseResult; stages?: Record<string, number> }>;
  close?(): Promise<void>;
}

/** The reference loop in its child process (bench/lib/scrape/reference-child.ts). */
export function referenceSide(reference: ForkedChild<{ pid: number }>): BenchSide {
  return {
    side: 'reference',
    pid: reference.ready.pid,
    run: (urls, concurrency) =>
      reference.request<{ phase: PhaseResult; stages: Record<string, number> }>({ type: 'run', urls, concurrency }),
  };
}

/**
 * The service behind its HTTP API: one keep-alive pool per concurrency (a connection per request
 * in flight); request bodies are built before the clock starts, so the generator costs the cores
 * it shares with the service as little as possible.
 */
export function serviceSide(service: ServiceProcess): BenchSide {
  const clients = new Map<number, ReturnType<typeof createScrapeClient>>();
  return {
    side: 'service',
    pid: service.pid,
    async run(urls, concurrency) {
      let client = clients.get(concurrency);
      if (!client) {
        for (const old of clients.values()) await old.close();
        clients.clear();
        client = createScrapeClient(service.origin, service.apiKey, concurrency);
        clients.set(concurrency, client);
      }
      const bodies = urls.map(scrapeBody);
      const scrape = client;
      return {
        phase: await runFixedConcurrency(bodies, concurrency, async (body) => void (await scrape.scrape(body))),
      };
    },
    async close() {
      for (const client of clients.values()) await client.close();
      clients.clear();
    },
  };
}

export interface InterleavedPlan {
  warmup: readonly string[];
  measured: readonly string[];
  concurrency: number;
  rounds: number;
  sitePid: number;
}

/**
 * Measures every side at one concurrency, interleaved: each side warms up, then the measured pages
 * are cut into `rounds` slices and each slice runs on every side in turn (the order alternating
 * between rounds). On a machine shared with other work, whatever else runs lands on both sides
 * alike instead of on whichever phase it happened to overlap.
 */
export async function measureInterleaved(sides: readonly BenchSide[], plan: InterleavedPlan): Promise<PhaseRecord[]> {
  for (const side of sides) {
    const warm = await side.run(plan.warmup, plan.concurrency);
    if (warm.phase.failures.length > 0) {
      throw new Error(`${side.side} warm-up failed: ${warm.phase.failures[0]!.message}`);
    }
  }
  const used = new Map<Side, RoundUse[]>(sides.map((s) => [s.side, []]));
  const size = Math.ceil(plan.measured.length / plan.rounds);
  for (let round = 0; round < plan.rounds; round++) {
    const slice = plan.measured.slice(round * size, (round + 1) * size);
    if (slice.length === 0) break;
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      used.get(side.side)!.push(await accounted(side.pid, plan.sitePid, () => side.run(slice, plan.concurrency)));
    }
  }
  return sides.map((side) => toRecord(side.side, plan.concurrency, used.get(side.side)!));
}

export interface MarkdownCheck {
  pages: number;
  identical: number;
  /** The first difference: page, offset and a few characters either side. */
  firstDifference?: { url: string; offset: number; service: string; reference: string };
}

/** Scrapes `urls` through the service and the reference and compares the markdown byte for byte. */
export async function compareMarkdown(
  service: ServiceProcess,
  reference: ForkedChild<{ pid: number }>,
  urls: readonly string[],
): Promise<MarkdownCheck> {
  const client = createScrapeClient(service.origin, service.apiKey, 1);
  try {
    const expected = (await reference.request<{ markdown: string[] }>({ type: 'markdown', urls })).markdown;
    const check: MarkdownCheck = { pages: urls.length, identical: 0 };
    for (const [i, url] of urls.entries()) {
      const got = (await client.scrapeJson(url)).result?.markdown_content ?? '';
      const want = expected[i] ?? '';
      if (got === want) {
        check.identical += 1;
        continue;
      }
      let offset = 0;
      while (offset < got.length && got[offset] === want[offset]) offset++;
      const around = (text: string) => text.slice(Math.max(0, offset - 40), offset + 80);
      check.firstDifference ??= { url, offset, service: around(got), reference: around(want) };
    }
    return check;
  } finally {
    await client.close();
  }
}
