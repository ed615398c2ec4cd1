import { cutToTokens } from '../text/token-estimate.js';
import { compileJsonSchema } from './json-schema.js';
import { modelError } from './model-errors.js';
import type {
  JsonSchema,
  ModelMessage,
  ModelProvider,
  ModelReply,
  ModelRequest,
  ModelUsage,
} from './model-provider.js';

export interface ObjectRequest {
  /** What the reply must match. Compile errors are 400s naming `schemaField`. */
  schema: JsonSchema;
  /** The request field the schema came from, for error messages (default `schema`). */
  schemaField?: string;
  /** Name of the schema as the server sees it (default `response`). */
  schemaName?: string;
  system?: string;
  prompt: string;
  maxOutputTokens?: number;
  model?: string;
  signal?: AbortSignal;
  /**
   * Streams the reply and reports each token as it arrives (live progress). `attempt` is 2 for
   * the repair round. Unset: one non-streamed call per attempt.
   */
  onToken?: (token: { type: 'reasoning' | 'text'; delta: string; attempt: number }) => void;
}

export interface ObjectResult {
  /** The parsed reply, valid against the schema. */
  object: unknown;
  /** The reply as the model wrote it. */
  text: string;
  /** Tokens of every attempt together. */
  usage: ModelUsage;
  /** 1, or 2 when the repair round was needed. */
  attempts: number;
  model: string;
}

/** Tokens of a bad reply quoted back in the repair round at most. */
const QUOTED_REPLY_TOKENS = 2000;

/**
 * Asks the model for JSON matching `schema` and validates what it writes (the model's
 * structured-output support is a hint, not a guarantee). A reply that is not JSON, breaks the
 * schema or was cut off gets one repair round: the conversation continues with the bad reply
 * and the list of problems. Still wrong: 502 `model_error` naming the problems. An invalid
 * schema is a 400 before any call. Provider errors (502 `model_error`, 504 `request_timeout`,
 * the caller's abort) pass through.
 *
 * @example
 * const { object } = await generateObject(provider, {
 *   schema: { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] },
 *   schemaField: 'llm_extract.schema',
 *   system: 'Extract data from the page. Use null for what the page does not say.',
 *   prompt: fitted.text,
 *   signal,
 * });
 */
export async function generateObject(provider: ModelProvider, request: ObjectRequest): Promise<ObjectResult> {
  const validator = compileJsonSchema(request.schema, request.schemaField);
  const base: Omit<ModelRequest, 'messages'> = {
    system: systemPrompt(provider, request),
    json: { schema: request.schema, name: request.schemaName ?? 'response' },
    maxOutputTokens: request.maxOutputTokens,
    model: request.model,
    signal: request.signal,
  };
  const messages: ModelMessage[] = [{ role: 'user', content: request.prompt }];
  const first = await call(provider, { ...base, messages }, request.onToken, 1);
  const firstCheck = check(first, validator.validate);
  if (firstCheck.ok) return result(firstCheck.value, first, [first], 1);

  const repair: ModelMessage[] = [
    ...messages,
    { role: 'assistant', content: cutToTokens(first.text, QUOTED_REPLY_TOKENS) },
    { role: 'user', content: repairPrompt(firstCheck.problems, first) },
  ];
  const second = await call(provider, { ...base, messages: repair }, request.onToken, 2);
  const secondCheck = check(second, validator.validate);
  if (secondCheck.ok) return result(secondCheck.value, second, [first, second], 2);
  const problems = secondCheck.problems.slice(0, 5).join('; ');
  throw modelError(`the model's reply did not match the requested schema, even after a repair round: ${problems}`);
}

/**
 * The JSON in a reply: the whole text, else inside a ```json fence, else from the first `{`
 * or `[` to the last `}` or `]` (models without a JSON mode often add a sentence around it).
 */
export function parseJsonReply(text: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const candidates = [text.trim()];
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n?```/i.exec(text);
  if (fenced?.[1]) candidates.push(fenced[1].trim());
  const start = text.search(/[{[]/);
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'));
  if (start >= 0 && end > start) candidates.push(text.slice(start, end + 1));
  let firstProblem = '';
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (err) {
      firstProblem ||= (err as Error).message;
    }
  }
  return { ok: false, problem: text.trim() === '' ? 'the reply was empty' : `not valid JSON (${firstProblem})` };
}

async function call(
  provider: ModelProvider,
  request: ModelRequest,
  onToken: ObjectRequest['onToken'],
  attempt: number,
): Promise<ModelReply> {
  if (!onToken) return provider.generate(request);
  for await (const part of provider.stream(request)) {
    if (part.type === 'finish') return part.reply;
    onToken({ type: part.type, delta: part.delta, attempt });
  }
  throw modelError('the model stream ended without a reply');
}

type Check = { ok: true; value: unknown } | { ok: false; problems: string[] };

function check(reply: ModelReply, validate: (value: unknown) => string[]): Check {
  if (reply.finishReason === 'length') {
    return { ok: false, problems: ['the reply was cut off at the output token limit before it was complete'] };
  }
  const parsed = parseJsonReply(reply.text);
  if (!parsed.ok) return { ok: false, problems: [parsed.problem] };
  const problems = validate(parsed.value);
  return problems.length === 0 ? { ok: true, value: parsed.value } : { ok: false, problems };
}

function systemPrompt(provider: ModelProvider, request: ObjectRequest): string {
  const parts = request.system ? [request.system] : [];
  if (provider.structuredOutput === 'json_schema') {
    parts.push('Reply with JSON that matches the given JSON Schema.');
  } else {
    // Without the server's schema constraint the model only knows the shape from here.
    parts.push(
      `Reply with only a JSON value, no other text, that matches this JSON Schema:\n${JSON.stringify(request.schema)}`,
    );
  }
  return parts.join('\n\n');
}

function repairPrompt(problems: string[], reply: ModelReply): string {
  const cutOff = reply.finishReason === 'length';
  const intro = cutOff
    ? 'Your reply was cut off before the JSON was complete. Reply again with shorter values.'
    : 'Your reply does not match the required JSON Schema:';
  const list = cutOff ? '' : `\n${problems.map((p) => `- ${p}`).join('\n')}`;
  return `${intro}${list}\nReply again with only the corrected JSON, no explanations.`;
}

function result(value: unknown, reply: ModelReply, replies: ModelReply[], attempts: number): ObjectResult {
  return { object: value, text: reply.text, usage: sumUsage(replies), attempts, model: reply.model };
}

function sumUsage(replies: ModelReply[]): ModelUsage {
  const add = (key: keyof ModelUsage) =>
    replies.some((r) => r.usage[key] !== null) ? replies.reduce((t, r) => t + (r.usage[key] ?? 0), 0) : null;
  return {
    inputTokens: add('inputTokens'),
    outputTokens: add('outputTokens'),
    reasoningTokens: add('reasoningTokens'),
  };
}
