import type TurndownService from 'turndown';
import type { PageElement } from '../page-node.js';

/**
 * Block-level rules: ATX headings on one line, lists indented the way CommonMark counts
 * (continuation lines under the item's text, so nested lists and paragraphs stay in their item),
 * definition lists in the `Term` / `: definition` form (pandoc, PHP Markdown Extra, kramdown;
 * plain GFM shows it as a bold term followed by its definition), and elements that never
 * carry readable content.
 */

/** Elements whose content is never page text, even when cleanup kept them (`remove_css_selectors: "none"`). */
export const NEVER_CONTENT = [
  'head',
  'title',
  'meta',
  'link',
  'base',
  'script',
  'style',
  'noscript',
  'template',
  'button',
  'select',
  'option',
  'datalist',
  'textarea',
  'object',
  'embed',
  'canvas',
  'map',
];

export function blockRules(service: TurndownService): void {
  service.remove(NEVER_CONTENT as TurndownService.Filter);
  // Script-driven controls ("Copy" buttons on code blocks); links styled as buttons are kept.
  service.remove((node) => node.nodeName !== 'A' && node.getAttribute('role') === 'button');
  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = content.replace(/\s*\n+\s*/g, ' ').trim();
      if (!text) return '';
      return `\n\n${'#'.repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n`;
    },
  });
  service.addRule('list', {
    filter: ['ul', 'ol', 'menu'],
    replacement: (content, node) => {
      const parent = node.parentNode;
      const nested = parent?.nodeName === 'LI';
      return nested ? `\n${content.replace(/\n+$/, '')}\n` : `\n\n${content}\n\n`;
    },
  });
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => listItem(content, node as PageElement),
  });
  service.addRule('definitionList', {
    filter: 'dl',
    replacement: (content) => `\n\n${content}\n\n`,
  });
  service.addRule('definitionTerm', {
    filter: 'dt',
    replacement: (content, node) => {
      const text = content.replace(/\s*\n+\s*/g, ' ').trim();
      if (!text) return '';
      // Several terms sharing one definition stay on consecutive lines.
      const gap = (node as PageElement).previousElementSibling?.nodeName === 'DT' ? '\n' : '\n\n';
      return `${gap}${/^\*\*.*\*\*$/.test(text) ? text : `**${text}**`}\n`;
    },
  });
  service.addRule('definitionDescription', {
    filter: 'dd',
    replacement: (content) => {
      const text = content.replace(/^\n+|\n+$/g, '');
      if (!text.trim()) return '';
      return `: ${text.replace(/\n/g, '\n  ')}\n`;
    },
  });
}

/**
 * Two lists of the same kind one after the other would read as one list in markdown; every
 * second one uses the other marker (`*` for `-`, `)` for `.`), which CommonMark reads as a new list.
 */
export function usesAlternateMarker(list: PageElement): boolean {
  let alternate = false;
  for (let previous = list.previousElementSibling; previous?.nodeName === list.nodeName;) {
    alternate = !alternate;
    previous = previous.previousElementSibling;
  }
  return alternate;
}

export function listItem(content: string, item: PageElement): string {
  const list = item.parentElement;
  const alternate = list ? usesAlternateMarker(list) : false;
  let prefix = alternate ? '* ' : '- ';
  if (list?.nodeName === 'OL') {
    const items = Array.from(list.children).filter((child) => child.nodeName === 'LI');
    const start = Number.parseInt(list.getAttribute('start') ?? '1', 10);
    prefix = `${(Number.isFinite(start) ? start : 1) + items.indexOf(item)}${alternate ? ')' : '.'} `;
  }
  const loose = /\n\n\S/.test(content.replace(/^\n+|\n+$/g, ''));
  const body = content
    .replace(/^\n+/, '')
    .replace(/\n+$/, '')
    .replace(/\n/g, `\n${' '.repeat(prefix.length)}`)
    .replace(/\n[ ]+(?=\n)/g, '\n')
    .replace(/^(\[[ x]\]) +/, '$1 ');
  if (!body.trim()) return '';
  const hasNext = !!item.nextElementSibling;
  return `${prefix}${body}${hasNext ? (loose ? '\n\n' : '\n') : ''}`;
}
