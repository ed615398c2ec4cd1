import { escapeTableCell } from './escape.js';
import type { PageElement } from '../page-node.js';

/**
 * GFM tables from a `<table>` and the markdown of its cells, shared by the converters (the turndown
 * rule in table-rule.ts and the native converter's table fragments). How a cell's content becomes
 * markdown is the caller's; everything about the grid is here:
 * - colspan/rowspan are laid out on a grid: the content sits in the first cell, spanned cells stay empty,
 *   so every row keeps the column count; several header rows merge per column ("Q1 Revenue");
 * - the header is `<thead>`, else the first row (promoted when it has no `<th>`: GFM needs one);
 * - line breaks in cells become `<br>` (GFM has no other way) and `|` is escaped;
 * - layout tables (role=presentation, tables holding tables, single cells, single td rows) are
 *   not tables: the caller writes their cells' content as blocks;
 * - `<caption>` becomes a paragraph before the table, a `<tfoot>` row that is one cell across the table a
 *   paragraph after it; empty rows and columns are dropped.
 */

/** The parts of a table the layout reads, found once. */
export interface TableParts {
  caption: PageElement | null;
  /** How many of `rows` are header rows (`<thead>`'s); 0: the first row is the header. */
  headRows: number;
  /** The cells of every row in reading order, the notes excepted. */
  rows: PageElement[][];
  /** The cell of each `<tfoot>` row that is one cell spanning the table: a note about it, not data. */
  notes: PageElement[];
}

/** Markdown of a cell or caption element (trimmed by the layout). */
export type CellMarkdown = (element: PageElement) => string;

interface Cell {
  text: string;
  /** The cell's alignment marker when this grid position holds the cell itself ('' for a spanned position). */
  align: string;
}

export function tableParts(table: PageElement): TableParts {
  const head: PageElement[][] = [];
  const body: PageElement[][] = [];
  const notes: PageElement[] = [];
  let caption: PageElement | null = null;
  for (let child = table.firstElementChild; child; child = child.nextElementSibling) {
    const name = child.nodeName;
    if (name === 'TR') body.push(cellsOf(child));
    else if (name === 'THEAD') head.push(...rowsOf(child));
    else if (name === 'TBODY') body.push(...rowsOf(child));
    else if (name === 'CAPTION') caption ??= child;
    else if (name === 'TFOOT') {
      for (const cells of rowsOf(child)) {
        if (cells.length === 1 && span(cells[0] as PageElement, 'colspan') > 1) notes.push(cells[0] as PageElement);
        else body.push(cells);
      }
    }
  }
  return { caption, headRows: head.length, rows: [...head, ...body], notes };
}

function cellsOf(row: PageElement): PageElement[] {
  const cells: PageElement[] = [];
  for (let child = row.firstElementChild; child; child = child.nextElementSibling) {
    if (child.nodeName === 'TD' || child.nodeName === 'TH') cells.push(child);
  }
  return cells;
}

/** A table that lays out a page rather than holding data; `nested`: it holds a table. */
export function isLayoutTable(table: PageElement, parts: TableParts, nested: boolean): boolean {
  if (nested) return true;
  const role = table.getAttribute('role');
  if (role === 'presentation' || role === 'none') return true;
  const cellCount = parts.rows.reduce((n, row) => n + row.length, 0);
  if (cellCount <= 1) return true;
  return parts.rows.length === 1 && !(parts.rows[0] as PageElement[]).some((cell) => cell.nodeName === 'TH');
}

/** The cells of a layout table in reading order (the notes of a layout table are dropped). */
export function layoutCells(parts: TableParts): PageElement[] {
  return parts.rows.flat();
}

/** Caption, GFM table and notes as markdown blocks separated by blank lines ('' when all are empty). */
export function renderDataTable(parts: TableParts, markdown: CellMarkdown): string {
  const captionText = parts.caption ? markdown(parts.caption).trim() : '';
  const headerCount = parts.headRows > 0 ? parts.headRows : 1;
  const grid = layoutGrid(parts.rows, markdown, headerCount);
  const noteText = parts.notes.map((cell) => markdown(cell).trim()).filter(Boolean);
  return [captionText, gridToMarkdown(grid, headerCount), ...noteText].filter(Boolean).join('\n\n');
}

const MAX_SPAN = 100;

function rowsOf(section: PageElement): PageElement[][] {
  const rows: PageElement[][] = [];
  for (let child = section.firstElementChild; child; child = child.nextElementSibling) {
    if (child.nodeName === 'TR') rows.push(cellsOf(child));
  }
  return rows;
}

function span(cell: PageElement, name: string): number {
  const value = Number.parseInt(cell.getAttribute(name) ?? '1', 10);
  return Number.isFinite(value) && value > 1 ? Math.min(value, MAX_SPAN) : 1;
}

/** Places cells on a grid honouring colspan/rowspan; header rows repeat spanned content for merging. */
function layoutGrid(rows: PageElement[][], markdown: CellMarkdown, headerCount: number): Cell[][] {
  const grid: Cell[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    const line = grid[r] as Cell[];
    let col = 0;
    for (const cell of row) {
      while (line[col]) col++;
      const text = cellText(markdown(cell), r < headerCount);
      const colSpan = span(cell, 'colspan');
      const rowSpan = Math.min(span(cell, 'rowspan'), rows.length - r);
      for (let dr = 0; dr < rowSpan; dr++) {
        for (let dc = 0; dc < colSpan; dc++) {
          const repeat = r + dr < headerCount && headerCount > 1;
          const target = grid[r + dr] as Cell[];
          target[col + dc] =
            dr === 0 && dc === 0 ? { text, align: alignmentOf(cell) } : { text: repeat ? text : '', align: '' };
        }
      }
      col += colSpan;
    }
  });
  return grid;
}

function cellText(markdown: string, header: boolean): string {
  let text = markdown.trim();
  if (text.includes('\n')) text = text.replace(/[ \t]*\n+[ \t]*/g, '<br>');
  if (header && text.startsWith('**')) {
    const bold = /^\*\*([^*]+)\*\*$/.exec(text);
    if (bold) text = bold[1] as string;
  }
  return text.includes('|') ? escapeTableCell(text) : text;
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
  const align = columns.map((c) => grid.find((row) => row[c]?.align)?.[c]?.align ?? '---');
  const line = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(align), ...bodyRows.map(line)].join('\n').replace(/ {2,}\|/g, ' |');
}

function mergeHeader(labels: string[]): string {
  const parts: string[] = [];
  for (const label of labels) if (label && parts[parts.length - 1] !== label) parts.push(label);
  return parts.join(' ');
}

/** A cell's alignment marker; '' when it declares none (the column takes the first cell that does). */
function alignmentOf(cell: PageElement): string {
  const style = cell.getAttribute('style');
  const value = (
    cell.getAttribute('align') ??
    (style ? /text-align\s*:\s*(left|right|center)/i.exec(style)?.[1] : undefined) ??
    ''
  ).toLowerCase();
  if (value === 'center') return ':---:';
  if (value === 'right') return '---:';
  if (value === 'left') return ':---';
  return '';
}
