import { afterEach, describe, expect, it } from 'vitest';
import { PARSERS } from '../../../src/plugins.js';
import { builtinTransformers } from '../../../plugins/transformers/index.js';
import { AppError } from '../../../src/errors.js';
import { createLogger } from '../../../src/logger.js';
import { createContentPipeline } from '../../../src/pipeline/content-pipeline.js';
import { type ConvertOptions, type ConvertPool, createConvertPool } from '../../../src/pipeline/convert-pool.js';
import type { ContentOptions } from '../../../src/pipeline/types.js';

// Parsers and the deterministic extractor are pipeline steps: a conversion thread runs them
// (the pool below has no helper, so nothing is converted on this thread).

const pipeline = createContentPipeline({ transformers: builtinTransformers, parsers: PARSERS });
const logger = createLogger({ logLevel: 'silent' });
const options = (raw: ContentOptions): ConvertOptions => ({
  raw,
  key: JSON.stringify(raw),
  prepared: pipeline.prepare(raw),
});

const PAGE = {
  url: 'https://shop.example/p/1',
  contentType: 'text/html',
  text: `<html><head><title>Anvil</title><script type="application/ld+json">{"@type":"Product","name":"Anvil","offers":{"price":"120","priceCurrency":"EUR"}}</script></head>
<body><nav>menu</nav><main><h1>Anvil</h1><p>Mail us: sales@acme.example</p></main></body></html>`,
};

let pool: ConvertPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe('json steps on the conversion threads', () => {
  it('runs a parser on the thread and posts its output back', async () => {
    pool = createConvertPool({ size: 1, logger });
    const result = await pool.convert(
      PAGE,
      options({ formats: ['markdown'], parser: { id: '@olostep/extract-emails' } }),
    );
    expect(result.parsed).toEqual({ emails: ['sales@acme.example'] });
    expect(result.markdown).toContain('Anvil');
    expect(result.timings.parser).toBeGreaterThanOrEqual(0);
  });

  it('fills a schema by rules on the thread, reading JSON-LD that cleanup removes from the formats', async () => {
    pool = createConvertPool({ size: 1, logger });
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' }, color: { type: 'string' } },
    };
    const result = await pool.convert(PAGE, options({ formats: ['markdown'], extract: { schema } }));
    expect(result.extraction).toMatchObject({
      data: { name: 'Anvil', price: 120, color: null },
      filled: ['name', 'price'],
      empty: ['color'],
    });
    expect(result.markdown).not.toContain('ld+json');
  });

  it("carries a parser's 422 across the thread with its code and metadata", async () => {
    pool = createConvertPool({ size: 1, logger });
    const json = { url: 'https://x.example/a.json', contentType: 'application/json', text: '{"a":1}' };
    const error = await pool.convert(json, options({ formats: [], parser: { id: 'tables' } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 422, code: 'invalid_parser_input', metadata: { parser: 'tables' } });
  });

  it('refuses an unknown parser and a schema that is not an object schema when options are prepared', () => {
    expect(() => pipeline.prepare({ formats: [], parser: { id: 'nope' } })).toThrow(/parser "nope" does not exist/);
    expect(() => pipeline.prepare({ formats: [], extract: { schema: { type: 'string' } } })).toThrow(
      /llm_extract\.schema: must be an object schema/,
    );
    expect(() => createContentPipeline().prepare({ formats: [], parser: { id: 'tables' } })).toThrow(/available: none/);
  });
});
