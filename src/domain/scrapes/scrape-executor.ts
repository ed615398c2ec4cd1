import { abortReasonToError, createDeadline } from '../../engine/deadline.js';
import { toStorable } from '../../input-rules.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import type { ProxyPool } from '../../engine/proxy-pool.js';
import type { EngineRegistry } from '../../engine/registry.js';
import { parseTargetUrl } from '../../engine/target-url.js';
import type { PageSnapshot } from '../../engine/types.js';
import type { ParserRegistry } from '../../parsers/parser.js';
import type { ModelRegistry } from '../../models/model-registry.js';
import { extractFromText, runParser } from '../../pipeline/page-json.js';
import { jsonWarning, planJson, produceJson, type JsonPlan } from './json-plan.js';
import type { ContentPipeline } from '../../pipeline/content-pipeline.js';
import type { PreparedContentOptions } from '../../pipeline/options.js';
import type { ConvertPool } from '../../pipeline/convert-pool.js';
import { isPdf, pdfContent } from '../../pipeline/pdf-content.js';
import type { PageLink } from '../../pipeline/page-links.js';
import type { ContentOptions, ContentResult } from '../../pipeline/types.js';
import type { FormatContent, PageContentStore } from '../pages/page-content.js';
import { Page } from '../pages/page.entity.js';
import type { SearchVectors } from '../pages/search-vector.js';
import { planScrape, type ScrapePlan } from './scrape-plan.js';
import type { ScrapeOptions } from './scrape.schema.js';

export interface ScrapeExecutorDeps {
  engines: EngineRegistry;
  guard: OutboundGuard;
  pipeline: ContentPipeline;
  parsers: ParserRegistry;
  pages: PageContentStore;
  /** Time budget of one fetch before the waits a request adds (SCRAPE_TIMEOUT_MS). */
  timeoutMs: number;
  /** Converts on other threads when set (the API process); inline otherwise (worker threads). */
  convertPool?: ConvertPool | null;
  /** The operator's proxies (PROXY_URLS): `country` picks one tagged with it; rotation on failure. */
  proxies: ProxyPool;
  /** Model providers for `llm_extract`; without a default one, the deterministic extractor fills it. */
  models?: ModelRegistry;
  /** Characters of a page's markdown or text its full-text index reads (PAGE_SEARCH_TEXT_CHARS). */
  searchTextChars: number;
  /** Assembles the text's vector for the page's insert; without it the database parses the text. */
  searchVectors?: SearchVectors;
}

export interface ExecuteRequest {
  teamId: string;
  url: string;
  /** The request field the URL came from, for error details (`url_to_scrape`, `items[3].url`). */
  urlField: string;
  options: ScrapeOptions;
  /** The retrieve_id the content is stored under. */
  pageId: string;
  source: 'scrape' | 'batch' | 'crawl';
  signal?: AbortSignal;
}

/** A fetched, converted and stored page: the Page entity (not yet persisted) and its content. */
export interface ExecutedPage {
  page: Page;
  content: FormatContent;
  warnings: string[];
  /** The links a crawl follows (when prepared with `discoverLinks`; empty otherwise). */
  links: PageLink[];
}

/** A page fetched by the engines, before processing. */
export interface FetchedPage {
  snapshot: PageSnapshot;
  /** What the fetch has to say (proxies, engines). */
  warnings: string[];
}

export interface PrepareOptions {
  /** Also find the links a crawl follows (`ExecutedPage.links`). */
  discoverLinks?: boolean;
  /**
   * Pages arrive fetched (a crawl engine fetched them): the engines are not asked whether they
   * can fetch with these options.
   */
  prefetched?: boolean;
}

/** Validated and compiled once per request (or per batch), reused for every page. */
export interface PreparedScrape {
  plan: ScrapePlan;
  content: PreparedContentOptions;
  /** The same options uncompiled, for a conversion thread (which compiles its own copy once). */
  contentOptions: ContentOptions;
  contentKey: string;
  /** How json_content is produced, when it was asked for. */
  json: JsonPlan | null;
}

/**
 * One URL in, stored formats out, in two halves: `fetch` (guard check → engine with fallback,
 * through the proxies) and `process` (content pipeline → parser → objects). Scrapes and batch
 * items do both (`execute`); a crawl's engine fetches, and its pages go through `process`
 * only. So all three behave alike. Nothing is persisted in the database here; on failure no
 * object is left behind.
 */
