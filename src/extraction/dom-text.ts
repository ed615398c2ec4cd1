import { collapseWhitespace } from '../pipeline/dom.js';
import { htmlToText, LINE_BLOCKS, PARAGRAPH_BLOCKS } from '../pipeline/text-converter.js';

/** Elements whose text is never page text. */
export const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME', 'OBJECT', 'SELECT']);
/** Block-level elements: the text converter's paragraph and line blocks, and table cells. */
export const BLOCKS: ReadonlySet<string> = new Set([...PARAGRAPH_BLOCKS, ...LINE_BLOCKS, 'TD', 'TH', 'TR']);
export const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);

/**
 * Text of an element as a reader sees it (the `text` format's converter), one line per block or
 * `<br>`, table cells separated by a space, empty lines dropped.
 */
export function blockText(element: Element): string {
  return htmlToText(element)
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** Text of an element on one line. */
export function inlineText(element: Element): string {
  return collapseWhitespace(htmlToText(element));
}

/** True when an element has block-level element children (its text belongs to them). */
export function hasBlockChild(element: Element): boolean {
  for (const child of Array.from(element.children)) if (BLOCKS.has(child.nodeName)) return true;
  return false;
}

/** True when an element sits inside one whose text is never page text. */
export function insideSkipped(element: Element): boolean {
  for (let node = element.parentElement; node; node = node.parentElement) if (SKIPPED.has(node.nodeName)) return true;
  return false;
}

/**
 * What the page calls a list, table or block group: the nearest heading before it (or a short
 * line ending with a colon), looking back a few siblings and up a few ancestors.
 */
export function nameBefore(element: Element): string {
  let node: Element | null = element;
  for (let level = 0; node && level < 4; level += 1, node = node.parentElement) {
    let sibling = node.previousElementSibling;
    for (let steps = 0; sibling && steps < 4; steps += 1, sibling = sibling.previousElementSibling) {
      const name = sibling.nodeName;
      if (SKIPPED.has(name)) continue;
      if (HEADINGS.has(name)) return inlineText(sibling);
      // Another list or table before this one belongs to its own heading.
      if (name === 'UL' || name === 'OL' || name === 'TABLE' || name === 'DL') return '';
      // Only short lines name what follows; a container's text (a whole section) is not read.
      if (hasBlockChild(sibling)) continue;
      const text = inlineText(sibling);
      if (text.length > 0 && text.length <= 60 && /[:：]$/.test(text)) return text.replace(/[:：]$/, '').trim();
      if (text.length > 0 && text.length <= 60 && ['STRONG', 'B', 'LABEL', 'DT'].includes(name)) return text;
    }
  }
  return '';
}

/** The words in an element's `class`, `id` and `aria-label` that can name it (layout words left out). */
export function ownName(element: Element): string {
  const label = element.getAttribute('aria-label');
  if (label?.trim()) return label.trim();
  const words = `${element.getAttribute('id') ?? ''} ${element.getAttribute('class') ?? ''}`
    .split(/\s+/)
    .filter((word) => word && !LAYOUT_CLASS.test(word));
  return words.slice(0, 3).join(' ');
}

/** Class names about layout and state, not content. */
export const LAYOUT_CLASS =
  /^(?:(?:col|row|grid|flex|container|wrapper|wrap|inner|outer|clearfix|d|m|p|mx|my|px|py|mt|mb|pt|pb|w|h|gap|justify|items|align|text|bg|border|rounded|shadow|font|is|has|js|u|sm|md|lg|xl)(?:[-_].*)?|active|selected|featured|popular|highlighted|recommended|first|last|odd|even|hidden|visible|show|open|card|box|item|block|component|module|section|content|body)$|--/i;
