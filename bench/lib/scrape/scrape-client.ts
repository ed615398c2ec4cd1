import { Pool } from 'undici';

export interface ScrapeClient {
  /** POST /v1/scrapes for a markdown scrape; reads and discards the body; returns its size. Throws on non-200. */
  scrape(body: string): Promise<number>;
  /** The same, parsed (for the correctness check outside the measured phases). */
  scrapeJson(url: string): Promise<{ result?: { markdown_content?: string | null } } & Record<string, unknown>>;
  close(): Promise<void>;
}

/** The request body of a default markdown scrape. */
export function scrapeBody(url: string): string {
  return JSON.stringify({ url_to_scrape: url, formats: ['markdown'] });
}

/**
 * The load generator's HTTP client: one undici Pool of keep-alive connections (one per request
 * in flight), bodies prepared by the caller, responses drained without parsing, so the generator
 * takes as little CPU as possible from the two cores it shares with the service.
 */
export function createScrapeClient(origin: string, apiKey: string, connections: number): ScrapeClient {
  const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const post = (body: string) => pool.request({ method: 'POST', path: '/v1/scrapes', headers, body });
  const failure = (statusCode: number, text: string) =>
    new Error(`POST /v1/scrapes answered ${statusCode}: ${text.slice(0, 300)}`);
  return {
    async scrape(body) {
      const res = await post(body);
      if (res.statusCode !== 200) throw failure(res.statusCode, await res.body.text());
      let size = 0;
      for await (const chunk of res.body) size += (chunk as Buffer).length;
      return size;
    },
    async scrapeJson(url) {
      const res = await post(scrapeBody(url));
      const text = await res.body.text();
      if (res.statusCode !== 200) throw failure(res.statusCode, text);
      return JSON.parse(text) as Awaited<ReturnType<ScrapeClient['scrapeJson']>>;
    },
    close: () => pool.close(),
  };
}
