import { describe, expect, it } from 'vitest';
import { validateJsonFile } from '../../../src/domain/files/json-validation.js';
import type { ByteSource } from '../../../src/domain/files/json-validation.js';
import { AppError } from '../../../src/errors.js';

const LIMITS = { maxDepth: 32 };

/** `parts` as a stream that records how many chunks were pulled and whether it was closed. */
function source(parts: (Buffer | string | Uint8Array)[]) {
  const stats = { pulled: 0, closed: false };
  async function* generate(): AsyncGenerator<Buffer | string | Uint8Array> {
    try {
      for (const part of parts) {
        stats.pulled++;
        yield part;
      }
    } finally {
      stats.closed = true;
    }
  }
  return { body: generate() as ByteSource, stats };
}

async function rejection(body: ByteSource, limits: Parameters<typeof validateJsonFile>[1] = LIMITS) {
  const err = await validateJsonFile(body, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('validateJsonFile', () => {
  it('accepts any JSON value and reports its kind and size', async () => {
    const cases: [string, string][] = [
      ['{"users": [{"name": "Zoë", "tags": ["a"]}], "n": 1.5e3}', 'object'],
      ['[]', 'array'],
      ['"just a string"', 'string'],
      [' -0.25 ', 'number'],
      ['null', 'literal'],
    ];
    for (const [text, kind] of cases) {
      expect(await validateJsonFile(source([text]).body, LIMITS)).toEqual({ bytes: Buffer.byteLength(text), kind });
    }
  });

  it('takes chunks as Buffers, Uint8Arrays or strings, split anywhere', async () => {
    const text = '{"a": "日本語 🚀", "b": [true, false, null]}';
    const encoded = Buffer.from(text);
    const parts = Array.from(encoded, (byte, i) => (i % 3 === 0 ? Buffer.from([byte]) : new Uint8Array([byte])));
    expect(await validateJsonFile(source(parts).body, LIMITS)).toMatchObject({ bytes: encoded.length });
    expect(await validateJsonFile(source(['{"a": ', '"é"}']).body, LIMITS)).toMatchObject({ kind: 'object' });
  });

  it('ignores a byte order mark, and counts it in sizes and offsets', async () => {
    const bom = [0xef, 0xbb, 0xbf];
    expect(await validateJsonFile(source([bytes(bom, '{}')]).body, LIMITS)).toEqual({ bytes: 5, kind: 'object' });
    expect(await validateJsonFile(source([bytes([0xef]), bytes([0xbb, 0xbf], '[1]')]).body, LIMITS)).toMatchObject({
      bytes: 6,
    });
    const err = await rejection(source([bytes(bom, '[1,]')]).body);
    expect(err.metadata).toMatchObject({ line: '1', column: '4', offset: '6' });
  });

  it('answers 400 invalid_json naming line, column and byte of the first error', async () => {
    const err = await rejection(source(['{\n  "a": 1,\n  "b": tru\n}']).body);
    expect(err).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(err.detail).toBe('invalid JSON at line 3, column 11 (byte 22): invalid literal (expected true)');
    expect(err.metadata).toEqual({ line: '3', column: '11', offset: '22' });
    expect((await rejection(source(['']).body)).detail).toMatch(/holds no JSON value/);
    expect((await rejection(source(['{"a":1}{']).body)).detail).toMatch(/unexpected data after the JSON value/);
  });

  it('stops reading at a nesting bomb', async () => {
    const { body, stats } = source(Array.from({ length: 64 }, () => '['.repeat(16 * 1024)));
    const err = await rejection(body);
    expect(err.detail).toBe('invalid JSON at line 1, column 33 (byte 32): nesting deeper than 32 levels');
    expect(stats).toEqual({ pulled: 1, closed: true });
    const deep = `${'{"a":'.repeat(31)}[]${'}'.repeat(31)}`;
    expect(await validateJsonFile(source([deep]).body, LIMITS)).toMatchObject({ kind: 'object' });
  });

  it('refuses invalid UTF-8 where it starts, and a character cut by the end', async () => {
    const split = await rejection(source([bytes('{"name": "caf', [0xc3]), bytes([0x28], '"}')]).body);
    expect(split.detail).toMatch(/^invalid JSON at line 1, column 14 \(byte 13\): invalid UTF-8/);
    const latin1 = await rejection(source([Buffer.from('["café"]', 'latin1')]).body);
    expect(latin1.metadata).toMatchObject({ offset: '5' });
    const cut = await rejection(source([bytes('"abc', [0xe2, 0x82])]).body);
    expect(cut.detail).toMatch(/byte 4\): invalid UTF-8 \(the file ends inside a character\)/);
    // A syntax error earlier in the same chunk is the one reported.
    const syntax = await rejection(source([bytes('[1,,"', [0xff], '"]')]).body);
    expect(syntax.detail).toMatch(/column 4 .*expected a value/);
  });

  it('answers 400 file_too_large as soon as the limit is passed, reading no further', async () => {
    const { body, stats } = source(Array.from({ length: 10 }, (_, i) => (i === 0 ? '["' : 'x'.repeat(1024))));
    const err = await rejection(body, { ...LIMITS, maxBytes: 4096 });
    expect(err).toMatchObject({ status: 400, code: 'file_too_large', metadata: { max_bytes: '4096' } });
    expect(stats).toEqual({ pulled: 5, closed: true }); // 2 + 4 × 1024 bytes
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    const { body, stats } = source(['[1,', '2,', '3]']);
    async function* aborting() {
      for await (const chunk of body) {
        yield chunk;
        controller.abort();
      }
    }
    await expect(validateJsonFile(aborting(), { ...LIMITS, signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(stats.closed).toBe(true);
  });
});
