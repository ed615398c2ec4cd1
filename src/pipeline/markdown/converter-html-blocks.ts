import { hasDescendantNamed, isBlankText } from '../dom.js';
import { listItem, usesAlternateMarker } from './block-rules.js';
import type { ConverterHtmlWriter } from './converter-html.js';
import { BLOCK_ELEMENTS } from './converter-html-nodes.js';
import { type SnippetReader, stripReserved } from './markdown-draft.js';
import { escapeMarkdownText } from './escape.js';
import { isLayoutTable, layoutCells, renderDataTable, tableParts } from './table-layout.js';
import type { PageElement, PageNode, PageText } from '../page-node.js';

/**
 * Lists, quotes, tables and definition lists for the native converter: their layout is written here
 * the way the turndown rules write it (block-rules.ts, table-layout.ts) from their content, which the
 * converter converts as snippets of the same call, each at the top level (mdream does not separate
 * the blocks of a list item, nor a quote nested after a paragraph, the way CommonMark writers do).
 */

/** A list from its items' markdown (block-rules.ts `listItem`: markers, numbering, indentation, loose items). */
export function writeList(writer: ConverterHtmlWriter, list: PageElement): void {
  // A simple list nested in an item this file lays out follows its item's text on the next line (below).
  const nestedInLaidOut = (list.parentNode as PageElement | null)?.localName === 'li' && !writer.inNativeList;
  if (!nestedInLaidOut && isSimpleList(list)) return writer.nativeList(list);
  const parts: { item: PageElement | null; snippet: number }[] = [];
  // Content between items (invalid, but pages have it) is kept as paragraphs between them.
  let stray: PageNode[] = [];
  const flushStray = (): void => {
    if (stray.some((node) => !isBlankText(node.textContent))) {
      const nodes = stray;
      parts.push({
        item: null,
        snippet: writer.draft.snippet(writer.capture(() => nodes.forEach((n) => writer.node(n)))),
      });
    }
    stray = [];
  };
  for (let child = list.firstChild; child; child = child.nextSibling) {
    if ((child as PageElement).localName !== 'li') {
      stray.push(child);
      continue;
    }
    flushStray();
    const item = child as PageElement;
    parts.push({ item, snippet: writer.draft.snippet(writer.capture(() => writer.children(item))) });
  }
  flushStray();
  const render = (converted: SnippetReader): string =>
    parts
      .map(({ item, snippet }) => {
        const markdown = converted.markdown(snippet);
        return item ? listItem(markdown, item) : `\n\n${markdown}\n\n`;
      })
      .join('')
      .replace(/\n+$/, '');
  // After the text of a list item, a nested list starts on the next line (no blank line between).
  if ((list.parentNode as PageElement | null)?.localName === 'li' && writer.followsInline(list))
    writer.inlineFragment((c) => `\n${render(c)}`);
  else writer.blockFragment(render);
}

const LIST_NAMES = new Set(['ul', 'ol', 'menu', 'dir']);

/**
 * A list the converter writes as block-rules.ts would: items of inline content and simple nested
 * lists, no task checkboxes, not right after a list of the same kind (which takes the other marker).
 */
function isSimpleList(list: PageElement): boolean {
  if (usesAlternateMarker(list)) return false;
  for (let item = list.firstChild; item; item = item.nextSibling) {
    if (item.nodeType === 3) {
      if (!isBlankText((item as PageText).data)) return false;
      continue;
    }
    if (item.nodeType !== 1) continue;
    if ((item as PageElement).localName !== 'li' || !hasSimpleContent(item as PageElement)) return false;
  }
  return true;
}

function hasSimpleContent(element: PageElement): boolean {
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    const name = child.localName;
    if (LIST_NAMES.has(name)) {
      if (!isSimpleList(child)) return false;
    } else if (BLOCK_ELEMENTS.has(name) || name === 'input' || !hasSimpleContent(child)) return false;
  }
  return true;
}

