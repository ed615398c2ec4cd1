import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV2CallOptions, LanguageModelV2Prompt, LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { modelError } from '../../../src/models/model-errors.js';
import type {
  ModelLimits,
  ModelProvider,
  ModelReply,
  ModelRequest,
  ModelStreamPart,
  StructuredOutputMode,
} from '../../../src/models/model-provider.js';
import { withRetries, type RetryEvent, type RetryPolicy } from '../../../src/models/retry.js';
import { createDeadline, type Deadline } from '../../../src/engine/deadline.js';
import { explainFailure, type ModelFailure } from './model-failure.js';
import { listServerModels } from './server-models.js';
import { toReply, toUsage } from './replies.js';

export interface OpenAICompatibleOptions {
  /** Registry id (default `openai-compatible`). */
  id?: string;
  /** The API base, usually ending in `/v1`. */
  baseUrl: string;
  apiKey?: string | null;
  /** Model used when a request names none. */
  model: string;
  limits: ModelLimits;
  structuredOutput: StructuredOutputMode;
  /** Longest wait for a whole reply, or for the next token of a stream. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** Every request goes through this fetch: the outbound guard's (`createGuardedFetch`). */
  fetch: typeof globalThis.fetch;
  /** Told about each retry (for logs). */
  onRetry?: (event: RetryEvent) => void;
  /** Releases what `fetch` holds. */
  close?: () => Promise<void>;
}

/** A failure the retry loop may retry; unwrapped to its AppError when the loop gives up. */
class RetryableFailure extends Error {
  constructor(readonly failure: ModelFailure) {
    super(failure.error.detail);
  }
}

/**
 * Chat completions from an OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp server,
 * LM Studio) through the AI SDK's OpenAI-compatible provider. Structured output goes as
 * `response_format` `json_schema` or `json_object`, or not at all (`structuredOutput`); reasoning
 * models' `reasoning_content` comes back as `reasoning`. The AI SDK's own retries are not used:
 * this provider retries with its policy, honouring Retry-After within the cap.
 *
 * @example
 * const provider = createOpenAICompatibleProvider({
 *   baseUrl: 'http://localhost:11434/v1', model: 'llama3.1:8b', structuredOutput: 'json_schema',
 *   limits: { contextTokens: 8192, maxOutputTokens: 2048 }, timeoutMs: 120_000,
 *   retry: { maxRetries: 2, baseDelayMs: 1000, maxDelayMs: 30_000 }, fetch: guarded.fetch,
 * });
 */
export function createOpenAICompatibleProvider(options: OpenAICompatibleOptions): ModelProvider {
  const id = options.id ?? 'openai-compatible';
  const server = createOpenAICompatible({
    name: id,
    baseURL: options.baseUrl,
    apiKey: options.apiKey ?? undefined,
    fetch: options.fetch,
    includeUsage: true,
    supportsStructuredOutputs: options.structuredOutput === 'json_schema',
  });

  const provider: ModelProvider = {
    id,
    description: `OpenAI-compatible chat completions, model ${options.model}`,
    model: options.model,
    limits: options.limits,
    structuredOutput: options.structuredOutput,
    generate(req) {
      const model = req.model ?? options.model;
      return attempt(options, req, 'the model did not answer', async (deadline) => {
        try {
          return toReply(await server.chatModel(model).doGenerate(callOptions(options, req, deadline.signal)), model);
        } finally {
          deadline.dispose();
        }
      });
    },
    async *stream(req) {
      const model = req.model ?? options.model;
      const started = await attempt(options, req, 'the model did not start answering', async (deadline) => {
        const { stream } = await server.chatModel(model).doStream(callOptions(options, req, deadline.signal));
        return { stream, deadline };
      });
      yield* readStream(started.stream, started.deadline, model);
    },
    listModels: (signal) => listServerModels(options, signal),
    close: async () => options.close?.(),
  };
  return provider;
}

