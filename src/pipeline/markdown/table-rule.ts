import type TurndownService from 'turndown';
import { ancestorNamed } from '../dom.js';
import { escapeTableCell } from './escape.js';

/**
 * GFM tables, written here rather than taken from turndown-plugin-gfm (which keeps header-less
 * tables as raw HTML and ignores spans) or its Joplin fork (renders header-less tables, unwraps
 * layout tables, but still ignores colspan/rowspan):
 * - cells convert like any content, then line breaks become `<br>` (GFM has no other way) and `|` is escaped;
 * - colspan/rowspan are laid out on a grid: the content sits in the first cell, spanned cells stay empty,
 *   so every row keeps the column count; several header rows merge per column ("Q1 Revenue");
 * - the header is `<thead>`, else the first row (promoted when it has no `<th>`: GFM needs one);
 * - layout tables (role=presentation, tables holding tables, single cells, single td rows) become their
 *   cells' content as blocks, which is how nested tables end up flattened;
 * - `<caption>` becomes a paragraph before the table, a `<tfoot>` row that is one cell across the table a
 *   paragraph after it; empty rows and columns are dropped.
 */

type Rule = TurndownService.Rule;

interface Cell {
  text: string;
  element: Element | null;
}

export function tableRules(service: TurndownService): void {
  // Cells and captions are converted by turndown before their table; the table rule collects them.
  const converted = new WeakMap<Element, string>();
  const keep: Rule = {
    filter: ['th', 'td', 'caption'],
    replacement: (content, node) => {
      if (!ancestorNamed(node, 'TABLE')) return node.nodeName === 'CAPTION' ? `\n\n${content}\n\n` : ` ${content} `;
      converted.set(node as Element, content);
      return '';
    },
  };
  const structure: Rule = {
    filter: ['tr', 'thead', 'tbody', 'tfoot', 'colgroup', 'col'],
    replacement: (content, node) => (ancestorNamed(node, 'TABLE') ? '' : `\n${content}\n`),
  };
  // Inner tables convert before outer ones: each marks the table around it as holding a table.
  const holdsTable = new WeakSet<Element>();
  const table: Rule = {
    filter: 'table',
    replacement: (_content, node) => {
      const outer = node.parentNode ? ancestorNamed(node.parentNode, 'TABLE') : null;
      if (outer) holdsTable.add(outer);
      return renderTable(node as Element, converted, holdsTable.has(node as Element));
    },
  };
  service.addRule('tableCell', keep);
  service.addRule('tableStructure', structure);
  service.addRule('table', table);
}

function renderTable(table: Element, converted: WeakMap<Element, string>, nested: boolean): string {
  const { head, body, foot } = tableRows(table);
  // A footer row that is one cell across the table is a note about it, not data.
  const notes = foot.filter((row) => cellsOf(row).length === 1 && span(cellsOf(row)[0] as Element, 'colspan') > 1);
  const rows = [...head, ...body, ...foot.filter((row) => !notes.includes(row))];
  const caption = childByName(table, 'CAPTION');
  const captionText = caption ? (converted.get(caption) ?? '').trim() : '';
  if (rows.length === 0) return captionText ? `\n\n${captionText}\n\n` : '';
  if (nested || isLayoutTable(table, rows)) {
    const blocks = rows.flatMap((row) => cellsOf(row).map((cell) => (converted.get(cell) ?? '').trim()));
    return `\n\n${[captionText, ...blocks].filter(Boolean).join('\n\n')}\n\n`;
  }
  const headerCount = head.length > 0 ? head.length : 1;
  const grid = layoutGrid(rows, converted, headerCount);
  const noteText = notes.map((row) => (converted.get(cellsOf(row)[0] as Element) ?? '').trim()).filter(Boolean);
  const blocks = [captionText, gridToMarkdown(grid, headerCount), ...noteText].filter(Boolean);
  return blocks.length > 0 ? `\n\n${blocks.join('\n\n')}\n\n` : '';
}

