import { z } from 'zod';
import {
  CRAWL_LIMITS,
  CrawlIdParams,
  CrawlPagesQuery,
  CreateCrawlInput,
  PreviewCrawlFilterInput,
} from '../../src/domain/crawls/crawl.schema.js';
import { progressEvent } from '../../src/domain/crawls/crawl-progress.js';
import type { Crawl } from '../../src/domain/crawls/crawl.entity.js';
import { presentCrawl, presentCrawlPages, presentFilterPreview } from '../../src/domain/crawls/crawl.presenter.js';
import type { CrawlProgressEvent } from '../../src/pubsub/events.js';
import { resourceChannel } from '../../src/pubsub/events.js';
import { builder } from '../builder.js';
import { fromCamel, validateId, validateWith } from '../camel-input.js';
import { pageCost } from '../cost.js';
import { CrawlProgressRef } from './events.js';

type PresentedPages = ReturnType<typeof presentCrawlPages>;
type PresentedPreview = ReturnType<typeof presentFilterPreview>;

const CrawlPageRef = builder.objectRef<PresentedPages['pages'][number]>('CrawlPage').implement({
  fields: (t) => ({
    id: t.id({ resolve: (p) => p.id }),
    retrieveId: t.id({ resolve: (p) => p.retrieve_id, description: 'Use with the retrieve query.' }),
    url: t.string({ resolve: (p) => p.url, description: 'Where the content came from (after redirects).' }),
    isExternal: t.boolean({ resolve: (p) => p.is_external }),
    depth: t.int({ resolve: (p) => p.depth, description: 'Links away from the start page.' }),
  }),
});

const CrawlPageListRef = builder.objectRef<PresentedPages>('CrawlPageList').implement({
  fields: (t) => ({
    // Counted once per page by the `limit` of the field that returned this list.
    pages: t.field({ type: [CrawlPageRef], complexity: { field: 1, multiplier: 1 }, resolve: (p) => p.pages }),
    pagesCount: t.int({
      description: 'Pages in the listing (all, or those matching searchQuery).',
      resolve: (p) => p.pages_count,
    }),
    externalUrls: t.stringList({ resolve: (p) => p.metadata.external_urls }),
    failedUrls: t.stringList({ resolve: (p) => p.metadata.failed_urls }),
    cursor: t.int({
      nullable: true,
      description: 'Pass as `cursor` for the next page.',
      resolve: (p) => p.cursor ?? null,
    }),
  }),
});

/** GraphQL passes numbers, REST passes query strings: the same limits, typed as numbers. */
const pageArgs = {
  cursor: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(100).optional(),
};

const CrawlRef = builder.objectRef<Crawl>('Crawl').implement({
  description: 'A crawl of a site: pages found by following links from the start URL.',
  fields: (t) => {
    const p = (crawl: Crawl) => presentCrawl(crawl);
    return {
      id: t.id({ resolve: (c) => c.id }),
      status: t.string({ resolve: (c) => c.status }),
      created: t.int({ description: 'Epoch seconds.', resolve: (c) => p(c).created }),
      startDate: t.string({ resolve: (c) => p(c).start_date }),
      completedAt: t.int({ nullable: true, description: 'Epoch seconds.', resolve: (c) => p(c).completed_at }),
      startUrl: t.string({ resolve: (c) => c.startUrl }),
      maxPages: t.int({ resolve: (c) => c.maxPages }),
      maxDepth: t.int({ nullable: true, resolve: (c) => c.maxDepth }),
      includeUrls: t.stringList({ resolve: (c) => c.includeUrls }),
      excludeUrls: t.stringList({ resolve: (c) => c.excludeUrls }),
      includeExternal: t.boolean({ resolve: (c) => c.includeExternal }),
      includeSubdomain: t.boolean({ resolve: (c) => c.includeSubdomain }),
      searchQuery: t.string({ nullable: true, resolve: (c) => c.searchQuery }),
      topN: t.int({ nullable: true, resolve: (c) => c.topN }),
      followRobotsTxt: t.boolean({ resolve: (c) => c.followRobotsTxt }),
      timeout: t.int({ description: 'Seconds.', resolve: (c) => c.timeoutSeconds }),
      scrapeOptions: t.field({ type: 'JSON', resolve: (c) => c.options }),
      webhook: t.string({ nullable: true, resolve: (c) => c.webhook }),
      currentDepth: t.int({ resolve: (c) => c.currentDepth }),
      pagesCount: t.int({ resolve: (c) => c.pagesCount }),
      failedCount: t.int({ resolve: (c) => c.failedCount }),
      blockedCount: t.int({ resolve: (c) => c.blockedCount }),
      externalCount: t.int({ resolve: (c) => c.externalCount }),
      stopReason: t.string({ nullable: true, resolve: (c) => c.stopReason }),
      warning: t.string({ nullable: true, resolve: (c) => c.warning }),
      pages: t.field({
        type: CrawlPageListRef,
        description: 'The pages crawled so far, in the order they were crawled.',
        args: { cursor: t.arg.int(), limit: t.arg.int(), searchQuery: t.arg.string() },
        complexity: pageCost(CRAWL_LIMITS.pageSize.default),
        validate: validateWith(fromCamel(CrawlPagesQuery.extend(pageArgs))),
        resolve: async (c, args, ctx) =>
          presentCrawlPages(
            await ctx.services.crawls.pages(ctx.actor(), c.id, args as z.output<typeof CrawlPagesQuery>),
          ),
      }),
    };
  },
});

