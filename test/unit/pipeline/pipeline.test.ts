import { describe, expect, it } from 'vitest';
import { builtinTransformers } from '../../../plugins/transformers/index.js';
import { createContentPipeline } from '../../../src/pipeline/index.js';
import type { ContentTransformer, MarkdownConverter } from '../../../src/pipeline/index.js';

const PAGE = `<!doctype html><html lang="en"><head><title>Doc</title><script>var x = 1;</script></head>
<body><nav><a href="/home">Home</a></nav>
<main><h1>Heading</h1><p>See <a href="rel/link">this</a> and <img src="/i.png" alt="pic">.</p></main>
<footer>Footer</footer></body></html>`;

const input = { text: PAGE, url: 'https://example.com/dir/page', contentType: 'text/html' };

describe('content pipeline', () => {
  const pipeline = createContentPipeline({ transformers: builtinTransformers });

  it('produces every requested format from one parse', () => {
    const result = pipeline.process(input, { formats: ['markdown', 'html', 'text'], linksOnPage: {} });
    expect(result.kind).toBe('html');
    expect(result.markdown).toBe(
      '# Heading\n\nSee [this](https://example.com/dir/rel/link) and ![pic](https://example.com/i.png).',
    );
    expect(result.html).toBe(
      '<main><h1>Heading</h1><p>See <a href="https://example.com/dir/rel/link">this</a> and <img src="https://example.com/i.png" alt="pic">.</p></main>',
    );
    expect(result.text).toBe('Heading\n\nSee this and .');
    expect(result.links).toEqual(['https://example.com/home', 'https://example.com/dir/rel/link']);
    expect(result.metadata).toEqual({ title: 'Doc', language: 'en' });
    expect(Object.keys(result.timings)).toEqual(['parse', 'metadata', 'links', 'cleanup', 'html', 'text', 'markdown']);
  });

  it('runs only the stages the requested formats need', () => {
    const result = pipeline.process(input, { formats: ['text'] });
    expect(result.markdown).toBeUndefined();
    expect(result.html).toBeUndefined();
    expect(Object.keys(result.timings)).toEqual(['parse', 'metadata', 'cleanup', 'text']);
    const metadataOnly = pipeline.process(input, { formats: ['json', 'screenshot'] });
    expect(Object.keys(metadataOnly.timings)).toEqual(['parse', 'metadata']);
    expect(metadataOnly.metadata.title).toBe('Doc');
  });

  it('accepts options prepared once and reused', () => {
    const prepared = pipeline.prepare({ formats: ['markdown'], transformer: 'postlight' });
    const a = pipeline.process(input, prepared);
    const b = pipeline.process(input, prepared);
    expect(a.markdown).toBe(b.markdown);
    expect(a.timings.transformer).toBeGreaterThanOrEqual(0);
  });

  it('keeps the whole cleaned page when readability finds no article', () => {
    const result = pipeline.process(input, { formats: ['markdown'], transformer: 'readability' });
    expect(result.markdown).toContain('# Heading');
  });

  it('rejects an unknown transformer before doing any work', () => {
    expect(() => pipeline.process(input, { formats: ['markdown'], transformer: 'mercury' })).toThrow(
      /transformer: unknown transformer "mercury"/,
    );
  });

  it('accepts another markdown converter behind the interface', () => {
    const seen: string[] = [];
    const converter: MarkdownConverter = {
      id: 'text-only',
      convert: (root, context) => {
        seen.push(context.baseUrl.href);
        return (root.textContent ?? '').replace(/\s+/g, ' ').trim();
      },
    };
    const custom = createContentPipeline({ converter });
    expect(custom.process(input, { formats: ['markdown'] }).markdown).toBe('HeadingSee this and .');
    expect(seen).toEqual(['https://example.com/dir/page']);
  });

  it('runs a registered transformer plugin and adds its title as a heading when the content has none', () => {
    const section: ContentTransformer = {
      id: 'first-paragraph',
      transform: ({ document }) => {
        const p = document.querySelector('main p');
        return p ? { root: p, title: 'Extracted' } : null;
      },
    };
    const custom = createContentPipeline({ transformers: [section] });
    const result = custom.process(input, { formats: ['markdown', 'html'], transformer: 'first-paragraph' });
    expect(result.markdown).toBe(
      '# Extracted\n\nSee [this](https://example.com/dir/rel/link) and ![pic](https://example.com/i.png).',
    );
    expect(result.html).toMatch(/^<h1>Extracted<\/h1>See <a href="https:\/\/example.com\/dir\/rel\/link">/);
  });

  it('converts a huge single-line minified page in bounded time', () => {
    const sections = Array.from(
      { length: 600 },
      (_, i) =>
        `<section><h2>Section ${i}</h2><p>Paragraph ${i} with <a href="/s/${i}">a link</a> and <code>code_${i}</code>.</p>` +
        `<table><thead><tr><th>k</th><th>v</th></tr></thead><tbody><tr><td>a${i}</td><td>${i}</td></tr></tbody></table>` +
        `<ul><li>one</li><li>two<ul><li>three</li></ul></li></ul><pre><code class="language-js">let v${i} = ${i};</code></pre></section>`,
    ).join('');
    const text = `<!DOCTYPE html><html><head><title>Big</title></head><body><main>${sections}</main></body></html>`;
    expect(text).not.toContain('\n');
    expect(text.length).toBeGreaterThan(150_000);
    const started = performance.now();
    const result = pipeline.process(
      { text, url: 'https://example.com/', contentType: 'text/html' },
      { formats: ['markdown'], linksOnPage: {} },
    );
    const elapsed = performance.now() - started;
    const markdown = result.markdown ?? '';
    expect(markdown.match(/^## Section \d+$/gm)).toHaveLength(600);
    expect(markdown.match(/^\| k \| v \|$/gm)).toHaveLength(600);
    expect(markdown.match(/^```js$/gm)).toHaveLength(600);
    expect(markdown).toContain(
      '## Section 599\n\nParagraph 599 with [a link](https://example.com/s/599) and `code_599`.',
    );
    expect(markdown).not.toMatch(/\n{3,}/);
    expect(result.links).toHaveLength(600);
    expect(elapsed).toBeLessThan(5_000);
  });
});
