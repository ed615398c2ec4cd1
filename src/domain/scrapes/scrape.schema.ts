import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';
import { MetadataSchema } from '../shared/metadata.schema.js';

/** Formats a scrape can ask for (spec: POST /v1/scrapes). */
export const SCRAPE_FORMATS = ['markdown', 'html', 'text', 'json', 'raw_pdf', 'screenshot'] as const;
export type ScrapeFormat = (typeof SCRAPE_FORMATS)[number];

export const ACTION_LIMITS = { count: 50, totalWaitMs: 60_000, selectorTimeoutMs: 30_000 } as const;
export const SCREEN_LIMITS = { minWidth: 200, maxWidth: 7680, minHeight: 200, maxHeight: 4320 } as const;

const selector = z.string().trim().min(1, { error: 'must not be empty' }).max(2000);
const ms = (max: number) => z.number().int().min(0).max(max);

/** Browser actions (decisions.md, "Scrapes"). Unknown properties are kept and ignored. */
export const ActionSchema = z
  .discriminatedUnion(
    'type',
    [
      z.looseObject({ type: z.literal('wait'), milliseconds: ms(ACTION_LIMITS.totalWaitMs) }),
      z.looseObject({ type: z.literal('wait_for'), selector, timeout: ms(ACTION_LIMITS.selectorTimeoutMs).optional() }),
      z.looseObject({ type: z.literal('click'), selector }),
      z.looseObject({ type: z.literal('fill_input'), selector, value: z.string().max(100_000) }),
      z.looseObject({ type: z.literal('press'), key: z.string().min(1).max(100) }),
      z.looseObject({
        type: z.literal('scroll'),
        direction: z.enum(['up', 'down', 'left', 'right']),
        amount: z.number().int().min(1).max(1_000_000).optional(),
      }),
      z.looseObject({ type: z.literal('hover'), selector }),
      z.looseObject({ type: z.literal('execute_js'), script: z.string().min(1).max(100_000) }),
    ],
    {
      error: (issue) =>
        issue.code === 'invalid_union'
          ? 'type must be one of wait, wait_for, click, fill_input, press, scroll, hover, execute_js'
          : undefined,
    },
  )
  .describe(
    'A browser action; `type` (wait, wait_for, click, fill_input, press, scroll, hover, execute_js) decides which other fields it needs.',
  );
export type ActionInput = z.output<typeof ActionSchema>;

/** Time an action list may spend waiting on purpose (`wait` and `wait_for` timeouts). */
export function actionWaitMs(actions: readonly ActionInput[]): number {
  return actions.reduce(
    (sum, a) => sum + (a.type === 'wait' ? a.milliseconds : a.type === 'wait_for' ? (a.timeout ?? 0) : 0),
    0,
  );
}

const ActionsSchema = z
  .array(ActionSchema)
  .max(ACTION_LIMITS.count, { error: `at most ${ACTION_LIMITS.count} actions` })
  .refine((actions) => actionWaitMs(actions) <= ACTION_LIMITS.totalWaitMs, {
    error: (issue) =>
      `actions wait ${actionWaitMs(issue.input as ActionInput[])} ms in total; at most ${ACTION_LIMITS.totalWaitMs} ms`,
  });

export const LinksOnPageSchema = z.looseObject({
  absolute_links: z.boolean().optional().describe('Resolve links against the page URL (default true).'),
  query_to_order_links_by: z.string().max(1000).optional().describe('Orders links by relevance to this query.'),
  include_links: z
    .array(z.string().min(1).max(2000))
    .max(100)
    .optional()
    .describe('URL globs: `/…` matches the path, `**` crosses segments.'),
  exclude_links: z.array(z.string().min(1).max(2000)).max(100).optional().describe('URL globs; exclusion wins.'),
});

export const ParserRefSchema = z.looseObject({ id: z.string().min(1).max(200) });

export const LlmExtractSchema = z
  .looseObject({
    schema: z
      .record(z.string(), z.unknown(), { error: 'is required: a JSON Schema object of the output' })
      .describe('JSON Schema of the output (its top level an object), or an example object.'),
    prompt: z.string().max(10_000).optional().describe('Instructions for the model (what to extract, which item).'),
    model: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Extension: another model of the configured server for this request.'),
  })
  .describe(
    'Fills json_content: with the configured model (MODEL_BASE_URL), else with the deterministic extractor (the response warning says which keys it found).',
  );