/** One call with retries; `run` gets a fresh deadline per attempt and owns it once it succeeds. */
async function attempt<T>(
  options: OpenAICompatibleOptions,
  req: ModelRequest,
  what: string,
  run: (deadline: Deadline) => Promise<T>,
): Promise<T> {
  const model = req.model ?? options.model;
  let attempts = 0;
  try {
    return await withRetries(
      async () => {
        attempts++;
        const deadline = createDeadline(options.timeoutMs, req.signal);
        try {
          return await run(deadline);
        } catch (err) {
          deadline.dispose();
          throw understood(deadline.explain(err, what), model);
        }
      },
      options.retry,
      (err) => (err instanceof RetryableFailure ? err.failure : { retry: false }),
      { signal: req.signal, onRetry: options.onRetry },
    );
  } catch (err) {
    if (!(err instanceof RetryableFailure)) throw err;
    const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
    throw modelError(`${err.failure.error.detail}${tries}`, err.failure.error.cause);
  }
}

/** The AI SDK call for a request: the server's structured-output mode decides `responseFormat`. */
function callOptions(
  options: OpenAICompatibleOptions,
  req: ModelRequest,
  signal: AbortSignal,
): LanguageModelV2CallOptions {
  const format = req.json && options.structuredOutput !== 'prompt' ? req.json : undefined;
  return {
    prompt: toPrompt(req),
    maxOutputTokens: Math.min(req.maxOutputTokens ?? options.limits.maxOutputTokens, options.limits.maxOutputTokens),
    temperature: req.temperature,
    responseFormat: format
      ? { type: 'json', schema: format.schema, name: format.name, description: format.description }
      : undefined,
    abortSignal: signal,
  };
}

/** The error to throw for a failed attempt: final ones as they are, retryable ones wrapped. */
function understood(err: unknown, model: string): unknown {
  const failure = explainFailure(err, model);
  if (!failure) return err;
  return failure.retry ? new RetryableFailure(failure) : failure.error;
}

async function* readStream(
  stream: ReadableStream<LanguageModelV2StreamPart>,
  deadline: Deadline,
  requested: string,
): AsyncGenerator<ModelStreamPart> {
  const reader = stream.getReader();
  const reply: ModelReply = {
    text: '',
    reasoning: '',
    finishReason: 'unknown',
    usage: toUsage(undefined),
    model: requested,
  };
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((err: unknown) => {
        throw understood(deadline.explain(err, 'the model stopped answering'), requested);
      });
      if (done) break;
      deadline.restart();
      if (value.type === 'text-delta') {
        reply.text += value.delta;
        yield { type: 'text', delta: value.delta };
      } else if (value.type === 'reasoning-delta') {
        reply.reasoning += value.delta;
        yield { type: 'reasoning', delta: value.delta };
      } else if (value.type === 'response-metadata' && value.modelId) {
        reply.model = value.modelId;
      } else if (value.type === 'finish') {
        reply.finishReason = value.finishReason;
        reply.usage = toUsage(value.usage);
      } else if (value.type === 'error') {
        throw modelError(`the model server reported an error while streaming: ${describeStreamError(value.error)}`);
      }
    }
    finished = true;
    yield { type: 'finish', reply };
  } finally {
    deadline.dispose();
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

function toPrompt(req: ModelRequest): LanguageModelV2Prompt {
  if (req.messages.length === 0) throw new Error('a model request needs at least one message');
  const prompt: LanguageModelV2Prompt = req.system ? [{ role: 'system', content: req.system }] : [];
  for (const message of req.messages) {
    prompt.push({ role: message.role, content: [{ type: 'text', text: message.content }] });
  }
  return prompt;
}

function describeStreamError(error: unknown): string {
  if (error instanceof Error) return error.message.slice(0, 300);
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string'
    ? message.slice(0, 300)
    : (JSON.stringify(error)?.slice(0, 300) ?? 'unknown error');
}
