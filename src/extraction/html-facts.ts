import { ancestorNamed, collapseWhitespace, type ParsedPage, parsePage, resolveUrl } from '../pipeline/dom.js';
import { readMetaTags } from '../pipeline/metadata.js';
import { blockText, hasBlockChild, inlineText, insideSkipped, LAYOUT_CLASS, nameBefore, ownName } from './dom-text.js';
import { addField, type Collection, type NamedList, type PageFacts, type RecordSource } from './facts.js';
import { readTable } from './html-tables.js';
import { readJsonLd, type LinkedNode } from './json-ld.js';
import { labelPairs } from './label-lines.js';
import { readMicrodata } from './microdata.js';
import { readRepeatedBlocks } from './repeated-blocks.js';
import { mailtoAddresses, phoneFromTelLink } from './contact-points.js';

/** Meta names about the page's plumbing, never about its subject (`theme-color` is no product colour). */
const IGNORED_META =
  /^(?:viewport|theme-color|color-scheme|robots|googlebot|bingbot|referrer|generator|format-detection|csrf-.*|x-ua-compatible|content-type|content-security-policy|google-site-verification|msvalidate\.01|yandex-verification|p:domain_verify|facebook-domain-verification|msapplication-.*|apple-.*|mobile-web-app-capable|fb:.*|al:.*|twitter:card|twitter:site|twitter:creator:id|og:image:(?:width|height|type|alt)|og:locale:alternate|handheldfriendly|mobileoptimized|application-name|slack-app-id)$/;

/**
 * Everything the extractor can read on an HTML page, in the order it is trusted (structured items;
 * then meta, dl, table, label, h1, class, title, link). The page is
 * parsed with the pipeline's parser (`parsePage`); JSON-LD is read before anything else so scripts
 * are still there.
 */
export function readHtmlFacts(html: string, url: string): PageFacts {
  return readDocumentFacts(parsePage(html, url));
}

/**
 * The same from a page already parsed with `parsePage` (the pipeline's parse, so a page is parsed
 * once), read before anything removes its scripts: JSON-LD lives in them. The document is not
 * changed.
 */
export function readDocumentFacts({ document, baseUrl }: ParsedPage): PageFacts {
  const meta = readMetaTags(document);
  const language = document.documentElement?.getAttribute('lang')?.trim() || meta.get('content-language') || undefined;
  const items: RecordSource[] = [
    ...readJsonLd(document).items.map((node) => ({ rule: 'json-ld', node, structured: true })),
    ...readMicrodata(document, baseUrl).map((node) => ({ rule: 'microdata', node, structured: true })),
  ];
  const collections: Collection[] = [];
  const lists: NamedList[] = [];
  const metaRecord: LinkedNode = {};
  for (const [name, content] of meta) if (!IGNORED_META.test(name)) addField(metaRecord, name, content);
  // Slack/Twitter unfurl pairs: twitter:label1 "Est. reading time" + twitter:data1 "4 minutes".
  for (let n = 1; meta.has(`twitter:label${n}`); n += 1) {
    addField(metaRecord, meta.get(`twitter:label${n}`) ?? '', meta.get(`twitter:data${n}`) ?? '');
  }
  const tableRecord = readTables(document, collections);
  const fields: RecordSource[] = [
    flat('meta', metaRecord),
    flat('dl', readDefinitionLists(document, lists)),
    flat('table', tableRecord),
    flat('label', readLabels(document)),
    flat('h1', headingRecord(document)),
    flat('class', readClassFields(document)),
    flat('title', { title: collapseWhitespace(document.querySelector('title')?.textContent ?? '') }),
    flat('link', readLinks(document, baseUrl)),
  ].filter((source) => Object.keys(source.node).length > 0);
  // Lists and repeated blocks only answer arrays: read the first time a schema asks for one.
  let listsRead = false;
  let blocksRead = false;
  return {
    language,
    baseUrl,
    items,
    fields,
    get collections() {
      if (!blocksRead) collections.push(...readRepeatedBlocks(document, baseUrl));
      blocksRead = true;
      return collections;
    },
    get lists() {
      if (!listsRead) readNamedLists(document, lists);
      listsRead = true;
      return lists;
    },
  };
}

function flat(rule: string, node: LinkedNode): RecordSource {
  for (const key of Object.keys(node)) if (node[key] === '') delete node[key];
  return { rule, node, structured: false };
}

function headingRecord(document: Document): LinkedNode {
  const h1 = document.querySelector('h1');
  return h1 ? { heading: inlineText(h1) } : {};
}

function readDefinitionLists(document: Document, lists: NamedList[]): LinkedNode {
  const record: LinkedNode = {};
  for (const dl of document.querySelectorAll('dl')) {
    const groups: Array<[string, string[]]> = [];
    const visit = (parent: Element): void => {
      for (const child of Array.from(parent.children)) {
        if (child.nodeName === 'DT') groups.push([inlineText(child).replace(/[:：]\s*$/, ''), []]);
        else if (child.nodeName === 'DD' && groups.length > 0) groups[groups.length - 1]?.[1].push(inlineText(child));
        else if (child.nodeName === 'DIV') visit(child);
      }
    };
    visit(dl);
    for (const [label, values] of groups) {
      const filled = values.filter(Boolean);
      if (!label || filled.length === 0) continue;
      addField(record, label, filled.length === 1 ? (filled[0] as string) : filled);
      if (filled.length > 1) lists.push({ rule: 'dl', name: label, items: filled });
    }
  }
  return record;
}

