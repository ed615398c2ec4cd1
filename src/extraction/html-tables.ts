import { collapseWhitespace } from '../pipeline/dom.js';

/** One cell of a table's grid after `colspan`/`rowspan` are spread over the cells they cover. */
export interface GridCell {
  text: string;
  header: boolean;
}

/**
 * A table read into rows of objects. `headers` come from the leading header rows (`<thead>` or
 * rows of `<th>` only), else `column_1`, `column_2`, ...; names repeated across columns get a
 * `_2`, `_3` suffix so no cell is lost.
 */
export interface ReadTable {
  caption: string | null;
  headers: string[];
  rows: Array<Record<string, string>>;
  /** Label/value pairs of a two-column table (`Price | $29`), or of a table whose first column is headers. */
  pairs: Array<[string, string]>;
  /** Columns as records when the first column labels the rows (plans side by side): `heading` is the column's header. */
  columns: Array<Record<string, string>>;
  /** Where the table is in the page, for naming it (caption, else the nearest heading before it). */
  element: Element;
}

const MAX_ROWS = 5000;
const MAX_SPAN = 100;

/** The table's rows (not those of tables nested in its cells), spans spread. */
export function tableGrid(table: Element): GridCell[][] {
  const grid: GridCell[][] = [];
  const pending: Array<{ cell: GridCell; left: number } | undefined> = [];
  for (const tr of directRows(table)) {
    if (grid.length >= MAX_ROWS) break;
    const row: GridCell[] = [];
    let column = 0;
    const takePending = () => {
      for (let carried = pending[column]; carried && carried.left > 0; carried = pending[column]) {
        row[column] = carried.cell;
        carried.left -= 1;
        column += 1;
      }
    };
    for (const cell of Array.from(tr.children)) {
      if (cell.nodeName !== 'TD' && cell.nodeName !== 'TH') continue;
      takePending();
      const value: GridCell = { text: cellText(cell), header: cell.nodeName === 'TH' };
      const colspan = span(cell.getAttribute('colspan'));
      const rowspan = span(cell.getAttribute('rowspan'));
      for (let i = 0; i < colspan; i += 1) {
        row[column] = value;
        pending[column] = rowspan > 1 ? { cell: value, left: rowspan - 1 } : undefined;
        column += 1;
      }
    }
    takePending();
    if (row.length > 0) grid.push(Array.from(row, (cell) => cell ?? { text: '', header: false }));
  }
  return grid;
}

function span(raw: string | null): number {
  const value = Number.parseInt(raw ?? '1', 10);
  return Number.isFinite(value) && value > 1 ? Math.min(value, MAX_SPAN) : 1;
}

function directRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of Array.from(table.children)) {
    if (child.nodeName === 'TR') rows.push(child);
    else if (child.nodeName === 'THEAD' || child.nodeName === 'TBODY' || child.nodeName === 'TFOOT') {
      for (const tr of Array.from(child.children)) if (tr.nodeName === 'TR') rows.push(tr);
    }
  }
  return rows;
}

const CHECK_CLASS = /(?:^|[\s_-])(?:check|checked|tick|yes|included|available|true)(?:$|[\s_-])/i;
const CROSS_CLASS = /(?:^|[\s_-])(?:cross|times|no|excluded|unavailable|false|close)(?:$|[\s_-])/i;

/** A cell's text; an icon-only cell reads as its label, `alt`, or ✓/✗ from a check/cross class. */
export function cellText(cell: Element): string {
  const text = collapseWhitespace(cell.textContent ?? '');
  if (text) return text;
  const labelled = cell.querySelector('[aria-label], [title], img[alt]');
  const label =
    labelled?.getAttribute('aria-label') ?? labelled?.getAttribute('title') ?? labelled?.getAttribute('alt');
  if (label?.trim()) return collapseWhitespace(label);
  const classes = [cell, ...Array.from(cell.querySelectorAll('[class]'))]
    .map((el) => el.getAttribute('class') ?? '')
    .join(' ');
  if (CHECK_CLASS.test(classes)) return '✓';
  if (CROSS_CLASS.test(classes)) return '✗';
  return '';
}

/** Reads one `<table>`; null for layout tables with no cells of text. */
export function readTable(table: Element): ReadTable | null {
  const grid = tableGrid(table).filter((row) => row.some((cell) => cell.text));
  if (grid.length === 0) return null;
  const width = Math.max(...grid.map((row) => row.length));
  const headerRows = countHeaderRows(table, grid);
  const body = grid.slice(headerRows);
  const headers = uniqueNames(
    Array.from({ length: width }, (_, column) => {
      const parts = grid.slice(0, headerRows).map((row) => row[column]?.text ?? '');
      return [...new Set(parts.filter(Boolean))].join(' ') || `column_${column + 1}`;
    }),
  );
  const rows = body.map((row) => {
    const record: Record<string, string> = {};
    headers.forEach((header, column) => {
      const text = row[column]?.text ?? '';
      if (text) record[header] = text;
    });
    return record;
  });
  const firstColumnLabels = body.length > 0 && body.every((row) => row[0]?.header || !row[0]?.text);
  const pairs =
    width === 2 || (firstColumnLabels && headerRows === 0)
      ? body.flatMap((row): Array<[string, string]> => {
          const label = row[0]?.text ?? '';
          const value = row
            .slice(1)
            .map((cell) => cell.text)
            .filter(Boolean)
            .join(' ');
          return label && value ? [[label, value]] : [];
        })
      : [];
  const columns =
    headerRows > 0 && width > 2 && (firstColumnLabels || !grid[0]?.[0]?.text)
      ? readColumns(grid, headerRows, width)
      : [];
  const caption = collapseWhitespace(table.querySelector('caption')?.textContent ?? '') || null;
  return { caption, headers, rows, pairs, columns, element: table };
}

function countHeaderRows(table: Element, grid: GridCell[][]): number {
  const inHead = table.querySelector('thead')?.querySelectorAll('tr').length ?? 0;
  if (inHead > 0) return Math.min(inHead, grid.length - 1);
  let count = 0;
  for (const row of grid) {
    const filled = row.filter((cell) => cell.text);
    if (filled.length === 0 || !filled.every((cell) => cell.header)) break;
    count += 1;
  }
  // A table made only of header rows is a list of labels, not a header over nothing.
  return count === grid.length ? 0 : count;
}

function readColumns(grid: GridCell[][], headerRows: number, width: number): Array<Record<string, string>> {
  const columns: Array<Record<string, string>> = [];
  for (let column = 1; column < width; column += 1) {
    const heading = grid
      .slice(0, headerRows)
      .map((row) => row[column]?.text ?? '')
      .filter(Boolean)
      .join(' ');
    const record: Record<string, string> = heading ? { heading } : {};
    for (const row of grid.slice(headerRows)) {
      const label = row[0]?.text;
      const text = row[column]?.text;
      if (label && text && record[label] === undefined) record[label] = text;
    }
    if (Object.keys(record).length > 1) columns.push(record);
  }
  return columns;
}

function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}_${count}`;
  });
}
