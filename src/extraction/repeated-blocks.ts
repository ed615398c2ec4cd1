import { ancestorNamed, resolveUrl } from '../pipeline/dom.js';
import {
  blockText,
  HEADINGS,
  hasBlockChild,
  inlineText,
  LAYOUT_CLASS,
  nameBefore,
  ownName,
  SKIPPED,
} from './dom-text.js';
import { addField, type Collection } from './facts.js';
import type { LinkedNode } from './json-ld.js';
import { labelPairs } from './label-lines.js';

const MAX_GROUPS = 60;
const MAX_MEMBERS = 500;
const MIN_LEAVES = 2;

/**
 * Blocks a page repeats side by side (pricing cards, job cards, team members, listings): sibling
 * elements sharing a tag and content classes, each with at least two pieces of text. Each block
 * becomes a record of what it shows, named as the page names it: its heading (`heading`), elements
 * by their class (`<span class="price">` → `price`), `itemprop`s, `label: value` lines, lists (by
 * class or heading, else `list item`), its first link (`link`) and image (`image`), and its first
 * paragraph (`text`). Tables are read elsewhere and navigation menus are skipped.
 */
export function readRepeatedBlocks(document: Document, baseUrl: URL): Collection[] {
  const collections: Collection[] = [];
  for (const parent of document.querySelectorAll('*')) {
    if (collections.length >= MAX_GROUPS) break;
    // (Two element children, checked without building the children list of every element.)
    if (!parent.firstElementChild?.nextElementSibling || SKIPPED.has(parent.nodeName) || isTablePart(parent)) continue;
    if (ancestorNamed(parent, 'NAV') || ancestorNamed(parent, 'TABLE')) continue;
    for (const members of groupsOf(parent)) {
      const records = members.slice(0, MAX_MEMBERS).map((member) => blockRecord(member, baseUrl));
      const name = [ownName(parent), headingBefore(members[0] as Element) || nameBefore(parent)]
        .filter(Boolean)
        .join(' ');
      collections.push({ rule: 'repeated', name, records });
    }
  }
  return collections;
}

/** A heading among the blocks' earlier siblings (`<section><h2>Experience</h2><div class="job">...`). */
function headingBefore(first: Element): string {
  for (let sibling = first.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
    if (HEADINGS.has(sibling.nodeName)) return inlineText(sibling);
  }
  return '';
}

function isTablePart(element: Element): boolean {
  return ['TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'SELECT', 'HEAD', 'HTML', 'DL'].includes(element.nodeName);
}

function groupsOf(parent: Element): Element[][] {
  const bySignature = new Map<string, Element[]>();
  for (const child of Array.from(parent.children)) {
    if (SKIPPED.has(child.nodeName) || HEADINGS.has(child.nodeName)) continue;
    const classes = (child.getAttribute('class') ?? '')
      .split(/\s+/)
      .filter((word) => word && !LAYOUT_CLASS.test(word))
      .sort()
      .join('.');
    const signature = `${child.nodeName}.${classes}`;
    const list = bySignature.get(signature) ?? [];
    list.push(child);
    bySignature.set(signature, list);
  }
  return [...bySignature.values()].filter(
    (members) => members.length >= 2 && members.every((member) => textLeaves(member) >= MIN_LEAVES),
  );
}

/** Pieces of text in a block (elements with their own text, images), counted up to what the test needs. */
function textLeaves(element: Element): number {
  let count = 0;
  const walk = (node: Element): void => {
    for (const child of Array.from(node.children)) {
      if (count >= MIN_LEAVES || SKIPPED.has(child.nodeName)) continue;
      if (child.nodeName === 'IMG' || ownText(child)) count += 1;
      walk(child);
    }
  };
  if (ownText(element)) count += 1;
  walk(element);
  return count;
}

function ownText(element: Element): boolean {
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 3 && /\S/.test(child.textContent ?? '')) return true;
  }
  return false;
}

function blockRecord(member: Element, baseUrl: URL): LinkedNode {
  const record: LinkedNode = {};
  const heading = member.querySelector('h1, h2, h3, h4, h5, h6');
  if (heading) addField(record, 'heading', inlineText(heading));
  for (const element of member.querySelectorAll('[itemprop]')) {
    addField(record, element.getAttribute('itemprop') ?? '', inlineText(element));
  }
  readLists(member, record);
  for (const element of member.querySelectorAll('[class]')) {
    if (SKIPPED.has(element.nodeName) || element.nodeName === 'UL' || element.nodeName === 'OL') continue;
    const text = element.nodeName === 'IMG' ? null : inlineText(element);
    if (!text || text.length > 200 || hasBlockChild(element)) continue;
    for (const word of (element.getAttribute('class') ?? '').split(/\s+/)) {
      if (word && !LAYOUT_CLASS.test(word)) addField(record, word, text);
    }
  }
  for (const [label, value] of labelPairs(blockText(member))) addField(record, label, value);
  const link = member.nodeName === 'A' ? member : member.querySelector('a[href]');
  const href = resolveUrl(link?.getAttribute('href'), baseUrl);
  if (href) addField(record, 'link', href);
  const image = member.querySelector('img');
  const src = resolveUrl(image?.getAttribute('src') ?? image?.getAttribute('data-src'), baseUrl);
  if (src) addField(record, 'image', src);
  // The block's text: its first paragraph that no class name above already read.
  const taken = new Set(Object.values(record).filter((value) => typeof value === 'string'));
  const paragraph = Array.from(member.querySelectorAll('p')).find((p) => !taken.has(inlineText(p)));
  if (paragraph) addField(record, 'text', inlineText(paragraph));
  if (!heading) {
    const first = blockText(member).split('\n')[0];
    if (first && first.length <= 80 && !labelPairs(first).length) addField(record, 'heading', first);
  }
  return record;
}

function readLists(member: Element, record: LinkedNode): void {
  for (const list of member.querySelectorAll('ul, ol')) {
    const items = Array.from(list.children)
      .filter((child) => child.nodeName === 'LI')
      .map((li) => inlineText(li))
      .filter(Boolean);
    if (items.length === 0) continue;
    const named = ownName(list) || nameBefore(list);
    addField(record, named || 'list item', items);
  }
}
