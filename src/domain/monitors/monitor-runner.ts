import { createHash } from 'node:crypto';
import { createDeadline } from '../../engine/deadline.js';
import type { EngineRegistry } from '../../engine/registry.js';
import type { PageSnapshot } from '../../engine/types.js';
import { AppError } from '../../errors.js';
import { extractFromHtml, resolveSchema } from '../../extraction/index.js';
import { randomBase36 } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import type { BlobStore } from '../../storage/blob-store.js';
import {
  captureSnapshot,
  detectChange,
  resolveDetectionOptions,
  type DataChange,
  type DetectionOptions,
  type MonitorSnapshot,
} from './detection/index.js';
import { compileSourcePolicy } from './planning/index.js';
import type { MonitorRecord } from './monitor-record.js';
import type { MonitorProgress } from './monitor-progress.js';

/** What the last fetch of one source left: validators, and the baseline snapshot compared next. */
export interface PageState {
  source: string;
  etag: string | null;
  lastModified: string | null;
  engine: string | null;
  snapshotKey: string | null;
  fingerprint: string | null;
  data: unknown;
}

export type SourceStatus = 'not_modified' | 'unchanged' | 'changed' | 'first_snapshot' | 'failed';

/** One source's outcome in a run (`monitor_runs.pages`). */
export interface SourceOutcome {
  source: string;
  status: SourceStatus;
  http_status: number | null;
  /** Set when a new snapshot object was written. */
  snapshot_key: string | null;
  summary: string | null;
  error: string | null;
}

interface SourceResult {
  outcome: SourceOutcome;
  /** The page state to store (null: leave it as it was). */
  state: PageState | null;
  diff: string;
  data: unknown;
  dataChanges: DataChange[];
}

/** An event a run found, before it is recorded. */
export interface FoundEvent {
  id: string;
  type: 'first_snapshot' | 'changed' | 'run_failed';
  changed: boolean;
  summary: string;
  snapshotKey: string | null;
  diffKey: string | null;
  data: unknown;
  dataChanges: DataChange[] | null;
}

export interface RunResult {
  runId: string;
  status: 'completed' | 'failed';
  changeDetected: boolean;
  pages: SourceOutcome[];
  states: PageState[];
  events: FoundEvent[];
  summary: string | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date;
}

export interface MonitorRunnerDeps {
  engines: EngineRegistry;
  blobs: BlobStore;
  search: SearchRegistry;
  progress: MonitorProgress;
  logger: Logger;
  timeoutMs: number;
}

/** Search results watched per web query. */
const SEARCH_LIMIT = 10;
const SOURCE_CONCURRENCY = 4;

/** `search:<query>`: the source key of a monitor's web query. */
export const searchSource = (query: string) => `search:${query}`;

/**
 * One run of a monitor: every tracked source fetched (URLs with conditional requests, the web
 * query through the search provider), snapshotted, compared with its baseline, and the run's
 * events found. Writes objects (snapshots, diffs) only for what changed; records nothing in
 * the database (the job records the result in the transaction that completes it).
 */
export class MonitorRunner {
  constructor(private readonly deps: MonitorRunnerDeps) {}

