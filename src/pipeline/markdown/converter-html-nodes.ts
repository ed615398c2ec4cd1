import { hasDescendantNamed, isBlankText } from '../dom.js';
import { NEVER_CONTENT } from './block-rules.js';
import { PERMALINK_TEXT } from './inline-rules.js';
import type { PageElement, PageNode, PageText } from '../page-node.js';

/**
 * What the native converter's HTML writer (converter-html.ts) asks of the nodes it walks: which
 * elements start a block, which nodes are blank or show text, where a block link can go, the
 * spaces at an inline element's edges, and HTML escaping of text.
 */

/** turndown's block elements, plus `<video>` (a block link): they start a block, all others are inline. */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set(
  (
    'address article aside audio blockquote body canvas center dd dir div dl dt fieldset figcaption figure ' +
    'footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html isindex li main menu nav noframes noscript ' +
    'ol output p pre section table tbody td tfoot th thead tr ul video'
  ).split(' '),
);

export const SKIPPED = new Set(NEVER_CONTENT);
export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Blocks that cannot carry a link on their first line (the turndown rule's `blockLink` gives up on them). */
const UNLINKABLE = new Set(['ul', 'ol', 'menu', 'dir', 'blockquote', 'pre', 'table', 'dl', 'hr']);

export function isBlock(element: PageElement): boolean {
  return BLOCK_ELEMENTS.has(element.localName);
}

export function isBlockNode(node: PageNode): boolean {
  return node.nodeType === 1 && isBlock(node as PageElement);
}

export function isBlankNode(node: PageNode): boolean {
  if (node.nodeType === 3 || node.nodeType === 4) return isBlankText((node as PageText).data);
  return node.nodeType !== 1;
}

/** Whether `parent` has a block child (`listsInline`: not counting lists, as in a list item). */
export function hasBlockChild(parent: PageNode, listsInline: boolean): boolean {
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1 && isBlock(child as PageElement) && !(listsInline && isList(child))) return true;
  }
  return false;
}

const LISTS = new Set(['ul', 'ol', 'menu', 'dir']);

export function isList(node: PageNode): boolean {
  return LISTS.has((node as PageElement).localName);
}

export function hasBlockDescendant(parent: PageNode): boolean {
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    if (child.nodeType !== 1) continue;
    if (isBlock(child as PageElement) || hasBlockDescendant(child)) return true;
  }
  return false;
}

/**
 * The block a link wrapping blocks goes on: its first content, looking through wrappers that hold
 * blocks (a card's `<div>`). An inline first node stands for the run of inline content it starts.
 * Null when the first block cannot carry a link.
 */
export function firstLinkable(container: PageElement): PageNode | null {
  for (let child = container.firstChild; child; child = child.nextSibling) {
    if (isBlankNode(child)) continue;
    if (child.nodeType !== 1) return child;
    const element = child as PageElement;
    if (SKIPPED.has(element.localName)) continue;
    if (!isBlock(element) || HEADINGS.has(element.localName)) return element;
    if (UNLINKABLE.has(element.localName)) return null;
    return hasBlockDescendant(element) ? firstLinkable(element) : element;
  }
  return null;
}

export interface EdgeSpaces {
  leading: boolean;
  trailing: boolean;
}

/** Whether the text of `element` (its `textContent`) starts and ends with whitespace, without building it. */
export function edgeSpaces(element: PageElement): EdgeSpaces {
  const first = edgeText(element, true);
  const last = edgeText(element, false);
  return { leading: first !== null && /^\s/.test(first), trailing: last !== null && /\s$/.test(last) };
}

/** The first (or last) non-empty text under `node`, in document order. */
export function edgeText(node: PageNode, first: boolean): string | null {
  for (
    let child = first ? node.firstChild : node.lastChild;
    child;
    child = first ? child.nextSibling : child.previousSibling
  ) {
    if (child.nodeType === 3 || child.nodeType === 4) {
      if ((child as PageText).data) return (child as PageText).data;
    } else if (child.nodeType === 1) {
      const text = edgeText(child, first);
      if (text !== null) return text;
    }
  }
  return null;
}

/** Whether some text under `node` is not blank (stops at the first). */
export function hasVisibleText(node: PageNode): boolean {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3 || child.nodeType === 4) {
      if (!isBlankText((child as PageText).data)) return true;
    } else if (child.nodeType === 1 && hasVisibleText(child)) return true;
  }
  return false;
}

/** An in-page anchor that only decorates a heading ("¶", "#", an icon). */
export function isPermalink(anchor: PageElement): boolean {
  return PERMALINK_TEXT.test(anchor.textContent ?? '') && !hasDescendantNamed(anchor, 'img');
}

/** Characters a text needs escaped for HTML, or removed (the reserved private-use range). */
export const NEEDS_WORK = /[&<>\uE000-\uE00F]/;

/** ASCII whitespace and the other characters `\s` matches at the end of a text. */
export function isSpace(code: number): boolean {
  return (
    code === 32 || (code >= 9 && code <= 13) || code === 160 || (code > 255 && /\s/.test(String.fromCharCode(code)))
  );
}

export function escapeHtml(text: string): string {
  return /[&<>]/.test(text) ? text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : text;
}
