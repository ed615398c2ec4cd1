import { afterEach, describe, expect, it } from 'vitest';
import { builtinTransformers } from '../../../plugins/transformers/index.js';
import { AppError } from '../../../src/errors.js';
import { createLogger } from '../../../src/logger.js';
import { type ContentPipeline, createContentPipeline } from '../../../src/pipeline/content-pipeline.js';
import {
  type ConvertOptions,
  type ConvertPool,
  createConvertPool,
  HELP_MAX_CHARS,
} from '../../../src/pipeline/convert-pool.js';
import type { ContentInput } from '../../../src/pipeline/types.js';

const pipeline = createContentPipeline({ transformers: builtinTransformers });
const raw = { formats: ['markdown' as const] };
const options: ConvertOptions = { raw, key: JSON.stringify(raw), prepared: pipeline.prepare(raw) };
const logger = createLogger({ logLevel: 'silent' });

/** A page whose markdown says which page it is, with enough body to take the thread a moment. */
function page(n: number, padding = 0): ContentInput {
  const rows = Array.from({ length: 300 }, (_, i) => `<tr><td>${n}-${i}</td><td>cell ${i}</td></tr>`).join('');
  return {
    text: `<html><head><title>Page ${n}</title></head><body><h1>Page ${n}</h1><!--${'x'.repeat(padding)}--><table>${rows}</table></body></html>`,
    url: `https://example.com/${n}`,
    contentType: 'text/html',
  };
}

/** The pipeline, counting the pages the calling thread converted through it. */
function countingHelper(process: ContentPipeline['process'] = (i, o) => pipeline.process(i, o)) {
  const helper = {
    ...pipeline,
    calls: 0,
    process: (i: ContentInput, o: Parameters<ContentPipeline['process']>[1]) => {
      helper.calls++;
      return process(i, o);
    },
  };
  return helper;
}

let pool: ConvertPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe('conversion pool', () => {
  it('converts on its thread what the pipeline converts on this one', async () => {
    pool = createConvertPool({ size: 1, logger });
    const converted = await pool.convert(page(1), options);
    expect(converted.markdown).toBe(pipeline.process(page(1), options.prepared).markdown);
    expect(converted.markdown).toContain('# Page 1');
  });

  it('gives every page its own result when many wait, without a helper', async () => {
    pool = createConvertPool({ size: 1, logger });
    const results = await Promise.all(Array.from({ length: 8 }, (_, n) => pool!.convert(page(n), options)));
    results.forEach((r, n) => expect(r.markdown).toContain(`# Page ${n}\n`));
  });

  it('lets the calling thread convert waiting pages when every thread is full', async () => {
    const helper = countingHelper();
    pool = createConvertPool({ size: 1, logger, helper });
    const results = await Promise.all(Array.from({ length: 12 }, (_, n) => pool!.convert(page(n), options)));
    results.forEach((r, n) => expect(r.markdown).toContain(`# Page ${n}\n`));
    expect(helper.calls).toBeGreaterThan(0);
    expect(helper.calls).toBeLessThan(12);
  });

  it('leaves pages to the threads while they have room', async () => {
    const helper = countingHelper();
    pool = createConvertPool({ size: 1, logger, helper });
    for (let n = 0; n < 4; n++) expect((await pool.convert(page(n), options)).markdown).toContain(`# Page ${n}\n`);
    // Two at a time fit the thread (the page it converts and the next).
    await Promise.all([pool.convert(page(4), options), pool.convert(page(5), options)]);
    expect(helper.calls).toBe(0);
  });

  it('never holds the calling thread with a page larger than HELP_MAX_CHARS', async () => {
    const helper = countingHelper();
    pool = createConvertPool({ size: 1, logger, helper });
    const large = (n: number) => page(n, HELP_MAX_CHARS);
    const results = await Promise.all(Array.from({ length: 5 }, (_, n) => pool!.convert(large(n), options)));
    results.forEach((r, n) => expect(r.markdown).toContain(`# Page ${n}\n`));
    expect(helper.calls).toBe(0);
  });

  it('fails only the page whose conversion on the calling thread threw, as a 500', async () => {
    const helper = countingHelper(() => {
      throw new Error('converter bug');
    });
    pool = createConvertPool({ size: 1, logger, helper });
    const settled = await Promise.allSettled(Array.from({ length: 6 }, (_, n) => pool!.convert(page(n), options)));
    const failed = settled.filter((s) => s.status === 'rejected');
    expect(failed).toHaveLength(helper.calls);
    expect(failed.length).toBeGreaterThan(0);
    for (const f of failed) {
      expect(f.reason).toBeInstanceOf(AppError);
      expect((f.reason as AppError).code).toBe('internal_server_error');
      expect((f.reason as AppError).detail).toContain('converter bug');
    }
    // The first two went to the thread at once and were converted there.
    expect(settled[0]!.status).toBe('fulfilled');
    expect(settled[1]!.status).toBe('fulfilled');
  });

  it('keeps the request error a converter raises on the calling thread', async () => {
    const helper = countingHelper(() => {
      throw new AppError('validation', 'validation_error', 'remove_css_selectors[0] is not a selector');
    });
    pool = createConvertPool({ size: 1, logger, helper });
    const settled = await Promise.allSettled(Array.from({ length: 4 }, (_, n) => pool!.convert(page(n), options)));
    const failed = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as AppError] : []));
    expect(failed.length).toBe(helper.calls);
    for (const err of failed) expect(err.code).toBe('validation_error');
  });

  it('drops a waiting page whose caller gave up, and converts the others', async () => {
    const helper = countingHelper();
    pool = createConvertPool({ size: 1, logger, helper });
    const held = [pool.convert(page(0), options), pool.convert(page(1), options)];
    const gone = new AbortController();
    const dropped = pool.convert(page(2), options, gone.signal);
    const kept = pool.convert(page(3), options, new AbortController().signal);
    gone.abort(new Error('client went away'));
    await expect(dropped).rejects.toThrow('client went away');
    const results = await Promise.all([...held, kept]);
    expect(results.map((r) => /# Page (\d)/.exec(r.markdown ?? '')?.[1])).toEqual(['0', '1', '3']);
    // Page 3 was the only one left waiting, so the event loop may have taken it; page 2 nobody did.
    expect(helper.calls).toBeLessThanOrEqual(1);
    await expect(pool.convert(page(4), options, gone.signal)).rejects.toThrow('client went away');
  });

  it('fails waiting pages and later calls once closed', async () => {
    pool = createConvertPool({ size: 1, logger });
    const pending = Array.from({ length: 5 }, (_, n) => pool!.convert(page(n), options));
    const closed = pool.close();
    const settled = await Promise.allSettled(pending);
    await closed;
    // The three that waited in the queue are failed by close(); the two on the thread fail when it ends.
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    await expect(pool.convert(page(9), options)).rejects.toMatchObject({ code: 'internal_server_error' });
  });
});
