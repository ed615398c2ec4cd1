import { z } from 'zod';
import type { GraphQLKit } from '../../module/graphql.js';
import { hostedUrl, inline, pageMetadataType, type StoredPageMetadata } from '../pages/pages.graphql.js';
import type { PageView } from '../pages/page-views.js';
import { epochSeconds } from '../shared/time.js';
import { CreateScrapeInput, ScrapeIdParams } from './scrape.schema.js';
import type { ScrapeService, ScrapeView } from './scrape.service.js';

/** Scrapes over GraphQL: the same service and zod schema as POST /v1/scrapes. */
export function scrapeGraphQL(kit: GraphQLKit, scrapes: ScrapeService): void {
  const { builder } = kit;
  const PageMetadataRef = pageMetadataType(kit);

  const ScrapeResultRef = builder.objectRef<ScrapeView>('ScrapeResult').implement({
    fields: (t) => {
      const page = (s: ScrapeView): PageView => s.page;
      return {
        markdownContent: t.string({ nullable: true, resolve: (s) => inline(page(s), 'markdown') }),
        htmlContent: t.string({ nullable: true, resolve: (s) => inline(page(s), 'html') }),
        textContent: t.string({ nullable: true, resolve: (s) => inline(page(s), 'text') }),
        jsonContent: t.string({
          nullable: true,
          description: 'Parser or llm_extract output as a JSON string.',
          resolve: (s) => inline(page(s), 'json'),
        }),
        markdownHostedUrl: t.string({ nullable: true, resolve: (s) => hostedUrl(page(s), 'markdown') }),
        htmlHostedUrl: t.string({ nullable: true, resolve: (s) => hostedUrl(page(s), 'html') }),
        textHostedUrl: t.string({ nullable: true, resolve: (s) => hostedUrl(page(s), 'text') }),
        jsonHostedUrl: t.string({ nullable: true, resolve: (s) => hostedUrl(page(s), 'json') }),
        screenshotHostedUrl: t.string({ nullable: true, resolve: (s) => hostedUrl(page(s), 'screenshot') }),
        pdfHostedUrl: t.string({ nullable: true, resolve: (s) => hostedUrl(page(s), 'raw_pdf') }),
        linksOnPage: t.stringList({
          nullable: true,
          resolve: (s) => (s.linksRequested ? (s.page.page.links ?? []) : null),
        }),
        pageMetadata: t.field({
          type: PageMetadataRef,
          resolve: (s) => s.page.page.pageMetadata as unknown as StoredPageMetadata,
        }),
        actionsOutput: t.field({ type: 'JSON', nullable: true, resolve: (s) => s.page.page.actionsOutput ?? null }),
      };
    },
  });

  const ScrapeRef = builder.objectRef<ScrapeView>('Scrape').implement({
    description: 'A completed scrape of one URL.',
    fields: (t) => ({
      id: t.id({ resolve: (s) => s.scrape.id }),
      created: t.int({ description: 'Epoch seconds.', resolve: (s) => epochSeconds(s.scrape.createdAt) }),
      url: t.string({ resolve: (s) => s.scrape.url }),
      urlToScrape: t.string({ resolve: (s) => s.scrape.url }),
      retrieveId: t.id({ resolve: (s) => s.page.page.id }),
      result: t.field({ type: ScrapeResultRef, resolve: (s) => s }),
      metadata: t.field({ type: 'JSON', resolve: (s) => s.scrape.metadata }),
      creditsConsumed: t.float({ nullable: true, resolve: () => 1 }),
      costUsd: t.float({ nullable: true, resolve: () => null }),
      sizeExceeded: t.boolean({ resolve: (s) => s.page.sizeExceeded }),
      warning: t.string({ nullable: true, resolve: (s) => s.scrape.warning ?? null }),
    }),
  });

  const CreateScrape = kit.input(CreateScrapeInput, 'CreateScrapeInput');

  builder.queryField('scrape', (t) =>
    t.field({
      type: ScrapeRef,
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(ScrapeIdParams.shape.scrape_id),
      resolve: (_, args, ctx) => scrapes.get(ctx.actor(), String(args.id)),
    }),
  );

  builder.mutationField('createScrape', (t) =>
    t.field({
      type: ScrapeRef,
      description: 'Scrape one URL (the same as POST /v1/scrapes).',
      args: { input: t.arg({ type: CreateScrape, required: true }) },
      validate: kit.validate(z.object({ input: kit.fromCamel(CreateScrapeInput) })),
      resolve: (_, args, ctx) =>
        scrapes.create(ctx.actor(), kit.parsed<{ input: z.output<typeof CreateScrapeInput> }>(args).input),
    }),
  );
}
