import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PARSERS } from '../../../src/plugins.js';

/**
 * Golden outputs of every built-in parser on fixture pages (the extraction pages and a few made
 * for parsers), compared exactly; each output is also checked against the parser's own
 * `outputSchema`. `UPDATE_GOLDEN=1 npx vitest run test/unit/parsers/golden.test.ts` rewrites the
 * expected files under test/fixtures/parsers/expected/, to be reviewed before committing.
 */

const fixtures = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1';

const PAGES: Record<string, string> = {
  'parsers/emails': 'https://quarterly.example/contact',
  'parsers/socials': 'https://brightloom.example/blog/brightloom-2',
  'parsers/images': 'https://northlight.example/journal/iceland-in-winter',
  'parsers/calendar': 'https://rustconf-eu.example/',
};

function urlOf(page: string): string {
  if (PAGES[page]) return PAGES[page];
  const request = JSON.parse(readFileSync(join(fixtures, `${page}.request.json`), 'utf8')) as { url: string };
  return request.url;
}

const CASES: Record<string, string[]> = {
  '@olostep/extract-emails': ['parsers/emails', 'extraction/contact', 'extraction/job-posting', 'extraction/empty'],
  '@olostep/extract-socials': [
    'parsers/socials',
    'extraction/local-business',
    'extraction/contact',
    'extraction/profile',
  ],
  '@olostep/extract-images': ['parsers/images', 'extraction/product', 'extraction/empty'],
  '@olostep/extract-calendars': ['parsers/calendar', 'extraction/event', 'extraction/product'],
  'structured-data': ['extraction/news-article', 'extraction/recipe', 'extraction/book', 'extraction/empty'],
  tables: ['extraction/pricing', 'extraction/real-estate', 'extraction/course', 'extraction/german-shop'],
  contacts: ['extraction/contact', 'extraction/local-business', 'parsers/emails', 'extraction/empty'],
};

describe('parser golden outputs', () => {
  it('covers every built-in parser', () => {
    expect(PARSERS.map((parser) => parser.id).sort()).toEqual(Object.keys(CASES).sort());
  });

  for (const parser of PARSERS) {
    const schema = z.fromJSONSchema(parser.outputSchema as Parameters<typeof z.fromJSONSchema>[0]);
    for (const page of CASES[parser.id] ?? []) {
      it(`${parser.id} on ${page}`, () => {
        const text = readFileSync(join(fixtures, `${page}.html`), 'utf8');
        const output = parser.parse({ url: urlOf(page), text, contentType: 'text/html', metadata: {} }, {});
        const result = schema.safeParse(output);
        expect(result.success, JSON.stringify(result.error?.issues)).toBe(true);
        const file = join(
          fixtures,
          'parsers/expected',
          parser.id.replace(/^@olostep\//, ''),
          `${page.replace('/', '--')}.json`,
        );
        if (update) {
          mkdirSync(dirname(file), { recursive: true });
          writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
        }
        expect(existsSync(file), file).toBe(true);
        expect(output).toEqual(JSON.parse(readFileSync(file, 'utf8')));
      });
    }
  }
});
