import type { ExtractionResult } from '../extraction/extract.js';
import type { PageLink } from './page-links.js';

/**
 * Types of the content pipeline: a fetched page (decoded text, final URL, content type) in,
 * the scrape formats out. Independent of HTTP and GraphQL: the scrape service maps the request's
 * snake_case fields onto `ContentOptions` and the result onto the response.
 */

/** The formats this pipeline produces; `json`, `screenshot` and `raw_pdf` are produced elsewhere. */
export type ContentFormat = 'markdown' | 'html' | 'text';

export const CONTENT_FORMATS: readonly ContentFormat[] = ['markdown', 'html', 'text'];

/** What the pipeline reads from a `PageSnapshot`. */
export interface ContentInput {
  /** Decoded page text (`PageSnapshot.text`). */
  text: string;
  /** Final URL after redirects (`PageSnapshot.finalUrl`); relative links resolve against it. */
  url: string;
  /** MIME type without parameters, lower case (`PageSnapshot.contentType`); `''` when unknown. */
  contentType: string;
}

/** `remove_css_selectors` as a client may send it (see `normaliseRemoveCssSelectors`). */
export type RemoveCssSelectorsInput = 'default' | 'none' | readonly string[] | string;

/** `links_on_page` of the request. */
export interface LinksOnPageOptions {
  /** Resolve links against the page URL (default true); false returns them as written. */
  absoluteLinks?: boolean;
  /** URL globs (src/url/glob.ts); empty = all. */
  includeLinks?: readonly string[];
  /** URL globs; exclusion wins over inclusion. */
  excludeLinks?: readonly string[];
  /** Orders links by relevance of URL + anchor text to this query (ties keep page order). */
  queryToOrderLinksBy?: string;
}

/** The request options the pipeline acts on. */
export interface ContentOptions {
  /** Requested formats; entries other than markdown/html/text are ignored here. */
  formats: readonly string[];
  /** Absent = `"default"`. */
  removeCssSelectors?: RemoveCssSelectorsInput | null;
  removeImages?: boolean;
  /** Remove every element carrying any of these classes. */
  removeClassNames?: readonly string[] | null;
  /** Transformer id (`none` default, `readability`, `postlight`). */
  transformer?: string | null;
  /** Present (even `{}`) = compute `links`; absent or null = don't. */
  linksOnPage?: LinksOnPageOptions | null;
  /** Compute `pageLinks`, the links a crawl follows (normalised, with anchor text). */
  discoverLinks?: boolean;
  /** Run this parser plugin on the page: `ContentResult.parsed` (unknown id: 404 `parser_not_found`). */
  parser?: { id: string; options?: Record<string, unknown> } | null;
  /**
   * Fill this schema (`llm_extract.schema`, see `objectSchema`) with the deterministic
   * extractor: `ContentResult.extraction`. `prompt` helps it pick the item the schema describes.
   */
  extract?: { schema: Record<string, unknown>; prompt?: string } | null;
  /** Also read the page's JSON-LD nodes and microdata items (`ContentResult.structuredData`). */
  structuredData?: boolean;
}

/**
 * `page_metadata` as the pipeline can read it from the page. Keys are the response's keys; the
 * caller adds `status_code`, `final_url` and `content_type`. Absent values are left out.
 */
export interface PageMetadata {
  /** `<title>`, else `og:title`, else `""`. */
  title: string;
  description?: string;
  /** `<html lang>`, else `Content-Language` meta, else `og:locale`. */
  language?: string;
  canonical_url?: string;
  og_title?: string;
  og_description?: string;
  og_image?: string;
  og_url?: string;
  og_type?: string;
  og_site_name?: string;
  og_locale?: string;
  twitter_card?: string;
  twitter_title?: string;
  twitter_description?: string;
  twitter_image?: string;
  favicon?: string;
  keywords?: string;
  author?: string;
  published_time?: string;
  modified_time?: string;
  robots?: string;
}

/** How the text was treated, chosen from the content type (and a sniff when it is missing). */
export type ContentKind = 'html' | 'text' | 'markdown' | 'json' | 'xml' | 'code' | 'pdf';

/** Milliseconds spent per stage (`parse`, `metadata`, `links`, `cleanup`, `transformer`, `html`, `text`, `markdown`). */
export type StageTimings = Record<string, number>;

export interface ContentResult {
  kind: ContentKind;
  markdown?: string;
  html?: string;
  text?: string;
  /** Present when `linksOnPage` was given. */
  links?: string[];
  /** Present when `discoverLinks` was asked for (empty for pages that are not HTML). */
  pageLinks?: PageLink[];
  metadata: PageMetadata;
  timings: StageTimings;
  /** The parser's output (plain data), when `parser` was asked for. */
  parsed?: unknown;
  /** What the deterministic extractor found, when `extract` was asked for. */
  extraction?: ExtractionResult;
  /** JSON-LD nodes then microdata items of an HTML page, when `structuredData` was asked for. */
  structuredData?: Record<string, unknown>[];
}
