import type { AppConfig } from '../../src/config.js';
import { createGuardedFetch } from '../../src/engine/guarded-fetch.js';
import type { OutboundGuard, Resolver } from '../../src/engine/outbound-guard.js';
import type { ModelProvider } from '../../src/models/model-provider.js';
import type { RetryEvent, RetryPolicy } from '../../src/models/retry.js';
import { createOpenAICompatibleProvider } from './openai-compatible/openai-compatible.provider.js';

export interface ModelDeps {
  /** The one outbound guard of the process (`createOutboundGuard(config.outbound)`). */
  guard: OutboundGuard;
  /** DNS for the configured model host (default: the system resolver), as the guard's. */
  resolve?: Resolver;
  /** Backoff between retries (default 1 s doubling, at most 30 s: what MODEL_MAX_RETRIES documents). */
  retryDelays?: Omit<RetryPolicy, 'maxRetries'>;
  /** Told about each retry, for logs. */
  onRetry?: (provider: string, event: RetryEvent) => void;
}

const DEFAULT_DELAYS: Omit<RetryPolicy, 'maxRetries'> = { baseDelayMs: 1000, maxDelayMs: 30_000 };

/**
 * The model providers this deployment has: the OpenAI-compatible server of MODEL_BASE_URL, or
 * none when it is unset (answers and extraction then use the deterministic extractor). Calls
 * go through the outbound guard; the configured host is reachable even on a private network
 * (Ollama on localhost), and only it. Adding a provider = one folder under `plugins/models/`
 * and one line here; the first one is the default.
 *
 * @example
 * const models = createModelRegistry(createModelSetup(config, { guard }));
 * // on shutdown: await models.close();
 */
export function createModelSetup(config: Pick<AppConfig, 'model'>, deps: ModelDeps): ModelProvider[] {
  const settings = config.model;
  if (!settings) return [];
  const guarded = createGuardedFetch(deps.guard, { trustedOrigins: [settings.baseUrl], resolve: deps.resolve });
  const provider = createOpenAICompatibleProvider({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    model: settings.name,
    limits: { contextTokens: settings.contextTokens, maxOutputTokens: settings.maxOutputTokens },
    structuredOutput: settings.structuredOutput,
    timeoutMs: settings.timeoutMs,
    retry: { maxRetries: settings.maxRetries, ...(deps.retryDelays ?? DEFAULT_DELAYS) },
    fetch: guarded.fetch,
    onRetry: deps.onRetry && ((event) => deps.onRetry!('openai-compatible', event)),
    close: () => guarded.close(),
  });
  return [provider];
}
