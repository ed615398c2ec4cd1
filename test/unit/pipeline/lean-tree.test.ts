import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Linkedom from 'linkedom';
import { describe, expect, it, vi } from 'vitest';
import { decodeBody } from '../../../engines/http/decode-body.js';
import { builtinTransformers } from '../../../plugins/transformers/index.js';
import { createContentPipeline, loadMdream, createMdreamConverter } from '../../../src/pipeline/index.js';
import { collapseWhitespace, parseLeanPage, parsePage } from '../../../src/pipeline/dom.js';
import { discoverLinks, readPageLinks } from '../../../src/pipeline/page-links.js';
import { MAX_DEPTH } from '../../../src/pipeline/lean/lean-parser.js';
import { checkLeanParity } from '../../support/lean-parity.js';

// Counts linkedom parses of pages (the selector probe document of remove-selectors.ts aside).
const linkedomParses = vi.hoisted(() => ({ count: 0 }));
vi.mock('linkedom', async (importOriginal) => {
  const linkedom = await importOriginal<typeof Linkedom>();
  return {
    ...linkedom,
    parseHTML: (html: string, ...rest: unknown[]) => {
      if (html !== '<html><body><p></p></body></html>') linkedomParses.count++;
      return (linkedom.parseHTML as (...args: unknown[]) => unknown)(html, ...rest);
    },
  };
});

/**
 * The lean tree against linkedom's DOM: every format the lean path serves must come out byte for
 * byte the same (test/support/lean-parity.ts runs both parses with several option sets). The
 * generated site's 2,000 articles are compared by bench/lean-parity.ts.
 */

const dir = fileURLToPath(new URL('../../fixtures/pages/', import.meta.url));
const wasm = loadMdream('wasm').binding;
const pipeline = createContentPipeline({
  transformers: builtinTransformers,
  ...(wasm ? { converter: createMdreamConverter(wasm) } : {}),
});
const page = (text: string, url = 'https://www.example.com/a/page.html') => ({ text, url, contentType: 'text/html' });

const ADVERSARIAL: Record<string, string> = {
  'unclosed and misnested tags':
    '<div><p>one<p>two<b>bold<i>both</b>italic</i><ul><li>a<li>b</ul><table><tr><td>1<td>2</table>',
  entities: '<p>a &amp; b &lt;tag&gt; &#x1F600; &bogus; &amp &nbsp;x&#0;y</p><p>5 < 6 and 7 > 3, a <3 b</p>',
  'upper-case tags and attributes':
    '<P CLASS="Lead  lead"><A HREF="/x" TITLE="t" class="  a  b a ">link</A><IMG SRC=/i.png ALT=pic></P>',
  'mismatched heading end tag': '<h1>Title</h2><p>after the heading</p><h3>Sub</h3>text',
  template:
    '<template><A HREF="/in-template">hidden</A><meta name=description content=no></template><a href="/out">out</a>',
  'script, style, noscript':
    '<script>if (a < b && c) { x = "</p>"; }</script><style>p > a { color: red }</style><noscript><p>enable JS</p></noscript><p>body</p>',
  'CDATA and comments':
    '<p>a<![CDATA[ x < y ]]>b<!-- c --> d</p><svg><![CDATA[z]]><title>t</title></svg><math><mi>x</mi></math>',
  'NUL and lone surrogates': '<p>a\u0000b \uD800 c \uDC00 d \uE000 e</p><a href="/\u0000x">nul</a>',
  'content outside body':
    '<html><head><title>T</title></head><div>before body</div><body><p>in body</p></body><p>after</p></html>',
  'no html element': '<title>Bare</title><p>text <a href="b">link</a></p>',
  RTL: '<html lang="ar" dir="rtl"><body><h1>مرحبا</h1><p>هذا <a href="/ar">رابط</a> و <b>نص</b>.</p><p dir="ltr">English</p></body></html>',
  'self-closing and void':
    '<div/>x<br/>y<img src=a><input type=checkbox checked><ul><li><input type="checkbox" CHECKED> task</li></ul>',
  'base href and links':
    '<head><base href="https://cdn.example.org/root/"></head><a href="x">x</a><a href="#top">top</a><a href="mailto:a@b">m</a><area href="/area">',
  'lists, quotes, code, tables':
    '<ol start=3><li><p>para</p><ul><li>nested</li></ul></li><li>two</li></ol><blockquote><p>q</p><footer>src</footer></blockquote><pre><code class="language-js">let a = 1;</code></pre><table><caption>C</caption><thead><tr><th colspan=2>H</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table><dl><dt>T</dt><dd>D</dd></dl>',
  'chrome and banners':
    '<header>site</header><nav><a href="/n">nav</a></nav><article><header><h1>Own header</h1></header><p>Body</p><footer>by me</footer></article><div class="cookie-banner">cookies</div><footer>site footer</footer>',
};