export class ScrapeExecutor {
  constructor(private readonly deps: ScrapeExecutorDeps) {}

  /**
   * Checks everything that can be checked before fetching (formats, selectors, parser,
   * engine capabilities) and compiles it. Throws 400/404 for what no page could satisfy.
   */
  prepare(options: ScrapeOptions, how: PrepareOptions = {}): PreparedScrape {
    const plan = planScrape(options, this.deps.timeoutMs);
    if (options.parser) this.deps.parsers.require(options.parser.id);
    if (!how.prefetched) this.deps.engines.plan(plan.needs, options.engine);
    const json = planJson(options, this.deps.models);
    const contentOptions: ContentOptions = {
      // A model reads the page as markdown, whether or not the response shows it.
      formats: json?.mode === 'model' ? [...new Set([...plan.contentFormats, 'markdown'])] : plan.contentFormats,
      removeCssSelectors: options.remove_css_selectors,
      removeImages: options.remove_images,
      removeClassNames: options.remove_class_names,
      transformer: options.transformer,
      linksOnPage: options.links_on_page
        ? {
            absoluteLinks: options.links_on_page.absolute_links,
            includeLinks: options.links_on_page.include_links,
            excludeLinks: options.links_on_page.exclude_links,
            queryToOrderLinksBy: options.links_on_page.query_to_order_links_by,
          }
        : null,
      ...(how.discoverLinks ? { discoverLinks: true } : {}),
      ...(json?.mode === 'parser' ? { parser: { id: json.id, options: json.options } } : {}),
      ...(json?.mode === 'rules' ? { extract: { schema: json.schema, prompt: json.prompt } } : {}),
      ...(json?.mode === 'model' ? { structuredData: true } : {}),
    };
    const content = this.deps.pipeline.prepare(contentOptions);
    return { plan, content, contentOptions, contentKey: JSON.stringify(contentOptions), json };
  }

  /**
   * What a batch or crawl says about its pages' json_content up front: null unless
   * `llm_extract` is filled by rules because no model is configured (see `jsonWarning`).
   */
  jsonWarning(options: Pick<ScrapeOptions, 'llm_extract' | 'parser'>): string | null {
    return jsonWarning(options, this.deps.models);
  }

  /** Fetches and processes one URL (a scrape, a batch item). */
  async execute(
    request: ExecuteRequest,
    prepared: PreparedScrape = this.prepare(request.options),
  ): Promise<ExecutedPage> {
    const fetched = await this.fetch(request, prepared);
    return this.process(request, fetched, prepared);
  }

  /** Fetches the page through the engines (guard first, proxies, fallback, time budget). */
  async fetch(request: ExecuteRequest, prepared: PreparedScrape): Promise<FetchedPage> {
    const target = parseTargetUrl(request.url, request.urlField);
    this.deps.guard.checkUrl(target); // refuses literal private addresses and denied domains before any I/O
    const { plan } = prepared;
    const deadline = createDeadline(plan.timeoutMs, request.signal);
    try {
      const { value: snapshot, warnings } = await this.deps.proxies.run(
        request.options.country,
        async (proxy) =>
          (
            await this.deps.engines.fetch(
              { url: target.href, timeoutMs: plan.timeoutMs, browser: plan.browser, proxy },
              {
                needs: proxy ? [...plan.needs, 'proxy'] : plan.needs,
                engine: request.options.engine,
                signal: deadline.signal,
              },
            )
          ).snapshot,
        { signal: deadline.signal },
      );
      return { snapshot, warnings };
    } finally {
      deadline.dispose();
    }
  }

  /** Removes the objects `process` stored for a page that will not be recorded (its work was cancelled). */
  discard(page: Pick<Page, 'teamId' | 'id'>): Promise<void> {
    return this.deps.pages.remove(page.teamId, page.id);
  }

