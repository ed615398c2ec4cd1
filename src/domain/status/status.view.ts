import type { EngineStatus } from '../../engine/engine-status.js';

/** A model or search provider of the build: configured here or not. */
export interface ProviderStatusView {
  id: string;
  /** One line, no secrets (never the server's address or key). */
  description: string;
  /** Configured here: requests can use it. */
  available: boolean;
  /** Why not, and how to configure it; null when available. */
  reason: string | null;
  /** The one a request that names none uses. */
  isDefault: boolean;
}

export interface ModelProviderStatusView extends ProviderStatusView {
  /** The model used when a request names none; null when not configured. */
  model: string | null;
  contextTokens: number | null;
  maxOutputTokens: number | null;
  structuredOutput: string | null;
}

/** What this deployment can do: its engines, model providers and search providers, and how they are. */
export interface StatusView {
  engines: EngineStatus[];
  modelProviders: ModelProviderStatusView[];
  searchProviders: ProviderStatusView[];
}
