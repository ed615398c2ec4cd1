import { getDocumentProxy, getMeta } from 'unpdf';
import { escapeHtml } from '../pipeline/non-html.js';
import { toBlocks, toLines, type Block, type Line, type TextRun } from './pdf-layout.js';

/** Text of a PDF, as plain text and as markdown. */
export interface PdfText {
  /** Paragraphs separated by blank lines. */
  text: string;
  /** Headings (`#`…), paragraphs and list items. */
  markdown: string;
  /** The same blocks as HTML (`<h1>`…, `<p>`, `<ul><li>`), escaped. */
  html: string;
  /** Pages in the document (also the ones past `maxPages`, which are not read). */
  pages: number;
  /** The document's Title, else its first heading. */
  title?: string;
  /** Set when only the first `maxPages` pages were read. */
  truncated?: boolean;
}

export interface PdfTextOptions {
  /** Pages read at most (default 500): text extraction is CPU work in the service process. */
  maxPages?: number;
}

/** A PDF that cannot be read: not a PDF, damaged, or encrypted with a password. */
export class PdfTextError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PdfTextError';
  }
}

interface TextItemLike {
  str?: string;
  transform?: number[];
  width?: number;
  height?: number;
  hasEOL?: boolean;
}

/**
 * Extracts readable text from PDF bytes with pdf.js (through unpdf: pure JavaScript, no native
 * dependencies), rebuilding paragraphs and headings from the text's positions and sizes.
 *
 * @example
 * const { markdown, text, pages, title } = await extractPdfText(snapshot.body);
 */
export async function extractPdfText(bytes: Uint8Array, options: PdfTextOptions = {}): Promise<PdfText> {
  const maxPages = options.maxPages ?? 500;
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const data = new Uint8Array(bytes);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(data, { stopAtErrors: false });
  } catch (err) {
    throw new PdfTextError(describeOpenFailure(err), { cause: err });
  }
  try {
    const lines: Line[] = [];
    const read = Math.min(pdf.numPages, maxPages);
    for (let number = 1; number <= read; number++) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      const runs = content.items.map((item) => toRun(item as TextItemLike));
      lines.push(
        ...toLines(
          runs.filter((r): r is TextRun => r !== null),
          number,
        ),
      );
      page.cleanup();
    }
    const blocks = lines.length > 0 ? toBlocks(lines) : [];
    const title = await documentTitle(pdf, blocks);
    const result: PdfText = {
      text: blocks.map((b) => b.text).join('\n\n'),
      markdown: toMarkdown(blocks),
      html: toHtml(blocks),
      pages: pdf.numPages,
    };
    if (title) result.title = title;
    if (read < pdf.numPages) result.truncated = true;
    return result;
  } finally {
    await pdf.loadingTask.destroy();
  }
}

function toRun(item: TextItemLike): TextRun | null {
  if (typeof item.str !== 'string' || !item.transform) return null;
  const [, , c = 0, d = 0, x = 0, y = 0] = item.transform;
  const fontSize = Math.hypot(c, d) || item.height || 0;
  return { str: item.str, x, y, width: item.width ?? 0, fontSize, hasEOL: item.hasEOL === true };
}

async function documentTitle(
  pdf: Awaited<ReturnType<typeof getDocumentProxy>>,
  blocks: Block[],
): Promise<string | undefined> {
  const meta = await getMeta(pdf).catch(() => null);
  const info = meta?.info as { Title?: unknown } | undefined;
  const title = typeof info?.Title === 'string' ? info.Title.trim() : '';
  // Browsers write the page's URL when it has no <title>; word processors write "Untitled".
  const placeholder = /^untitled$/i.test(title) || /^[a-z][a-z\d+.-]*:\S*$/i.test(title);
  if (title !== '' && !placeholder) return title;
  return blocks.find((b) => b.kind === 'heading')?.text;
}

function toMarkdown(blocks: Block[]): string {
  const out: string[] = [];
  for (const [index, block] of blocks.entries()) {
    const text = escapeMarkdown(block.text);
    if (block.kind === 'heading') out.push(`${'#'.repeat(block.level ?? 1)} ${block.text}`);
    else if (block.kind === 'item') {
      // Consecutive items form one list: no blank line between them.
      const joined = blocks[index - 1]?.kind === 'item' && out.length > 0;
      const line = /^\d{1,3}[.)]\s|^[a-z][.)]\s/i.test(block.text) ? block.text : `- ${text}`;
      if (joined) out[out.length - 1] += `\n${line}`;
      else out.push(line);
    } else out.push(text);
  }
  return out.join('\n\n');
}

function toHtml(blocks: Block[]): string {
  const out: string[] = [];
  for (const [index, block] of blocks.entries()) {
    const text = escapeHtml(block.text);
    if (block.kind === 'heading') {
      const level = Math.min(6, Math.max(1, block.level ?? 1));
      out.push(`<h${level}>${text}</h${level}>`);
    } else if (block.kind === 'item') {
      if (blocks[index - 1]?.kind !== 'item') out.push('<ul>');
      out.push(`<li>${text}</li>`);
      if (blocks[index + 1]?.kind !== 'item') out.push('</ul>');
    } else out.push(`<p>${text}</p>`);
  }
  return out.join('\n');
}

/** Keeps a paragraph from turning into markdown syntax it never was (`# 1 priority`, `> quote`). */
function escapeMarkdown(text: string): string {
  return text.replace(/^([#>]|[-+*] |\d+[.)] )/, '\\$1');
}

function describeOpenFailure(err: unknown): string {
  const name = (err as { name?: string }).name ?? '';
  const message = err instanceof Error ? err.message : String(err);
  if (name === 'PasswordException') return 'the PDF is encrypted with a password';
  if (name === 'InvalidPDFException') return `not a valid PDF (${message})`;
  return `the PDF could not be read (${message})`;
}
