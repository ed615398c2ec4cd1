import type TurndownService from 'turndown';
import { ancestorNamed } from '../dom.js';
import type { PageElement } from '../page-node.js';
import { isLayoutTable, layoutCells, renderDataTable, tableParts } from './table-layout.js';

/**
 * GFM tables, written here rather than taken from turndown-plugin-gfm (which keeps header-less
 * tables as raw HTML and ignores spans) or its Joplin fork (renders header-less tables, unwraps
 * layout tables, but still ignores colspan/rowspan). The grid (spans, merged headers, captions,
 * notes, layout tables) is table-layout.ts; this file feeds it the cells turndown converted.
 * Layout tables become their cells' content as blocks, which is how nested tables end up flattened.
 */

type Rule = TurndownService.Rule;

export function tableRules(service: TurndownService): void {
  // Cells and captions are converted by turndown before their table; the table rule collects them.
  const converted = new WeakMap<PageElement, string>();
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

function renderTable(table: Element, converted: WeakMap<PageElement, string>, nested: boolean): string {
  const parts = tableParts(table);
  const markdown = (element: PageElement): string => converted.get(element) ?? '';
  const captionText = parts.caption ? markdown(parts.caption).trim() : '';
  if (parts.rows.length === 0) return captionText ? `\n\n${captionText}\n\n` : '';
  if (isLayoutTable(table, parts, nested)) {
    const blocks = layoutCells(parts).map((cell) => markdown(cell).trim());
    return `\n\n${[captionText, ...blocks].filter(Boolean).join('\n\n')}\n\n`;
  }
  const rendered = renderDataTable(parts, markdown);
  return rendered ? `\n\n${rendered}\n\n` : '';
}
