import { z } from 'zod';
import type { ProviderStatusView, StatusView } from './status.view.js';

const CAPABILITIES = ['javascript', 'actions', 'screenshot', 'pdf', 'screen', 'proxy'] as const;

const EngineObject = z
  .object({
    id: z.string().describe('Use as `engine` in scrapes (scrape engines).'),
    object: z.literal('engine'),
    kind: z
      .enum(['scrape', 'crawl'])
      .describe('`scrape`: fetches one page; `crawl`: runs crawls over the scrape engines.'),
    description: z.string(),
    capabilities: z
      .array(z.enum(CAPABILITIES))
      .describe('What it can do; a request needing more goes to another engine.'),
    priority: z.number().int().describe('Higher is tried first among the engines that can do a request.'),
    available: z.boolean().describe('It runs in this deployment.'),
    reason: z.string().nullable().describe('Why it does not, and how to enable it.'),
    state: z
      .object({
        status: z
          .enum(['idle', 'ready', 'failing'])
          .describe(
            '`idle`: not started yet (browsers start on first use); `failing`: its last start or connection failed.',
          ),
        detail: z.string().nullable(),
      })
      .nullable()
      .describe('Its health as it knows it now; null when not available.'),
  })
  .meta({ id: 'EngineStatus' });

const providerFields = {
  id: z.string().describe('Use as the provider id in requests.'),
  description: z.string(),
  available: z.boolean().describe('Configured in this deployment.'),
  reason: z.string().nullable().describe('Why it is not, and how to configure it.'),
  default: z.boolean().describe('Used when a request names no provider.'),
};

const ModelProviderObject = z
  .object({
    ...providerFields,
    object: z.literal('model_provider'),
    model: z.string().nullable().describe('The model used when a request names none.'),
    context_tokens: z.number().int().nullable(),
    max_output_tokens: z.number().int().nullable(),
    structured_output: z.string().nullable().describe('How structured output is asked for (MODEL_STRUCTURED_OUTPUT).'),
  })
  .meta({ id: 'ModelProviderStatus' });

const SearchProviderObject = z
  .object({ ...providerFields, object: z.literal('search_provider') })
  .meta({ id: 'SearchProviderStatus' });

export const StatusObject = z
  .object({
    object: z.literal('status'),
    engines: z.array(EngineObject).describe('Every engine of this build, highest priority first.'),
    model_providers: z.array(ModelProviderObject),
    search_providers: z.array(SearchProviderObject),
  })
  .meta({ id: 'Status' });

export function presentStatus(view: StatusView): z.output<typeof StatusObject> {
  return {
    object: 'status',
    engines: view.engines.map((e) => ({
      id: e.id,
      object: 'engine' as const,
      kind: e.kind,
      description: e.description,
      capabilities: e.capabilities,
      priority: e.priority,
      available: e.available,
      reason: e.reason,
      state: e.state && { status: e.state.status, detail: e.state.detail },
    })),
    model_providers: view.modelProviders.map((p) => ({
      ...provider(p),
      object: 'model_provider' as const,
      model: p.model,
      context_tokens: p.contextTokens,
      max_output_tokens: p.maxOutputTokens,
      structured_output: p.structuredOutput,
    })),
    search_providers: view.searchProviders.map((p) => ({ ...provider(p), object: 'search_provider' as const })),
  };
}

function provider(p: ProviderStatusView) {
  return { id: p.id, description: p.description, available: p.available, reason: p.reason, default: p.isDefault };
}
