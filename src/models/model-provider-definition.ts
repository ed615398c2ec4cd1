import type { OutboundGuard, Resolver } from '../engine/outbound-guard.js';
import { listDefinitions, type PluginDefinition } from '../plugin-definition.js';
import type { ModelProvider } from './model-provider.js';
import type { RetryEvent, RetryPolicy } from './retry.js';

/** What the composition root hands every model provider's `create` (with the provider's own `settings`). */
export interface ModelProviderDeps {
  /** The one outbound guard of the process: calls go through it (the configured host is trusted). */
  guard: OutboundGuard;
  /** DNS for the configured host (default: the system resolver), as the guard's. */
  resolve?: Resolver;
  /** Backoff between retries (the service: 1 s doubling, at most 30 s). */
  retryDelays: Omit<RetryPolicy, 'maxRetries'>;
  /** Told about each retry, for logs. */
  onRetry?: (event: RetryEvent) => void;
}

export type ModelProviderDefinition<K extends string = string, C = unknown> = PluginDefinition<
  ModelProvider,
  ModelProviderDeps,
  K,
  C
>;

/**
 * Declares a model provider: one folder under `plugins/models/` and one line in its
 * `index.ts`. The configuration reads its settings, the composition root makes it when it is
 * configured (the configured one with the highest priority is the default), `GET /v1/status`
 * lists it either way.
 *
 * @example
 * export const ollamaProvider = defineModelProvider({
 *   id: 'ollama',
 *   description: 'A local Ollama server',
 *   priority: 5,
 *   settings: OLLAMA_SETTINGS,
 *   configKey: 'ollama',
 *   config: (v) => (v.OLLAMA_URL ? { url: v.OLLAMA_URL as string } : null),
 *   create: ({ settings, guard }) => (settings ? createOllama(settings, guard) : unavailable('OLLAMA_URL is not set')),
 * });
 */
export function defineModelProvider<const K extends string = never, C = never>(
  definition: Omit<ModelProviderDefinition<K, C>, 'kind'>,
): ModelProviderDefinition<K, C> {
  return { ...definition, kind: 'model-provider' };
}

/** The definitions of `plugins/models/index.ts`, checked and by priority. */
export function listModelProviders<T extends ModelProviderDefinition>(list: Record<string, T>): T[] {
  return listDefinitions(list, 'model provider', (v) => (v as { kind?: unknown } | null)?.kind === 'model-provider');
}
