import { readTable } from '../../../src/extraction/index.js';
import { requireHtml } from '../../../src/parsers/page-input.js';
import { defineParser } from '../../../src/parsers/parser.js';

const MAX_TABLES = 500;

/**
 * `tables`: every data table of the page as rows of objects keyed by its column headers (from
 * `<thead>` or leading rows of `<th>`; `column_1`, `column_2`, ... when it has none; repeated
 * header names get `_2`, `_3`). `colspan`/`rowspan` cells fill every cell they cover; icon-only
 * cells read as their label or ✓/✗. Tables that hold other tables are layout and are skipped
 * (the tables inside them are listed). Empty cells are left out of their row. HTML pages only.
 *
 * @example
 * // { "tables": [{ "index": 0, "caption": "Tax history", "headers": ["Year", "Tax"],
 * //               "rows": [{ "Year": "2024", "Tax": "$6,112" }] }] }
 */
export const tablesParser = defineParser({
  id: 'tables',
  description: 'Every data table on the page as rows of objects keyed by column header.',
  outputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      tables: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            index: { type: 'integer', description: 'Position among the tables listed (0-based).' },
            caption: { type: ['string', 'null'], description: 'The <caption>, null when none.' },
            headers: { type: 'array', items: { type: 'string' } },
            rows: {
              type: 'array',
              description: 'Body rows; each maps a header to the cell text (empty cells left out).',
              items: { type: 'object', additionalProperties: { type: 'string' } },
            },
          },
          required: ['index', 'caption', 'headers', 'rows'],
        },
      },
    },
    required: ['tables'],
    additionalProperties: false,
  },
  parse(input) {
    const { document } = requireHtml(input, 'tables');
    const tables: Array<{
      index: number;
      caption: string | null;
      headers: string[];
      rows: Array<Record<string, string>>;
    }> = [];
    for (const element of document.querySelectorAll('table')) {
      if (tables.length >= MAX_TABLES) break;
      if (element.querySelector('table')) continue;
      const table = readTable(element);
      if (!table || table.rows.length === 0) continue;
      tables.push({ index: tables.length, caption: table.caption, headers: table.headers, rows: table.rows });
    }
    return { tables };
  },
});
