import { z } from 'zod';
import { RetrieveQuery } from '../../src/domain/pages/retrieve.schema.js';
import { CreateScrapeInput, ScrapeIdParams } from '../../src/domain/scrapes/scrape.schema.js';
import { presentRetrieve } from '../../src/domain/pages/page.presenter.js';
import { presentScrape } from '../../src/domain/scrapes/scrape.presenter.js';
import { builder } from '../builder.js';
import { fromCamel, validateId, validateWith } from '../camel-input.js';

type Presented = Record<string, unknown>;
const str = (obj: Presented, key: string) => (obj[key] as string | null | undefined) ?? null;

const LinksOnPageInput = builder.inputType('LinksOnPageInput', {
  fields: (t) => ({
    absoluteLinks: t.boolean({ description: 'Resolve links against the page URL (default true).' }),
    queryToOrderLinksBy: t.string(),
    includeLinks: t.stringList({ description: 'URL globs: `/…` matches the path, `**` crosses segments.' }),
    excludeLinks: t.stringList({ description: 'URL globs; exclusion wins.' }),
  }),
});
const ScreenSizeInput = builder.inputType('ScreenSizeInput', {
  fields: (t) => ({
    screenType: t.string({ description: '`default` 1024×768, `mobile` 414×896, `desktop` 1920×1080.' }),
    screenWidth: t.int(),
    screenHeight: t.int(),
  }),
});
const ScreenshotInput = builder.inputType('ScreenshotInput', {
  fields: (t) => ({ fullPage: t.boolean() }),
});
const ParserInput = builder.inputType('ParserInput', { fields: (t) => ({ id: t.string({ required: true }) }) });
const LlmExtractInput = builder.inputType('LlmExtractInput', {
  fields: (t) => ({ schema: t.field({ type: 'JSON', required: true }), prompt: t.string() }),
});
const ActionInput = builder.inputType('ActionInput', {
  description: 'A browser action; `type` decides which other fields it needs.',
  fields: (t) => ({
    type: t.string({
      required: true,
      description: 'wait, wait_for, click, fill_input, press, scroll, hover, execute_js',
    }),
    milliseconds: t.int(),
    selector: t.string(),
    timeout: t.int(),
    value: t.string(),
    key: t.string(),
    direction: t.string(),
    amount: t.int(),
    script: t.string(),
  }),
});

const CreateScrapeGqlInput = builder.inputType('CreateScrapeInput', {
  fields: (t) => ({
    urlToScrape: t.string(),
    url: t.string({ description: 'Alias of urlToScrape.' }),
    formats: t.stringList({ description: 'markdown (default), html, text, json, raw_pdf, screenshot.' }),
    waitBeforeScraping: t.int(),
    country: t.string(),
    removeCssSelectors: t.stringList({ description: '["default"] (default), ["none"], or CSS selectors.' }),
    removeImages: t.boolean(),
    removeClassNames: t.stringList(),
    actions: t.field({ type: [ActionInput] }),
    parser: t.field({ type: ParserInput }),
    llmExtract: t.field({ type: LlmExtractInput }),
    linksOnPage: t.field({ type: LinksOnPageInput }),
    screenshot: t.field({ type: ScreenshotInput }),
    screenSize: t.field({ type: ScreenSizeInput }),
    transformer: t.string({ description: 'none (default), readability, postlight.' }),
    engine: t.string({ description: 'Force an engine by id.' }),
    metadata: t.field({ type: 'JSON' }),
  }),
});

/** `["default"]` / `["none"]` in GraphQL are the REST strings "default" / "none". */
const gqlScrapeInput = z.preprocess((value) => {
  if (!value || typeof value !== 'object') return value;
  const input = value as Record<string, unknown>;
  const selectors = input.removeCssSelectors;
  if (Array.isArray(selectors) && selectors.length === 1 && (selectors[0] === 'default' || selectors[0] === 'none')) {
    return { ...input, removeCssSelectors: selectors[0] };
  }
  return value;
}, fromCamel(CreateScrapeInput));

