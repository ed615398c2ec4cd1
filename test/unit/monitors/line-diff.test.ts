import { applyPatch, parsePatch } from 'diff';
import { describe, expect, it } from 'vitest';
import {
  comparableLines,
  diffLineSequences,
  resolveDetectionOptions,
  similarity,
  unifiedDiff,
  wordDiff,
} from '../../../src/domain/monitors/detection/index.js';

const options = resolveDetectionOptions({});
const diff = (before: string[], after: string[]) =>
  diffLineSequences(comparableLines(before.join('\n'), options), comparableLines(after.join('\n'), options));

describe('diffLineSequences', () => {
  it('finds added, removed and changed lines in page order', () => {
    const { changes } = diff(
      ['Kettle', 'Price: $19.99', 'Blue', 'Pre-order now', 'Warranty: 1 year'],
      ['Kettle', 'New!', 'Price: $17.49', 'Blue', 'Warranty: 1 year', 'Free returns'],
    );
    expect(changes).toEqual([
      { type: 'added', text: 'New!' },
      {
        type: 'changed',
        from: 'Price: $19.99',
        to: 'Price: $17.49',
        words: [
          { type: 'equal', text: 'Price: $' },
          { type: 'removed', text: '19.99' },
          { type: 'added', text: '17.49' },
        ],
      },
      { type: 'removed', text: 'Pre-order now' },
      { type: 'added', text: 'Free returns' },
    ]);
  });

  it('does not pair unlike lines', () => {
    const { changes } = diff(['Acme opens Berlin office'], ['Doctors hate this one weird trick']);
    expect(changes.map((c) => c.type)).toEqual(['removed', 'added']);
  });

  it('treats lines that differ only in noise as equal, shown as they read now', () => {
    const result = diff(['Story', 'Posted 3 minutes ago · 1,204 views'], ['Story', 'Posted 1 hour ago · 3,877 views']);
    expect(result.changes).toEqual([]);
    expect(result.ops).toEqual([
      { op: ' ', text: 'Story' },
      { op: ' ', text: 'Posted 1 hour ago · 3,877 views' },
    ]);
  });

  it('handles empty sides', () => {
    expect(diff([], ['a', 'b']).changes).toEqual([
      { type: 'added', text: 'a' },
      { type: 'added', text: 'b' },
    ]);
    expect(diff(['a'], []).changes).toEqual([{ type: 'removed', text: 'a' }]);
    expect(diff([], []).changes).toEqual([]);
  });
});

describe('similarity and wordDiff', () => {
  it.each([
    ['Price: $19.99', 'Price: $17.49', 1],
    ['API Operational', 'API Partial Outage', 0.4],
    ['a b c d', 'e f g h', 0],
    ['', 'x', 0],
  ])('similarity(%j, %j) = %s', (a, b, expected) => expect(similarity(a, b)).toBeCloseTo(expected));

  it('diffs by word and keeps the text of both sides', () => {
    const segments = wordDiff('The quick brown fox', 'The slow brown fox jumps');
    expect(
      segments
        .filter((s) => s.type !== 'added')
        .map((s) => s.text)
        .join(''),
    ).toBe('The quick brown fox');
    expect(
      segments
        .filter((s) => s.type !== 'removed')
        .map((s) => s.text)
        .join(''),
    ).toBe('The slow brown fox jumps');
    expect(segments.some((s) => s.type === 'removed' && s.text.includes('quick'))).toBe(true);
  });
});

describe('unifiedDiff', () => {
  const labels = { previous: 'https://x.test/@2024-05-01T10:00:00Z', current: 'https://x.test/@2024-05-01T11:00:00Z' };

  it('writes a standard unified diff that applies to the previous text', () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const after = [...before];
    after[1] = 'line 2 changed';
    after.splice(20, 1);
    after.push('line 31');
    const result = diff(before, after);
    const text = unifiedDiff(result.ops, labels);
    expect(
      text.startsWith(
        `--- ${labels.previous}\n+++ ${labels.current}\n@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line 2 changed\n`,
      ),
    ).toBe(true);
    expect(parsePatch(text)[0]?.hunks).toHaveLength(3);
    expect(applyPatch(`${before.join('\n')}\n`, text)).toBe(`${after.join('\n')}\n`);
  });

  it('joins changes with at most six lines between them into one hunk', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i}`);
    const near = [...before];
    near[3] = 'x';
    near[10] = 'y';
    expect(parsePatch(unifiedDiff(diff(before, near).ops, labels))[0]?.hunks).toHaveLength(1);
    const far = [...before];
    far[3] = 'x';
    far[11] = 'y';
    expect(parsePatch(unifiedDiff(diff(before, far).ops, labels))[0]?.hunks).toHaveLength(2);
  });

  it('numbers a hunk that only adds at the start of an empty text', () => {
    const text = unifiedDiff(diff([], ['first']).ops, labels);
    expect(text).toContain('@@ -0,0 +1,1 @@\n+first\n');
    expect(applyPatch('', text)).toBe('first\n');
  });

  it('is empty when nothing changed', () => {
    expect(unifiedDiff(diff(['a'], ['a']).ops, labels)).toBe('');
  });
});
