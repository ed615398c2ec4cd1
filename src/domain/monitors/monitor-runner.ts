import type { EngineRegistry } from '../../engine/registry.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ModelRegistry } from '../../models/model-registry.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { resolveDetectionOptions, type DetectionOptions } from './detection/index.js';
import {
  compareWithBaseline,
  failedSource,
  type PageState,
  type SourceOutcome,
  type SourceResult,
} from './monitor-baseline.js';
import { findRunEvents, type FoundEvent } from './monitor-events.js';
import type { MonitorProgress } from './monitor-progress.js';
import type { MonitorRecord } from './monitor-record.js';
import { observeSource, searchSource } from './monitor-source-fetch.js';

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
  /** Writes the summary of a change when a model is configured (null: the deterministic one). */
  models?: ModelRegistry;
  engines: EngineRegistry;
  blobs: BlobStore;
  search: SearchRegistry;
  progress: MonitorProgress;
  logger: Logger;
  timeoutMs: number;
}

const SOURCE_CONCURRENCY = 4;

/**
 * One run of a monitor: every tracked source fetched (URLs with conditional requests, the web
 * query through the search provider; monitor-source-fetch.ts), snapshotted, compared with its
 * baseline (monitor-baseline.ts), and the run's events found (monitor-events.ts). Writes
 * objects (snapshots, diffs) only for what changed; records nothing in the database (the job
 * records the result in the transaction that completes it).
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
    const events = await findRunEvents(this.deps, monitor, runId, results, signal);
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

  /** One source read and compared; what goes wrong with it fails that source, not the run. */
  private async source(
    monitor: MonitorRecord,
    source: string,
    state: PageState | null,
    options: DetectionOptions,
    runId: string,
    signal: AbortSignal,
  ): Promise<SourceResult> {
    try {
      const seen = await observeSource(this.deps, monitor, source, state, options, signal);
      if ('outcome' in seen) return seen;
      return await compareWithBaseline(this.deps.blobs, monitor, source, state, seen, options, runId);
    } catch (err) {
      if (signal.aborted) throw err;
      const error = err instanceof AppError ? err.detail : 'unexpected error while fetching';
      if (!(err instanceof AppError))
        this.deps.logger.warn({ err, monitor: monitor.id, source }, 'monitor source failed');
      return failedSource(source, null, error);
    }
  }
}

function describeOutcomes(results: readonly SourceResult[]): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.outcome.status, (counts.get(r.outcome.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${status}`).join(', ') || 'nothing to fetch';
}