/** `> ` before every line of the quote's markdown. */
export function writeBlockquote(writer: ConverterHtmlWriter, quote: PageElement): void {
  const snippet = writer.draft.snippet(writer.capture(() => writer.children(quote)));
  writer.blockFragment((converted) => {
    const content = converted.markdown(snippet).replace(/^\n+|\n+$/g, '');
    return content ? content.replace(/^/gm, '> ') : '';
  });
}

/**
 * A data table becomes a fragment rendered from its converted cells; a layout table (one that holds
 * a table, a presentation table, a single cell or row) is written as its cells' content, one block each.
 */
export function writeTable(writer: ConverterHtmlWriter, table: PageElement): void {
  const parts = tableParts(table);
  if (parts.rows.length === 0 || isLayoutTable(table, parts, hasDescendantNamed(table, 'table'))) {
    if (parts.caption) writer.blockOf(parts.caption);
    if (parts.rows.length > 0) for (const cell of layoutCells(parts)) writer.blockOf(cell);
    return;
  }
  // Cells of plain text (most cells) are escaped here; the others are converted as snippets.
  const cells = new Map<PageElement, string | number>();
  const add = (cell: PageElement): void => {
    const text = plainText(cell);
    cells.set(cell, text ?? writer.draft.snippet(writer.capture(() => writer.children(cell))));
  };
  if (parts.caption) add(parts.caption);
  for (const row of parts.rows) for (const cell of row) add(cell);
  for (const cell of parts.notes) add(cell);
  writer.blockFragment((converted) =>
    renderDataTable(parts, (element) => {
      const markdown = cells.get(element) ?? '';
      return typeof markdown === 'string' ? markdown : converted.markdown(markdown);
    }),
  );
}

/** The markdown of an element holding only text (escaped as the turndown converter escapes it); null otherwise. */
function plainText(element: PageElement): string | null {
  let text = '';
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1) return null;
    if (child.nodeType === 3) text += (child as PageText).data;
  }
  return escapeMarkdownText(
    stripReserved(text)
      .replace(/[ \t\n\r\f]+/g, ' ')
      .trim(),
  );
}

interface DefinitionPart {
  term: boolean;
  snippet: number;
  /** Before a term: a blank line, or a line break when it follows another term (terms sharing a definition). */
  gap: string;
}

/** `**Term**` lines, each definition as `: text` (continuation lines indented two spaces). */
export function writeDefinitionList(writer: ConverterHtmlWriter, list: PageElement): void {
  const parts: DefinitionPart[] = [];
  const collect = (parent: PageElement): void => {
    for (const child of Array.from(parent.children)) {
      const name = child.nodeName;
      if (name !== 'DT' && name !== 'DD') {
        collect(child);
        continue;
      }
      const snippet = writer.draft.snippet(writer.capture(() => writer.children(child)));
      const gap = child.previousElementSibling?.nodeName === 'DT' ? '\n' : '\n\n';
      parts.push({ term: name === 'DT', snippet, gap });
    }
  };
  collect(list);
  if (parts.length === 0) return;
  writer.blockFragment((converted) =>
    joinBlocks(
      parts.map((part) => {
        const markdown = converted.markdown(part.snippet);
        if (part.term) {
          const text = markdown.replace(/\s*\n+\s*/g, ' ').trim();
          if (!text) return '';
          return `${part.gap}${/^\*\*.*\*\*$/.test(text) ? text : `**${text}**`}\n`;
        }
        const text = markdown.replace(/^\n+|\n+$/g, '');
        return text.trim() ? `: ${text.replace(/\n/g, '\n  ')}\n` : '';
      }),
    ).trim(),
  );
}

/**
 * Joins converted blocks the way turndown does: the newlines between two pieces are the larger of
 * the first's trailing and the second's leading newlines (at most two), not their sum.
 */
function joinBlocks(pieces: string[]): string {
  let out = '';
  for (const piece of pieces) {
    if (!piece) continue;
    const trailing = out.length - out.replace(/\n+$/, '').length;
    const leading = piece.length - piece.replace(/^\n+/, '').length;
    out =
      out.slice(0, out.length - trailing) +
      '\n'.repeat(Math.min(2, Math.max(trailing, leading))) +
      piece.slice(leading);
  }
  return out;
}
