import type { EngineRegistry } from '../../engine/registry.js';
import type { ModelRegistry } from '../../models/model-registry.js';
import type { PluginRegistry, RegisteredPlugin, UnavailablePlugin } from '../../plugin-registry.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import type { ModelProviderStatusView, ProviderStatusView, StatusView } from './status.view.js';

/**
 * The deployment's engines, model and search providers as an operator or a dashboard sees them:
 * every one this build ships, whether it runs here (and why not), and how it is. Read from the
 * registries the composition root made from the lists; nothing is probed, nothing secret is shown.
 */
export class StatusService {
  constructor(private readonly deps: { engines: EngineRegistry; models: ModelRegistry; search: SearchRegistry }) {}

  get(): StatusView {
    const { engines, models, search } = this.deps;
    const modelDefault = models.default()?.id ?? null;
    const modelProviders: ModelProviderStatusView[] = [
      ...models.list().map((p) => ({
        ...running(p.id, p.description, modelDefault),
        model: p.model,
        contextTokens: p.limits.contextTokens,
        maxOutputTokens: p.limits.maxOutputTokens,
        structuredOutput: p.structuredOutput,
      })),
      ...models.unavailable().map((u) => ({
        ...notRunning(u),
        model: null,
        contextTokens: null,
        maxOutputTokens: null,
        structuredOutput: null,
      })),
    ];
    return { engines: engines.describe(), modelProviders, searchProviders: providers(search) };
  }
}

function providers<T extends RegisteredPlugin & { description: string }>(
  registry: PluginRegistry<T>,
): ProviderStatusView[] {
  const chosen = registry.default()?.id ?? null;
  return [
    ...registry.list().map((p) => running(p.id, p.description, chosen)),
    ...registry.unavailable().map(notRunning),
  ];
}

function running(id: string, description: string, defaultId: string | null): ProviderStatusView {
  return { id, description, available: true, reason: null, isDefault: id === defaultId };
}

function notRunning(u: UnavailablePlugin): ProviderStatusView {
  return { id: u.id, description: u.description, available: false, reason: u.reason, isDefault: false };
}