describe('lean tree', () => {
  const goldenNames = readdirSync(dir)
    .filter((file) => file.endsWith('.html'))
    .map((file) => file.slice(0, -'.html'.length));

  it.each(goldenNames)('gives the results linkedom gives on golden page %s', (name) => {
    const { text, contentType } = decodeBody(readFileSync(join(dir, `${name}.html`)), 'text/html');
    const check = checkLeanParity(pipeline, { ...page(text ?? ''), contentType });
    expect(check).toEqual({ differences: [], domFailures: [] });
  });

  it.each(Object.entries(ADVERSARIAL))('gives the results linkedom gives on adversarial HTML: %s', (_name, html) => {
    expect(checkLeanParity(pipeline, page(html))).toEqual({ differences: [], domFailures: [] });
  });

  it('reads the title and links of a page for maps as linkedom does (golden and adversarial pages)', () => {
    const texts = [
      ...goldenNames.map((name) => decodeBody(readFileSync(join(dir, `${name}.html`)), 'text/html').text ?? ''),
      ...Object.values(ADVERSARIAL),
    ];
    for (const text of texts) {
      const { document, baseUrl } = parsePage(text, 'https://www.example.com/a/page.html');
      const title = collapseWhitespace(document.querySelector('title')?.textContent ?? '').slice(0, 200);
      expect(readPageLinks(text, 'https://www.example.com/a/page.html')).toEqual({
        title,
        links: discoverLinks(document, baseUrl),
      });
    }
  });

  it('does not parse the page with linkedom for markdown, text, links and metadata', () => {
    const before = linkedomParses.count;
    const result = pipeline.process(page(ADVERSARIAL['lists, quotes, code, tables'] as string), {
      formats: ['markdown', 'text'],
      linksOnPage: {},
      discoverLinks: true,
    });
    expect(result.markdown).toContain('3. para');
    expect(linkedomParses.count).toBe(before);
    pipeline.process(page('<p>x</p>'), { formats: ['html'] });
    expect(linkedomParses.count).toBe(before + 1);
  });

  it('keeps pages nested 10,000 levels deep within the stack (linkedom overflows past ~1,500)', () => {
    for (const tag of ['div', 'b', 'span', 'table', 'li']) {
      const html = `<html><body>${`<${tag}>`.repeat(10_000)}deep text${`</${tag}>`.repeat(10_000)}<p>after</p></body></html>`;
      const result = pipeline.process(page(html), { formats: ['markdown', 'text'], linksOnPage: {} });
      expect(result.text, tag).toContain('deep text');
      expect(result.text, tag).toContain('after');
      expect(result.markdown, tag).toContain('after');
    }
    let depth = 0;
    const { document } = parseLeanPage(`${'<div>'.repeat(2000)}x`, 'https://e.com/');
    for (let node = document.documentElement; node; node = node.firstElementChild) depth++;
    expect(depth).toBe(MAX_DEPTH);
  });
});
