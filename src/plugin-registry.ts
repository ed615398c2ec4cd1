import { errors } from './errors.js';

/** What a registry needs of a plugin: an id, and maybe connections to release. */
export interface RegisteredPlugin {
  readonly id: string;
  close?(): Promise<void>;
}

/** A plugin of the build that cannot run here (not configured), and what would enable it. */
export interface UnavailablePlugin {
  id: string;
  description: string;
  /** No secrets; says how to enable it: `SEARXNG_URL is not set`. */
  reason: string;
}

/**
 * Plugins of one kind by id (model providers, search providers). The first registered is the
 * default: the setup that builds the list decides the order (by the definitions' priority).
 *
 * @example
 * const models = createPluginRegistry<ModelProvider>({ kind: 'model provider', unconfigured: '…' }, providers);
 * models.require(null); // the default, or 400 saying how to configure one
 */
export interface PluginRegistry<T extends RegisteredPlugin> {
  /** Adds a plugin; throws when its id is taken. */
  register(plugin: T): void;
  get(id: string): T | undefined;
  list(): T[];
  /** Plugins of this build that are not configured here, with why (`GET /v1/status`, 400s naming them). */
  unavailable(): readonly UnavailablePlugin[];
  /** The default plugin, or null when none is configured. */
  default(): T | null;
  /** The plugin named `id` (the default when `id` is absent); 400 `validation_error` when there is none. */
  require(id?: string | null): T;
  /** Closes every plugin, even when one fails; rethrows the first failure afterwards. */
  close(): Promise<void>;
}

export interface PluginKind {
  /** `model provider`, `search provider`: in messages. */
  kind: string;
  /** The 400's detail when a default is required and none is configured (say how to configure one). */
  unconfigured: string;
}

export function createPluginRegistry<T extends RegisteredPlugin>(
  { kind, unconfigured }: PluginKind,
  initial: readonly T[] = [],
  off: readonly UnavailablePlugin[] = [],
): PluginRegistry<T> {
  const byId = new Map<string, T>();
  const registry: PluginRegistry<T> = {
    register(plugin) {
      if (!plugin.id) throw new Error(`${kind} id must be a non-empty string`);
      if (byId.has(plugin.id)) throw new Error(`${kind} "${plugin.id}" is already registered`);
      byId.set(plugin.id, plugin);
    },
    get: (id) => byId.get(id),
    list: () => [...byId.values()],
    unavailable: () => off.filter((u) => !byId.has(u.id)),
    default: () => byId.values().next().value ?? null,
    require(id) {
      if (id === undefined || id === null) {
        const first = registry.default();
        if (!first) throw errors.validation(unconfigured);
        return first;
      }
      const plugin = byId.get(id);
      const notHere = plugin ? undefined : registry.unavailable().find((u) => u.id === id);
      if (notHere) throw errors.validation(`${kind} ${JSON.stringify(id)} is not available here: ${notHere.reason}`);
      if (!plugin) {
        const known = [...byId.keys()].join(', ') || 'none';
        throw errors.validation(`${kind} ${JSON.stringify(id)} does not exist (available: ${known})`);
      }
      return plugin;
    },
    async close() {
      const results = await Promise.allSettled([...byId.values()].map(async (p) => p.close?.()));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
  for (const plugin of initial) registry.register(plugin);
  return registry;
}
