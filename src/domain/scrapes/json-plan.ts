import type { JsonSchema, ModelProvider } from '../../models/model-provider.js';

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
