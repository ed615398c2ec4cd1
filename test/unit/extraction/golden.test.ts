import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractFromHtml, formatExtractionWarning, toResolvedSchema } from '../../../src/extraction/index.js';

/**
 * Golden pages for the deterministic extractor: every test/fixtures/extraction/<name>.html has a
 * <name>.request.json (`url`, `schema` or `json_format`, optional `prompt`) and a reviewed
 * <name>.expected.json (`data`, `provenance`, `empty`, `warning`), compared exactly.
 * `UPDATE_GOLDEN=1 npx vitest run test/unit/extraction/golden.test.ts` rewrites the expected
 * files, which must then be read and reviewed before committing.
 */

const dir = fileURLToPath(new URL('../../fixtures/extraction/', import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1';

interface GoldenRequest {
  url: string;
  schema?: unknown;
  json_format?: unknown;
  prompt?: string;
}

const pages = readdirSync(dir)
  .filter((file) => file.endsWith('.html'))
  .map((file) => file.slice(0, -'.html'.length))
  .sort();

function run(name: string) {
  const request = JSON.parse(readFileSync(join(dir, `${name}.request.json`), 'utf8')) as GoldenRequest;
  const field = request.schema !== undefined ? 'llm_extract.schema' : 'json_format';
  const schema = toResolvedSchema(request.schema ?? request.json_format, field);
  const html = readFileSync(join(dir, `${name}.html`), 'utf8');
  const result = extractFromHtml({ html, url: request.url }, { schema, prompt: request.prompt });
  return {
    data: result.data,
    provenance: result.provenance,
    empty: result.empty,
    warning: formatExtractionWarning(result),
  };
}

describe('extraction golden pages', () => {
  it('has at least 15 realistic pages, each with a request and a reviewed expectation', () => {
    expect(pages.length).toBeGreaterThanOrEqual(15);
    for (const name of pages) {
      expect(existsSync(join(dir, `${name}.request.json`)), `${name}.request.json`).toBe(true);
      if (!update) expect(existsSync(join(dir, `${name}.expected.json`)), `${name}.expected.json`).toBe(true);
    }
  });

  for (const name of pages) {
    it(`fills ${name} exactly as reviewed`, () => {
      const actual = run(name);
      const file = join(dir, `${name}.expected.json`);
      if (update) writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
      expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
    });
  }

  it('gives the same answer twice (no state kept between pages)', () => {
    expect(run('pricing')).toEqual(run('pricing'));
  });
});
