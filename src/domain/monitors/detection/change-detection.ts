import { type DataChange, diffData } from './data-diff.js';
import type { DetectionOptions } from './detection-options.js';
import { diffLineSequences, type LineChange } from './line-diff.js';
import { compareProductStates, type ProductChange } from './product/product-state.js';
import { comparableLines, type MonitorSnapshot } from './snapshot.js';
import { summarizeChange } from './change-summary.js';
import { matchingLineIndexes } from './text-rules.js';
import { type DiffLabels, unifiedDiff } from './unified-diff.js';

/**
 * One run's verdict: the text diff after noise and `ignore_text`, the processors' price and
 * stock changes, the data changes of `output_schema` extraction, and the rules, which decide
 * as changedetection.io does:
 * - `trigger_text`: while no line of the new snapshot (ignored lines left out) matches a rule,
 *   nothing counts as a change;
 * - `text_must_not_be_present`: while some line of the new snapshot matches a rule, nothing
 *   counts as a change; when the text goes ("Sold out" disappears), the change is reported.
 * While blocked, `advance_baseline` is false: the next run compares with the last snapshot
 * compared unblocked, so what changed during the block is reported once it lifts. The first
 * snapshot always becomes the baseline.
 *
 * With `include_selectors` matching nothing (`current.include_selectors_matched === false`, a
 * redesigned page), the text is empty and every line reads as removed: the caller should treat
 * that run as failed rather than notify, as changedetection.io does with "filter not found".
 */

export interface TextChanges {
  added: number;
  removed: number;
  changed: number;
  /** Line changes in page order. */
  changes: LineChange[];
  /** Unified diff text ('' when no line changed). */
  unified_diff: string;
}

export interface ChangeDetection {
  change_detected: boolean;
  /** No previous snapshot: this run sets the baseline (the `first_snapshot` event). */
  first_snapshot: boolean;
  blocked_by: 'trigger_text' | 'text_must_not_be_present' | null;
  /** Whether the caller should make `current` the snapshot the next run compares with. */
  advance_baseline: boolean;
  /** Lines of the new snapshot matching `trigger_text`. */
  triggered_lines: string[];
  /** Lines of the new snapshot matching `text_must_not_be_present`. */
  blocking_lines: string[];
  text: TextChanges;
  product_changes: ProductChange[];
  data_changes: DataChange[];
  /** Deterministic summary of what changed ('' when nothing did). */
  summary: string;
}

export interface DetectChangeInput {
  previous: MonitorSnapshot | null;
  current: MonitorSnapshot;
  options: DetectionOptions;
  /** `output_schema` extraction results of the two runs, when the monitor has one. */
  data?: { previous: unknown; current: unknown };
  /** Unified diff headers; default `previous` / `current`. */
  labels?: DiffLabels;
}

const NO_TEXT_CHANGE: TextChanges = { added: 0, removed: 0, changed: 0, changes: [], unified_diff: '' };

/**
 * @example
 * const verdict = detectChange({ previous, current, options });
 * if (verdict.change_detected) notify(verdict.summary, verdict.text.unified_diff);
 * if (verdict.advance_baseline) store(current);
 */
export function detectChange(input: DetectChangeInput): ChangeDetection {
  const { previous, current, options } = input;
  const currentLines = comparableLines(current.text, options);
  const allLines = current.text === '' ? [] : current.text.split('\n');
  const compared = currentLines.map((line) => line.text);
  const triggered = pick(compared, matchingLineIndexes(compared, options.trigger_text));
  const blocking = pick(allLines, matchingLineIndexes(allLines, options.text_must_not_be_present));
  const blockedBy =
    options.trigger_text.length > 0 && triggered.length === 0
      ? 'trigger_text'
      : blocking.length > 0
        ? 'text_must_not_be_present'
        : null;
  const text = previous ? textChanges(previous, current, currentLines, input) : NO_TEXT_CHANGE;
  const productChanges = previous ? compareProductStates(previous.product, current.product, options.processors) : [];
  const dataChanges = previous && input.data ? diffData(input.data.previous, input.data.current) : [];
  const anything = text.added + text.removed + text.changed + productChanges.length + dataChanges.length > 0;
  const detection: ChangeDetection = {
    change_detected: previous !== null && blockedBy === null && anything,
    first_snapshot: previous === null,
    blocked_by: blockedBy,
    advance_baseline: previous === null || blockedBy === null,
    triggered_lines: triggered,
    blocking_lines: blocking,
    text,
    product_changes: productChanges,
    data_changes: dataChanges,
    summary: '',
  };
  detection.summary = detection.change_detected ? summarizeChange(detection) : '';
  return detection;
}

function pick(lines: readonly string[], indexes: readonly number[]): string[] {
  return indexes.map((i) => lines[i] as string);
}

function textChanges(
  previous: MonitorSnapshot,
  current: MonitorSnapshot,
  currentLines: ReturnType<typeof comparableLines>,
  input: DetectChangeInput,
): TextChanges {
  // Equal fingerprints: same keys under the same settings, so no line can differ.
  if (previous.fingerprint === current.fingerprint) return NO_TEXT_CHANGE;
  const diff = diffLineSequences(comparableLines(previous.text, input.options), currentLines);
  const count = (type: LineChange['type']): number => diff.changes.filter((change) => change.type === type).length;
  return {
    added: count('added'),
    removed: count('removed'),
    changed: count('changed'),
    changes: diff.changes,
    unified_diff: unifiedDiff(diff.ops, input.labels ?? { previous: 'previous', current: 'current' }),
  };
}
