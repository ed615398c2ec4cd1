import { addField, type Collection, type NamedList, type PageFacts, type RecordSource } from './facts.js';
import type { LinkedNode } from './json-ld.js';
import { bulletLine, headingLine, labelPair } from './label-lines.js';

/** A piece of text from a page: a ranked passage of an answer, or a whole page as text/markdown. */
export interface Passage {
  text: string;
  /** The page it is from; recorded in the result's `sources` when it fills a key. */
  url?: string;
}

/**
 * What the extractor can read in plain text and markdown: `label: value` lines (list markers and
 * bold labels allowed), markdown tables (two-column tables as label/value pairs, wider ones as
 * rows), and lists under a heading or a `Label:` line. Passages are trusted in the order given.
 */
export function readPassageFacts(passages: readonly Passage[], language?: string): PageFacts {
  const fields: RecordSource[] = [];
  const collections: Collection[] = [];
  const lists: NamedList[] = [];
  for (const passage of passages) {
    const lines = passage.text.split(/\r?\n/);
    const labels: LinkedNode = {};
    const pairs: LinkedNode = {};
    readLines(lines, labels, lists, passage.url);
    for (const table of markdownTables(lines)) {
      const name = table.name;
      if (table.header.length === 2) {
        for (const row of table.rows) addField(pairs, row[0] ?? '', row[1] ?? '');
      }
      const records = table.rows.map((row) => {
        const record: LinkedNode = {};
        table.header.forEach((header, index) => addField(record, header || `column_${index + 1}`, row[index] ?? ''));
        return record;
      });
      collections.push({ rule: 'table', name, records, url: passage.url });
    }
    for (const [rule, node] of [
      ['label', labels],
      ['table', pairs],
    ] as const) {
      if (Object.keys(node).length > 0) fields.push({ rule, node, structured: false, url: passage.url });
    }
  }
  return { language, items: [], fields, collections, lists };
}

function readLines(lines: string[], labels: LinkedNode, lists: NamedList[], url: string | undefined): void {
  let heading: string | null = null;
  let items: string[] = [];
  const flush = () => {
    if (heading && items.length > 0) lists.push({ rule: 'list', name: heading, items, url });
    items = [];
  };
  for (const line of lines) {
    if (/^\s*\|/.test(line)) continue;
    const announced = headingLine(line);
    if (announced) {
      flush();
      heading = announced;
      continue;
    }
    const bullet = bulletLine(line);
    const pair = labelPair(line);
    if (pair) addField(labels, pair[0], pair[1]);
    if (bullet && !pair) items.push(bullet.replace(/\*\*|__/g, ''));
    else if (!bullet && line.trim()) {
      flush();
      heading = null;
    }
  }
  flush();
}

interface MarkdownTable {
  name: string;
  header: string[];
  rows: string[][];
}

/** Pipe tables: a header row, a `|---|` separator, then rows; the line before names the table. */
function markdownTables(lines: string[]): MarkdownTable[] {
  const tables: MarkdownTable[] = [];
  for (let i = 0; i + 1 < lines.length; i += 1) {
    if (!/^\s*\|/.test(lines[i] as string) || !/^\s*\|?\s*:?-{2,}/.test(lines[i + 1] as string)) continue;
    const header = cells(lines[i] as string);
    const rows: string[][] = [];
    let j = i + 2;
    for (; j < lines.length && /^\s*\|/.test(lines[j] as string); j += 1) rows.push(cells(lines[j] as string));
    const before = lines
      .slice(Math.max(0, i - 2), i)
      .reverse()
      .find((line) => line.trim());
    tables.push({ name: before ? (headingLine(before) ?? '') : '', header, rows });
    i = j - 1;
  }
  return tables;
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.replace(/\*\*|__/g, '').trim());
}