const CrawlFilterVerdictRef = builder.objectRef<PresentedPreview['results'][number]>('CrawlFilterVerdict').implement({
  fields: (t) => ({
    url: t.string({ resolve: (r) => r.url }),
    keep: t.boolean({ resolve: (r) => r.keep }),
    reason: t.string({ resolve: (r) => r.reason }),
    pattern: t.string({ nullable: true, description: 'The pattern that decided.', resolve: (r) => r.pattern ?? null }),
  }),
});

const CreateCrawlGqlInput = builder.inputType('CreateCrawlInput', {
  fields: (t) => ({
    startUrl: t.string({ required: true }),
    maxPages: t.int({ required: true }),
    maxDepth: t.int(),
    includeUrls: t.stringList({ description: 'Globs (default `/**`): `/…` matches the path, `**` crosses segments.' }),
    excludeUrls: t.stringList({ description: 'Globs; exclusion wins.' }),
    includeExternal: t.boolean(),
    includeSubdomain: t.boolean(),
    searchQuery: t.string(),
    topN: t.int({ description: 'Follow only the n most relevant links of each page; requires searchQuery.' }),
    followRobotsTxt: t.boolean(),
    timeout: t.float({ description: 'Seconds.' }),
    scrapeOptions: t.field({ type: 'JSON', description: 'As for POST /v1/crawls (snake_case or camelCase keys).' }),
    webhook: t.string({ description: 'HTTPS URL that receives crawl.completed.' }),
  }),
});

builder.queryFields((t) => ({
  crawl: t.field({
    type: CrawlRef,
    args: { id: t.arg.id({ required: true }) },
    validate: validateId(CrawlIdParams.shape.crawl_id),
    resolve: (_, args, ctx) => ctx.services.crawls.get(ctx.actor(), String(args.id)),
  }),
  crawls: t.field({
    type: [CrawlRef],
    description: 'The team’s crawls, newest first.',
    args: { cursor: t.arg.int(), limit: t.arg.int() },
    complexity: pageCost(CRAWL_LIMITS.pageSize.default),
    validate: validateWith(z.object(pageArgs)),
    resolve: async (_, args, ctx) =>
      (await ctx.services.crawls.list(ctx.actor(), args as { cursor?: number; limit?: number })).crawls,
  }),
  previewCrawlFilter: t.field({
    type: [CrawlFilterVerdictRef],
    description: 'Which of `urls` the include/exclude globs keep, and the pattern that decided.',
    args: {
      includeUrls: t.arg.stringList(),
      excludeUrls: t.arg.stringList(),
      urls: t.arg.stringList({ required: true }),
    },
    validate: validateWith(fromCamel(PreviewCrawlFilterInput)),
    resolve: (_, args, ctx) =>
      presentFilterPreview(ctx.services.crawls.preview(args as unknown as z.output<typeof PreviewCrawlFilterInput>))
        .results,
  }),
}));

builder.mutationFields((t) => ({
  createCrawl: t.field({
    type: CrawlRef,
    description: 'Start a crawl (the same as POST /v1/crawls).',
    args: { input: t.arg({ type: CreateCrawlGqlInput, required: true }) },
    validate: validateWith(z.object({ input: fromCamel(CreateCrawlInput) })),
    resolve: (_, args, ctx) => {
      const { input } = args as unknown as { input: z.output<typeof CreateCrawlInput> };
      return ctx.services.crawls.create(ctx.actor(), input);
    },
  }),
}));

builder.subscriptionFields((t) => ({
  crawlProgress: t.field({
    type: CrawlProgressRef,
    description: 'Progress of one crawl: its current state first, then every update until it completes.',
    args: { id: t.arg.id({ required: true }) },
    validate: validateId(CrawlIdParams.shape.crawl_id),
    subscribe: async function* (_, args, ctx) {
      const actor = ctx.actor();
      // Subscribe before reading the state, so no update falls between the two.
      const events = ctx.pubsub.subscribe(resourceChannel('crawl', String(args.id)));
      try {
        const crawl = await ctx.services.crawls.get(actor, String(args.id)); // 404 for another team's crawl
        yield progressEvent(crawl, crawl);
        if (crawl.status !== 'in_progress') return;
        for await (const event of events) {
          yield event as CrawlProgressEvent;
          if ((event as CrawlProgressEvent).status !== 'in_progress') return;
        }
      } finally {
        await events.return?.();
      }
    },
    resolve: (event) => event,
  }),
}));