  /** Converts a fetched page into its formats and stores them; the Page is built, not persisted. */
  async process(request: ExecuteRequest, fetched: FetchedPage, prepared: PreparedScrape): Promise<ExecutedPage> {
    const { snapshot } = fetched;
    const { plan } = prepared;
    const { converted, notes } = await this.convert(snapshot, prepared, request.signal).finally(() => {
      // The caller went away (client disconnected, job stopped) before or while the page was
      // converted, or the pool dropped it for that: store nothing, as when a fetch is cut off.
      if (request.signal?.aborted) throw abortReasonToError(request.signal.reason);
    });
    const content = this.formatContent(snapshot, converted, plan);
    const jsonNotes: string[] = [];
    if (prepared.json) {
      const produced = await produceJson(prepared.json, { snapshot, converted, signal: request.signal }, this.deps);
      content.json = JSON.stringify(produced.value ?? null);
      if (produced.warning) jsonNotes.push(produced.warning);
    }
    // For the full-text index of stored pages (what the built-in search provider finds): its
    // vector is assembled while the objects are written.
    const searchText = searchTextOf(content, this.deps.searchTextChars);
    const [formats, searchTextVector] = await Promise.all([
      this.deps.pages.write(request.teamId, request.pageId, content),
      searchText && this.deps.searchVectors ? this.deps.searchVectors.literal(searchText) : null,
    ]);
    const page = Object.assign(new Page(), {
      id: request.pageId,
      teamId: request.teamId,
      source: request.source,
      url: normalizeTargetHref(request.url),
      // What the page says is stored as text Postgres accepts (a NUL in a title would be refused).
      finalUrl: toStorable(snapshot.finalUrl),
      statusCode: snapshot.statusCode,
      formats,
      pageMetadata: toStorable(pageMetadata(snapshot, converted)),
      links: toStorable(converted?.links ?? null),
      actionsOutput: toStorable(snapshot.actionsOutput ?? null),
      createdAt: new Date(),
      searchText,
      searchTextVector,
    });
    return {
      page,
      content,
      warnings: [...fetched.warnings, ...(snapshot.warnings ?? []), ...notes, ...jsonNotes],
      links: converted?.pageLinks ?? [],
    };
  }

  private async convert(
    snapshot: PageSnapshot,
    prepared: PreparedScrape,
    signal: AbortSignal | undefined,
  ): Promise<{ converted: ContentResult | null; notes: string[] }> {
    if (snapshot.text === undefined) {
      const bytes = isPdf(snapshot.contentType) ? (snapshot.pdf ?? snapshot.body) : null;
      if (!bytes || bytes.length === 0) return { converted: null, notes: [] };
      const extracting = prepared.content.extract !== null;
      const formats = extracting ? [...prepared.contentOptions.formats, 'text'] : prepared.contentOptions.formats;
      const { result, warnings } = await pdfContent(bytes, { ...prepared.contentOptions, formats });
      // A PDF's json steps run here, on its extracted text (the parsers read HTML or text only).
      const input = { text: '', url: snapshot.finalUrl, contentType: snapshot.contentType };
      extractFromText(result.text ?? '', snapshot.finalUrl, prepared.content, result);
      runParser(input, prepared.content, result);
      return { converted: result, notes: warnings };
    }
    const input = { text: snapshot.text, url: snapshot.finalUrl, contentType: snapshot.contentType };
    const pool = this.deps.convertPool;
    if (pool) {
      const options = { raw: prepared.contentOptions, key: prepared.contentKey, prepared: prepared.content };
      return { converted: await pool.convert(input, options, signal), notes: [] };
    }
    return { converted: await this.deps.pipeline.process(input, prepared.content), notes: [] };
  }

  private formatContent(snapshot: PageSnapshot, converted: ContentResult | null, plan: ScrapePlan): FormatContent {
    const content: FormatContent = {};
    for (const format of plan.contentFormats) content[format] = converted?.[format] ?? '';
    if (plan.browser?.screenshot && snapshot.screenshot) content.screenshot = snapshot.screenshot;
    if (plan.browser?.printPdf && snapshot.pdf) content.raw_pdf = snapshot.pdf;
    return content;
  }
}

/** The page's text for the full-text index: its markdown or text, cut and storable; null without either. */
function searchTextOf(content: FormatContent, chars: number): string | null {
  const text = content.markdown ?? content.text;
  return text && chars > 0 ? toStorable(text.slice(0, chars)) : null;
}

/** The URL as the page records it (what the guard checked: parsed and serialised by URL). */
function normalizeTargetHref(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** page_metadata: what the page says about itself plus what the fetch observed. */
function pageMetadata(snapshot: PageSnapshot, converted: ContentResult | null): Record<string, unknown> {
  return {
    ...(converted?.metadata ?? { title: '' }),
    status_code: snapshot.statusCode,
    final_url: snapshot.finalUrl,
    content_type: snapshot.contentType,
    ...(snapshot.charset ? { charset: snapshot.charset } : {}),
    engine: snapshot.engine,
    ...(snapshot.redirects.length > 0 ? { redirects: snapshot.redirects } : {}),
  };
}