const ScrapeResultRef = builder.objectRef<Presented>('ScrapeResult').implement({
  fields: (t) => ({
    markdownContent: t.string({ nullable: true, resolve: (r) => str(r, 'markdown_content') }),
    htmlContent: t.string({ nullable: true, resolve: (r) => str(r, 'html_content') }),
    textContent: t.string({ nullable: true, resolve: (r) => str(r, 'text_content') }),
    jsonContent: t.string({
      nullable: true,
      description: 'Parser output as a JSON string.',
      resolve: (r) => str(r, 'json_content'),
    }),
    markdownHostedUrl: t.string({ nullable: true, resolve: (r) => str(r, 'markdown_hosted_url') }),
    htmlHostedUrl: t.string({ nullable: true, resolve: (r) => str(r, 'html_hosted_url') }),
    textHostedUrl: t.string({ nullable: true, resolve: (r) => str(r, 'text_hosted_url') }),
    jsonHostedUrl: t.string({ nullable: true, resolve: (r) => str(r, 'json_hosted_url') }),
    screenshotHostedUrl: t.string({ nullable: true, resolve: (r) => str(r, 'screenshot_hosted_url') }),
    pdfHostedUrl: t.string({ nullable: true, resolve: (r) => str(r, 'pdf_hosted_url') }),
    linksOnPage: t.stringList({ nullable: true, resolve: (r) => (r.links_on_page as string[] | undefined) ?? null }),
    pageMetadata: t.field({ type: 'JSON', resolve: (r) => r.page_metadata }),
    actionsOutput: t.field({ type: 'JSON', nullable: true, resolve: (r) => r.actions_output ?? null }),
  }),
});

const ScrapeRef = builder.objectRef<Presented>('Scrape').implement({
  description: 'A completed scrape of one URL.',
  fields: (t) => ({
    id: t.id({ resolve: (s) => s.id as string }),
    created: t.int({ description: 'Epoch seconds.', resolve: (s) => s.created as number }),
    url: t.string({ resolve: (s) => s.url as string }),
    urlToScrape: t.string({ resolve: (s) => s.url_to_scrape as string }),
    retrieveId: t.id({ resolve: (s) => s.retrieve_id as string }),
    result: t.field({ type: ScrapeResultRef, resolve: (s) => s.result as Presented }),
    metadata: t.field({ type: 'JSON', resolve: (s) => s.metadata }),
    creditsConsumed: t.float({ nullable: true, resolve: (s) => (s.credits_consumed as number | null) ?? null }),
    costUsd: t.float({ nullable: true, resolve: (s) => (s.cost_usd as number | null) ?? null }),
    sizeExceeded: t.boolean({ resolve: (s) => s.size_exceeded as boolean }),
    warning: t.string({ nullable: true, resolve: (s) => str(s, 'warning') }),
  }),
});

const PageContentRef = builder.objectRef<Presented>('PageContent').implement({
  description: 'Stored content of a scrape, batch item or crawl page.',
  fields: (t) => ({
    retrieveId: t.id({ resolve: (p) => p.retrieve_id as string }),
    url: t.string({ resolve: (p) => p.url as string }),
    markdownContent: t.string({ nullable: true, resolve: (p) => str(p, 'markdown_content') }),
    htmlContent: t.string({ nullable: true, resolve: (p) => str(p, 'html_content') }),
    textContent: t.string({ nullable: true, resolve: (p) => str(p, 'text_content') }),
    jsonContent: t.string({ nullable: true, resolve: (p) => str(p, 'json_content') }),
    markdownHostedUrl: t.string({ nullable: true, resolve: (p) => str(p, 'markdown_hosted_url') }),
    htmlHostedUrl: t.string({ nullable: true, resolve: (p) => str(p, 'html_hosted_url') }),
    textHostedUrl: t.string({ nullable: true, resolve: (p) => str(p, 'text_hosted_url') }),
    jsonHostedUrl: t.string({ nullable: true, resolve: (p) => str(p, 'json_hosted_url') }),
    sizeExceeded: t.boolean({ resolve: (p) => p.size_exceeded as boolean }),
  }),
});

builder.queryFields((t) => ({
  scrape: t.field({
    type: ScrapeRef,
    args: { id: t.arg.id({ required: true }) },
    validate: validateId(ScrapeIdParams.shape.scrape_id),
    resolve: async (_, args, ctx) => presentScrape(await ctx.services.scrapes.get(ctx.actor(), String(args.id))),
  }),
  retrieve: t.field({
    type: PageContentRef,
    args: { retrieveId: t.arg.id({ required: true }), formats: t.arg.stringList() },
    validate: validateWith(fromCamel(RetrieveQuery)),
    resolve: async (_, args, ctx) => {
      const query = args as unknown as z.output<typeof RetrieveQuery>;
      return presentRetrieve(await ctx.services.pages.retrieve(ctx.actor(), query.retrieve_id, query.formats));
    },
  }),
}));

builder.mutationFields((t) => ({
  createScrape: t.field({
    type: ScrapeRef,
    description: 'Scrape one URL (the same as POST /v1/scrapes).',
    args: { input: t.arg({ type: CreateScrapeGqlInput, required: true }) },
    validate: validateWith(z.object({ input: gqlScrapeInput })),
    resolve: async (_, args, ctx) => {
      const { input } = args as unknown as { input: z.output<typeof CreateScrapeInput> };
      return presentScrape(await ctx.services.scrapes.create(ctx.actor(), input));
    },
  }),
}));