function tableRows(table: Element): { head: Element[]; body: Element[]; foot: Element[] } {
  const head: Element[] = [];
  const body: Element[] = [];
  const foot: Element[] = [];
  for (const child of Array.from(table.children)) {
    const name = child.nodeName;
    if (name === 'TR') body.push(child);
    else if (name === 'THEAD') head.push(...rowsOf(child));
    else if (name === 'TBODY') body.push(...rowsOf(child));
    else if (name === 'TFOOT') foot.push(...rowsOf(child));
  }
  return { head, body, foot };
}

function rowsOf(section: Element): Element[] {
  return Array.from(section.children).filter((child) => child.nodeName === 'TR');
}

function cellsOf(row: Element): Element[] {
  return Array.from(row.children).filter((child) => child.nodeName === 'TD' || child.nodeName === 'TH');
}

function childByName(parent: Element, name: string): Element | null {
  return Array.from(parent.children).find((child) => child.nodeName === name) ?? null;
}

function isLayoutTable(table: Element, rows: Element[]): boolean {
  const role = table.getAttribute('role');
  if (role === 'presentation' || role === 'none') return true;
  const cellCount = rows.reduce((n, row) => n + cellsOf(row).length, 0);
  if (cellCount <= 1) return true;
  return rows.length === 1 && !cellsOf(rows[0] as Element).some((cell) => cell.nodeName === 'TH');
}

const MAX_SPAN = 100;

function span(cell: Element, name: string): number {
  const value = Number.parseInt(cell.getAttribute(name) ?? '1', 10);
  return Number.isFinite(value) && value > 1 ? Math.min(value, MAX_SPAN) : 1;
}

/** Places cells on a grid honouring colspan/rowspan; header rows repeat spanned content for merging. */
function layoutGrid(rows: Element[], converted: WeakMap<Element, string>, headerCount: number): Cell[][] {
  const grid: Cell[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    const line = grid[r] as Cell[];
    let col = 0;
    for (const cell of cellsOf(row)) {
      while (line[col]) col++;
      const text = cellText(converted.get(cell) ?? '', r < headerCount);
      const colSpan = span(cell, 'colspan');
      const rowSpan = Math.min(span(cell, 'rowspan'), rows.length - r);
      for (let dr = 0; dr < rowSpan; dr++) {
        for (let dc = 0; dc < colSpan; dc++) {
          const repeat = r + dr < headerCount && headerCount > 1;
          const target = grid[r + dr] as Cell[];
          target[col + dc] =
            dr === 0 && dc === 0 ? { text, element: cell } : { text: repeat ? text : '', element: null };
        }
      }
      col += colSpan;
    }
  });
  return grid;
}

function cellText(markdown: string, header: boolean): string {
  let text = markdown.trim().replace(/[ \t]*\n+[ \t]*/g, '<br>');
  if (header) {
    const bold = /^\*\*([^*]+)\*\*$/.exec(text);
    if (bold) text = bold[1] as string;
  }
  return escapeTableCell(text);
}

function gridToMarkdown(grid: Cell[][], headerCount: number): string {
  const width = Math.max(...grid.map((row) => row.length));
  const columns = Array.from({ length: width }, (_, c) => c).filter((c) => grid.some((row) => row[c]?.text));
  if (columns.length === 0) return '';
  const header = columns.map((c) => mergeHeader(grid.slice(0, headerCount).map((row) => row[c]?.text ?? '')));
  const bodyRows = grid
    .slice(headerCount)
    .map((row) => columns.map((c) => row[c]?.text ?? ''))
    .filter((cells) => cells.some(Boolean));
  const align = columns.map((c) => alignment(grid, c));
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(align), ...bodyRows.map(line)].join('\n').replace(/ {2,}\|/g, ' |');
}

function mergeHeader(labels: string[]): string {
  const parts: string[] = [];
  for (const label of labels) if (label && parts[parts.length - 1] !== label) parts.push(label);
  return parts.join(' ');
}

function alignment(grid: Cell[][], column: number): string {
  for (const row of grid) {
    const element = row[column]?.element;
    if (!element) continue;
    const value = (
      element.getAttribute('align') ??
      /text-align\s*:\s*(left|right|center)/i.exec(element.getAttribute('style') ?? '')?.[1] ??
      ''
    ).toLowerCase();
    if (value === 'center') return ':---:';
    if (value === 'right') return '---:';
    if (value === 'left') return ':---';
  }
  return '---';
}
