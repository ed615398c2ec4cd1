import { hasDescendantNamed, resolveUrl } from '../dom.js';
import { inlineCode } from './code-rules.js';
import type { ConverterHtmlWriter } from './converter-html.js';
import {
  edgeSpaces,
  escapeHtml,
  firstLinkable,
  hasBlockChild,
  hasBlockDescendant,
  hasVisibleText,
  isBlockNode,
  isPermalink,
  type EdgeSpaces,
} from './converter-html-nodes.js';
import { formatDestination } from './escape.js';
import { mathTex } from './inline-rules.js';
import { CHECKED, NO_SPACE, stripReserved, UNCHECKED } from './markdown-draft.js';
import type { PageElement, PageNode } from '../page-node.js';

/**
 * Inline elements for the native converter (converter-html.ts walks the page and calls these):
 * emphasis and strike-through, code spans, links (and links wrapping blocks), task checkboxes and
 * math, written as HTML the converter renders the way the turndown rules write them.
 */

/** Emphasis, strong or strike-through (`tag`) around `element`'s content. */
export function writeInline(writer: ConverterHtmlWriter, element: PageElement, tag: string): void {
  // Formatting around blocks (an unclosed <em>) cannot be written with delimiters: its content stays plain.
  if (hasBlockDescendant(element)) return writer.children(element, false);
  writeWrapped(writer, element, tag);
}

/** `element`'s content inside `<tag>`, its edge spaces outside; empty formatting is dropped. */
export function writeWrapped(writer: ConverterHtmlWriter, element: PageElement, tag: string): void {
  const edges = edgeSpaces(element);
  if (!hasVisibleText(element) && !hasDescendantNamed(element, 'img')) {
    // Empty formatting is dropped; its space stays.
    if (edges.leading) writer.text(' ');
    return;
  }
  flanked(writer, edges, () => {
    if (tag === 'del' && writer.afterText) writer.html += NO_SPACE;
    writer.html += `<${tag}>`;
    writer.children(element, false);
    writer.html += `</${tag}>`;
    writer.afterText = true;
  });
}

/**
 * Writes an inline element with the whitespace at the edges of its text outside it, as turndown
 * does: `e<b> f </b>g` is `e **f** g` (the converter would write `e** f** g`, which is not bold).
 */
function flanked(writer: ConverterHtmlWriter, edges: EdgeSpaces, write: () => void): void {
  if (edges.leading) writer.text(' ');
  write();
  if (edges.trailing) writer.text(' ');
}

export function writeCodeSpan(writer: ConverterHtmlWriter, code: PageElement): void {
  const text = (code.textContent ?? '').replace(/\s+/g, ' ');
  const edges = { leading: text.startsWith(' '), trailing: text.endsWith(' ') };
  flanked(writer, edges, () => writer.inlineFragment(inlineCode(text.trim())));
}

export function writeLink(writer: ConverterHtmlWriter, anchor: PageElement): void {
  const rawHref = anchor.getAttribute('href');
  if (rawHref?.trim().startsWith('#') && isPermalink(anchor)) return;
  const href = resolveUrl(rawHref, writer.baseUrl);
  if (!href) return writer.children(anchor, false);
  const destination = writer.draft.placeholder(formatDestination(href));
  if (writer.flat === 0 && hasBlockDescendant(anchor)) return writeBlockLink(writer, anchor, destination);
  if (!hasVisibleText(anchor) && !hasDescendantNamed(anchor, 'img')) {
    const label = (anchor.getAttribute('aria-label') ?? anchor.getAttribute('title') ?? '').replace(/\s+/g, ' ');
    if (!label.trim()) return;
    // No NO_SPACE here: an icon-only link had no text to keep the space before it, the converter adds one.
    writer.html += `<a href="${destination}">${escapeHtml(stripReserved(label.trim()))}</a>`;
    writer.afterText = true;
    return;
  }
  flanked(writer, edgeSpaces(anchor), () => {
    if (writer.afterText) writer.html += NO_SPACE;
    writer.html += `<a href="${destination}">`;
    writer.flat++;
    writer.children(anchor, false);
    writer.flat--;
    writer.html += '</a>';
    writer.afterText = true;
  });
}

/**
 * A link wrapping blocks (a card: heading and text) goes on its first block (`### [Title](url)`,
 * then the text); when that block is a list, quote, code or table, the link is the whole text on one line.
 */
function writeBlockLink(writer: ConverterHtmlWriter, anchor: PageElement, destination: string): void {
  const target = firstLinkable(anchor);
  // An inline first node carries the link only when it starts a run of its own (beside blocks).
  const placeable = target && (isBlockNode(target) || (target.parentNode && hasBlockChild(target.parentNode, false)));
  if (!target || !placeable) {
    const text = escapeHtml(stripReserved((anchor.textContent ?? '').replace(/\s+/g, ' ').trim()));
    if (text) writer.html += `<div><a href="${destination}">${text}</a></div>`;
    writer.afterText = false;
    return;
  }
  writer.linkOnFirstBlock(anchor, target, destination);
}

export function writeCheckbox(writer: ConverterHtmlWriter, input: PageElement): void {
  if (input.getAttribute('type')?.toLowerCase() !== 'checkbox') return;
  let item: PageNode | null = input.parentNode;
  while (item && (item as PageElement).localName !== 'li') item = item.parentNode;
  if (!item) return;
  writer.html += input.hasAttribute('checked') ? CHECKED : UNCHECKED;
}

export function writeMath(writer: ConverterHtmlWriter, element: PageElement): void {
  const { tex, display } = mathTex(element);
  if (!tex) return;
  if (display) writer.blockFragment(`$$\n${tex}\n$$`);
  else writer.inlineFragment(`$${tex}$`);
}
