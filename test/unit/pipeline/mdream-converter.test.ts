import { describe, expect, it } from 'vitest';
import {
  createContentPipeline,
  createMdreamConverter,
  createTurndownConverter,
  defaultMarkdownConverter,
  loadMdream,
  type MdreamBinding,
} from '../../../src/pipeline/index.js';
import { minimiseEscapes } from '../../../src/pipeline/markdown/converter-output.js';
import { MarkdownDraft } from '../../../src/pipeline/markdown/markdown-draft.js';

const wasm = loadMdream('wasm').binding!;

function md(body: string, binding: MdreamBinding = wasm, fallback = false): string {
  const converter = createMdreamConverter(binding, fallback ? { fallback: createTurndownConverter() } : {});
  const text = `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`;
  const input = { text, url: 'https://example.com/docs/page.html', contentType: 'text/html' };
  return createContentPipeline({ converter }).process(input, { formats: ['markdown'] }).markdown ?? '';
}

describe('loading mdream', () => {
  it('loads the WebAssembly build, and the native addon when it is installed', () => {
    expect(wasm.kind).toBe('wasm');
    expect(wasm.convert('<h1>Title</h1><p>a <b>b</b></p>')).toBe('# Title\n\na **b**');
    const native = loadMdream('native');
    // npm ci installs the addon on Node 22 or newer (every @mdream/rust-* package says so); on
    // Node 20 it may be missing, and the WebAssembly build then says why.
    if (Number(process.versions.node.split('.')[0]) >= 22) expect(native.binding?.kind).toBe('native');
    if (native.binding?.kind === 'native') expect(native.problems).toEqual([]);
    else expect(native.problems[0]).toMatch(/^mdream's native addon .*(is not installed|did not load)/);
    expect(native.binding?.version).toBe(wasm.version);
  });
});

describe('the mdream converter', () => {
  it('is the default converter, native when the addon loads, else the WebAssembly build', () => {
    const { converter, problems } = defaultMarkdownConverter();
    expect(converter.id).toBe(problems.length === 0 ? 'mdream' : 'mdream-wasm');
    expect(createContentPipeline().converter).toBe(converter);
  });

  it('falls back to turndown for a page whose native conversion fails, and throws without a fallback', () => {
    const panics: MdreamBinding = {
      kind: 'wasm',
      version: 'test',
      convert: () => {
        throw new Error('unreachable executed');
      },
    };
    expect(md('<p>a <b>b</b></p>', panics, true)).toBe('a **b**');
    expect(() => md('<p>a</p>', panics)).toThrow('unreachable executed');
  });

  it('refuses output that lost a document rather than shifting table cells', () => {
    const drops: MdreamBinding = {
      kind: 'wasm',
      version: 'test',
      convert: (html) => wasm.convert(html).split('\uE002')[0]!,
    };
    // Cells holding markup are converted as documents of the same call (plain text ones are not).
    const table = '<table><tr><th>A</th><th>B</th></tr><tr><td><b>1</b></td><td><i>2</i></td></tr></table>';
    expect(() => md(table, drops)).toThrow(/has 1 documents, expected 3/);
    expect(md(table, drops, true)).toBe('| A | B |\n| --- | --- |\n| **1** | *2* |');
  });

  it('drops the private-use characters it reserves from page text', () => {
    expect(md('<p>a\uE000b\uE001 <a href="/x">l\uE003nk</a></p>')).toBe('ab [lnk](https://example.com/x)');
  });

  it('does not change the DOM it converts', () => {
    const pipeline = createContentPipeline({ converter: createMdreamConverter(wasm) });
    const input = { text: '<p>One <a href="x">two</a></p>', url: 'https://e.com/', contentType: 'text/html' };
    const result = pipeline.process(input, { formats: ['html', 'markdown'] });
    expect(result.html).toBe('<p>One <a href="https://e.com/x">two</a></p>');
    expect(result.markdown).toBe('One [two](https://e.com/x)');
  });

  // Where it differs from turndown, on purpose (docs/content-pipeline.md, "Converters compared").
  it('keeps text between list items, and links with line breaks on their line', () => {
    expect(md('<ul><li>one</li>text between<li>two</li></ul>')).toBe('- one\n\ntext between\n\n- two');
    expect(md('<p>See <a href="/br">line<br>break</a> here</p>')).toBe('See [line break](https://example.com/br) here');
  });
});

describe('placeholders', () => {
  it('indents the lines of a block fragment like the line it stands on', () => {
    const draft = new MarkdownDraft();
    const code = draft.placeholder('```\nx\n\ny\n```');
    const quoteInItem = `1. ${code}\n   > ${code}`;
    expect(draft.finish(quoteInItem)).toBe('1. ```\n   x\n\n   y\n   ```\n   > ```\n   > x\n   >\n   > y\n   > ```');
  });

  it('builds fragments from converted snippets, with placeholders inside them replaced', () => {
    const draft = new MarkdownDraft();
    const inner = draft.placeholder('`code`');
    const first = draft.snippet(`<p>cell ${inner}</p>`);
    const second = draft.snippet('<p>two</p>');
    const table = draft.placeholder((converted) => `[${converted.markdown(first)}|${converted.markdown(second)}]`);
    const documents = draft.documents(`<p>${table}</p>`);
    expect(documents.split('\uE002')).toHaveLength(3);
    expect(draft.finish(`${table}\n\n\uE002\n\ncell ${inner}\n\n\uE002\n\ntwo`)).toBe('[cell `code`|two]');
  });
});

describe("reducing mdream's escapes to escape.ts's", () => {
  it.each([
    ['snake\\_case and \\_\\_dunder\\_\\_', 'snake_case and \\_\\_dunder\\_\\_'],
    ['2 \\* 3, a\\*b, \\* mid-line', '2 * 3, a\\*b, * mid-line'],
    ['\\* item-like line', '\\* item-like line'],
    ['\\[1] and \\[a link-like](text) and \\[x]\\[y]', '[1] and \\[a link-like\\](text) and \\[x\\][y]'],
    ['[see \\[1\\]](\uE000a\uE001)', '[see [1]](\uE000a\uE001)'],
    ['[see \\[1](\uE000a\uE001)', '[see \\[1](\uE000a\uE001)'],
    ['back\\\\slash and \\\\\\* star', 'back\\slash and \\\\\\* star'],
    ['\\~/path \\~\\~\\~', '~/path ~~~'],
    ['\\~\\~\\~ fence-like', '\\~~~ fence-like'],
    ['> quoted \\> text\n\\> start', '> quoted > text\n\\> start'],
    ['\\<tag> \\&amp; \\# \\- \\`', '\\<tag> \\&amp; \\# \\- \\`'],
  ])('%s', (raw, minimal) => {
    expect(minimiseEscapes(raw)).toBe(minimal);
  });
});
