import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';
import { ScrapeOptionsShape } from '../scrapes/scrape.schema.js';

/** Bounds of the request fields; the server's own caps (CRAWL_MAX_PAGES, CRAWL_MAX_TIMEOUT_S) are checked by the service. */
export const CRAWL_LIMITS = {
  maxPages: 100_000,
  maxDepth: 1_000,
  maxTimeoutSeconds: 604_800,
  topN: 1_000,
  globs: 100,
  previewUrls: 1_000,
  urlLength: 8192,
  pageSize: { min: 1, max: 100, default: 50 },
} as const;

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

const wholeNumber = (what: string) =>
  z
    .number({
      error: (issue) =>
        issue.input === undefined
          ? `is required (${what})`
          : `must be a number (${what}; got ${typeName(issue.input)})`,
    })
    .int({ error: 'must be a whole number' });

/** A list of URL globs (src/url/glob.ts semantics); the patterns themselves are compiled by the service. */
const GlobList = z
  .array(
    z
      .string({ error: (issue) => `must be a string glob pattern (got ${typeName(issue.input)})` })
      .min(1, { error: 'must not be empty' })
      .max(2000),
    { error: (issue) => `must be an array of glob pattern strings (got ${typeName(issue.input)})` },
  )
  .max(CRAWL_LIMITS.globs, { error: `at most ${CRAWL_LIMITS.globs} patterns` });

const UrlString = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'is required (an absolute http(s) URL)'
        : `must be a URL string (got ${typeName(issue.input)})`,
  })
  .min(1)
  .max(CRAWL_LIMITS.urlLength);

const { engine: _engine, ...pageOptions } = ScrapeOptionsShape;

/** What every page of a crawl is scraped with: the scrape options, `engine` limited to the crawl's two. */
export const CrawlScrapeOptions = z
  .strictObject({
    ...pageOptions,
    engine: z
      .enum(['http', 'playwright'], { error: 'must be http or playwright' })
      .optional()
      .describe(
        'Extension: `playwright` renders every page in Chromium; default: a browser only when the options need one.',
      ),
  })
  .describe('Options every crawled page is scraped with (formats, parser, ...), as for POST /v1/scrapes.');

const webhookField = z.string().min(1).max(2048);

/** POST /v1/crawls (decisions.md, "Crawls"). */
export const CreateCrawlInput = z
  .strictObject({
    start_url: UrlString.describe('Where the crawl starts; the site it keeps to is this URL’s host.'),
    max_pages: wholeNumber('the most pages to crawl, at least 1')
      .min(1, { error: 'must be at least 1' })
      .max(CRAWL_LIMITS.maxPages, { error: `must be at most ${CRAWL_LIMITS.maxPages}` })
      .describe('Pages to crawl at most (the crawl then completes).'),
    max_depth: wholeNumber('links away from the start page, 0 or more')
      .min(0, { error: 'must be 0 or more' })
      .max(CRAWL_LIMITS.maxDepth)
      .optional()
      .describe('Links away from the start page (0: the start page only). Default: no limit.'),
    include_urls: GlobList.optional().describe(
      'Globs (default `/**`): `/…` matches the path, others the whole URL; `**` crosses segments.',
    ),
    exclude_urls: GlobList.optional().describe(
      'Globs; exclusion wins. Excluded pages are neither fetched nor followed.',
    ),
    include_external: z
      .boolean()
      .optional()
      .describe('Also crawl pages on other sites that crawled pages link to (their own links are not followed).'),
    include_subdomain: z.boolean().optional().describe('Follow links to subdomains of the site (default false).'),
    search_query: z.string().max(1000).optional().describe('Follows the most relevant links of each page first.'),
    top_n: wholeNumber('links per page')
      .min(1, { error: 'must be at least 1' })
      .max(CRAWL_LIMITS.topN)
      .optional()
      .describe('Follow only the n most relevant links of each page; requires search_query.'),
    follow_robots_txt: z.boolean().optional().describe('Honour robots.txt, Crawl-delay included (default true).'),
    timeout: z
      .number({ error: (issue) => `must be a number of seconds (got ${typeName(issue.input)})` })
      .positive({ error: 'must be more than 0 seconds' })
      .max(CRAWL_LIMITS.maxTimeoutSeconds)
      .optional()
      .describe('Seconds; the crawl then completes with what it reached.'),
    scrape_options: CrawlScrapeOptions.optional(),
    webhook: webhookField.optional().describe('HTTPS URL that receives crawl.completed.'),
    webhook_url: webhookField.optional().describe('Alias of webhook.'),
  })
  .superRefine((body, ctx) => {
    if (body.top_n !== undefined && (body.search_query === undefined || body.search_query.trim() === '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['top_n'],
        message: 'requires search_query (top_n follows the n most relevant links of each page)',
      });
    }
    if (body.webhook !== undefined && body.webhook_url !== undefined && body.webhook !== body.webhook_url) {
      ctx.addIssue({ code: 'custom', path: ['webhook_url'], message: 'differs from webhook; send one of them' });
    }
  })
  .meta({ id: 'CreateCrawlRequest' });

export type CreateCrawlCommand = z.output<typeof CreateCrawlInput>;
export type CrawlScrapeOptionsInput = z.output<typeof CrawlScrapeOptions>;

/** POST /v1/crawls/preview: which of `urls` a filter set keeps, and the pattern that decided. */
export const PreviewCrawlFilterInput = z
  .strictObject({
    include_urls: GlobList.optional(),
    exclude_urls: GlobList.optional(),
    urls: z
      .array(UrlString, { error: 'is required (an array of absolute URLs to test)' })
      .min(1, { error: 'must list at least one URL' })
      .max(CRAWL_LIMITS.previewUrls, { error: `at most ${CRAWL_LIMITS.previewUrls} URLs` }),
  })
  .meta({ id: 'PreviewCrawlFilterRequest' });

export type PreviewCrawlFilterCommand = z.output<typeof PreviewCrawlFilterInput>;

export const CrawlIdParams = z.object({ crawl_id: resourceId('crawl') });

const limit = queryInt(CRAWL_LIMITS.pageSize.min, CRAWL_LIMITS.pageSize.max)
  .optional()
  .describe(`1 to ${CRAWL_LIMITS.pageSize.max}, default ${CRAWL_LIMITS.pageSize.default}.`);
const cursor = queryInt(0, 1_000_000_000).optional().describe('Offset from the previous page.');

export const CrawlPagesQuery = z.object({
  cursor,
  limit,
  search_query: z.string().max(1000).optional().describe('Only pages matching these words, most relevant first.'),
});

export const ListCrawlsQuery = z.object({ cursor, limit });
