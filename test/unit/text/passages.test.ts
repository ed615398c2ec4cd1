import { describe, expect, it } from 'vitest';
import { splitPassages } from '../../../src/text/passages.js';

describe('splitPassages', () => {
  const markdown = [
    '# Acme Shop',
    '',
    'We sell anvils.',
    '',
    '## Pricing',
    '',
    'Anvils cost 12 euros.',
    '',
    '| size | price |',
    '|---|---|',
    '| S | 12 |',
    '',
    '### Discounts',
    'Ten percent off for teams.',
    '',
    '## Contact',
    '',
    '```',
    'mail: shop@example.com',
    '',
    '# not a heading inside code',
    '```',
  ].join('\n');

  it('starts a passage at each heading and records the heading path', () => {
    const passages = splitPassages(markdown, { source: 'https://acme.example/' });
    expect(passages.map((p) => p.heading)).toEqual([
      'Acme Shop',
      'Acme Shop › Pricing',
      'Acme Shop › Pricing › Discounts',
      'Acme Shop › Contact',
    ]);
    expect(passages[1]!.text).toBe('## Pricing\n\nAnvils cost 12 euros.\n\n| size | price |\n|---|---|\n| S | 12 |');
    expect(passages[2]!.text).toBe('### Discounts\nTen percent off for teams.');
    expect(passages.every((p) => p.source === 'https://acme.example/')).toBe(true);
    expect(passages.map((p) => p.index)).toEqual([0, 1, 2, 3]);
  });

  it('keeps a fenced code block whole, blank lines and #-lines included', () => {
    const last = splitPassages(markdown).at(-1)!;
    expect(last.text).toBe('## Contact\n\n```\nmail: shop@example.com\n\n# not a heading inside code\n```');
  });

  it('gives offsets whose slice is the passage text', () => {
    for (const p of splitPassages(markdown, { maxChars: 60 })) expect(markdown.slice(p.start, p.end)).toBe(p.text);
  });

  it('groups paragraphs up to maxChars and cuts a long paragraph at sentence ends', () => {
    const sentence = 'This sentence is exactly fifty characters long ok. ';
    const text = `${'Short one.\n\n'.repeat(3)}${sentence.repeat(6).trim()}`;
    const passages = splitPassages(text, { maxChars: 120 });
    expect(passages[0]!.text).toBe('Short one.\n\nShort one.\n\nShort one.');
    const rest = passages.slice(1);
    expect(rest.every((p) => p.text.length <= 120)).toBe(true);
    expect(rest.every((p) => p.text.endsWith('ok.'))).toBe(true);
    expect(rest.map((p) => p.text).join(' ')).toBe(sentence.repeat(6).trim());
  });

  it('cuts text without sentence ends or spaces at maxChars', () => {
    const passages = splitPassages('x'.repeat(250), { maxChars: 100 });
    expect(passages.map((p) => p.text.length)).toEqual([100, 100, 50]);
  });

  it('returns nothing for blank text', () => {
    expect(splitPassages('  \n\n \n')).toEqual([]);
  });
});
