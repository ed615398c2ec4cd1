import { describe, expect, it } from 'vitest';
import { contentRange, parseRangeHeader } from '../../../src/storage/byte-range.js';

describe('parseRangeHeader', () => {
  const cases: [string | undefined, number, ReturnType<typeof parseRangeHeader>][] = [
    [undefined, 100, { kind: 'none' }],
    ['bytes=0-0', 100, { kind: 'range', range: { start: 0, end: 0 } }],
    ['bytes=10-19', 100, { kind: 'range', range: { start: 10, end: 19 } }],
    ['BYTES = 10 - 19', 100, { kind: 'range', range: { start: 10, end: 19 } }],
    ['bytes=90-', 100, { kind: 'range', range: { start: 90, end: 99 } }],
    ['bytes=90-500', 100, { kind: 'range', range: { start: 90, end: 99 } }],
    ['bytes=-10', 100, { kind: 'range', range: { start: 90, end: 99 } }],
    ['bytes=-500', 100, { kind: 'range', range: { start: 0, end: 99 } }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=100-200', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=-5', 0, { kind: 'unsatisfiable' }],
    // Ignored, so the whole object is served with 200:
    ['bytes=20-10', 100, { kind: 'none' }],
    ['bytes=0-1,5-6', 100, { kind: 'none' }],
    ['items=0-1', 100, { kind: 'none' }],
    ['bytes=-', 100, { kind: 'none' }],
    ['bytes=a-b', 100, { kind: 'none' }],
    ['bytes=1e3-', 10000, { kind: 'none' }],
    ['bytes=99999999999999999999-', 100, { kind: 'none' }],
  ];
  it.each(cases)('%s of %i bytes', (header, size, expected) => {
    expect(parseRangeHeader(header, size)).toEqual(expected);
  });

  it('formats Content-Range', () => {
    expect(contentRange({ start: 5, end: 9 }, 100)).toBe('bytes 5-9/100');
  });
});