function readTables(document: Document, collections: Collection[]): LinkedNode {
  const record: LinkedNode = {};
  for (const element of document.querySelectorAll('table')) {
    if (insideSkipped(element)) continue;
    const table = readTable(element);
    if (!table) continue;
    for (const [label, value] of table.pairs) addField(record, label.replace(/[:：]\s*$/, ''), value);
    const name = table.caption || nameBefore(element) || ownName(element);
    if (table.rows.length > 0 && !(table.pairs.length > 0 && table.headers[0] === 'column_1')) {
      collections.push({ rule: 'table', name, records: table.rows });
    }
    if (table.columns.length > 0) collections.push({ rule: 'table-columns', name, records: table.columns });
  }
  return record;
}

const LABEL_BLOCKS = 'p, li, div, address, dd, td, span, section, article, footer, header, aside';

function readLabels(document: Document): LinkedNode {
  const record: LinkedNode = {};
  for (const element of document.querySelectorAll(LABEL_BLOCKS)) {
    if (element.nodeName === 'SPAN') {
      readClassPair(element, record);
      continue;
    }
    if (hasBlockChild(element)) continue;
    if (ancestorNamed(element, 'DL') || insideSkipped(element)) continue;
    for (const [label, value] of labelPairs(blockText(element))) addField(record, label, value);
  }
  return record;
}

const LABEL_CLASS = /(?:^|[\s_-])(?:label|key|term|name|title|heading)(?:$|[\s_-])/i;
const VALUE_CLASS = /(?:^|[\s_-])(?:value|data|val|detail|info|content|amount|number)(?:$|[\s_-])/i;

/** `<span class="label">Bedrooms</span><span class="value">3</span>`: a pair without a colon. */
function readClassPair(element: Element, record: LinkedNode): void {
  if (!LABEL_CLASS.test(element.getAttribute('class') ?? '')) return;
  const next = element.nextElementSibling;
  if (!next || !VALUE_CLASS.test(next.getAttribute('class') ?? '')) return;
  const label = inlineText(element).replace(/[:：]\s*$/, '');
  const value = inlineText(next);
  if (label && label.length <= 60 && value && value.length <= 300) addField(record, label, value);
}

/**
 * Short texts by their elements' class names (`<s class="price-was">$229</s>` → `price-was`):
 * the weakest evidence, read after labels and headings, for pages that mark up nothing else.
 */
function readClassFields(document: Document): LinkedNode {
  const record: LinkedNode = {};
  for (const element of document.querySelectorAll('[class]')) {
    if (hasBlockChild(element) || SKIPPED_FOR_CLASSES.has(element.nodeName) || insideSkipped(element)) continue;
    if (ancestorNamed(element, 'NAV')) continue;
    const text = inlineText(element);
    if (!text || text.length > 120) continue;
    for (const word of (element.getAttribute('class') ?? '').split(/\s+/)) {
      if (word && !LAYOUT_CLASS.test(word)) addField(record, word, text);
    }
  }
  return record;
}

const SKIPPED_FOR_CLASSES = new Set(['BUTTON', 'LABEL', 'OPTION', 'A', 'HTML', 'BODY']);

function readNamedLists(document: Document, lists: NamedList[]): void {
  for (const list of document.querySelectorAll('ul, ol')) {
    if (ancestorNamed(list, 'NAV') || insideSkipped(list)) continue;
    const name = list.getAttribute('aria-label')?.trim() || nameBefore(list) || ownName(list);
    if (!name) continue;
    const items = Array.from(list.children)
      .filter((child) => child.nodeName === 'LI')
      .map((li) => inlineText(li))
      .filter((text) => text && text.length <= 500);
    if (items.length > 0) lists.push({ rule: 'list', name, items });
  }
}

/**
 * Links: `mailto:` addresses as `email`, `tel:` numbers as `telephone`, and other links by their
 * short text ("Apply now", "Website", "Download") → their absolute URL. Menus are left out.
 */
function readLinks(document: Document, baseUrl: URL): LinkedNode {
  const emails: string[] = [];
  const phones: string[] = [];
  const byText: LinkedNode = {};
  for (const link of document.querySelectorAll('a[href]')) {
    const href = link.getAttribute('href')?.trim() ?? '';
    if (/^mailto:/i.test(href)) {
      for (const address of mailtoAddresses(href)) if (!emails.includes(address)) emails.push(address);
    } else if (/^tel:/i.test(href)) {
      const phone = phoneFromTelLink(href, inlineText(link));
      if (phone && !phones.includes(phone)) phones.push(phone);
    } else if (!ancestorNamed(link, 'NAV') && !insideSkipped(link)) {
      const text = inlineText(link);
      const url = text.length <= 40 ? resolveUrl(href, baseUrl) : null;
      if (url && /\p{L}/u.test(text)) addField(byText, text, url);
    }
  }
  const record: LinkedNode = {};
  if (emails.length > 0) record.email = emails.length === 1 ? emails[0] : emails;
  if (phones.length > 0) record.telephone = phones.length === 1 ? phones[0] : phones;
  return Object.assign(record, byText);
}
