import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { renderDocsPage, renderErrorsPage } from '../../src/http/docs-page.js';
import { buildOpenApiDocument } from '../../src/http/openapi.js';
import type { AnyRoute } from '../../src/module/route.js';
import { APP_MODULES } from '../../src/modules.js';

// Broke: /docs showed the nested request objects of a scrape (`parser`, `llm_extract`,
// `actions`) as a bare `object` with no fields, printed descriptions' code spans as literal
// backticks, and pages (docs, settings, GraphQL descriptions) sent readers to "the spec" and
// decisions.md, which users of the service do not have.

const ROOT = path.resolve(import.meta.dirname, '../..');
const routes = APP_MODULES.flatMap((m) => m.routes?.({}) ?? []) as AnyRoute[];
const page = renderDocsPage(buildOpenApiDocument(routes, { version: '1', serverUrl: 'http://localhost:8080' }));

/** The section of one operation (by operationId). */
function operation(id: string): string {
  const start = page.indexOf(`<section class="op" id="${id}">`);
  expect(start, id).toBeGreaterThan(0);
  return page.slice(start, page.indexOf('</section>', start));
}

const fields = (section: string) => [...section.matchAll(/<tr><td><code>([^<]+)<\/code>/g)].map((m) => m[1]!);

it('shows the fields of nested request objects, and of each kind of action', () => {
  const scrape = fields(
    operation(String(routes.find((r) => r.method === 'post' && r.path === '/v1/scrapes')!.operationId)),
  );
  expect(scrape).toEqual(
    expect.arrayContaining([
      'parser',
      'parser.id',
      'llm_extract',
      'llm_extract.schema',
      'llm_extract.prompt',
      'actions',
      'actions[] (type &quot;wait&quot;).milliseconds',
      'actions[] (type &quot;click&quot;).selector',
      'actions[] (type &quot;fill_input&quot;).selector',
    ]),
  );
});

it('renders code spans as code, never as backticks', () => {
  expect(page).not.toContain('`');
  expect(page).toMatch(/<code>[a-z_]+<\/code>/);
});

it('never sends a reader to the spec or decisions.md', () => {
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => [`docs/${f}`, readFileSync(path.join(ROOT, 'docs', f), 'utf8')] as const);
  const pages = [
    ['/docs', page],
    ['/docs/api-reference/errors', renderErrorsPage()!],
    ['README.md', readFileSync(path.join(ROOT, 'README.md'), 'utf8')],
    ['CONTRIBUTING.md', readFileSync(path.join(ROOT, 'CONTRIBUTING.md'), 'utf8')],
    ['.env.example', readFileSync(path.join(ROOT, '.env.example'), 'utf8')],
    ['schema/schema.graphql', readFileSync(path.join(ROOT, 'schema/schema.graphql'), 'utf8')],
    ...docs,
  ];
  for (const [name, text] of pages) {
    // "spec" as a document (the spec, spec's, "(spec …"), not as in "specific" or a code identifier.
    const found = text.match(/[^\n]{0,40}(\bthe spec\b|\bspec['’]s\b|\(spec\b|decisions\.md)[^\n]{0,40}/gi) ?? [];
    expect(found, name).toEqual([]);
  }
});
