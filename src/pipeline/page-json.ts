import { extractFromFacts, extractFromPassages } from '../extraction/extract.js';
import { readDocumentFacts } from '../extraction/html-facts.js';
import { readJsonLd } from '../extraction/json-ld.js';
import { readMicrodata } from '../extraction/microdata.js';
import type { PreparedContentOptions } from './options.js';
import { type ContentStage, requireDom } from './stages.js';
import type { ContentInput, ContentResult } from './types.js';

/**
 * The json steps of the pipeline: a parser plugin and the deterministic extractor. They run
 * where the rest of the conversion runs (a conversion thread in the API process), since both
 * are CPU work on the page; what they produce is plain data that crosses `postMessage`.
 */

/**
 * The deterministic extractor on an HTML page, right after the metadata stage: it reads the page
 * as served (JSON-LD lives in scripts, which cleanup removes) from the pipeline's one parse.
 */
export const extractStage: ContentStage = {
  id: 'extract',
  wanted: (options) => options.extract !== null,
  run: (page) => {
    const { schema, prompt } = page.options.extract!;
    const facts = readDocumentFacts({ document: requireDom(page, 'extract'), baseUrl: page.baseUrl });
    page.result.extraction = extractFromFacts(facts, { schema, prompt });
  },
};

/**
 * The page's JSON-LD nodes and microdata items as served (a model reads them beside the
 * markdown: prices and dates often live only there, and cleanup removes the scripts).
 */
export const structuredDataStage: ContentStage = {
  id: 'structured_data',
  wanted: (options) => options.structuredData,
  run: (page) => {
    const document = requireDom(page, 'structured_data');
    const { items } = readJsonLd(document, { linkReferences: false });
    page.result.structuredData = [...items, ...readMicrodata(document, page.baseUrl)];
  },
};

/**
 * The deterministic extractor on a page that is not HTML (plain text, markdown, JSON, a PDF's
 * text): `label: value` lines, markdown tables and lists.
 */
export function extractFromText(
  text: string,
  url: string,
  options: PreparedContentOptions,
  result: ContentResult,
): void {
  if (!options.extract) return;
  const started = performance.now();
  const { schema, prompt } = options.extract;
  result.extraction = extractFromPassages([{ text, url }], { schema, prompt, language: result.metadata.language });
  result.timings.extract = performance.now() - started;
}

/**
 * Runs the requested parser on the page as fetched (its own reading of the HTML or text), with
 * the page_metadata the pipeline found. A page it cannot read throws its 422
 * `invalid_parser_input`, which fails the conversion.
 */
export function runParser(input: ContentInput, options: PreparedContentOptions, result: ContentResult): void {
  if (!options.parser) return;
  const started = performance.now();
  const parsed = options.parser.plugin.parse(
    { url: input.url, text: input.text, contentType: input.contentType, metadata: { ...result.metadata } },
    options.parser.options,
  );
  result.parsed = parsed ?? null;
  result.timings.parser = performance.now() - started;
}
