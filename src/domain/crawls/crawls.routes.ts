import { z } from 'zod';
import {
  CrawlIdParams,
  CrawlPagesQuery,
  CreateCrawlInput,
  ListCrawlsQuery,
  PreviewCrawlFilterInput,
} from './crawl.schema.js';
import {
  CrawlFilterPreviewObject,
  CrawlObject,
  CrawlPagesObject,
  presentCrawl,
  presentCrawlPages,
  presentFilterPreview,
} from './crawl.presenter.js';
import { defineRoute } from '../../module/route.js';
import type { CrawlService } from './crawl.service.js';

const tags = ['Crawls'];
const notFound = { 404: { description: 'No such crawl (`crawl_not_found`).' } };

export function crawlRoutes({ crawls }: { crawls: CrawlService }) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/crawls',
      operationId: 'createCrawl',
      summary: 'Start a crawl',
      description:
        'Crawls a site from `start_url` by following links, breadth first, each page scraped with `scrape_options`. Accepted at once; the crawl always completes (max_pages, timeout, or nothing left to fetch) and the webhook (if any) receives crawl.completed.',
      tags,
      body: CreateCrawlInput,
      responses: {
        200: { description: 'The crawl, in progress.', schema: CrawlObject },
        400: { description: 'Invalid input (max_pages, max_depth, globs, top_n without search_query, ...).' },
        403: { description: 'start_url or the webhook is refused by the outbound policy (`blacklisted_domain`).' },
      },
      handler: async ({ actor, body }) => presentCrawl(await crawls.create(actor, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/crawls/preview',
      operationId: 'previewCrawlFilter',
      summary: 'Preview URL filters',
      description:
        'Extension: which of `urls` the include_urls / exclude_urls globs keep, and the pattern that decided (the exact semantics a crawl applies).',
      tags,
      body: PreviewCrawlFilterInput,
      responses: {
        200: { description: 'One verdict per URL, in order.', schema: CrawlFilterPreviewObject },
        400: { description: 'A pattern that cannot be compiled, named by field and index.' },
      },
      handler: ({ body }) => presentFilterPreview(crawls.preview(body)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/crawls',
      operationId: 'listCrawls',
      summary: 'List crawls',
      tags,
      query: ListCrawlsQuery,
      responses: {
        200: {
          description: 'The team’s crawls, newest first.',
          schema: z.object({
            object: z.literal('list'),
            data: z.array(CrawlObject),
            cursor: z.number().int().optional(),
          }),
        },
      },
      handler: async ({ actor, query }) => {
        const { crawls: list, nextCursor } = await crawls.list(actor, query);
        return { object: 'list', data: list.map(presentCrawl), ...(nextCursor !== null ? { cursor: nextCursor } : {}) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/crawls/{crawl_id}',
      operationId: 'getCrawl',
      summary: 'Get a crawl',
      tags,
      params: CrawlIdParams,
      responses: { 200: { description: 'The crawl.', schema: CrawlObject }, ...notFound },
      handler: async ({ actor, params }) => presentCrawl(await crawls.get(actor, params.crawl_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/crawls/{crawl_id}/cancel',
      operationId: 'cancelCrawl',
      summary: 'Cancel a crawl',
      description:
        'Extension: the crawl stops fetching and records nothing more (pages being fetched are not recorded, queued URLs are never fetched); the pages it had stay readable. It ends `cancelled` (`stop_reason` too, `completed_at` is when), its webhook receives `crawl.cancelled`, and progress subscribers a last event. Cancelling a cancelled crawl returns it unchanged.',
      tags,
      params: CrawlIdParams,
      responses: {
        200: { description: 'The crawl, cancelled.', schema: CrawlObject },
        ...notFound,
        409: { description: 'The crawl already completed (`crawl_not_in_progress`).' },
      },
      handler: async ({ actor, params }) => presentCrawl(await crawls.cancel(actor, params.crawl_id)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/crawls/{crawl_id}/pages',
      operationId: 'listCrawlPages',
      summary: 'List crawl pages',
      description:
        'The pages crawled so far, in the order they were crawled; readable while the crawl runs (the cursor stays valid as pages are added).',
      tags,
      params: CrawlIdParams,
      query: CrawlPagesQuery,
      responses: { 200: { description: 'A page of the crawl’s pages.', schema: CrawlPagesObject }, ...notFound },
      handler: async ({ actor, params, query }) => presentCrawlPages(await crawls.pages(actor, params.crawl_id, query)),
    }),
  ];
}
