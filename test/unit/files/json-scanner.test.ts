import { describe, expect, it } from 'vitest';
import { CaptureTooLargeError, JsonScanner, JsonSyntaxError } from '../../../src/domain/files/json-scanner.js';
import type { JsonScanHooks } from '../../../src/domain/files/json-scanner.js';

/** Feeds `text` in chunks of `size` bytes (every split point is a chunk boundary for size 1). */
function scan(text: string | Buffer, options: { size?: number; maxDepth?: number; hooks?: JsonScanHooks } = {}) {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const scanner = new JsonScanner({ maxDepth: options.maxDepth ?? 512, hooks: options.hooks, eventDepth: 1 });
  const size = options.size ?? bytes.length;
  for (let i = 0; i < bytes.length; i += size) scanner.write(bytes.subarray(i, i + size));
  scanner.end();
  return scanner;
}

function failure(text: string, options: { size?: number; maxDepth?: number } = {}): JsonSyntaxError {
  try {
    scan(text, options);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return err;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(text)}`);
}

function accepts(text: string, size: number): boolean {
  try {
    scan(text, { size });
    return true;
  } catch (err) {
    if (err instanceof JsonSyntaxError) return false;
    throw err;
  }
}

/** A small random JSON document, sometimes broken by one edit. */
function randomDocument(random: () => number, depth = 0): string {
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
  const scalar = () =>
    pick([
      () => String(Math.floor(random() * 2000) - 1000),
      () => `${(random() * 100).toFixed(3)}e${pick(['', '+', '-'])}${Math.floor(random() * 20)}`,
      () => JSON.stringify(pick(['', 'a', 'é', '日本', '🚀', '\n\t"\\', '\u0001', '\u2028'])),
      () => pick(['true', 'false', 'null', '-0', '0.5']),
    ])();
  if (depth > 4 || random() < 0.3) return scalar();
  const count = Math.floor(random() * 4);
  const ws = () => pick(['', ' ', '\n', '\r\n\t ']);
  if (random() < 0.5) {
    return `[${ws()}${Array.from({ length: count }, () => randomDocument(random, depth + 1)).join(`${ws()},${ws()}`)}]`;
  }
  const members = Array.from({ length: count }, (_, i) => `"k${i}"${ws()}:${ws()}${randomDocument(random, depth + 1)}`);
  return `{${ws()}${members.join(',')}${ws()}}`;
}

function mutate(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1));
  const junk = ['', ',', ']', '}', '"', '\\', '0', '.', 'e', '-', ' ', 'x', ':', '{', '['][Math.floor(random() * 15)]!;
  return random() < 0.5 ? text.slice(0, at) + junk + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
}

function seeded(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe('JsonScanner', () => {
  it('accepts exactly what JSON.parse accepts, whatever the chunk boundaries', () => {
    const random = seeded(42);
    let checked = 0;
    for (let n = 0; n < 3000; n++) {
      const valid = randomDocument(random);
      const text = random() < 0.5 ? valid : mutate(valid, random);
      let expected = true;
      try {
        JSON.parse(text);
      } catch {
        expected = false;
      }
      for (const size of [1, 2, 7, text.length || 1]) {
        expect(accepts(text, size), `${JSON.stringify(text)} in chunks of ${size}`).toBe(expected);
        checked++;
      }
    }
    expect(checked).toBe(12000);
  });

  it.each([
    ['[1,]', "expected a value, found ']'", 1, 4],
    ['{"a":1,}', "expected a string key after ',', found '}'", 1, 8],
    ['{"a" 1}', "expected ':' after an object key", 1, 6],
    ['[1 2]', "expected ',' or ']' after an array element, found '2'", 1, 4],
    ['{"a":1]', "expected ',' or '}' after an object member, found ']'", 1, 7],
    ['[\n  01]', 'a number cannot have leading zeros', 2, 4],
    ['{\n"a": "x\ny"}', 'a string cannot span lines (write the newline as \\n)', 2, 8],
    ['"\\x"', "invalid escape sequence after \\: 'x'", 1, 3],
    ['"\\u00G0"', 'expected 4 hex digits after \\u', 1, 6],
    ['tru', 'the input ends inside a value', 1, 4],
    ['nulL', 'invalid literal (expected null)', 1, 4],
    ['[1, {"a": [2', 'the input ends with 3 unclosed brackets', 1, 13],
    ['', 'the input holds no JSON value', 1, 1],
    ['{} {}', 'unexpected data after the JSON value', 1, 4],
    ["{'a': 1}", "expected a string key or '}', found '''", 1, 2],
    ['[NaN]', "expected a value, found 'N'", 1, 2],
  ])('reports %j as "%s" at line %i, column %i', (text, reason, line, column) => {
    for (const size of [1, 3, 100]) {
      const err = failure(text, { size });
      expect(err.reason).toBe(reason);
      expect(err.position).toMatchObject({ line, column });
    }
  });

  it('refuses nesting deeper than the limit at the bracket that exceeds it', () => {
    expect(() => scan(`${'['.repeat(32)}${']'.repeat(32)}`, { maxDepth: 32 })).not.toThrow();
    const err = failure(`{"a":${'['.repeat(40)}`, { maxDepth: 32 });
    expect(err.reason).toBe('nesting deeper than 32 levels');
    expect(err.position.offset).toBe(5 + 31);
  });

  it('captures reported values whole across chunks, and reports keys', () => {
    const text = '[{"custom_id":"a","url":"https://x.test/é"}, 12.5e3, "s", [true, null]]';
    for (const size of [1, 5, text.length]) {
      const seen: string[] = [];
      scan(text, {
        size,
        hooks: {
          valueStart: (depth, kind) => (seen.push(`start ${depth} ${kind}`), depth === 1),
          valueEnd: (depth, raw) => void seen.push(`end ${depth} ${raw?.toString() ?? 'null'}`),
          key: (depth, raw) => void seen.push(`key ${depth} ${raw.toString()}`),
        },
      });
      expect(seen).toEqual([
        'start 0 array',
        'start 1 object',
        'end 1 {"custom_id":"a","url":"https://x.test/é"}',
        'start 1 number',
        'end 1 12.5e3',
        'start 1 string',
        'end 1 "s"',
        'start 1 array',
        'end 1 [true, null]',
        'end 0 null',
      ]);
    }
  });

  it('stops a capture that outgrows its limit', () => {
    const scanner = new JsonScanner({
      maxDepth: 8,
      eventDepth: 1,
      maxCaptureBytes: 16,
      hooks: { valueStart: (depth) => depth === 1, valueEnd: () => undefined, key: () => undefined },
    });
    scanner.write(Buffer.from('["short", "a long'));
    expect(() => scanner.write(Buffer.from('er string that goes on"]'))).toThrow(CaptureTooLargeError);
  });

  it('accepts JSON Lines only with one value per line', () => {
    const lines = (text: string) => {
      const scanner = new JsonScanner({ maxDepth: 8, multipleValues: true });
      scanner.write(Buffer.from(text));
      scanner.end();
      return scanner.valueCount;
    };
    expect(lines('{"a":1}\n{"a":2}\r\n\n[3]\n4\n')).toBe(4);
    expect(() => lines('{"a":1} {"a":2}')).toThrow(/each start on a new line/);
  });
});
