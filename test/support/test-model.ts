import type { AppConfig } from '../../src/config.js';
import { createOutboundGuard } from '../../src/engine/outbound-guard.js';
import type { ModelProviderDeps } from '../../src/models/model-provider-definition.js';
import type { ModelProvider } from '../../src/models/model-provider.js';
import { createModelSetup } from '../../src/plugins.js';

export type ModelSettings = NonNullable<AppConfig['model']>;

/**
 * `MODEL_*` settings for a model server at `baseUrl` (usually a fake's): what a test puts in
 * `config.model`, with its own limits as overrides.
 *
 * @example
 * startTestApp({ config: { model: testModelSettings(fake.baseUrl, { maxRetries: 0 }) } });
 */
export function testModelSettings(baseUrl: string, overrides: Partial<ModelSettings> = {}): ModelSettings {
  return {
    baseUrl,
    apiKey: 'sk-test',
    name: 'fake-model',
    timeoutMs: 10_000,
    maxRetries: 2,
    contextTokens: 8192,
    maxOutputTokens: 512,
    structuredOutput: 'json_schema',
    ...overrides,
  };
}

/**
 * The model provider the service would build for a server at `baseUrl` (usually a fake's),
 * with production's outbound policy (private addresses refused: only the model host is let
 * through) and retry waits of milliseconds instead of seconds.
 *
 * @example
 * const provider = createTestModel(fake.baseUrl, { structuredOutput: 'prompt' });
 * await provider.close?.();
 */
export function createTestModel(
  baseUrl: string,
  overrides: Partial<ModelSettings> = {},
  deps: Partial<ModelProviderDeps> = {},
): ModelProvider {
  const settings = testModelSettings(baseUrl, overrides);
  const guard = deps.guard ?? createOutboundGuard({ allowPrivate: false, denyDomains: [] });
  const { plugins } = createModelSetup(
    { model: settings },
    { retryDelays: { baseDelayMs: 5, maxDelayMs: 200 }, ...deps, guard },
  );
  return plugins[0]!;
}
