import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateChromium } from '../../../engines/playwright/chromium-path.js';
import { toBlocks, toLines, type TextRun } from '../../../src/pdf/pdf-layout.js';
import { extractPdfText, PdfTextError } from '../../../src/pdf/pdf-text.js';

const LOREM =
  'Fishing boats leave the harbour before dawn and come back with the tide, when the market opens and the ' +
  'first buyers from the restaurants along the coast arrive to look at the catch.';

/** Real PDFs, printed by Chromium from HTML (the way the browser engine prints pages). */
describe('extractPdfText', () => {
  let browser: Browser;
  const print = async (html: string): Promise<Buffer> => {
    const page = await browser.newPage();
    try {
      await page.setContent(html);
      return await page.pdf({ format: 'A4' });
    } finally {
      await page.close();
    }
  };

  beforeAll(async () => {
    const found = locateChromium(null);
    if (found.path === null) throw new Error(found.reason);
    browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('rebuilds headings and wrapped paragraphs of a one-page document', async () => {
    const pdf = await print(`<title>Harbour report</title>
      <h1>Harbour report</h1><p>${LOREM} ${LOREM}</p><h2>Catch of the week</h2><p>Cod and mackerel.</p>`);
    const result = await extractPdfText(pdf);
    expect(result.pages).toBe(1);
    expect(result.title).toBe('Harbour report');
    expect(result.markdown).toBe(`# Harbour report\n\n${LOREM} ${LOREM}\n\n## Catch of the week\n\nCod and mackerel.`);
    expect(result.text).toBe(`Harbour report\n\n${LOREM} ${LOREM}\n\nCatch of the week\n\nCod and mackerel.`);
  });

  it('reads every page of a multi-page document, in order', async () => {
    const sections = [1, 2, 3]
      .map(
        (n) =>
          `<section style="page-break-after: always"><h2>Section ${n}</h2><p>Paragraph ${n}. ${LOREM}</p></section>`,
      )
      .join('');
    const result = await extractPdfText(await print(`<h1>Annual review</h1>${sections}`));
    expect(result.pages).toBe(3);
    expect(result.title).toBe('Annual review');
    const headings = result.markdown.split('\n').filter((l) => l.startsWith('#'));
    expect(headings).toEqual(['# Annual review', '## Section 1', '## Section 2', '## Section 3']);
    for (const n of [1, 2, 3]) expect(result.text).toContain(`Paragraph ${n}. ${LOREM}`);
  });

  it('keeps text bullets and numbered lines as list items', async () => {
    const result = await extractPdfText(
      await print('<p>Opening hours:</p><p>• Monday to Friday</p><p>• Saturday morning</p><p>1. Bring a ticket</p>'),
    );
    expect(result.markdown).toBe('Opening hours:\n\n- Monday to Friday\n- Saturday morning\n1. Bring a ticket');
  });

  it('stops after maxPages and says the result is truncated', async () => {
    const pages = [1, 2, 3].map((n) => `<p style="page-break-after: always">Page ${n}</p>`).join('');
    const result = await extractPdfText(await print(pages), { maxPages: 2 });
    expect(result).toMatchObject({ pages: 3, truncated: true });
    expect(result.text).toBe('Page 1\n\nPage 2');
  });

  it('keeps paragraphs from turning into markdown syntax', async () => {
    const result = await extractPdfText(await print('<p># not a heading</p><p>&gt; not a quote</p>'));
    expect(result.markdown).toBe('\\# not a heading\n\n\\> not a quote');
  });

  it('returns empty text for a page without text', async () => {
    const result = await extractPdfText(await print('<div style="height:200px;background:#36c"></div>'));
    expect(result).toMatchObject({ text: '', markdown: '', pages: 1 });
  });

  it('refuses bytes that are not a PDF', async () => {
    const err = await extractPdfText(Buffer.from('<html>not a pdf</html>')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PdfTextError);
    expect((err as Error).message).toMatch(/not a valid PDF/);
  });
});

describe('PDF layout', () => {
  const run = (str: string, y: number, fontSize = 12, x = 10, hasEOL = false): TextRun => ({
    str,
    x,
    y,
    width: str.length * fontSize * 0.5,
    fontSize,
    hasEOL,
  });

  it('joins runs on one baseline and splits lines when the baseline moves', () => {
    const lines = toLines([run('Hello', 700), run('world', 700, 12, 50), run('Next line', 686)], 1);
    expect(lines.map((l) => l.text)).toEqual(['Hello world', 'Next line']);
  });

  it('joins a word hyphenated at a line end, and starts a paragraph after a short line', () => {
    const full = 'x'.repeat(60);
    const lines = toLines(
      [run(`${full} co-`, 700, 12, 10, true), run('operative', 686, 12, 10, true), run('Next', 672)],
      1,
    );
    expect(toBlocks(lines)).toEqual([
      { kind: 'paragraph', text: `${full} cooperative` },
      { kind: 'paragraph', text: 'Next' },
    ]);
  });

  it('ranks heading levels by size', () => {
    const body = 'b'.repeat(80);
    const lines = toLines(
      [
        run('Title', 760, 24, 10, true),
        run('Part', 720, 18, 10, true),
        run(body, 690, 12, 10, true),
        run('Sub', 660, 18),
      ],
      1,
    );
    expect(toBlocks(lines).map((b) => [b.kind, b.level, b.text])).toEqual([
      ['heading', 1, 'Title'],
      ['heading', 2, 'Part'],
      ['paragraph', undefined, body],
      ['heading', 2, 'Sub'],
    ]);
  });
});
