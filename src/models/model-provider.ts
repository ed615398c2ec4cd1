/** A JSON Schema (draft 2020-12 or draft-07), as clients send it. */
export type JsonSchema = Record<string, unknown>;

export interface ModelMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface ModelRequest {
  system?: string;
  /** The conversation so far, oldest first; the last one is usually the user's. */
  messages: ModelMessage[];
  /**
   * Ask for JSON matching `schema`. How it reaches the model depends on the provider's
   * `structuredOutput` mode; the provider does not validate the reply (`generateObject` does).
   */
  json?: { schema: JsonSchema; name?: string; description?: string };
  /** Default: the provider's `limits.maxOutputTokens`. */
  maxOutputTokens?: number;
  /** Unset: the server's default (some models accept only their default). */
  temperature?: number;
  /** A model of the same server, instead of the provider's `model`. */
  model?: string;
  /** Aborting it rejects the call with the signal's reason. */
  signal?: AbortSignal;
}

export interface ModelUsage {
  inputTokens: number | null;
  outputTokens: number | null;
  /** Tokens spent thinking, when the server reports them (included in outputTokens). */
  reasoningTokens: number | null;
}

export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'unknown';

export interface ModelReply {
  text: string;
  /** The reasoning ("thinking") text of reasoning models; empty for others. */
  reasoning: string;
  /** `length`: cut off at `maxOutputTokens`. */
  finishReason: FinishReason;
  usage: ModelUsage;
  /** The model that answered. */
  model: string;
}

/** What a streamed call yields: tokens as they arrive, then the whole reply once. */
export type ModelStreamPart =
  { type: 'reasoning'; delta: string } | { type: 'text'; delta: string } | { type: 'finish'; reply: ModelReply };

export interface ModelLimits {
  /** The model's context window: prompt and reply together. */
  contextTokens: number;
  /** Default and largest reply size. */
  maxOutputTokens: number;
}

/**
 * How a provider asks for JSON: `json_schema` sends the schema as the server's structured
 * output constraint; `json_object` asks for JSON mode; `prompt` sends neither. In the last two
 * the schema must be in the prompt, which `generateObject` does.
 */
export type StructuredOutputMode = 'json_schema' | 'json_object' | 'prompt';

/**
 * A model provider plugin: chat completions from one model server. Providers live in
 * `plugins/models/` and register by id in a `ModelRegistry`. They are transport-free and
 * stateless per call; use `generateObject` (src/models/structured-output.ts) for validated
 * structured output.
 *
 * Errors: an `AppError` 502 `model_error` when the server cannot be reached, refuses the call
 * or fails after its retries; 504 `request_timeout` when it does not answer in time; the
 * request signal's reason when the caller aborts.
 *
 * @example
 * const reply = await provider.generate({
 *   system: 'You summarise web pages in one sentence.',
 *   messages: [{ role: 'user', content: markdown }],
 *   signal,
 * });
 * for await (const part of provider.stream({ messages, signal })) {
 *   if (part.type === 'text') progress(part.delta);
 * }
 */
export interface ModelProvider {
  readonly id: string;
  /** One line for operators and error messages, without secrets. */
  readonly description: string;
  /** The model used when a request names none. */
  readonly model: string;
  readonly limits: ModelLimits;
  readonly structuredOutput: StructuredOutputMode;
  generate(request: ModelRequest): Promise<ModelReply>;
  /**
   * Streams the reply. Failures before the first token are retried like `generate`; after it,
   * they end the stream with the error. Leaving the loop early cancels the call.
   */
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
  /** Model ids the server offers (a reachability check for operators). */
  listModels?(signal?: AbortSignal): Promise<string[]>;
  /** Releases connections; the provider is not used afterwards. */
  close?(): Promise<void>;
}
