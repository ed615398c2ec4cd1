import { codeText } from './markdown/code-rules.js';
import type { PageDocument, PageElement, PageNode, PageText } from './page-node.js';

/**
 * The `text` format: what a reader sees, as plain text (close to a browser's `innerText`).
 * Paragraph-like blocks are separated by a blank line; list items, table rows, definition terms
 * and `<br>` by a line break; table cells by a tab. Whitespace collapses outside `<pre>`;
 * images, scripts and other non-text elements contribute nothing.
 */

const SKIP = new Set([
  'HEAD',
  'TITLE',
  'META',
  'LINK',
  'BASE',
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'BUTTON',
  'SELECT',
  'DATALIST',
  'TEXTAREA',
  'OBJECT',
  'EMBED',
  'CANVAS',
  'MAP',
  'IFRAME',
  'SVG',
]);

/** Elements that start a paragraph of text; also what the extractor treats as block-level. */
export const PARAGRAPH_BLOCKS: ReadonlySet<string> = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DETAILS',
  'DIV',
  'DL',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'MAIN',
  'MENU',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'UL',
]);

/** Elements that start a line of text. */
export const LINE_BLOCKS: ReadonlySet<string> = new Set([
  'LI',
  'DT',
  'DD',
  'TR',
  'SUMMARY',
  'CAPTION',
  'THEAD',
  'TBODY',
  'TFOOT',
]);

/**
 * Accumulates text in chunks; only the end of the output is ever inspected, so writing stays
 * linear in the page size (regexes anchored at the end of one growing string would not be).
 */
class TextWriter {
  private readonly chunks: string[] = [];
  /** Pending break before the next text: 0 none, 1 line, 2 paragraph. */
  private pending = 0;

  private get last(): string {
    return this.chunks[this.chunks.length - 1] ?? '';
  }

  private endsWithSpace(): boolean {
    const last = this.last;
    return last === '' || /\s/.test(last[last.length - 1] as string);
  }

  private trimEnd(): void {
    while (this.chunks.length > 0) {
      const trimmed = this.last.replace(/[ \t]+$/, '');
      if (trimmed) {
        this.chunks[this.chunks.length - 1] = trimmed;
        return;
      }
      this.chunks.pop();
    }
  }

  text(raw: string, preserve: boolean): void {
    let text = preserve ? raw : raw.replace(/\s+/g, ' ');
    if (!text) return;
    // Whitespace between blocks is layout, not text: it never triggers a pending break.
    if (!preserve && text === ' ') {
      if (this.pending === 0 && !this.endsWithSpace()) this.chunks.push(' ');
      return;
    }
    if (this.pending > 0 && this.chunks.length > 0) {
      this.trimEnd();
      this.chunks.push(this.pending === 2 ? '\n\n' : '\n');
    }
    this.pending = 0;
    if (!preserve && text.startsWith(' ') && this.endsWithSpace()) text = text.slice(1);
    this.chunks.push(text);
  }

  raw(text: string): void {
    this.chunks.push(text);
  }

  lineBreak(level: 1 | 2): void {
    this.pending = Math.max(this.pending, level);
  }

  hardBreak(): void {
    this.trimEnd();
    this.chunks.push('\n');
  }

  result(): string {
    return this.chunks
      .join('')
      .replace(/[ \t]+\n/g, '\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }
}

/** Heading permalinks ("¶", "#", "§") are decoration. */
function isPermalink(anchor: PageElement): boolean {
  return !!anchor.getAttribute('href')?.trim().startsWith('#') && /^[\s¶§#🔗]*$/u.test(anchor.textContent ?? '');
}

export function htmlToText(root: PageElement | PageDocument): string {
  const writer = new TextWriter();
  walk(root, writer);
  return writer.result();
}

function walk(node: PageNode, writer: TextWriter): void {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3 || child.nodeType === 4) {
      writer.text((child as PageText).data, false);
      continue;
    }
    if (child.nodeType !== 1) continue;
    const element = child as PageElement;
    const name = element.nodeName;
    if (SKIP.has(name) || (name !== 'A' && element.getAttribute('role') === 'button')) continue;
    if (name === 'A' && isPermalink(element)) continue;
    if (name === 'BR') {
      writer.hardBreak();
      continue;
    }
    if (name === 'PRE') {
      writer.lineBreak(2);
      writer.text(codeText(element), true);
      writer.lineBreak(2);
      continue;
    }
    if ((name === 'TD' || name === 'TH') && element.previousElementSibling) writer.raw('\t');
    const level = PARAGRAPH_BLOCKS.has(name) ? 2 : LINE_BLOCKS.has(name) ? 1 : 0;
    if (level) writer.lineBreak(level);
    walk(element, writer);
    if (level) writer.lineBreak(level);
  }
}
