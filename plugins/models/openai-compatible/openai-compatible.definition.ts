import { z } from 'zod';
import { requireTogether, SettingsError } from '../../../src/configurable.js';
import { createGuardedFetch } from '../../../src/engine/guarded-fetch.js';
import { defineModelProvider } from '../../../src/models/model-provider-definition.js';
import type { StructuredOutputMode } from '../../../src/models/model-provider.js';
import { unavailable } from '../../../src/plugin-definition.js';
import { httpUrl, int, type ParsedOf, type SettingsTable } from '../../../src/settings.js';
import { createOpenAICompatibleProvider } from './openai-compatible.provider.js';

/** The model server's settings (answers, llm_extract, monitors, `text` schedules). */
export const MODEL_SETTINGS = {
  MODEL_BASE_URL: {
    schema: httpUrl,
    doc: 'Base URL of an OpenAI-compatible chat completions API, usually ending in /v1 (OpenAI, Ollama `http://localhost:11434/v1`, vLLM, llama.cpp server, LM Studio). Reachable even on a private network; its redirects are not. Unset: no model (answers and extraction use the deterministic extractor).',
  },
  MODEL_API_KEY: {
    schema: z.string().min(1),
    doc: 'Bearer token for MODEL_BASE_URL (unset: no Authorization header, as local servers expect).',
  },
  MODEL_NAME: {
    schema: z.string().min(1),
    doc: 'Model to use (`gpt-4o-mini`, `llama3.1:8b`…); required with MODEL_BASE_URL.',
  },
  MODEL_TIMEOUT_MS: {
    schema: int(1000, 3_600_000),
    default: '120000',
    doc: 'Longest wait for one model call: the whole reply, or the next token while streaming. Exceeded: 504 `request_timeout`, not retried.',
  },
  MODEL_MAX_RETRIES: {
    schema: int(0, 10),
    default: '2',
    doc: "Retries of a model call answered 408, 409, 429 or 5xx, or cut off by the network, with exponential backoff (1 s, 2 s… at most 30 s; the server's Retry-After within that cap).",
  },
  MODEL_CONTEXT_TOKENS: {
    schema: int(1024, 10_000_000),
    default: '8192',
    doc: "The model's context window in tokens. Long pages are cut to the passages that matter to fit it, with the reply's MODEL_MAX_OUTPUT_TOKENS kept free. Raise it for long-context models (Ollama's own default context may be smaller: set its num_ctx to match).",
  },
  MODEL_MAX_OUTPUT_TOKENS: {
    schema: int(16, 1_000_000),
    default: '2048',
    doc: 'Most tokens a model reply may use (`max_tokens`).',
  },
  MODEL_STRUCTURED_OUTPUT: {
    schema: z.enum(['json_schema', 'json_object', 'prompt']),
    default: 'json_schema',
    doc: 'How structured output is requested: `json_schema` (`response_format` with the schema: OpenAI, recent Ollama, vLLM, llama.cpp, LM Studio); `json_object` (JSON mode, schema in the prompt) or `prompt` (no response_format at all) for servers without it. The reply is validated against the schema either way.',
  },
} satisfies SettingsTable;

/** `config.model`: the OpenAI-compatible model server; null when MODEL_BASE_URL is unset. */
export interface ModelSettings {
  baseUrl: string;
  apiKey: string | null;
  name: string;
  timeoutMs: number;
  maxRetries: number;
  contextTokens: number;
  maxOutputTokens: number;
  structuredOutput: StructuredOutputMode;
}

export function modelSettings(v: ParsedOf<typeof MODEL_SETTINGS>): ModelSettings | null {
  requireTogether(['MODEL_BASE_URL', 'MODEL_NAME'], v);
  if (v.MODEL_MAX_OUTPUT_TOKENS >= v.MODEL_CONTEXT_TOKENS) {
    throw new SettingsError([
      'MODEL_MAX_OUTPUT_TOKENS: must be smaller than MODEL_CONTEXT_TOKENS (the prompt needs room too)',
    ]);
  }
  if (!v.MODEL_BASE_URL) return null;
  return {
    baseUrl: v.MODEL_BASE_URL,
    apiKey: v.MODEL_API_KEY ?? null,
    name: v.MODEL_NAME!,
    timeoutMs: v.MODEL_TIMEOUT_MS,
    maxRetries: v.MODEL_MAX_RETRIES,
    contextTokens: v.MODEL_CONTEXT_TOKENS,
    maxOutputTokens: v.MODEL_MAX_OUTPUT_TOKENS,
    structuredOutput: v.MODEL_STRUCTURED_OUTPUT,
  };
}

/**
 * `openai-compatible`: the chat completions server of MODEL_BASE_URL (OpenAI, Ollama, vLLM,
 * llama.cpp, LM Studio). Calls go through the outbound guard; the configured host is reachable
 * even on a private network (Ollama on localhost), and only it.
 */
export const openAICompatibleProvider = defineModelProvider({
  id: 'openai-compatible',
  description: 'An OpenAI-compatible chat completions server (MODEL_BASE_URL)',
  priority: 10,
  settings: MODEL_SETTINGS,
  configKey: 'model',
  config: modelSettings,
  create: ({ settings, guard, resolve, retryDelays, onRetry }) => {
    if (!settings) return unavailable('MODEL_BASE_URL and MODEL_NAME are not set');
    const guarded = createGuardedFetch(guard, { trustedOrigins: [settings.baseUrl], resolve });
    return createOpenAICompatibleProvider({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      model: settings.name,
      limits: { contextTokens: settings.contextTokens, maxOutputTokens: settings.maxOutputTokens },
      structuredOutput: settings.structuredOutput,
      timeoutMs: settings.timeoutMs,
      retry: { maxRetries: settings.maxRetries, ...retryDelays },
      fetch: guarded.fetch,
      onRetry,
      close: () => guarded.close(),
    });
  },
});
