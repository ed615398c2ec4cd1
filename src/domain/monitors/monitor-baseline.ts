import { createHash } from 'node:crypto';
import type { BlobStore } from '../../storage/blob-store.js';
import { detectChange, type DataChange, type DetectionOptions, type MonitorSnapshot } from './detection/index.js';
import type { MonitorRecord } from './monitor-record.js';

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

/** The validators a fetch returned, kept for the next conditional request. */
export type Validators = Pick<PageState, 'etag' | 'lastModified' | 'engine'>;

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

/** One source's part of a run: its outcome, its next state, and what changed. */
export interface SourceResult {
  outcome: SourceOutcome;
  /** The page state to store (null: leave it as it was). */
  state: PageState | null;
  diff: string;
  data: unknown;
  dataChanges: DataChange[];
}

/** What a fetch of one source saw, to be compared with its baseline. */
export interface Observation {
  current: MonitorSnapshot;
  /** What `output_schema` extracted (null without one). */
  data: unknown;
  httpStatus: number | null;
  validators: Validators;
}

/**
 * Compares what a source shows now with its baseline (`state`): unchanged when the fingerprint
 * and the data are the same (no object read or written), otherwise the detection's verdict; a
 * baseline that advances is written as a new snapshot object.
 */
export async function compareWithBaseline(
  blobs: BlobStore,
  monitor: MonitorRecord,
  source: string,
  state: PageState | null,
  seen: Observation,
  options: DetectionOptions,
  runId: string,
): Promise<SourceResult> {
  const { current, data, httpStatus, validators } = seen;
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
  const previous = state?.snapshotKey ? await readSnapshot(blobs, state.snapshotKey) : null;
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
  await blobs.put(key, JSON.stringify(current), { contentType: 'application/json' });
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

async function readSnapshot(blobs: BlobStore, key: string): Promise<MonitorSnapshot | null> {
  const bytes = await blobs.get(key);
  return bytes ? (JSON.parse(bytes.toString('utf8')) as MonitorSnapshot) : null;
}

/** A source found as it was (`state` left to the caller). */
export function unchanged(
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

/** A source that could not be read: its state is left as it was. */
export function failedSource(source: string, httpStatus: number | null, error: string): SourceResult {
  return {
    outcome: { source, status: 'failed', http_status: httpStatus, snapshot_key: null, summary: null, error },
    state: null,
    diff: '',
    data: null,
    dataChanges: [],
  };
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
