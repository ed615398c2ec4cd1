import { pageRoot, parseLeanPage, parsePage } from './dom.js';
import { type MarkdownConverter, NeedsDomError } from './markdown-converter.js';
import { defaultMarkdownConverter } from './markdown/default-converter.js';
import { classifyContent, renderNonHtml } from './non-html.js';
import { isPreparedOptions, prepareContentOptions, type PreparedContentOptions } from './options.js';
import {
  cleanupStage,
  type ContentStage,
  htmlStage,
  linksStage,
  markdownStage,
  metadataStage,
  type PageContext,
  textStage,
  transformerStage,
} from './stages.js';
import { type ContentTransformer, createTransformerRegistry, type TransformerRegistry } from './transformer.js';
import { createParserRegistry, type Parser, type ParserRegistry } from '../parsers/parser.js';
import { extractFromText, extractStage, runParser, structuredDataStage } from './page-json.js';
import type { ContentInput, ContentOptions, ContentResult } from './types.js';

export interface ContentPipelineDeps {
  /** Main-content extractors by id (plugins/transformers); none = only `transformer: "none"`. */
  transformers?: TransformerRegistry | readonly ContentTransformer[];
  /** Defaults to mdream (native, else WebAssembly), else turndown: `defaultMarkdownConverter()`. */
  converter?: MarkdownConverter;
  /** Parser plugins by id (plugins/parsers) for `parser`; none = every parser id is a 404. */
  parsers?: ParserRegistry | readonly Parser[];
}

export interface ContentPipeline {
  readonly transformers: TransformerRegistry;
  readonly parsers: ParserRegistry;
  readonly converter: MarkdownConverter;
  /** Validates and compiles options once (throws 400 `validation_error`s naming the field). */
  prepare(options: ContentOptions): PreparedContentOptions;
  /** Turns a fetched page into the requested formats. Synchronous and CPU-bound. */
  process(input: ContentInput, options: ContentOptions | PreparedContentOptions): ContentResult;
}

/**
 * The content pipeline: parse once → metadata → links → cleanup → transformer → html / text /
 * markdown, each stage only when its output was asked for (docs/content-pipeline.md). The parse is
 * the lean tree (lean/) unless the request needs linkedom's DOM (`PreparedContentOptions.needsDom`)
 * or the converter does (turndown); both give the same results.
 *
 * @example
 * const pipeline = createContentPipeline({ transformers: builtinTransformers });
 * const options = pipeline.prepare({ formats: ['markdown'], transformer: 'readability' });
 * const { markdown, metadata } = pipeline.process(
 *   { text: snapshot.text ?? '', url: snapshot.finalUrl, contentType: snapshot.contentType },
 *   options,
 * );
 */
export function createContentPipeline(deps: ContentPipelineDeps = {}): ContentPipeline {
  const transformers =
    deps.transformers && !Array.isArray(deps.transformers)
      ? (deps.transformers as TransformerRegistry)
      : createTransformerRegistry((deps.transformers as readonly ContentTransformer[] | undefined) ?? []);
  const converter = deps.converter ?? defaultMarkdownConverter().converter;
  const parsers =
    deps.parsers && !Array.isArray(deps.parsers)
      ? (deps.parsers as ParserRegistry)
      : createParserRegistry((deps.parsers as readonly Parser[] | undefined) ?? []);
  const stages: readonly ContentStage[] = [
    metadataStage,
    extractStage,
    structuredDataStage,
    linksStage,
    cleanupStage,
    transformerStage,
    htmlStage,
    textStage,
    markdownStage(converter),
  ];
  const prepare = (options: ContentOptions): PreparedContentOptions =>
    prepareContentOptions(options, transformers, parsers);
  return {
    transformers,
    parsers,
    converter,
    prepare,
    process(input, rawOptions) {
      const options = isPreparedOptions(rawOptions) ? rawOptions : prepare(rawOptions);
      const kind = classifyContent(input.contentType, input.text);
      if (kind !== 'html') {
        const started = performance.now();
        const formats = renderNonHtml(kind, input.contentType, input.text, options.formats);
        const result: ContentResult = { kind, ...formats, metadata: { title: '' }, timings: {} };
        if (options.links) result.links = [];
        if (options.discoverLinks) result.pageLinks = [];
        result.timings.convert = performance.now() - started;
        extractFromText(input.text, input.url, options, result);
        runParser(input, options, result);
        return result;
      }
      // The lean tree unless the request or the converter needs linkedom's DOM (options.ts, `needsDom`).
      const dom = options.needsDom || (options.formats.markdown && !converter.leanTree);
      const result = dom ? runHtmlStages(stages, input, options, true) : runLeanStages(stages, input, options);
      runParser(input, options, result);
      return result;
    },
  };
}

/** The stages on the lean tree; a page whose conversion turns out to need the DOM runs again with it. */
function runLeanStages(
  stages: readonly ContentStage[],
  input: ContentInput,
  options: PreparedContentOptions,
): ContentResult {
  try {
    return runHtmlStages(stages, input, options, false);
  } catch (err) {
    if (!(err instanceof NeedsDomError)) throw err;
    return runHtmlStages(stages, input, options, true);
  }
}

function runHtmlStages(
  stages: readonly ContentStage[],
  input: ContentInput,
  options: PreparedContentOptions,
  withDom: boolean,
): ContentResult {
  let started = performance.now();
  const result: ContentResult = { kind: 'html', metadata: { title: '' }, timings: {} };
  let page: PageContext;
  if (withDom) {
    const { document, baseUrl } = parsePage(input.text, input.url);
    page = { document, dom: document, baseUrl, root: pageRoot(document), options, result };
  } else {
    const { document, baseUrl } = parseLeanPage(input.text, input.url);
    page = { document, dom: null, baseUrl, root: pageRoot(document), options, result };
  }
  result.timings.parse = performance.now() - started;
  for (const stage of stages) {
    if (!stage.wanted(options)) continue;
    started = performance.now();
    stage.run(page);
    result.timings[stage.id] = performance.now() - started;
  }
  return result;
}
