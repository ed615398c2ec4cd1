import type { PageSnapshot } from '../../engine/types.js';
import { objectSchema } from '../../extraction/request-schema.js';
import { formatExtractionWarning } from '../../extraction/warning.js';
import type { JsonSchema, ModelProvider } from '../../models/model-provider.js';
import type { ModelRegistry } from '../../models/model-registry.js';
import type { ParserRegistry } from '../../parsers/parser.js';
import type { ContentPipeline } from '../../pipeline/content-pipeline.js';
import { extractFromText } from '../../pipeline/page-json.js';
import type { ContentResult } from '../../pipeline/types.js';
import { checkModelRoom, extractWithModel } from './llm-extract.js';
import type { ScrapeOptions } from './scrape.schema.js';

/**
 * How a page's json_content is produced, decided once per request (or batch, or crawl):
 * - `parser`: a parser plugin, on the conversion thread;
 * - `rules`: the deterministic extractor filling `llm_extract.schema` (no model configured), on
 *   the conversion thread, with a warning saying which keys it found;
 * - `model`: the configured model, with JSON Schema structured output, after conversion.
 */
export type JsonPlan =
  | { mode: 'parser'; id: string; options: Record<string, unknown> }
  | { mode: 'rules'; schema: Record<string, unknown>; prompt?: string }
  | { mode: 'model'; provider: ModelProvider; schema: JsonSchema; list: boolean; prompt?: string; model?: string };

/**
 * The plan for a request's options: the parser, the configured model (its schema checked, and
 * the room it leaves in the model's context), or the deterministic extractor when no model is
 * configured. 400s for an unusable schema, before anything is fetched.
 */
export function planJson(options: ScrapeOptions, models: ModelRegistry | undefined): JsonPlan | null {
  if (options.parser) {
    const { id, ...parserOptions } = options.parser;
    return { mode: 'parser', id, options: parserOptions };
  }
  const request = options.llm_extract;
  if (!request) return null;
  const schema = objectSchema(request.schema, 'llm_extract.schema');
  const provider = models?.default() ?? null;
  const prompt = request.prompt?.trim() || undefined;
  if (!provider) return { mode: 'rules', schema: request.schema, prompt };
  checkModelRoom(provider, { schema: schema.json, prompt });
  const model = typeof request.model === 'string' && request.model.trim() ? request.model.trim() : undefined;
  return { mode: 'model', provider, schema: schema.json, list: schema.resolved.type === 'array', prompt, model };
}

/**
 * What a batch or crawl says about its pages' json_content up front (their own warnings are not
 * kept per page): null unless `llm_extract` is filled by rules because no model is configured.
 */
export function jsonWarning(
  options: Pick<ScrapeOptions, 'llm_extract' | 'parser'>,
  models: ModelRegistry | undefined,
): string | null {
  if (!options.llm_extract || options.parser || models?.default()) return null;
  return "json_content of every page is filled without a model (no model is configured), by rules reading each page's structured data and labels; keys they do not find are null";
}

/**
 * json_content's value: the parser's output or the deterministic extractor's (both made where
 * the page was converted), or the model's. A page that was not converted (an image, an empty
 * body) meets the parser here, which refuses it (422), or fills nothing.
 */
export async function produceJson(
  json: JsonPlan,
  page: { snapshot: PageSnapshot; converted: ContentResult | null; signal?: AbortSignal },
  deps: { parsers: ParserRegistry; pipeline: ContentPipeline },
): Promise<{ value: unknown; warning?: string }> {
  const { snapshot, converted } = page;
  if (json.mode === 'parser') {
    if (converted?.parsed !== undefined) return { value: converted.parsed };
    const parser = deps.parsers.require(json.id);
    const input = { url: snapshot.finalUrl, text: snapshot.text ?? '', contentType: snapshot.contentType };
    return { value: parser.parse({ ...input, metadata: { ...(converted?.metadata ?? {}) } }, json.options) ?? null };
  }
  if (json.mode === 'rules') {
    let extraction = converted?.extraction;
    if (!extraction) {
      const bare: ContentResult = { kind: 'text', metadata: { title: '' }, timings: {} };
      extractFromText('', snapshot.finalUrl, deps.pipeline.prepare({ formats: [], extract: json }), bare);
      extraction = bare.extraction!;
    }
    return { value: extraction.data, warning: formatExtractionWarning(extraction) };
  }
  const value = await extractWithModel(
    {
      provider: json.provider,
      schema: json.schema,
      list: json.list,
      prompt: json.prompt,
      model: json.model,
      signal: page.signal,
    },
    {
      url: snapshot.finalUrl,
      title: converted?.metadata.title ?? '',
      markdown: converted?.markdown ?? '',
      structuredData: converted?.structuredData ?? [],
    },
  );
  return { value };
}