const ScreenSizeSchema = z
  .looseObject({
    screen_type: z.enum(['default', 'mobile', 'desktop']).optional(),
    screen_width: z.number().int().min(SCREEN_LIMITS.minWidth).max(SCREEN_LIMITS.maxWidth).optional(),
    screen_height: z.number().int().min(SCREEN_LIMITS.minHeight).max(SCREEN_LIMITS.maxHeight).optional(),
  })
  .describe(`default 1024×768, mobile 414×896 (mobile UA, touch), desktop 1920×1080; explicit sizes override.`);

const ScreenshotSchema = z.union([z.boolean(), z.looseObject({ full_page: z.boolean().optional() })]);

const RemoveCssSelectorsSchema = z
  .preprocess(
    // GraphQL can only send a list: ["default"] and ["none"] mean "default" and "none".
    (v) => (Array.isArray(v) && v.length === 1 && (v[0] === 'default' || v[0] === 'none') ? v[0] : v),
    z.union([
      z.literal('default'),
      z.literal('none'),
      z.array(z.string().min(1).max(2000)).max(200),
      z.string().min(1).max(100_000),
    ]),
  )
  .describe(
    '"default", "none" (or a list of just that word), an array of CSS selectors, or that array as a JSON string.',
  );

/** The scrape options shared by a single scrape, batch items and crawl pages. */
export const ScrapeOptionsShape = {
  formats: z
    .array(z.enum(SCRAPE_FORMATS))
    .min(1, { error: 'must list at least one format' })
    .transform((formats) => [...new Set(formats)])
    .optional()
    .describe('markdown (default), html, text, json, raw_pdf, screenshot.'),
  wait_before_scraping: ms(30_000).optional().describe('Milliseconds to wait after load (browser), at most 30000.'),
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 code (2 letters)' })
    .transform((c) => c.toUpperCase())
    .optional(),
  remove_css_selectors: RemoveCssSelectorsSchema.optional(),
  remove_images: z.boolean().optional(),
  remove_class_names: z.array(z.string().min(1).max(200)).max(200).optional(),
  actions: ActionsSchema.optional(),
  parser: ParserRefSchema.optional(),
  llm_extract: LlmExtractSchema.optional(),
  links_on_page: LinksOnPageSchema.optional(),
  screenshot: ScreenshotSchema.optional(),
  screen_size: ScreenSizeSchema.optional(),
  transformer: z
    .enum(['none', 'readability', 'postlight'])
    .optional()
    .describe('none (default), readability, postlight: main-content extraction before conversion.'),
  engine: z.string().min(1).max(50).optional().describe('Extension: force an engine by id (`http`, `playwright`).'),
};

const urlField = z.string().min(1).max(8192);

export const CreateScrapeInput = z
  .strictObject({
    url_to_scrape: urlField.optional(),
    url: urlField.optional().describe('Alias of url_to_scrape.'),
    ...ScrapeOptionsShape,
    metadata: MetadataSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.url_to_scrape === undefined && body.url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['url_to_scrape'], message: 'is required' });
    } else if (body.url_to_scrape !== undefined && body.url !== undefined && body.url !== body.url_to_scrape) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'differs from url_to_scrape; send one of them' });
    }
  })
  .meta({ id: 'CreateScrapeRequest' });

export type CreateScrapeCommand = z.output<typeof CreateScrapeInput>;
export type ScrapeOptions = Omit<CreateScrapeCommand, 'url' | 'url_to_scrape' | 'metadata'>;

export const ScrapeIdParams = z.object({ scrape_id: resourceId('scrape') });

export const SCRAPE_LIST_PAGE = { min: 1, max: 100, default: 50 } as const;

/** GET /v1/scrapes: newest first, an integer offset `cursor` like the other lists. */
export const ListScrapesQuery = z.object({
  cursor: queryInt(0, 1_000_000_000).optional().describe('Offset from the previous page.'),
  limit: queryInt(SCRAPE_LIST_PAGE.min, SCRAPE_LIST_PAGE.max)
    .optional()
    .describe(`1 to ${SCRAPE_LIST_PAGE.max}, default ${SCRAPE_LIST_PAGE.default}.`),
});
