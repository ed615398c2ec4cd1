import { describe, expect, it } from 'vitest';
import { CreateBatchInput } from '../../../src/domain/batches/batch.schema.js';
import { readBatchFile } from '../../../src/domain/files/batch-file.js';
import type { BatchFileItem, BatchFileLimits } from '../../../src/domain/files/batch-file.js';
import { parseTargetUrl } from '../../../src/engine/target-url.js';
import { AppError, errors } from '../../../src/errors.js';
import { parseInput } from '../../../src/validation.js';

const LIMITS = { maxDepth: 32 };
const A = { custom_id: 'a', url: 'https://a.example/x?q=1' };
const B = { custom_id: 'b', url: 'http://b.example/', metadata: { source: 'file' } };
const C = { custom_id: 'c', url: 'https://c.example/é' };

/** `text` in chunks of `size` bytes; the items handed over with their indexes. */
async function read(text: string, limits: Partial<BatchFileLimits> = {}, size = 7) {
  const encoded = Buffer.from(text);
  async function* chunks() {
    for (let i = 0; i < encoded.length; i += size) yield encoded.subarray(i, i + size);
  }
  const items: [BatchFileItem, number][] = [];
  const summary = await readBatchFile(chunks(), {
    ...LIMITS,
    ...limits,
    onItem: (item, i) => void items.push([item, i]),
  });
  return { summary, items };
}

