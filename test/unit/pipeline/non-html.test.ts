import { describe, expect, it } from 'vitest';
import { createContentPipeline } from '../../../src/pipeline/index.js';

const pipeline = createContentPipeline();
const ALL = { formats: ['markdown', 'text', 'html'], linksOnPage: {} };

function run(text: string, contentType: string) {
  return pipeline.process({ text, url: 'https://example.com/data', contentType }, ALL);
}

describe('content types other than HTML', () => {
  it('text/plain: markdown and text are the text (line endings normalised), html is escaped <pre>', () => {
    const result = run('Line one\r\nLine <two> & *three*\r\n\r\n', 'text/plain');
    expect(result.kind).toBe('text');
    expect(result.markdown).toBe('Line one\nLine <two> & *three*');
    expect(result.text).toBe('Line one\nLine <two> & *three*\n\n');
    expect(result.html).toBe('<pre>Line one\nLine &lt;two&gt; &amp; *three*\n\n</pre>');
    expect(result.links).toEqual([]);
    expect(result.metadata).toEqual({ title: '' });
  });

  it('JSON: markdown is a pretty-printed ```json block, text is as served', () => {
    const result = run('{"a":1,"b":[true,null]}', 'application/json');
    expect(result.kind).toBe('json');
    expect(result.markdown).toBe('```json\n{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}\n```');
    expect(result.text).toBe('{"a":1,"b":[true,null]}');
    expect(run('[1]', 'application/ld+json').kind).toBe('json');
  });

  it('JSON that does not parse is fenced as served', () => {
    expect(run('{"a":', 'application/json').markdown).toBe('```json\n{"a":\n```');
  });

  it('a fence inside the content gets a longer fence', () => {
    expect(run('{"md":"x"}\n```\n', 'text/css').markdown).toBe('````css\n{"md":"x"}\n```\n````');
  });

  it('XML (RSS, Atom, plain XML) is a ```xml block', () => {
    const rss = '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>T</title></channel></rss>\n';
    for (const type of ['application/xml', 'text/xml', 'application/rss+xml']) {
      const result = run(rss, type);
      expect(result.kind).toBe('xml');
      expect(result.markdown).toBe(`\`\`\`xml\n${rss.trim()}\n\`\`\``);
    }
  });

  it('XHTML is HTML, whether served as application/xhtml+xml or as XML with an <html> root', () => {
    const xhtml =
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body><h1>Hello</h1><p>a<br/>b</p></body></html>';
    for (const type of ['application/xhtml+xml', 'application/xml', 'text/xml']) {
      const result = run(xhtml, type);
      expect(result.kind).toBe('html');
      expect(result.markdown).toBe('# Hello\n\na  \nb');
      expect(result.metadata.title).toBe('X');
    }
  });

  it('markdown stays markdown; CSS, JavaScript, YAML and CSV are fenced with their language', () => {
    expect(run('# Title\n\n*text*\n', 'text/markdown').markdown).toBe('# Title\n\n*text*');
    expect(run('a { color: red }', 'text/css').markdown).toBe('```css\na { color: red }\n```');
    expect(run('let a = 1;', 'application/javascript').markdown).toBe('```javascript\nlet a = 1;\n```');
    expect(run('a: 1', 'application/yaml').markdown).toBe('```yaml\na: 1\n```');
    expect(run('a,b\n1,2', 'text/csv').markdown).toBe('```csv\na,b\n1,2\n```');
  });

  it('sniffs a missing content type', () => {
    expect(run('<!DOCTYPE html><title>T</title><p>Hi</p>', '').kind).toBe('html');
    expect(run('  <div>fragment</div>', '').kind).toBe('html');
    expect(run('{"ok":true}', '').kind).toBe('json');
    expect(run('[not json', '').kind).toBe('text');
    expect(run('<?xml version="1.0"?><feed/>', '').kind).toBe('xml');
    expect(run('just words', '').kind).toBe('text');
  });

  it('computes only the requested formats', () => {
    const result = pipeline.process(
      { text: '{"a":1}', url: 'https://example.com/', contentType: 'application/json' },
      { formats: ['text'] },
    );
    expect(result.text).toBe('{"a":1}');
    expect(result.markdown).toBeUndefined();
    expect(result.html).toBeUndefined();
    expect(result.links).toBeUndefined();
  });
});
