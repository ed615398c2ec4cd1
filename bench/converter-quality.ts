/**
 * The golden pages through every converter, page by page (docs/content-pipeline.md, "Converters
 * compared"): whether each gives the reviewed markdown, and if not how many lines differ.
 *
 *   node --import tsx bench/converter-quality.ts [--diffs DIR]
 *
 * turndown and mdream are the service's converters (mdream: the native addon when installed, else
 * the WebAssembly build; both give the same output). "mdream raw" and "kreuzberg raw" are those
 * libraries on the HTML of the same cleaned content root, with no rules of this project: mdream
 * with `origin` set to the page URL (so relative links resolve), kreuzberg with its defaults (it
 * has no base URL option; not a dependency, its column needs it installed by hand). `--diffs DIR`
 * writes each differing output there, named after the golden file and the converter.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { builtinTransformers } from '../plugins/transformers/index.js';
import {
  type ContentOptions,
  createContentPipeline,
  createMdreamConverter,
  createTurndownConverter,
  loadMdream,
  type MarkdownConverter,
} from '../src/pipeline/index.js';
import { goldenPages } from './lib/convert/converter-variants.js';
import { REPO_ROOT } from './lib/paths.js';

const { values } = parseArgs({ options: { diffs: { type: 'string' } } });
const require = createRequire(import.meta.url);
const mdreamModule = require('mdream/wasm') as {
  initSync(input: { module: Buffer }): unknown;
  htmlToMarkdownResult(html: string, options: { origin: string }): { markdown?: string };
};
mdreamModule.initSync({ module: readFileSync(require.resolve('mdream/wasm/mdream_edge_bg.wasm')) });
interface Kreuzberg {
  convert(html: string, options: { extractMetadata: boolean }): { content?: string };
}
/** Not a dependency: `npm install --no-save @kreuzberg/html-to-markdown-node@3.7.2` adds its column. */
let kreuzberg: Kreuzberg | null = null;
try {
  kreuzberg = require('@kreuzberg/html-to-markdown-node') as Kreuzberg;
} catch {
  process.stderr.write('kreuzberg is not installed: its column is left out\n');
}

const { binding } = loadMdream();
/** A converter that hands the cleaned root's HTML to a library as it is. */
const raw = (id: string, convert: (html: string, url: string) => string): MarkdownConverter => ({
  id,
  convert: (root, context) => convert((root as Element).outerHTML, context.baseUrl.href).trim(),
});
const converters: MarkdownConverter[] = [
  createTurndownConverter(),
  createMdreamConverter(binding!),
  raw('mdream raw', (html, origin) => mdreamModule.htmlToMarkdownResult(html, { origin }).markdown ?? ''),
];
const k = kreuzberg;
if (k) converters.push(raw('kreuzberg raw', (html) => k.convert(html, { extractMetadata: false }).content ?? ''));
const variants: [string, ContentOptions][] = [
  ['.md', { formats: ['markdown'] }],
  ['.none.md', { formats: ['markdown'], removeCssSelectors: 'none' }],
  ['.readability.md', { formats: ['markdown'], transformer: 'readability' }],
];

const dir = path.join(REPO_ROOT, 'test', 'fixtures', 'pages');
const rows: string[] = [];
for (const page of goldenPages()) {
  for (const [suffix, options] of variants) {
    const file = path.join(dir, `${page.name}${suffix}`);
    if (!existsSync(file)) continue;
    const expected = readFileSync(file, 'utf8');
    const cells = converters.map((converter) => {
      const pipeline = createContentPipeline({ transformers: builtinTransformers, converter });
      const actual = `${pipeline.process(page, options).markdown ?? ''}\n`;
      if (actual === expected) return 'pass';
      if (values.diffs) {
        mkdirSync(values.diffs, { recursive: true });
        writeFileSync(path.join(values.diffs, `${page.name}${suffix}.${converter.id.replace(' ', '-')}`), actual);
      }
      return `differs (${differingLines(expected, actual)} lines)`;
    });
    rows.push(`| ${page.name}${suffix} | ${cells.join(' | ')} |`);
  }
}
process.stdout.write(
  [
    `| page | ${converters.map((c) => c.id).join(' | ')} |`,
    `|---|${converters.map(() => '---').join('|')}|`,
    ...rows,
    '',
  ].join('\n'),
);

/** Lines of either side that the other lacks (as multisets): a size of the difference, not a diff. */
function differingLines(expected: string, actual: string): number {
  const count = new Map<string, number>();
  for (const line of expected.split('\n')) count.set(line, (count.get(line) ?? 0) + 1);
  let extra = 0;
  for (const line of actual.split('\n')) {
    const left = count.get(line) ?? 0;
    if (left > 0) count.set(line, left - 1);
    else extra++;
  }
  let missing = 0;
  for (const left of count.values()) missing += left;
  return missing + extra;
}
