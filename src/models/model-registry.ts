import { createPluginRegistry, type PluginRegistry, type UnavailablePlugin } from '../plugin-registry.js';
import type { ModelProvider } from './model-provider.js';

/**
 * Model providers by id; the first is the default.
 *
 * @example
 * const { plugins, unavailable } = createModelSetup(config, { guard });
 * const models = createModelRegistry(plugins, unavailable);
 * const provider = models.default();          // null: no model configured, use the deterministic extractor
 * const chosen = models.require(requestedId); // 400 for an unknown id, or when no model is configured
 */
export type ModelRegistry = PluginRegistry<ModelProvider>;

export function createModelRegistry(
  providers: readonly ModelProvider[] = [],
  unavailable: readonly UnavailablePlugin[] = [],
): ModelRegistry {
  return createPluginRegistry(
    {
      kind: 'model provider',
      unconfigured: 'no model is configured on this service (the operator sets MODEL_BASE_URL and MODEL_NAME)',
    },
    providers,
    unavailable,
  );
}