async function failure(text: string, limits: Partial<BatchFileLimits> = {}): Promise<AppError> {
  const err = await read(text, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, text.slice(0, 200)).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('readBatchFile', () => {
  it('reads the same items from an array, an object with options, and JSON Lines', async () => {
    const expected = [
      [A, 0],
      [B, 1],
      [C, 2],
    ];
    const array = await read(JSON.stringify([A, B, C], null, 2));
    expect(array.summary).toMatchObject({ format: 'array', items: 3, options: {} });
    expect(array.items).toEqual(expected);

    const object = await read(JSON.stringify({ parser: { id: 'p' }, items: [A, B, C], country: 'US' }));
    expect(object.summary).toMatchObject({
      format: 'object',
      items: 3,
      options: { parser: { id: 'p' }, country: 'US' },
    });
    expect(object.items).toEqual(expected);

    const lines = await read(`${JSON.stringify(A)}\r\n\n${JSON.stringify(B)}\n  ${JSON.stringify(C)}\n`);
    expect(lines.summary).toMatchObject({ format: 'jsonl', items: 3, options: {} });
    expect(lines.items).toEqual(expected);
    expect(lines.summary.bytes).toBe(
      Buffer.byteLength(`${JSON.stringify(A)}\r\n\n${JSON.stringify(B)}\n  ${JSON.stringify(C)}\n`),
    );
  });

  it('judges each item exactly as an inline batch item, naming it by index', async () => {
    const samples: unknown[] = [
      A,
      { custom_id: 'x', url: 'ftp://files.example/a' },
      { custom_id: 'x', url: '/relative' },
      { custom_id: '', url: 'https://a.example/' },
      { url: 'https://a.example/' },
      { custom_id: 'x', url: 'https://a.example/', metadata: { n: 5 } },
      { custom_id: 'x', url: 'https://a.example/', metadata: 'tag' },
      { custom_id: 7, url: 'https://a.example/' },
      { custom_id: 'x', url: 'https://a.example/', extra: 'kept as inline items keep it' },
      ['not', 'an', 'object'],
      'a string',
    ];
    for (const sample of samples) {
      const items = [{ custom_id: 'first', url: 'https://ok.example/' }, sample];
      const inline = inlineOutcome(items);
      const file = await read(JSON.stringify(items)).then(
        ({ items: read }) => ({ ok: true as const, items: read.map(([item]) => item) }),
        (err: AppError) => ({ ok: false as const, detail: err.detail }),
      );
      if (inline.ok) expect(file, JSON.stringify(sample)).toEqual(inline);
      else
        expect(file.ok ? '' : file.detail, JSON.stringify(sample)).toMatch(new RegExp(`^${escape(inline.detail)} \\(`));
    }
  });

  it('tells where an invalid item is, in metadata and detail', async () => {
    const text = `${JSON.stringify(A)}\n${JSON.stringify(B)}\n{"custom_id": "c", "url": "mailto:x@example.com"}\n`;
    const err = await failure(text);
    expect(err).toMatchObject({ status: 400, code: 'validation_error' });
    expect(err.detail).toBe(
      'items[2].url: scheme "mailto" is not allowed; use http or https (in the item at line 3, column 1)',
    );
    expect(err.metadata).toMatchObject({ field: 'items[2].url', item_index: '2', line: '3', column: '1' });
  });

  it('refuses a duplicate custom_id, naming both items', async () => {
    const err = await failure(JSON.stringify([A, B, { ...C, custom_id: 'a' }]));
    expect(err.detail).toMatch(/^items\[2\]\.custom_id: duplicate custom_id "a" \(also items\[0\]\)/);
  });

  it('refuses more items than a batch holds, when the first one too many starts', async () => {
    const items = Array.from({ length: 10_001 }, (_, i) => ({ custom_id: `i${i}`, url: `https://x.example/${i}` }));
    const err = await failure(items.map((item) => JSON.stringify(item)).join('\n'));
    expect(err.detail).toBe('items: at most 10000 items per batch (at line 10001, column 1)');
    expect((await read(JSON.stringify(items.slice(0, 10_000)), {}, 65536)).summary.items).toBe(10_000);
    expect((await failure(JSON.stringify([A, B, C]), { maxItems: 2 })).detail).toMatch(/^items: at most 2 items/);
  });

  it('refuses files that hold no items or no batch', async () => {
    expect((await failure('[]')).detail).toBe('items: must contain at least one item');
    expect((await failure('{"items": []}')).detail).toBe('items: must contain at least one item');
    expect((await failure('"a string"')).detail).toMatch(
      /^body: a batch file holds a JSON array of items.*found a string/,
    );
    expect((await failure(`${JSON.stringify([A])}\n${JSON.stringify([B])}`)).detail).toMatch(/found more after it/);
    expect((await failure(`${JSON.stringify({ items: [A] })}\n${JSON.stringify(B)}`)).detail).toMatch(/found more/);
    expect((await failure('{"items": [], "items": []}')).detail).toMatch(/^items: appears twice/);
  });

  it('checks the batch options of the object layout like POST /v1/batches', async () => {
    const err = await failure(JSON.stringify({ items: [A], async: true, formats: ['markdown'] }));
    expect(err.detail).toBe('async: unknown field');
    const bad = await failure(JSON.stringify({ items: [A], metadata: { k: 1 } }));
    expect(bad.detail).toMatch(/^metadata\.k: must be a string/);
  });

  it('refuses an item (or option) larger than the limit without holding it', async () => {
    const big = { custom_id: 'big', url: 'https://x.example/', metadata: { note: 'n'.repeat(500) } };
    const err = await failure(JSON.stringify([A, big]), { maxItemBytes: 256 });
    const column = JSON.stringify(A).length + 3; // after '[' and ','
    expect(err.detail).toBe(`items[1]: the item is larger than 256 bytes (at line 1, column ${column})`);
    const option = await failure(JSON.stringify({ metadata: { note: 'n'.repeat(500) }, items: [A] }), {
      maxItemBytes: 256,
    });
    expect(option.detail).toMatch(/^body: a member of the top-level object is larger than 256 bytes/);
  });

  it('applies the outbound policy given to it, naming the item', async () => {
    const seen: string[] = [];
    const checkUrl = (url: URL, field: string) => {
      seen.push(`${field} ${url.hostname}`);
      if (url.hostname === '127.0.0.1') throw errors.blocked('private network addresses are not allowed');
    };
    const err = await failure(JSON.stringify([A, { custom_id: 'z', url: 'http://127.0.0.1:8080/' }]), { checkUrl });
    expect(seen).toEqual(['items[0].url a.example', 'items[1].url 127.0.0.1']);
    expect(err).toMatchObject({ status: 403, code: 'blacklisted_domain', metadata: { field: 'items[1].url' } });
  });

  it('hands items over before reading further, waiting for a slow receiver', async () => {
    const log: string[] = [];
    async function* chunks() {
      for (const [i, item] of [A, B, C].entries()) {
        log.push(`chunk ${i}`);
        yield Buffer.from(`${JSON.stringify(item)}\n`);
      }
    }
    await readBatchFile(chunks(), {
      ...LIMITS,
      onItem: async (item) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        log.push(`item ${item.custom_id}`);
      },
    });
    expect(log).toEqual(['chunk 0', 'item a', 'chunk 1', 'item b', 'chunk 2', 'item c']);
  });
});

/** What POST /v1/batches says about the same items: the schema, then each URL's syntax. */
function inlineOutcome(items: unknown[]): { ok: true; items: unknown[] } | { ok: false; detail: string } {
  try {
    const parsed = parseInput(CreateBatchInput, { items }).items ?? [];
    parsed.forEach((item, i) => parseTargetUrl(item.url, `items[${i}].url`));
    return { ok: true, items: parsed };
  } catch (err) {
    return { ok: false, detail: (err as AppError).detail };
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
