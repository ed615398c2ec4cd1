import { escapeTableCell } from './escape.js';

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
  caption: Element | null;
  /** Header rows: `<thead>`'s rows, else none (the first of `rows` is then the header). */
  head: Element[];
  /** Every row in reading order, without the notes. */
  rows: Element[];
  /** `<tfoot>` rows that are one cell spanning the table: a note about it, not data. */
  notes: Element[];
}

/** Markdown of a cell or caption element (trimmed by the layout). */
export type CellMarkdown = (element: Element) => string;

interface Cell {
  text: string;
  element: Element | null;
}

export function tableParts(table: Element): TableParts {
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
  const notes = foot.filter((row) => cellsOf(row).length === 1 && span(cellsOf(row)[0] as Element, 'colspan') > 1);
  const rows = [...head, ...body, ...foot.filter((row) => !notes.includes(row))];
  const caption = Array.from(table.children).find((child) => child.nodeName === 'CAPTION') ?? null;
  return { caption, head, rows, notes };
}

export function cellsOf(row: Element): Element[] {
  return Array.from(row.children).filter((child) => child.nodeName === 'TD' || child.nodeName === 'TH');
}

/** A table that lays out a page rather than holding data; `nested`: it holds a table. */
export function isLayoutTable(table: Element, parts: TableParts, nested: boolean): boolean {
  if (nested) return true;
  const role = table.getAttribute('role');
  if (role === 'presentation' || role === 'none') return true;
  const cellCount = parts.rows.reduce((n, row) => n + cellsOf(row).length, 0);
  if (cellCount <= 1) return true;
  return parts.rows.length === 1 && !cellsOf(parts.rows[0] as Element).some((cell) => cell.nodeName === 'TH');
}

/** The cells of a layout table in reading order (the notes of a layout table are dropped). */
export function layoutCells(parts: TableParts): Element[] {
  return parts.rows.flatMap(cellsOf);
}

/** Caption, GFM table and notes as markdown blocks separated by blank lines ('' when all are empty). */
export function renderDataTable(parts: TableParts, markdown: CellMarkdown): string {
  const captionText = parts.caption ? markdown(parts.caption).trim() : '';
  const headerCount = parts.head.length > 0 ? parts.head.length : 1;
  const grid = layoutGrid(parts.rows, markdown, headerCount);
  const noteText = parts.notes.map((row) => markdown(cellsOf(row)[0] as Element).trim()).filter(Boolean);
  return [captionText, gridToMarkdown(grid, headerCount), ...noteText].filter(Boolean).join('\n\n');
}

const MAX_SPAN = 100;

function rowsOf(section: Element): Element[] {
  return Array.from(section.children).filter((child) => child.nodeName === 'TR');
}

function span(cell: Element, name: string): number {
  const value = Number.parseInt(cell.getAttribute(name) ?? '1', 10);
  return Number.isFinite(value) && value > 1 ? Math.min(value, MAX_SPAN) : 1;
}

/** Places cells on a grid honouring colspan/rowspan; header rows repeat spanned content for merging. */
function layoutGrid(rows: Element[], markdown: CellMarkdown, headerCount: number): Cell[][] {
  const grid: Cell[][] = rows.map(() => []);
  rows.forEach((row, r) => {
    const line = grid[r] as Cell[];
    let col = 0;
    for (const cell of cellsOf(row)) {
      while (line[col]) col++;
      const text = cellText(markdown(cell), r < headerCount);
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