  async run(
    monitor: MonitorRecord,
    previous: ReadonlyMap<string, PageState>,
    runId: string,
    signal: AbortSignal,
  ): Promise<RunResult> {
    const startedAt = new Date();
    const options = resolveDetectionOptions(monitor.detection ?? {});
    await this.deps.progress.phase(monitor, 'run_started', `run ${runId} started`, { runId });
    const sources = [...monitor.tracked.urls];
    if (monitor.tracked.web_query) sources.push(searchSource(monitor.tracked.web_query));
    const results: SourceResult[] = new Array<SourceResult>(sources.length);
    let next = 0;
    const worker = async () => {
      while (next < sources.length) {
        const i = next++;
        const source = sources[i]!;
        await this.deps.progress.phase(monitor, 'fetching', `fetching ${source}`, { runId, source });
        results[i] = await this.source(monitor, source, previous.get(source) ?? null, options, runId, signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SOURCE_CONCURRENCY, sources.length) }, worker));
    await this.deps.progress.phase(monitor, 'comparing', describeOutcomes(results), { runId });
    const events = await this.events(monitor, runId, results);
    const failed = results.filter((r) => r.outcome.status === 'failed');
    const allFailed = results.length > 0 && failed.length === results.length;
    const errorText = failed.map((r) => `${r.outcome.source}: ${r.outcome.error}`).join('; ');
    const changed = events.find((e) => e.type === 'changed');
    return {
      runId,
      status: allFailed ? 'failed' : 'completed',
      changeDetected: changed !== undefined,
      pages: results.map((r) => r.outcome),
      states: results.flatMap((r) => (r.state ? [r.state] : [])),
      events,
      summary: changed?.summary ?? null,
      error: failed.length > 0 ? errorText : null,
      startedAt,
      finishedAt: new Date(),
    };
  }

  private async source(
    monitor: MonitorRecord,
    source: string,
    state: PageState | null,
    options: DetectionOptions,
    runId: string,
    signal: AbortSignal,
  ): Promise<SourceResult> {
    try {
      if (source.startsWith('search:')) return await this.searchSource(monitor, source, state, options, runId, signal);
      return await this.pageSource(monitor, source, state, options, runId, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      const error = err instanceof AppError ? err.detail : 'unexpected error while fetching';
      if (!(err instanceof AppError))
        this.deps.logger.warn({ err, monitor: monitor.id, source }, 'monitor source failed');
      return failedSource(source, null, error);
    }
  }

  private async pageSource(
    monitor: MonitorRecord,
    url: string,
    state: PageState | null,
    options: DetectionOptions,
    runId: string,
    signal: AbortSignal,
  ): Promise<SourceResult> {
    const headers: Record<string, string> = {};
    // Validators are sent only when the baseline came from a plain HTTP fetch: a browser's
    // rendering may change while the document's bytes do not.
    const conditional = state?.snapshotKey && (state.engine ?? 'http') === 'http';
    if (conditional && state?.etag) headers['if-none-match'] = state.etag;
    if (conditional && state?.lastModified) headers['if-modified-since'] = state.lastModified;
    const deadline = createDeadline(this.deps.timeoutMs, signal);
    let snapshot: PageSnapshot;
    try {
      ({ snapshot } = await this.deps.engines.fetch(
        { url, timeoutMs: this.deps.timeoutMs, headers },
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
      return failedSource(
        url,
        snapshot.statusCode,
        'include_selectors matched nothing on the page (was it redesigned?)',
      );
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
    return this.compare(monitor, url, state, current, data, options, runId, snapshot.statusCode, validators);
  }

  private async searchSource(
    monitor: MonitorRecord,
    source: string,
    state: PageState | null,
    options: DetectionOptions,
    runId: string,
    signal: AbortSignal,
  ): Promise<SourceResult> {
    const provider = this.deps.search.default();
    if (!provider) return failedSource(source, null, 'no search provider is configured on this service');
    const query = source.slice('search:'.length);
    const policy = compileSourcePolicy(monitor.sourcePolicy);
    const found = await provider.search(query, { teamId: monitor.teamId, limit: SEARCH_LIMIT, signal });
    const kept = found.filter((r) => policy.test(r.url));
    // Titles and addresses: snippets rotate between searches without the results changing.
    const text = kept.map((r) => `${r.title.trim() || r.url} <${r.url}>`).join('\n');
    const current = captureSnapshot({ url: source, text }, options);
    return this.compare(monitor, source, state, current, null, options, runId, null, {
      etag: null,
      lastModified: null,
      engine: null,
    });
  }

  private async compare(
    monitor: MonitorRecord,
    source: string,
    state: PageState | null,
    current: MonitorSnapshot,
    data: unknown,
    options: DetectionOptions,
    runId: string,
    httpStatus: number | null,
    validators: Pick<PageState, 'etag' | 'lastModified' | 'engine'>,
  ): Promise<SourceResult> {
    const keep = (over: Partial<PageState>): PageState => ({
      source,
      snapshotKey: state?.snapshotKey ?? null,
      fingerprint: state?.fingerprint ?? null,
      data: state?.data ?? null,
      ...validators,
      ...over,
    });
    const sameData = JSON.stringify(data ?? null) === JSON.stringify(state?.data ?? null);
    if (state?.snapshotKey && state.fingerprint === current.fingerprint && sameData) {
      // Nothing to compare: no object is written, only the validators are kept.
      return { ...unchanged(source, httpStatus, 'unchanged'), state: keep({}) };
    }
    const previous = state?.snapshotKey ? await this.readSnapshot(state.snapshotKey) : null;
    const verdict = detectChange({
      previous,
      current,
      options,
      ...(monitor.outputSchema ? { data: { previous: state?.data ?? null, current: data } } : {}),
      labels: { previous: `${source} (previous)`, current: `${source} (${runId})` },
    });
    if (!verdict.advance_baseline) {
      const note = `change held back by ${verdict.blocked_by}`;
      return { ...unchanged(source, httpStatus, 'unchanged', note), state: keep({}) };
    }
    const key = `monitors/${monitor.teamId}/${monitor.id}/${runId}/${sha(source)}.json`;
    await this.deps.blobs.put(key, JSON.stringify(current), { contentType: 'application/json' });
    const status: SourceStatus = verdict.first_snapshot
      ? 'first_snapshot'
      : verdict.change_detected
        ? 'changed'
        : 'unchanged';
    return {
      outcome: {
        source,
        status,
        http_status: httpStatus,
        snapshot_key: key,
        summary: verdict.change_detected ? verdict.summary : null,
        error: null,
      },
      state: keep({ snapshotKey: key, fingerprint: current.fingerprint, data: data ?? null }),
      diff: verdict.text.unified_diff,
      data,
      dataChanges: verdict.data_changes,
    };
  }

  private async readSnapshot(key: string): Promise<MonitorSnapshot | null> {
    const bytes = await this.deps.blobs.get(key);
    return bytes ? (JSON.parse(bytes.toString('utf8')) as MonitorSnapshot) : null;
  }

  /** The run's events: `changed` (all changed sources), `first_snapshot` (new baselines), `run_failed` (nothing fetched). */
  private async events(monitor: MonitorRecord, runId: string, results: SourceResult[]): Promise<FoundEvent[]> {
    const events: FoundEvent[] = [];
    const many = results.length > 1;
    const changed = results.filter((r) => r.outcome.status === 'changed');
    if (changed.length > 0) {
      const diff = changed
        .map((r) => r.diff)
        .filter(Boolean)
        .join('\n');
      const diffKey = `monitors/${monitor.teamId}/${monitor.id}/${runId}/changes.diff`;
      await this.deps.blobs.put(diffKey, diff, { contentType: 'text/x-diff; charset=utf-8' });
      const withData = changed.find((r) => r.dataChanges.length > 0);
      events.push({
        id: eventId(),
        type: 'changed',
        changed: true,
        summary: changed
          .map((r) => (many ? `${r.outcome.source}: ${r.outcome.summary}` : r.outcome.summary))
          .join('\n'),
        snapshotKey: changed[0]!.outcome.snapshot_key,
        diffKey,
        data: monitor.outputSchema ? (withData ?? changed[0]!).data : null,
        dataChanges: monitor.outputSchema ? (withData?.dataChanges ?? []) : null,
      });
    }
    const first = results.filter((r) => r.outcome.status === 'first_snapshot');
    if (first.length > 0) {
      events.push({
        id: eventId(),
        type: 'first_snapshot',
        changed: false,
        summary: `First snapshot of ${first.map((r) => r.outcome.source).join(', ')}.`,
        snapshotKey: first[0]!.outcome.snapshot_key,
        diffKey: null,
        data: monitor.outputSchema ? first[0]!.data : null,
        dataChanges: null,
      });
    }
    const failed = results.filter((r) => r.outcome.status === 'failed');
    if (results.length > 0 && failed.length === results.length) {
      events.push({
        id: eventId(),
        type: 'run_failed',
        changed: false,
        summary: `The run failed: ${failed.map((r) => `${r.outcome.source}: ${r.outcome.error}`).join('; ')}`.slice(
          0,
          2000,
        ),
        snapshotKey: null,
        diffKey: null,
        data: null,
        dataChanges: null,
      });
    }
    return events;
  }
}

function unchanged(
  source: string,
  httpStatus: number | null,
  status: 'not_modified' | 'unchanged',
  note: string | null = null,
): Omit<SourceResult, 'state'> {
  return {
    outcome: { source, status, http_status: httpStatus, snapshot_key: null, summary: note, error: null },
    diff: '',
    data: null,
    dataChanges: [],
  };
}

function failedSource(source: string, httpStatus: number | null, error: string): SourceResult {
  return {
    outcome: { source, status: 'failed', http_status: httpStatus, snapshot_key: null, summary: null, error },
    state: null,
    diff: '',
    data: null,
    dataChanges: [],
  };
}

function describeOutcomes(results: readonly SourceResult[]): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.outcome.status, (counts.get(r.outcome.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${status}`).join(', ') || 'nothing to fetch';
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
const eventId = () => `event_${randomBase36()}`;
