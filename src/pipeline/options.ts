import { AppError } from '../errors.js';
import { objectSchema } from '../extraction/request-schema.js';
import type { ResolvedSchema } from '../extraction/json-schema.js';
import type { Parser, ParserRegistry } from '../parsers/parser.js';
import { compileUrlFilter } from '../url/glob.js';
import { type CleanupPlan, planCleanup } from './cleanup.js';
import type { PreparedLinksOptions } from './links.js';
import { normaliseRemoveCssSelectors } from './remove-selectors.js';
import { type ContentTransformer, resolveTransformer, type TransformerRegistry } from './transformer.js';
import type { ContentOptions } from './types.js';

const PREPARED = Symbol('prepared content options');

/** Options checked and compiled once (selectors parsed, globs compiled, transformer resolved). */
export interface PreparedContentOptions {
  readonly [PREPARED]: true;
  readonly formats: { readonly markdown: boolean; readonly html: boolean; readonly text: boolean };
  readonly cleanup: CleanupPlan;
  readonly transformer: ContentTransformer | null;
  readonly links: PreparedLinksOptions | null;
  readonly discoverLinks: boolean;
  /** The parser to run and its options (the request's `parser` minus its `id`). */
  readonly parser: { readonly plugin: Parser; readonly options: Record<string, unknown> } | null;
  /** The schema the deterministic extractor fills. */
  readonly extract: { readonly schema: ResolvedSchema; readonly prompt?: string } | null;
  readonly structuredData: boolean;
  /**
   * The request needs linkedom's DOM (page-node.ts): the html format (serialised by linkedom), a
   * transformer (Readability), the extractor or structured data (they read a `Document`). Without
   * it the page is parsed as the lean tree, unless the markdown converter needs the DOM (turndown).
   */
  readonly needsDom: boolean;
}

export function isPreparedOptions(value: ContentOptions | PreparedContentOptions): value is PreparedContentOptions {
  return (value as Partial<PreparedContentOptions>)[PREPARED] === true;
}

/**
 * Validates and compiles the content options; every problem is a 400 `validation_error` whose
 * detail names the request field (`remove_css_selectors[1]`, `links_on_page.include_links[0]`, ...).
 * The scrape service calls it before fetching so bad options never cost a fetch.
 */
export function prepareContentOptions(
  options: ContentOptions,
  transformers: TransformerRegistry,
  parsers?: ParserRegistry,
): PreparedContentOptions {
  const requested = new Set(options.formats);
  const formats = { markdown: requested.has('markdown'), html: requested.has('html'), text: requested.has('text') };
  const links = options.linksOnPage;
  const transformer = resolveTransformer(transformers, options.transformer);
  const extract = options.extract
    ? { schema: objectSchema(options.extract.schema, 'llm_extract.schema').resolved, prompt: options.extract.prompt }
    : null;
  const structuredData = options.structuredData === true;
  const transforms = transformer !== null && (formats.markdown || formats.html || formats.text);
  return {
    [PREPARED]: true,
    formats,
    cleanup: planCleanup({
      selectors: normaliseRemoveCssSelectors(options.removeCssSelectors),
      removeImages: options.removeImages === true,
      removeClassNames: normaliseClassNames(options.removeClassNames),
    }),
    transformer,
    links: links
      ? {
          absolute: links.absoluteLinks !== false,
          filter: compileUrlFilter(
            { include: links.includeLinks, exclude: links.excludeLinks },
            { include: 'links_on_page.include_links', exclude: 'links_on_page.exclude_links' },
          ),
          query: links.queryToOrderLinksBy?.trim() || null,
        }
      : null,
    discoverLinks: options.discoverLinks === true,
    parser: options.parser
      ? { plugin: requireParser(parsers, options.parser.id), options: options.parser.options ?? {} }
      : null,
    extract,
    structuredData,
    needsDom: formats.html || transforms || extract !== null || structuredData,
  };
}

function requireParser(parsers: ParserRegistry | undefined, id: string): Parser {
  if (!parsers)
    throw new AppError(
      'not_found',
      'parser_not_found',
      `parser ${JSON.stringify(id)} does not exist (available: none)`,
    );
  return parsers.require(id);
}

function normaliseClassNames(names: readonly string[] | null | undefined): string[] {
  if (!names) return [];
  return names.map((name, i) => {
    const field = `remove_class_names[${i}]`;
    const trimmed = typeof name === 'string' ? name.trim().replace(/^\./, '') : '';
    if (!trimmed || /\s/.test(trimmed)) {
      throw new AppError('validation', 'validation_error', `${field}: must be one class name without spaces`, {
        metadata: { field },
      });
    }
    return trimmed;
  });
}
