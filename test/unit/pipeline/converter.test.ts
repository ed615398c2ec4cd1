import { describe, expect, it } from 'vitest';
import { createContentPipeline } from '../../../src/pipeline/index.js';
import type { ContentOptions } from '../../../src/pipeline/index.js';
import { markdownConverters } from '../../support/markdown-converters.js';

// Every converter is held to the same details (the default, mdream, and its fallback, turndown).
for (const { name, converter, missing } of markdownConverters()) {
  describe.skipIf(!converter)(`converter ${name}${converter ? '' : ` (not installed: ${missing})`}`, () => {
    const pipeline = createContentPipeline(converter ? { converter } : {});

    function md(
      body: string,
      options: Partial<ContentOptions> = {},
      url = 'https://example.com/docs/page.html',
    ): string {
      const text = `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
      return (
        pipeline.process({ text, url, contentType: 'text/html' }, { formats: ['markdown'], ...options }).markdown ?? ''
      );
    }

    describe('markdown conversion details', () => {
      it.each([
        ['<pre><code class="language-ts">x</code></pre>', 'ts'],
        ['<pre><code class="hljs lang-ruby">x</code></pre>', 'ruby'],
        ['<div class="highlight highlight-source-c++"><pre>x</pre></div>', 'c++'],
        ['<div class="highlight-console notranslate"><div class="highlight"><pre>x</pre></div></div>', 'console'],
        ['<pre class="brush: php; gutter: false">x</pre>', 'php'],
        ['<div class="sourceCode"><pre class="sourceCode haskell"><code>x</code></pre></div>', 'haskell'],
        ['<pre data-lang="Kotlin"><code>x</code></pre>', 'kotlin'],
        ['<div data-language="sql"><pre>x</pre></div>', 'sql'],
        ['<pre lang="bash">x</pre>', 'bash'],
        ['<pre><code class="python hljs">x</code></pre>', 'python'],
        ['<pre><code class="language-plaintext">x</code></pre>', ''],
        ['<pre><code class="wrap">x</code></pre>', ''],
      ])('keeps the language of %s', (html, language) => {
        expect(md(html)).toBe(`\`\`\`${language}\nx\n\`\`\``);
      });

      it('keeps code whitespace, drops the newline after <pre>, turns <br> and line blocks into newlines', () => {
        expect(md('<pre>\n  indented\n\n\n    more   spaces\n</pre>')).toBe(
          '```\n  indented\n\n\n    more   spaces\n```',
        );
        expect(md('<pre><code>a<br>b</code></pre>')).toBe('```\na\nb\n```');
        expect(md('<pre><div class="cm-line">one</div><div class="cm-line">two</div></pre>')).toBe(
          '```\none\ntwo\n```',
        );
      });

      it('resolves links and images against <base href> and the final URL', () => {
        expect(md('<a href="../guide">g</a> <img src="i.png" alt="i">')).toBe(
          '[g](https://example.com/guide) ![i](https://example.com/docs/i.png)',
        );
        const withBase = `<base href="https://cdn.example.net/assets/"><a href="x">x</a>`;
        expect(md(withBase)).toBe('[x](https://cdn.example.net/assets/x)');
      });

      it('flattens tables nested in a data table cell and layout tables around data tables', () => {
        const layout =
          '<table><tr><td><p>Intro</p><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table></td></tr></table>';
        expect(md(layout)).toBe('Intro\n\n| A | B |\n| --- | --- |\n| 1 | 2 |');
        const presentation = '<table role="presentation"><tr><td>left</td><td>right</td></tr></table>';
        expect(md(presentation)).toBe('left\n\nright');
      });

      it('writes a GFM table for a header-only table and escapes pipes in cells', () => {
        expect(md('<table><tr><th>a|b</th><th>`c`</th></tr></table>')).toBe('| a\\|b | \\`c\\` |\n| --- | --- |');
      });

      it('keeps iframes as links only when cleanup keeps them', () => {
        const frame = '<p>Before</p><iframe src="https://player.example/v/1" title="Talk"></iframe>';
        expect(md(frame)).toBe('Before');
        expect(md(frame, { removeCssSelectors: 'none' })).toBe('Before\n\n[Talk](https://player.example/v/1)');
      });

      it('never emits script or style text, even with remove_css_selectors "none"', () => {
        const page = '<style>p{}</style><p>Text</p><script>alert(1)</script><noscript>Enable JS</noscript>';
        expect(md(page, { removeCssSelectors: 'none' })).toBe('Text');
      });

      it('removes images, and elements by class name', () => {
        const page =
          '<p>A <img src="a.png" alt="pic"> B</p><div class="promo banner">Buy</div><p class="promotional">Keep</p>';
        expect(md(page, { removeImages: true, removeClassNames: ['promo'] })).toBe('A B\n\nKeep');
      });

      it('applies custom selectors instead of the default list', () => {
        const page = '<nav>Menu</nav><p class="x">X</p><p>Y</p>';
        expect(md(page, { removeCssSelectors: ['.x'] })).toBe('Menu\n\nY');
        expect(md(page, { removeCssSelectors: '[".x", "nav"]' })).toBe('Y');
      });

      it('keeps header and footer inside articles and quotes, removes page-level ones', () => {
        const page =
          '<header>Site</header><article><header><h1>Title</h1></header><p>Body</p><blockquote><p>Q</p><footer>Who</footer></blockquote></article><footer>Copyright</footer>';
        expect(md(page)).toBe('# Title\n\nBody\n\n> Q\n>\n> Who');
      });

      it('leaves no run of blank lines and no trailing spaces', () => {
        const out = md('<p>a</p>\n\n<div>\n\n</div><br><br><br><p>b  </p><div><p> </p></div><p>c<br></p>');
        expect(out).toBe('a\n\nb\n\nc');
      });

      it('renders unknown and presentational elements as their content, without tags', () => {
        const out = md('<div><span><font>x</font></span><center>y</center><custom-el>z</custom-el><u>u</u></div>');
        expect(out).toBe('x\n\ny\n\nzu');
      });
    });

    describe('layout the converters must agree on', () => {
      it('moves whitespace at the edges of formatting outside it and keeps the spacing between links', () => {
        expect(md('e<b> f </b>g and <code>  spaced  code </code>.')).toBe('e **f** g and `spaced code` .');
        expect(md(`<p>'<a href="/t">T</a>' and <a href="/a">A</a><a href="/b">B</a></p>`)).toBe(
          "'[T](https://example.com/t)' and [A](https://example.com/a)[B](https://example.com/b)",
        );
      });

      it('escapes only what would read as markup', () => {
        expect(md('<p>* star</p><p>2 * 3 and snake_case, [1], [x][y], [a](b)</p><p>a<br>===</p>')).toBe(
          '\\* star\n\n2 * 3 and snake_case, [1], \\[x\\][y], \\[a\\](b)\n\na  \n\\===',
        );
      });

      it('keeps the blocks of a list item apart, quotes nested in it included', () => {
        const item =
          '<li><p>meta</p><blockquote><p>q1</p><blockquote><p>inner</p></blockquote></blockquote><p>foot</p></li>';
        expect(md(`<ol>${item}<li>next</li></ol>`)).toBe(
          '1. meta\n\n   > q1\n   >\n   > > inner\n\n   foot\n\n2. next',
        );
        expect(
          md(
            '<ul><li>text<ul><li>nested</li></ul></li><li><pre><code class="language-sh">ls\n-la</code></pre></li></ul>',
          ),
        ).toBe('- text\n  - nested\n- ```sh\n  ls\n  -la\n  ```');
      });

      it('alternates the marker of adjacent lists of the same kind', () => {
        expect(md('<ul><li>a</li></ul><ul><li>b</li></ul><ol><li>- c</li></ol><ol><li>d</li></ol>')).toBe(
          '- a\n\n* b\n\n1. \\- c\n\n1) d',
        );
      });

      it('puts the link of a card on its first block, and lays out grouped definition lists', () => {
        expect(md('<a href="/card"><div><h3>Card</h3><p>Text</p></div></a>')).toBe(
          '### [Card](https://example.com/card)\n\nText',
        );
        expect(
          md('<dl><div><dt>A</dt><dd>one</dd></div><div><dt>B</dt><dt>C</dt><dd><p>p1</p><p>p2</p></dd></div></dl>'),
        ).toBe('**A**\n: one\n\n**B**\n**C**\n: p1\n\n  p2');
      });

      it('writes blocks in table cells on one line and escapes their pipes', () => {
        const table =
          '<table><tr><th>A</th><th>B</th></tr><tr><td><p>p1</p><p>p2</p></td><td><a href="/x">x</a> | <code>y|z</code></td></tr></table>';
        expect(md(table)).toBe('| A | B |\n| --- | --- |\n| p1<br>p2 | [x](https://example.com/x) \\| `y\\|z` |');
      });
    });

    describe('parsing quirks handled before conversion', () => {
      it('lower-cases upper-case attribute names of legacy HTML', () => {
        expect(md('<A HREF="/x" CLASS="ad">ad link</A><A HREF="/y">real</A>')).toBe('[real](https://example.com/y)');
      });

      it('wraps documents without an <html> element', () => {
        const result = pipeline.process(
          { text: '<title>Bare</title><h1>Fragment</h1><p>text</p>', url: 'https://e.com/', contentType: 'text/html' },
          { formats: ['markdown'] },
        );
        expect(result.markdown).toBe('# Fragment\n\ntext');
        expect(result.metadata.title).toBe('Bare');
      });

      it('closes a heading at a mismatched heading end tag', () => {
        expect(md('<h1>Title</h3><p>Body</p>')).toBe('# Title\n\nBody');
      });

      it('reads entities split by the parser as one text', () => {
        expect(md('<p>&lt;div&gt; and &amp;copy; and a&nbsp;b</p>')).toBe('\\<div> and \\&copy; and a\u00a0b');
      });
    });
  });
}
