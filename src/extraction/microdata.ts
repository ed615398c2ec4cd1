import { collapseWhitespace, resolveUrl } from '../pipeline/dom.js';
import type { LinkedNode } from './json-ld.js';

const URL_ATTRIBUTE: Record<string, string> = {
  A: 'href',
  AREA: 'href',
  LINK: 'href',
  AUDIO: 'src',
  EMBED: 'src',
  IFRAME: 'src',
  IMG: 'src',
  SOURCE: 'src',
  TRACK: 'src',
  VIDEO: 'src',
  OBJECT: 'data',
};
const MAX_ITEMS = 2000;

/**
 * Microdata items (`itemscope`/`itemtype`/`itemprop`) read into the JSON-LD shape, so one matcher
 * serves both: `@type` from the itemtype's last segment, `@id` from `itemid`, each property's
 * value from the attribute the HTML microdata rules name (`content`, `href`, `src`, `datetime`,
 * `value`), else the element's text (a `<ul>`/`<ol>` property: its items' texts; an `<a>` with
 * text: `{name, url}`); nested items become nested nodes; repeated properties arrays.
 * Only top-level items are returned (items that are no other item's property).
 */
export function readMicrodata(document: Document, baseUrl: URL): LinkedNode[] {
  const items: LinkedNode[] = [];
  const state = { count: 0, baseUrl };
  for (const element of document.querySelectorAll('[itemscope]')) {
    if (element.hasAttribute('itemprop') || items.length >= MAX_ITEMS) continue;
    items.push(readItem(element, state));
  }
  return items;
}

interface ReadState {
  count: number;
  baseUrl: URL;
}

function readItem(element: Element, state: ReadState): LinkedNode {
  state.count += 1;
  const node: LinkedNode = {};
  const types = (element.getAttribute('itemtype') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((type) => type.replace(/\/+$/, '').replace(/^.*[/#]/, ''));
  if (types.length > 0) node['@type'] = types.length === 1 ? types[0] : types;
  const id = element.getAttribute('itemid')?.trim();
  if (id) node['@id'] = id;
  if (state.count < MAX_ITEMS) readProperties(element, node, state);
  return node;
}

function readProperties(scope: Element, node: LinkedNode, state: ReadState): void {
  for (const child of Array.from(scope.children)) {
    const names = (child.getAttribute('itemprop') ?? '').split(/\s+/).filter(Boolean);
    const nested = child.hasAttribute('itemscope');
    if (names.length > 0) {
      const value = nested ? readItem(child, state) : propertyValue(child, state.baseUrl, names);
      for (const name of names) add(node, name.replace(/^.*[/#]/, ''), value);
    }
    // A nested item's descendants are its properties; an unrelated item's are its own.
    if (!nested) readProperties(child, node, state);
  }
}

function add(node: LinkedNode, name: string, value: unknown): void {
  if (value === '' || value === null) return;
  const existing = node[name];
  if (existing === undefined) node[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else node[name] = [existing, value];
}

/** Properties whose value is the link itself, whatever text the link shows. */
const LINK_PROPERTY = /url|image|logo|photo|sameAs|href|link|thumbnail|contentUrl|embedUrl/i;

function propertyValue(element: Element, baseUrl: URL, names: string[]): LinkedNode | string | string[] | null {
  const content = element.getAttribute('content');
  if (content !== null) return collapseWhitespace(content);
  const name = element.nodeName;
  const urlAttribute = URL_ATTRIBUTE[name];
  if (urlAttribute) {
    const raw = element.getAttribute(urlAttribute);
    const url = resolveUrl(raw, baseUrl) ?? (raw ? raw.trim() : null);
    // `<a itemprop="author" href="/authors/x">Imogen Hartley</a>`: the link and the name it shows.
    const text =
      name === 'A' && !names.some((prop) => LINK_PROPERTY.test(prop))
        ? collapseWhitespace(element.textContent ?? '')
        : '';
    return url && text && text !== url ? { name: text, url } : url;
  }
  if (name === 'DATA' || name === 'METER') return element.getAttribute('value')?.trim() ?? null;
  if (name === 'TIME') return (element.getAttribute('datetime') ?? element.textContent ?? '').trim();
  if (name === 'OL' || name === 'UL') {
    // The microdata value of a list is its whole text; its items are what every reader wants.
    const items = Array.from(element.children)
      .filter((child) => child.nodeName === 'LI')
      .map((li) => collapseWhitespace(li.textContent ?? ''))
      .filter(Boolean);
    if (items.length > 1) return items;
  }
  return collapseWhitespace(element.textContent ?? '');
}
