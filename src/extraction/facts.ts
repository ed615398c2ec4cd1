import type { LinkedNode } from './json-ld.js';

/**
 * What the extractor reads a page (or a set of text passages) into before filling a schema. Every
 * value here is on the page as written; filling only chooses among them and coerces types.
 */

/** A record of named values: a JSON-LD/microdata node, or a flat label → value map. */
export interface RecordSource {
  /** Rule that produced it, the prefix of provenance: `json-ld`, `microdata`, `meta`, `dl`, `table`, `label`, `h1`, `class`, `title`, `link`. */
  rule: string;
  node: LinkedNode;
  /** JSON-LD/microdata nodes: provenance names the type and path (`json-ld:Product.offers.price`); flat records name the label (`dl:Price`). */
  structured: boolean;
  /** The page it came from (passages from several pages). */
  url?: string;
  /** Provenance prefix of a node found inside another one (`json-ld:Event.location`); default `rule:Type`. */
  prefix?: string;
}

/** Records side by side: table rows, table columns, repeated page blocks (pricing cards, job cards). */
export interface Collection {
  /** `table`, `table-columns`, `repeated`. */
  rule: string;
  /** What the page calls it: caption, nearest heading, container class or label; `''` when nothing names it. */
  name: string;
  records: LinkedNode[];
  url?: string;
}

/** Strings under a name: a list under a heading ("Ingredients"), or several `<dd>` for one `<dt>`. */
export interface NamedList {
  rule: string;
  name: string;
  items: string[];
  url?: string;
}

export interface PageFacts {
  /** The page's language (`<html lang>`), for decimal commas and day-first dates. */
  language?: string;
  baseUrl?: URL;
  /** Structured items (JSON-LD first, then microdata) in page order. */
  items: RecordSource[];
  /** Flat records in the order they are trusted: meta, dl, table, label, h1, class, title, link. */
  fields: RecordSource[];
  collections: Collection[];
  lists: NamedList[];
}

/** Adds `value` under `label` unless the label is taken (the first occurrence on a page is the main one). */
export function addField(record: LinkedNode, label: string, value: string | string[]): void {
  const key = label.trim();
  if (!key || record[key] !== undefined) return;
  if (typeof value === 'string' ? value.trim() === '' : value.length === 0) return;
  record[key] = value;
}
