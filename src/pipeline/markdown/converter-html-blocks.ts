import { hasDescendantNamed, isBlankText } from '../dom.js';
import { listItem } from './block-rules.js';
import type { ConverterHtmlWriter } from './converter-html.js';
import type { SnippetReader } from './markdown-draft.js';
import { cellsOf, isLayoutTable, layoutCells, renderDataTable, tableParts } from './table-layout.js';

/**
 * Lists, quotes, tables and definition lists for the native converter: their layout is written here
 * the way the turndown rules write it (block-rules.ts, table-layout.ts) from their content, which the
 * converter converts as snippets of the same call, each at the top level (mdream does not separate
 * the blocks of a list item, nor a quote nested after a paragraph, the way CommonMark writers do).
 */

/** A list from its items' markdown (block-rules.ts `listItem`: markers, numbering, indentation, loose items). */
export function writeList(writer: ConverterHtmlWriter, list: Element): void {
  const parts: { item: Element | null; snippet: number }[] = [];
  // Content between items (invalid, but pages have it) is kept as paragraphs between them.
  let stray: Node[] = [];
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
    if (child.nodeName !== 'LI') {
      stray.push(child);
      continue;
    }
    flushStray();
    const item = child as Element;
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
  if (list.parentNode?.nodeName === 'LI' && writer.followsInline(list)) writer.inlineFragment((c) => `\n${render(c)}`);
  else writer.blockFragment(render);
}

/** `> ` before every line of the quote's markdown. */
export function writeBlockquote(writer: ConverterHtmlWriter, quote: Element): void {
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
export function writeTable(writer: ConverterHtmlWriter, table: Element): void {
  const parts = tableParts(table);
  if (parts.rows.length === 0 || isLayoutTable(table, parts, hasDescendantNamed(table, 'TABLE'))) {
    if (parts.caption) writer.blockOf(parts.caption);
    if (parts.rows.length > 0) for (const cell of layoutCells(parts)) writer.blockOf(cell);
    return;
  }
  const snippets = new Map<Element, number>();
  const add = (element: Element): void => {
    snippets.set(element, writer.draft.snippet(writer.capture(() => writer.children(element))));
  };
  if (parts.caption) add(parts.caption);
  for (const row of parts.rows) for (const cell of cellsOf(row)) add(cell);
  for (const row of parts.notes) add(cellsOf(row)[0] as Element);
  writer.blockFragment((converted) =>
    renderDataTable(parts, (element) => {
      const index = snippets.get(element);
      return index === undefined ? '' : converted.markdown(index);
    }),
  );
}

interface DefinitionPart {
  term: boolean;
  snippet: number;
  /** Before a term: a blank line, or a line break when it follows another term (terms sharing a definition). */
  gap: string;
}

/** `**Term**` lines, each definition as `: text` (continuation lines indented two spaces). */
export function writeDefinitionList(writer: ConverterHtmlWriter, list: Element): void {
  const parts: DefinitionPart[] = [];
  const collect = (parent: Element): void => {
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
