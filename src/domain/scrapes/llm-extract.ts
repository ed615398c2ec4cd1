import { errors } from '../../errors.js';
import { estimateTokens } from '../../text/token-estimate.js';
import { fitToTokenBudget, pageTokenBudget, schemaQueryText } from '../../models/context-budget.js';
import type { JsonSchema, ModelProvider } from '../../models/model-provider.js';
import { generateObject } from '../../models/structured-output.js';

/** Tokens of page text a model must at least be able to read, or extraction is pointless. */
export const MIN_PAGE_TOKENS = 256;

export const EXTRACT_SYSTEM = [
  'You extract structured data from one web page.',
  'Use only what the page says: never invent a value. Where the page does not give a value, use null if the schema allows it, otherwise an empty string, an empty list or false.',
  'Keep values as the page writes them, converted to the type the schema asks for (numbers without currency signs or thousands separators).',
].join(' ');

/** What the model is asked for: the schema, the caller's instructions, and the page. */
export interface ModelExtractRequest {
  provider: ModelProvider;
  schema: JsonSchema;
  /** `llm_extract.prompt`: the caller's instructions. */
  prompt?: string;
  /** A model of the same server instead of the configured one (`llm_extract.model`). */
  model?: string;
  /** The schema's top level is an array (a list of items) rather than an object. */
  list?: boolean;
  signal?: AbortSignal;
}

export interface PageForModel {
  url: string;
  title: string;
  /** The page as markdown (the pipeline's conversion of the cleaned page). */
  markdown: string;
  /** The page's JSON-LD nodes and microdata items (empty when it has none). */
  structuredData?: readonly Record<string, unknown>[];
}

/** Share of the page's budget its structured data may take at most. */
const STRUCTURED_SHARE = 0.3;

/**
 * The page's structured data as the model reads it: one JSON line per item, items in page order
 * while they fit `budgetTokens` (an item that does not fit is left out whole, never cut).
 */
export function structuredDataText(items: readonly Record<string, unknown>[], budgetTokens: number): string {
  const lines: string[] = [];
  let used = 0;
  for (const item of items) {
    const line = JSON.stringify(item);
    const cost = estimateTokens(line) + 1;
    if (used + cost > budgetTokens) continue;
    lines.push(line);
    used += cost;
  }
  return lines.join('\n');
}

/** The parts of the prompt that are there whatever the page: they count against the context. */
function fixedParts(request: Pick<ModelExtractRequest, 'schema' | 'prompt'>): string[] {
  return [
    EXTRACT_SYSTEM,
    JSON.stringify(request.schema),
    request.prompt ?? '',
    'Page URL: Title: Instructions: Structured data on the page: Page content:',
  ];
}

/**
 * Refuses (400) a schema and prompt that leave the model too little room to read a page, before
 * anything is fetched.
 */
export function checkModelRoom(provider: ModelProvider, request: Pick<ModelExtractRequest, 'schema' | 'prompt'>): void {
  const room = pageTokenBudget(provider.limits, fixedParts(request));
  if (room < MIN_PAGE_TOKENS) {
    throw errors.validation(
      `llm_extract: the schema and prompt leave ${room} tokens of the model's ${provider.limits.contextTokens}-token context (MODEL_CONTEXT_TOKENS, ${provider.limits.maxOutputTokens} kept for the reply) for the page; at least ${MIN_PAGE_TOKENS} are needed: send a smaller schema or prompt`,
    );
  }
}

/**
 * Fills `schema` from a page with the model: the page's structured data (JSON-LD, microdata: at
 * most 30 % of the room, whole items) and its markdown cut to the passages that matter for the
 * schema's keys and the prompt (its beginning always kept) to fit the context, JSON
 * Schema structured output, the reply validated with one repair round (`generateObject`).
 * Errors: 502 `model_error` (unreachable, refused, kept failing, or a reply that never matched),
 * 504 `request_timeout`, or the signal's reason.
 *
 * @example
 * const data = await extractWithModel({ provider, schema, prompt: 'the main product' }, { url, title, markdown });
 */
export async function extractWithModel(request: ModelExtractRequest, page: PageForModel): Promise<unknown> {
  const { provider, prompt } = request;
  const schema = request.list ? wrapList(request.schema) : request.schema;
  const budget = pageTokenBudget(provider.limits, fixedParts(request));
  const structured = structuredDataText(page.structuredData ?? [], Math.floor(budget * STRUCTURED_SHARE));
  const fitted = fitToTokenBudget(page.markdown, {
    query: `${prompt ?? ''} ${schemaQueryText(schema)}`.trim(),
    budgetTokens: budget - (structured ? estimateTokens(structured) + 16 : 0),
  });
  const parts = [`Page URL: ${page.url}`];
  if (page.title) parts.push(`Title: ${page.title}`);
  if (prompt?.trim()) parts.push(`Instructions: ${prompt.trim()}`);
  if (structured) parts.push(`Structured data on the page (JSON-LD and microdata, one item a line):\n${structured}`);
  const note = fitted.cut ? ' (long page: the passages that matter most, in page order; […] marks left-out parts)' : '';
  parts.push(`Page content${note}:\n\n${fitted.text || '(the page has no text)'}`);
  const result = await generateObject(provider, {
    schema,
    schemaField: 'llm_extract.schema',
    schemaName: 'extraction',
    system: EXTRACT_SYSTEM,
    prompt: parts.join('\n\n'),
    model: request.model,
    signal: request.signal,
  });
  return request.list ? (result.object as { items: unknown }).items : result.object;
}

/**
 * A list schema as the root of an object (`{items: [...]}`): structured output wants an object
 * at the top (OpenAI refuses anything else). `$defs` stay at the root, where `$ref`s point.
 */
export function wrapList(schema: JsonSchema): JsonSchema {
  const { $defs, definitions, $schema, ...list } = schema;
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: 'object',
    properties: { items: list },
    required: ['items'],
    additionalProperties: false,
    ...($defs === undefined ? {} : { $defs }),
    ...(definitions === undefined ? {} : { definitions }),
  };
}
