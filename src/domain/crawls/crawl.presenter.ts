import { z } from 'zod';
import type { FilterPreviewResult } from './crawl.service.js';
import type { CrawlPagesView, CrawlView } from './crawl.view.js';

export const CrawlObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('crawl'),
    status: z.enum(['in_progress', 'completed', 'cancelled']),
    created: z.number().int().describe('Epoch seconds.'),
    start_date: z.string().describe('ISO 8601 UTC.'),
    completed_at: z.number().int().nullable().describe('Epoch seconds: when it ended (completed or cancelled).'),
    start_url: z.string(),
    max_pages: z.number().int(),
    max_depth: z.number().int().nullable().describe('Null: no depth limit.'),
    include_urls: z.array(z.string()),
    exclude_urls: z.array(z.string()),
    include_external: z.boolean(),
    include_subdomain: z.boolean(),
    search_query: z.string().nullable(),
    top_n: z.number().int().nullable(),
    follow_robots_txt: z.boolean(),
    timeout: z.number().int().describe('Seconds.'),
    scrape_options: z.record(z.string(), z.unknown()),
    webhook: z.string().nullable(),
    current_depth: z.number().int().describe('The deepest page crawled so far (start page: 0).'),
    pages_count: z.number().int(),
    failed_count: z.number().int().describe('URLs that could not be crawled (see failed_urls in the pages listing).'),
    blocked_count: z.number().int().describe('URLs robots.txt did not let the crawl fetch.'),
    external_count: z.number().int().describe('Distinct URLs on other sites that crawled pages link to.'),
    stop_reason: z
      .enum([
        'max_pages',
        'timeout',
        'exhausted',
        'robots_unreachable',
        'robots_disallowed',
        'start_failed',
        'engine_error',
        'cancelled',
      ])
      .nullable()
      .describe('Why the crawl ended; null while it runs.'),
    warning: z
      .string()
      .nullable()
      .describe('What to know about how the crawl ended (robots.txt, an unreachable site).'),
  })
  .meta({ id: 'Crawl' });

export function presentCrawl(crawl: CrawlView): z.output<typeof CrawlObject> {
  return {
    id: crawl.id,
    object: 'crawl',
    status: crawl.status,
    created: crawl.created,
    start_date: crawl.startDate,
    completed_at: crawl.completedAt,
    start_url: crawl.startUrl,
    max_pages: crawl.maxPages,
    max_depth: crawl.maxDepth,
    include_urls: crawl.includeUrls,
    exclude_urls: crawl.excludeUrls,
    include_external: crawl.includeExternal,
    include_subdomain: crawl.includeSubdomain,
    search_query: crawl.searchQuery,
    top_n: crawl.topN,
    follow_robots_txt: crawl.followRobotsTxt,
    timeout: crawl.timeout,
    scrape_options: crawl.scrapeOptions,
    webhook: crawl.webhook,
    current_depth: crawl.currentDepth,
    pages_count: crawl.pagesCount,
    failed_count: crawl.failedCount,
    blocked_count: crawl.blockedCount,
    external_count: crawl.externalCount,
    stop_reason: crawl.stopReason,
    warning: crawl.warning,
  };
}

export const CrawlPageObject = z
  .looseObject({
    id: z.string(),
    retrieve_id: z.string().describe('Use with GET /v1/retrieve.'),
    url: z.string().describe('Where the content came from (after redirects).'),
    is_external: z.boolean(),
    depth: z.number().int().describe('Links away from the start page.'),
  })
  .meta({ id: 'CrawlPage' });

export const CrawlPagesObject = z
  .looseObject({
    id: z.string(),
    crawl_id: z.string(),
    object: z.literal('crawl'),
    status: z.string(),
    pages_count: z.number().int().describe('Pages in the listing (all, or those matching search_query).'),
    pages: z.array(CrawlPageObject),
    metadata: z.object({
      external_urls: z.array(z.string()).describe('URLs on other sites that crawled pages link to (first 1000).'),
      failed_urls: z.array(z.string()).describe('URLs that could not be crawled (first 1000).'),
    }),
    cursor: z.number().int().optional().describe('Present when a further page exists.'),
  })
  .meta({ id: 'CrawlPageList' });

export function presentCrawlPages(page: CrawlPagesView): z.output<typeof CrawlPagesObject> {
  return {
    id: page.crawlId,
    crawl_id: page.crawlId,
    object: 'crawl',
    status: page.status,
    pages_count: page.pagesCount,
    pages: page.pages.map((p) => ({
      id: p.id,
      retrieve_id: p.retrieveId,
      url: p.url,
      is_external: p.isExternal,
      depth: p.depth,
    })),
    metadata: { external_urls: page.externalUrls, failed_urls: page.failedUrls },
    ...(page.cursor !== null ? { cursor: page.cursor } : {}),
  };
}

export const CrawlFilterPreviewObject = z
  .looseObject({
    object: z.literal('crawl_filter_preview'),
    include_urls: z.array(z.string()),
    exclude_urls: z.array(z.string()),
    kept: z.number().int().describe('URLs the filters keep.'),
    results: z.array(
      z.object({
        url: z.string(),
        keep: z.boolean(),
        reason: z
          .enum(['excluded', 'included', 'not_included', 'no_include_patterns', 'invalid_url'])
          .describe('excluded: an exclude pattern matched (exclusion wins); not_included: no include pattern matched.'),
        pattern: z.string().optional().describe('The pattern that decided.'),
      }),
    ),
  })
  .meta({ id: 'CrawlFilterPreview' });

export function presentFilterPreview(preview: {
  includeUrls: string[];
  excludeUrls: string[];
  results: FilterPreviewResult[];
}): z.output<typeof CrawlFilterPreviewObject> {
  return {
    object: 'crawl_filter_preview',
    include_urls: preview.includeUrls,
    exclude_urls: preview.excludeUrls,
    kept: preview.results.filter((r) => r.keep).length,
    results: preview.results.map((r) => ({
      url: r.url,
      keep: r.keep,
      reason: r.reason,
      ...(r.pattern !== undefined ? { pattern: r.pattern } : {}),
    })),
  };
}
