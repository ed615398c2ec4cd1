import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { AppError } from '../../errors.js';
import type { ModelProvider } from '../../models/model-provider.js';
import { generateObject } from '../../models/structured-output.js';
import { compileSourcePolicy, type TrackedSources } from './planning/index.js';
import type { MonitorRecord } from './monitor-record.js';

/** What the model is asked to return. */
const PLAN_SCHEMA = {
  type: 'object',
  properties: {
    urls: {
      type: 'array',
      items: { type: 'string' },
      description: 'Absolute http(s) URLs of the pages to watch (at most 20).',
    },
    web_query: {
      type: ['string', 'null'],
      description: 'A web search that finds what to watch when no page is known; null otherwise.',
    },
    explanation: { type: 'string', description: 'One or two sentences: what is watched and why.' },
  },
  required: ['urls', 'web_query', 'explanation'],
  additionalProperties: false,
} as const;

const SYSTEM = [
  'You plan a web monitor: from what the user wants to watch, choose the pages to fetch on every run',
  '(their exact URLs) and, when no page can be named, a short web search query whose results are watched.',
  'Prefer pages the user named. Answer with JSON only.',
].join(' ');

const MAX_URLS = 20;

export interface ModelPlan {
  tracked: TrackedSources;
  explanation: string;
}

/**
 * Asks the model to plan (structured output), streaming its reasoning through `onReasoning`,
 * and keeps only what the monitor may track: absolute http(s) URLs within its source policy that
 * the outbound policy allows, a web query only when a search provider exists. Null when the
 * model's plan keeps nothing (the deterministic plan stays); model errors propagate.
 */
export async function planWithModel(
  provider: ModelProvider,
  monitor: MonitorRecord,
  options: {
    guard: OutboundGuard;
    canSearch: boolean;
    signal: AbortSignal;
    onReasoning: (token: string) => void;
  },
): Promise<ModelPlan | null> {
  const prompt = [
    `What to watch: ${monitor.query}`,
    `Source policy (URL globs and domains; exclusion wins): ${JSON.stringify(monitor.sourcePolicy)}`,
    `A rule-based planner chose: ${JSON.stringify(monitor.tracked)} (${monitor.planExplanation})`,
  ].join('\n');
  const { object } = await generateObject(provider, {
    schema: PLAN_SCHEMA as unknown as Record<string, unknown>,
    schemaName: 'monitor_plan',
    system: SYSTEM,
    prompt,
    signal: options.signal,
    onToken: (token) => {
      if (token.type === 'reasoning') options.onReasoning(token.delta);
    },
  });
  const plan = object as { urls: string[]; web_query: string | null; explanation: string };
  const policy = compileSourcePolicy(monitor.sourcePolicy);
  const urls: string[] = [];
  for (const raw of plan.urls) {
    const url = await allowedUrl(raw, options.guard);
    if (url && policy.test(url) && !urls.includes(url)) urls.push(url);
    if (urls.length === MAX_URLS) break;
  }
  const webQuery = options.canSearch && plan.web_query?.trim() ? plan.web_query.trim().slice(0, 400) : null;
  if (urls.length === 0 && webQuery === null) return null;
  const type = urls.length > 0 && webQuery ? 'both' : urls.length > 0 ? 'urls' : 'web_query';
  return { tracked: { type, urls, web_query: webQuery }, explanation: plan.explanation.trim().slice(0, 1000) };
}

async function allowedUrl(raw: string, guard: OutboundGuard): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  try {
    await guard.assertAllowed(url);
  } catch (err) {
    if (err instanceof AppError) return null;
    // A name that does not resolve now is kept: its runs say what failed.
  }
  return url.href;
}
