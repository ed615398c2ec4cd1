import { z } from 'zod';
import type { GraphQLKit } from '../../module/graphql.js';
import type { CrawlProgressEvent } from '../../pubsub/events.js';
import { progressStream } from '../../pubsub/progress-stream.js';
import { resourceChannel } from '../../pubsub/events.js';
import type { CrawlPageEntry } from './crawl-pages.js';
import {
  CRAWL_LIMITS,
  CrawlIdParams,
  CrawlPagesQuery,
  CreateCrawlInput,
  PreviewCrawlFilterInput,
} from './crawl.schema.js';
import type { CrawlService, FilterPreviewResult } from './crawl.service.js';
import type { CrawlPagesView, CrawlView } from './crawl.view.js';

/** GraphQL passes numbers, REST passes query strings: the same limits, typed as numbers. */
const pageArgs = {
  cursor: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(100).optional(),
};

/** Crawls over GraphQL: the same views and zod schemas as REST, and live progress. */
export function crawlGraphQL(kit: GraphQLKit, crawls: CrawlService): void {
  const { builder } = kit;

  const CrawlProgressRef = builder.objectRef<CrawlProgressEvent>('CrawlProgress').implement({
    description:
      'Progress of a crawl: sent as pages are recorded (at most a few per second) and always when it completes.',
    fields: (t) => ({
      crawlId: t.exposeID('crawlId'),
      status: t.exposeString('status'),
      pagesCount: t.exposeInt('pagesCount', { description: 'Pages crawled so far.' }),
      failedCount: t.exposeInt('failedCount', { description: 'URLs that could not be crawled.' }),
      blockedCount: t.exposeInt('blockedCount', { description: 'URLs robots.txt did not let the crawl fetch.' }),
      currentDepth: t.exposeInt('currentDepth', { description: 'The deepest page so far (start page: 0).' }),
      at: t.exposeFloat('at', { description: 'Epoch milliseconds.' }),
    }),
  });
  kit.teamEvent(CrawlProgressRef, ['crawl.progress']);

  const CrawlPageRef = builder.objectRef<CrawlPageEntry>('CrawlPage').implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      retrieveId: t.exposeID('retrieveId', { description: 'Use with the retrieve query.' }),
      url: t.exposeString('url', { description: 'Where the content came from (after redirects).' }),
      isExternal: t.exposeBoolean('isExternal'),
      depth: t.exposeInt('depth', { description: 'Links away from the start page.' }),
    }),
  });

  const CrawlPageListRef = builder.objectRef<CrawlPagesView>('CrawlPageList').implement({
    fields: (t) => ({
      // Counted once per page by the `limit` of the field that returned this list.
      pages: t.expose('pages', { type: [CrawlPageRef], complexity: { field: 1, multiplier: 1 } }),
      pagesCount: t.exposeInt('pagesCount', {
        description: 'Pages in the listing (all, or those matching searchQuery).',
      }),
      externalUrls: t.exposeStringList('externalUrls'),
      failedUrls: t.exposeStringList('failedUrls'),
      cursor: t.exposeInt('cursor', { nullable: true, description: 'Pass as `cursor` for the next page.' }),
    }),
  });

  const CrawlRef = builder.objectRef<CrawlView>('Crawl').implement({
    description: 'A crawl of a site: pages found by following links from the start URL.',
    fields: (t) => ({
      id: t.exposeID('id'),
      status: t.exposeString('status'),
      created: t.exposeInt('created', { description: 'Epoch seconds.' }),
      startDate: t.exposeString('startDate'),
      completedAt: t.exposeInt('completedAt', { nullable: true, description: 'Epoch seconds.' }),
      startUrl: t.exposeString('startUrl'),
      maxPages: t.exposeInt('maxPages'),
      maxDepth: t.exposeInt('maxDepth', { nullable: true }),
      includeUrls: t.exposeStringList('includeUrls'),
      excludeUrls: t.exposeStringList('excludeUrls'),
      includeExternal: t.exposeBoolean('includeExternal'),
      includeSubdomain: t.exposeBoolean('includeSubdomain'),
      searchQuery: t.exposeString('searchQuery', { nullable: true }),
      topN: t.exposeInt('topN', { nullable: true }),
      followRobotsTxt: t.exposeBoolean('followRobotsTxt'),
      timeout: t.exposeInt('timeout', { description: 'Seconds.' }),
      scrapeOptions: t.expose('scrapeOptions', { type: 'JSON' }),
      webhook: t.exposeString('webhook', { nullable: true }),
      currentDepth: t.exposeInt('currentDepth'),
      pagesCount: t.exposeInt('pagesCount'),
      failedCount: t.exposeInt('failedCount'),
      blockedCount: t.exposeInt('blockedCount'),
      externalCount: t.exposeInt('externalCount'),
      stopReason: t.exposeString('stopReason', { nullable: true }),
      warning: t.exposeString('warning', { nullable: true }),
      pages: t.field({
        type: CrawlPageListRef,
        description: 'The pages crawled so far, in the order they were crawled.',
        args: { cursor: t.arg.int(), limit: t.arg.int(), searchQuery: t.arg.string() },
        complexity: kit.pageCost(CRAWL_LIMITS.pageSize.default),
        validate: kit.validate(kit.fromCamel(CrawlPagesQuery.extend(pageArgs))),
        resolve: (c, args, ctx) => crawls.pages(ctx.actor(), c.id, kit.parsed<z.output<typeof CrawlPagesQuery>>(args)),
      }),
    }),
  });

  const CrawlFilterVerdictRef = builder.objectRef<FilterPreviewResult>('CrawlFilterVerdict').implement({
    fields: (t) => ({
      url: t.exposeString('url'),
      keep: t.exposeBoolean('keep'),
      reason: t.exposeString('reason'),
      pattern: t.string({
        nullable: true,
        description: 'The pattern that decided.',
        resolve: (r) => r.pattern ?? null,
      }),
    }),
  });

  const CreateCrawl = kit.input(CreateCrawlInput, 'CreateCrawlInput', {
    names: { scrape_options: 'ScrapeOptionsInput' },
  });

  builder.queryFields((t) => ({
    crawl: t.field({
      type: CrawlRef,
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(CrawlIdParams.shape.crawl_id),
      resolve: (_, args, ctx) => crawls.get(ctx.actor(), String(args.id)),
    }),
    crawls: t.field({
      type: [CrawlRef],
      description: 'The team’s crawls, newest first.',
      args: { cursor: t.arg.int(), limit: t.arg.int() },
      complexity: kit.pageCost(CRAWL_LIMITS.pageSize.default),
      validate: kit.validate(z.object(pageArgs)),
      resolve: async (_, args, ctx) =>
        (await crawls.list(ctx.actor(), kit.parsed<{ cursor?: number; limit?: number }>(args))).crawls,
    }),
    previewCrawlFilter: t.field({
      type: [CrawlFilterVerdictRef],
      description: 'Which of `urls` the include/exclude globs keep, and the pattern that decided.',
      args: {
        includeUrls: t.arg.stringList(),
        excludeUrls: t.arg.stringList(),
        urls: t.arg.stringList({ required: true }),
      },
      validate: kit.validate(kit.fromCamel(PreviewCrawlFilterInput)),
      resolve: (_, args) => crawls.preview(kit.parsed<z.output<typeof PreviewCrawlFilterInput>>(args)).results,
    }),
  }));

  builder.mutationFields((t) => ({
    createCrawl: t.field({
      type: CrawlRef,
      description: 'Start a crawl (the same as POST /v1/crawls).',
      args: { input: t.arg({ type: CreateCrawl, required: true }) },
      validate: kit.validate(z.object({ input: kit.fromCamel(CreateCrawlInput) })),
      resolve: (_, args, ctx) =>
        crawls.create(ctx.actor(), kit.parsed<{ input: z.output<typeof CreateCrawlInput> }>(args).input),
    }),
  }));

  builder.subscriptionFields((t) => ({
    crawlProgress: t.field({
      type: CrawlProgressRef,
      description: 'Progress of one crawl: its current state first, then every update until it completes.',
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(CrawlIdParams.shape.crawl_id),
      subscribe: async function* (_, args, ctx) {
        const actor = ctx.actor();
        // Subscribe before reading the state, so no update falls between the two.
        const events = ctx.pubsub.subscribe(resourceChannel('crawl', String(args.id)));
        try {
          const current = await crawls.progress(actor, String(args.id)); // 404 for another team's crawl
          yield* progressStream<CrawlProgressEvent>(
            current,
            events,
            (e) => e.pagesCount + e.failedCount + e.blockedCount + e.currentDepth,
          );
        } finally {
          await events.return?.();
        }
      },
      resolve: (event) => event,
    }),
  }));
}
