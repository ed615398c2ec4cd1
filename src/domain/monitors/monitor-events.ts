import { randomBase36 } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { ModelRegistry } from '../../models/model-registry.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { DataChange } from './detection/index.js';
import type { SourceResult } from './monitor-baseline.js';
import type { MonitorRecord } from './monitor-record.js';

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

export interface RunEventDeps {
  /** Writes the summary of a change when a model is configured (null: the deterministic one). */
  models?: ModelRegistry;
  blobs: BlobStore;
  logger: Logger;
}

/** Characters of the diff shown to a model that summarises a change, and of its summary kept. */
const MAX_DIFF_FOR_MODEL = 12_000;
const MAX_SUMMARY = 1000;

/**
 * The run's events: `changed` (all changed sources, their diffs written as one object),
 * `first_snapshot` (new baselines), `run_failed` (nothing fetched).
 */
export async function findRunEvents(
  deps: RunEventDeps,
  monitor: MonitorRecord,
  runId: string,
  results: SourceResult[],
  signal: AbortSignal,
): Promise<FoundEvent[]> {
  const events: FoundEvent[] = [];
  const changed = results.filter((r) => r.outcome.status === 'changed');
  if (changed.length > 0) events.push(await changedEvent(deps, monitor, runId, changed, results.length > 1, signal));
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

/** One `changed` event for every changed source: their diffs in one object, one summary. */
async function changedEvent(
  deps: RunEventDeps,
  monitor: MonitorRecord,
  runId: string,
  changed: SourceResult[],
  many: boolean,
  signal: AbortSignal,
): Promise<FoundEvent> {
  const diff = changed
    .map((r) => r.diff)
    .filter(Boolean)
    .join('\n');
  const diffKey = `monitors/${monitor.teamId}/${monitor.id}/${runId}/changes.diff`;
  await deps.blobs.put(diffKey, diff, { contentType: 'text/x-diff; charset=utf-8' });
  const withData = changed.find((r) => r.dataChanges.length > 0);
  const summary = changed
    .map((r) => (many ? `${r.outcome.source}: ${r.outcome.summary}` : r.outcome.summary))
    .join('\n');
  return {
    id: eventId(),
    type: 'changed',
    changed: true,
    summary: (await modelSummary(deps, monitor, summary, diff, signal)) ?? summary,
    snapshotKey: changed[0]!.outcome.snapshot_key,
    diffKey,
    data: monitor.outputSchema ? (withData ?? changed[0]!).data : null,
    dataChanges: monitor.outputSchema ? (withData?.dataChanges ?? []) : null,
  };
}

/**
 * The model's summary of a change (a few sentences for a reader of the notification), or
 * null without a model or when it fails: the deterministic summary is used then.
 */
async function modelSummary(
  deps: RunEventDeps,
  monitor: MonitorRecord,
  summary: string,
  diff: string,
  signal: AbortSignal,
): Promise<string | null> {
  const provider = deps.models?.default();
  if (!provider) return null;
  try {
    const reply = await provider.generate({
      system:
        'You summarise what changed on watched web pages for a notification: at most three short sentences, facts only, no preamble.',
      messages: [
        {
          role: 'user',
          content: `What is watched: ${monitor.query}\nA rule-based summary: ${summary}\nThe unified diff:\n${diff.slice(0, MAX_DIFF_FOR_MODEL)}`,
        },
      ],
      maxOutputTokens: 300,
      signal,
    });
    const text = reply.text.trim().slice(0, MAX_SUMMARY);
    return text === '' ? null : text;
  } catch (err) {
    if (signal.aborted) throw err;
    deps.logger.warn(
      { err, monitor: monitor.id },
      'the model could not summarise a change; the deterministic summary is used',
    );
    return null;
  }
}

const eventId = () => `event_${randomBase36()}`;
