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
  const formats = new Set(options.formats);
  const links = options.linksOnPage;
  return {
    [PREPARED]: true,
    formats: { markdown: formats.has('markdown'), html: formats.has('html'), text: formats.has('text') },
    cleanup: planCleanup({
      selectors: normaliseRemoveCssSelectors(options.removeCssSelectors),
      removeImages: options.removeImages === true,
      removeClassNames: normaliseClassNames(options.removeClassNames),
    }),
    transformer: resolveTransformer(transformers, options.transformer),
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
    extract: options.extract
      ? { schema: objectSchema(options.extract.schema, 'llm_extract.schema').resolved, prompt: options.extract.prompt }
      : null,
    structuredData: options.structuredData === true,
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
