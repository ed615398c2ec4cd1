import { diffArrays } from 'diff';
import type { ComparableLine } from './snapshot.js';

/**
 * The line diff of two snapshots: lines compare by their comparison keys (noise masked), so a
 * line whose only difference is noise is equal and shown as it reads now. A removed line and an
 * added line at the same place that are alike (a Dice similarity of their words of 0.4 or more,
 * digits counted as alike: "Price: $19.99" / "Price: $17.49", "API Operational" / "API Partial
 * Outage") pair up as one changed line with a word diff.
 */

export interface WordSegment {
  type: 'equal' | 'added' | 'removed';
  text: string;
}

export type LineChange =
  | { type: 'added'; text: string }
  | { type: 'removed'; text: string }
  | { type: 'changed'; from: string; to: string; words: WordSegment[] };

/** One step of the edit script: `' '` kept, `'-'` removed, `'+'` added. */
export interface LineOp {
  op: ' ' | '-' | '+';
  text: string;
}

export interface LineDiff {
  ops: LineOp[];
  changes: LineChange[];
}

/** Past this many edits the diff gives up matching and lists every line as removed and added. */
const MAX_EDIT_LENGTH = 20_000;
const PAIR_SIMILARITY = 0.4;

export function diffLineSequences(previous: readonly ComparableLine[], current: readonly ComparableLine[]): LineDiff {
  const parts = diffArrays([...previous], [...current], {
    comparator: (a, b) => a.key === b.key,
    maxEditLength: MAX_EDIT_LENGTH,
  }) ?? [
    { value: [...previous], removed: true, added: false, count: previous.length },
    { value: [...current], removed: false, added: true, count: current.length },
  ];
  const ops: LineOp[] = [];
  const changes: LineChange[] = [];
  let removedRun: string[] = [];
  let addedRun: string[] = [];
  const flush = (): void => {
    changes.push(...pairRuns(removedRun, addedRun));
    removedRun = [];
    addedRun = [];
  };
  for (const part of parts) {
    const texts = part.value.map((line) => line.text);
    if (part.removed) removedRun.push(...texts);
    else if (part.added) addedRun.push(...texts);
    else flush();
    const op = part.removed ? '-' : part.added ? '+' : ' ';
    for (const text of texts) ops.push({ op, text });
  }
  flush();
  return { ops, changes };
}

/** Pairs alike lines of a removed run with the added run at the same place, in order. */
function pairRuns(removed: readonly string[], added: readonly string[]): LineChange[] {
  const changes: LineChange[] = [];
  let next = 0;
  for (const from of removed) {
    const match = added.findIndex((to, i) => i >= next && similarity(from, to) >= PAIR_SIMILARITY);
    if (match < 0) {
      changes.push({ type: 'removed', text: from });
      continue;
    }
    for (const text of added.slice(next, match)) changes.push({ type: 'added', text });
    const to = added[match] as string;
    changes.push({ type: 'changed', from, to, words: wordDiff(from, to) });
    next = match + 1;
  }
  for (const text of added.slice(next)) changes.push({ type: 'added', text });
  return changes;
}

function tokens(line: string): string[] {
  return line
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((token) => token.replace(/\p{N}/gu, '0'));
}

/** Dice coefficient of the two lines' word multisets, digits made alike. */
export function similarity(a: string, b: string): number {
  const left = tokens(a);
  const right = tokens(b);
  if (left.length === 0 || right.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const token of left) counts.set(token, (counts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of right) {
    const n = counts.get(token) ?? 0;
    if (n > 0) {
      common++;
      counts.set(token, n - 1);
    }
  }
  return (2 * common) / (left.length + right.length);
}

/**
 * Word tokens: a word or number with the marks between its digits (`19.99`, `1,234`, `2.4.1`
 * stay whole, so a price reads as one change), a run of spaces, or one other character.
 */
const WORD_TOKEN = /[\p{L}\p{M}\p{N}_]+(?:[.,'’][\p{N}]+)*|\s+|[^\p{L}\p{M}\p{N}_\s]/gu;

/**
 * The word diff of a changed line, adjacent segments of one type merged. The `equal` and
 * `removed` segments spell the old line exactly, the `equal` and `added` ones the new line.
 */
export function wordDiff(from: string, to: string): WordSegment[] {
  const segments: WordSegment[] = [];
  const parts = diffArrays(from.match(WORD_TOKEN) ?? [], to.match(WORD_TOKEN) ?? []);
  for (const part of parts) {
    const type = part.added ? 'added' : part.removed ? 'removed' : 'equal';
    const text = part.value.join('');
    const last = segments[segments.length - 1];
    if (last && last.type === type) last.text += text;
    else segments.push({ type, text });
  }
  return segments;
}
