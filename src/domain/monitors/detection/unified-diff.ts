import { FILE_HEADERS_ONLY, formatPatch, type StructuredPatchHunk } from 'diff';
import type { LineOp } from './line-diff.js';

/**
 * The unified diff text of a line diff (what the monitor module hosts as `diff_url`): `---`/`+++`
 * headers naming the two snapshots, hunks with three lines of context. Lines are the snapshots'
 * normalised lines; kept lines read as they do in the newer snapshot.
 */

export interface DiffLabels {
  /** Header of the older side, e.g. `https://example.com/pricing@2024-05-01T10:00:00Z`. */
  previous: string;
  current: string;
}

const CONTEXT = 3;

/** The unified diff, or `''` when nothing was added or removed. */
export function unifiedDiff(ops: readonly LineOp[], labels: DiffLabels): string {
  const hunks = buildHunks(ops);
  if (hunks.length === 0) return '';
  return formatPatch(
    { oldFileName: labels.previous, newFileName: labels.current, oldHeader: undefined, newHeader: undefined, hunks },
    FILE_HEADERS_ONLY,
  );
}

function buildHunks(ops: readonly LineOp[]): StructuredPatchHunk[] {
  const changed = ops.flatMap((op, i) => (op.op === ' ' ? [] : [i]));
  const hunks: StructuredPatchHunk[] = [];
  let start = 0;
  while (start < changed.length) {
    let end = start;
    // Changes with at most twice the context between them share a hunk (as GNU diff does).
    while (end + 1 < changed.length && (changed[end + 1] as number) - (changed[end] as number) <= 2 * CONTEXT + 1)
      end++;
    const from = Math.max(0, (changed[start] as number) - CONTEXT);
    const to = Math.min(ops.length, (changed[end] as number) + CONTEXT + 1);
    hunks.push(hunk(ops, from, to));
    start = end + 1;
  }
  return hunks;
}

function hunk(ops: readonly LineOp[], from: number, to: number): StructuredPatchHunk {
  let oldStart = 1;
  let newStart = 1;
  for (const op of ops.slice(0, from)) {
    if (op.op !== '+') oldStart++;
    if (op.op !== '-') newStart++;
  }
  const slice = ops.slice(from, to);
  return {
    oldStart,
    newStart,
    oldLines: slice.filter((op) => op.op !== '+').length,
    newLines: slice.filter((op) => op.op !== '-').length,
    lines: slice.map((op) => `${op.op}${op.text}`),
  };
}
