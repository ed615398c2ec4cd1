import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../../engines/http/decode-body.js';
import { builtinTransformers } from '../../../plugins/transformers/index.js';
import { createContentPipeline } from '../../../src/pipeline/index.js';
import type { ContentOptions, ContentPipeline } from '../../../src/pipeline/index.js';
import { markdownConverters } from '../../support/markdown-converters.js';

/**
 * Golden files: every test/fixtures/pages/<name>.html has a reviewed <name>.md (default options).
 * Optional variants, run when their file exists: <name>.none.md (remove_css_selectors "none"),
 * <name>.readability.md (transformer readability), <name>.txt (text format), <name>.meta.json
 * (page_metadata). Pages are stored as raw bytes and decoded with the charset they declare.
 * `UPDATE_GOLDEN=1 npx vitest run test/unit/pipeline/golden.test.ts` rewrites the files (markdown
 * from the turndown converter), which must then be read and reviewed before committing.
 *
 * Every converter is held to the same markdown files: turndown, mdream's WebAssembly build and, when
 * installed, its native addon (the default converter and its fallback must not differ).
 */

const dir = fileURLToPath(new URL('../../fixtures/pages/', import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1';
const converters = markdownConverters();
const [reference] = converters;
const pipelineOf = (converter: ContentPipeline['converter']): ContentPipeline =>
  createContentPipeline({ transformers: builtinTransformers, converter });
const pipeline = pipelineOf(reference!.converter!);

interface Variant {
  suffix: string;
  options: ContentOptions;
  pick: (result: ReturnType<ContentPipeline['process']>) => string;
}

const VARIANTS: Variant[] = [
  { suffix: '.md', options: { formats: ['markdown'] }, pick: (r) => `${r.markdown ?? ''}\n` },
  {
    suffix: '.none.md',
    options: { formats: ['markdown'], removeCssSelectors: 'none' },
    pick: (r) => `${r.markdown ?? ''}\n`,
  },
  {
    suffix: '.readability.md',
    options: { formats: ['markdown'], transformer: 'readability' },
    pick: (r) => `${r.markdown ?? ''}\n`,
  },
  { suffix: '.txt', options: { formats: ['text'] }, pick: (r) => `${r.text ?? ''}\n` },
  { suffix: '.meta.json', options: { formats: [] }, pick: (r) => `${JSON.stringify(r.metadata, null, 2)}\n` },
];

const pages = readdirSync(dir)
  .filter((file) => file.endsWith('.html'))
  .map((file) => file.slice(0, -'.html'.length))
  .sort();

function render(name: string, options: ContentOptions, using = pipeline) {
  const bytes = readFileSync(join(dir, `${name}.html`));
  const { text, contentType } = decodeBody(bytes, 'text/html');
  return using.process({ text: text ?? '', url: `https://www.example.com/section/${name}.html`, contentType }, options);
}

describe('golden pages', () => {
  it('has at least 20 fixture pages, each with reviewed markdown', () => {
    expect(pages.length).toBeGreaterThanOrEqual(20);
    for (const name of pages) expect(existsSync(join(dir, `${name}.md`)), `${name}.md`).toBe(true);
  });

  it('leaves no HTML tags in golden markdown except <sub>/<sup> and <br> inside table cells', () => {
    for (const name of pages) {
      const markdown = readFileSync(join(dir, `${name}.md`), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const line of markdown.split('\n')) {
        const tags = (line.match(/(?<!\\)<\/?[a-z][a-z0-9-]*/gi) ?? []).filter(
          (tag) => !/^<\/?su[bp]$/i.test(tag) && !(tag === '<br' && line.startsWith('|')),
        );
        expect(tags, `${name}.md: ${line}`).toEqual([]);
      }
    }
  });

  for (const name of pages) {
    for (const variant of VARIANTS) {
      const file = join(dir, `${name}${variant.suffix}`);
      if (variant.suffix !== '.md' && !existsSync(file)) continue;
      it(`${name}${variant.suffix}`, () => {
        const actual = variant.pick(render(name, variant.options));
        if (update) writeFileSync(file, actual);
        expect(actual).toBe(readFileSync(file, 'utf8'));
      });
    }
  }
});

const MARKDOWN_VARIANTS = VARIANTS.filter((variant) => variant.suffix.endsWith('.md'));

describe('golden pages with the mdream converters', () => {
  it("loads mdream's WebAssembly build (it ships inside the mdream package)", () => {
    expect(converters.find((c) => c.name === 'mdream-wasm')?.converter, converters[1]?.missing).not.toBeNull();
  });

  for (const { name: converterName, converter, missing } of converters.slice(1)) {
    describe.skipIf(!converter)(`${converterName}${converter ? '' : ` (not installed: ${missing})`}`, () => {
      const using = converter ? pipelineOf(converter) : pipeline;
      for (const name of pages) {
        for (const variant of MARKDOWN_VARIANTS) {
          const file = join(dir, `${name}${variant.suffix}`);
          if (variant.suffix !== '.md' && !existsSync(file)) continue;
          it(`${name}${variant.suffix}`, () => {
            expect(variant.pick(render(name, variant.options, using))).toBe(readFileSync(file, 'utf8'));
          });
        }
      }
    });
  }
});
