import { createDeadline } from '../../engine/deadline.js';
import type { EngineRegistry } from '../../engine/registry.js';
import type { PageSnapshot } from '../../engine/types.js';
import { extractFromHtml, resolveSchema } from '../../extraction/index.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import { captureSnapshot, type DetectionOptions } from './detection/index.js';
import { compileSourcePolicy } from './planning/index.js';
import { failedSource, unchanged, type Observation, type PageState, type SourceResult } from './monitor-baseline.js';
import type { MonitorRecord } from './monitor-record.js';

export interface SourceFetchDeps {
  engines: EngineRegistry;
  search: SearchRegistry;
  timeoutMs: number;
}

/** Search results watched per web query. */
const SEARCH_LIMIT = 10;

/** `search:<query>`: the source key of a monitor's web query. */
export const searchSource = (query: string) => `search:${query}`;

/**
 * Reads one source as it is now: a URL through the engines (a conditional request when the
 * baseline allows it), a `search:` source through the search provider. A result when there is
 * nothing to compare (not modified, an HTTP error, the selectors matched nothing), otherwise
 * what was seen.
 */
export function observeSource(
  deps: SourceFetchDeps,
  monitor: MonitorRecord,
  source: string,
  state: PageState | null,
  options: DetectionOptions,
  signal: AbortSignal,
): Promise<SourceResult | Observation> {
  if (source.startsWith('search:')) return observeSearch(deps, monitor, source, options, signal);
  return observePage(deps, monitor, source, state, options, signal);
}

async function observePage(
  deps: SourceFetchDeps,
  monitor: MonitorRecord,
  url: string,
  state: PageState | null,
  options: DetectionOptions,
  signal: AbortSignal,
): Promise<SourceResult | Observation> {
  const headers: Record<string, string> = {};
  // Validators are sent only when the baseline came from a plain HTTP fetch: a browser's
  // rendering may change while the document's bytes do not.
  const conditional = state?.snapshotKey && (state.engine ?? 'http') === 'http';
  if (conditional && state?.etag) headers['if-none-match'] = state.etag;
  if (conditional && state?.lastModified) headers['if-modified-since'] = state.lastModified;
  const deadline = createDeadline(deps.timeoutMs, signal);
  let snapshot: PageSnapshot;
  try {
    ({ snapshot } = await deps.engines.fetch(
      { url, timeoutMs: deps.timeoutMs, headers },
      {
        signal: deadline.signal,
        engine: state?.engine && state.engine !== 'http' ? state.engine : null,
        escalate: Object.keys(headers).length === 0,
      },
    ));
  } finally {
    deadline.dispose();
  }
  if (snapshot.statusCode === 304 && state) {
    return { ...unchanged(url, 304, 'not_modified'), state: null };
  }
  if (snapshot.statusCode >= 400) return failedSource(url, snapshot.statusCode, `HTTP ${snapshot.statusCode}`);
  const text = snapshot.text ?? '';
  const html = snapshot.contentType.includes('html');
  const current = captureSnapshot(html ? { url, html: text } : { url, text }, options);
  if (current.include_selectors_matched === false) {
    return failedSource(url, snapshot.statusCode, 'include_selectors matched nothing on the page (was it redesigned?)');
  }
  const data =
    monitor.outputSchema && html
      ? extractFromHtml({ html: text, url }, { schema: resolveSchema(monitor.outputSchema, 'output_schema') }).data
      : null;
  const validators = {
    etag: snapshot.headers.etag ?? null,
    lastModified: snapshot.headers['last-modified'] ?? null,
    engine: snapshot.engine,
  };
  return { current, data, httpStatus: snapshot.statusCode, validators };
}

async function observeSearch(
  deps: SourceFetchDeps,
  monitor: MonitorRecord,
  source: string,
  options: DetectionOptions,
  signal: AbortSignal,
): Promise<SourceResult | Observation> {
  const provider = deps.search.default();
  if (!provider) return failedSource(source, null, 'no search provider is configured on this service');
  const query = source.slice('search:'.length);
  const policy = compileSourcePolicy(monitor.sourcePolicy);
  const found = await provider.search(query, { teamId: monitor.teamId, limit: SEARCH_LIMIT, signal });
  const kept = found.filter((r) => policy.test(r.url));
  // Titles and addresses: snippets rotate between searches without the results changing.
  const text = kept.map((r) => `${r.title.trim() || r.url} <${r.url}>`).join('\n');
  const current = captureSnapshot({ url: source, text }, options);
  return { current, data: null, httpStatus: null, validators: { etag: null, lastModified: null, engine: null } };
}
