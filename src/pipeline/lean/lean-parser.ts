import type { PageAttribute } from '../page-node.js';
import { LeanDocument, LeanElement, type LeanParent, LeanText } from './lean-tree.js';
import { htmlparser2, type ParserHandler } from './linkedom-parts.js';

/**
 * Builds the lean tree from htmlparser2's events exactly as linkedom builds its DOM
 * (linkedom/esm/shared/parse-from-string.js: the same parser options and callbacks; doctype and
 * processing instructions make no node, CDATA outside XML mode arrives as a comment, void and
 * self-closing elements are closed by the parser), plus what `parsePage` does to linkedom's DOM
 * afterwards, done while building instead of in extra walks:
 * - text split at entities is merged and empty text dropped (`document.normalize()`);
 * - upper-case attribute names are lower-cased when the page has any (`lowerCaseAttributeNames`:
 *   the lower-cased attribute goes first, as linkedom's `setAttribute` inserts it; elements inside
 *   `<template>` are left alone, as its `querySelectorAll('*')` skips them);
 * - `class` holds linkedom's normalised token list (its `className` setter rewrites the attribute).
 *
 * One deliberate difference: nodes nested deeper than MAX_DEPTH are attached at that depth, as
 * children of the element at MAX_DEPTH - 1 (Chromium's parser does the same at 512), so no stage
 * recursing over the tree can overflow the stack; linkedom's DOM keeps any depth and the stages
 * overflow on it past ~1,500 levels (the request fails).
 */

/** Chromium's `kMaximumHTMLParserDOMTreeDepth`. */
export const MAX_DEPTH = 512;

export interface LeanBuildOptions {
  /** Lower-case upper-case attribute names (`parsePage` does when the source has any). */
  lowerCaseAttributes: boolean;
}

export function buildLeanTree(source: string, options: LeanBuildOptions): LeanDocument {
  const document = new LeanDocument();
  /** The open elements, the document first; nodes attach to the innermost one within MAX_DEPTH. */
  const open: LeanParent[] = [document];
  let parent: LeanParent = document;
  let templates = 0;
  const attach = (): void => {
    parent = open[Math.min(open.length, MAX_DEPTH) - 1] as LeanParent;
  };
  const handler: ParserHandler = {
    onprocessinginstruction: () => undefined,
    onopentag(name, attributes) {
      const lower = options.lowerCaseAttributes && templates === 0;
      const element = new LeanElement(name, attributeList(attributes, lower));
      parent.append(element);
      open.push(element);
      if (name === 'template') templates++;
      attach();
    },
    onclosetag() {
      const element = open.pop() as LeanParent;
      if (element instanceof LeanElement && element.localName === 'template') templates--;
      attach();
    },
    ontext(data) {
      if (!data) return;
      const last = parent.lastChild;
      if (last instanceof LeanText && last.nodeType === 3) last.data += data;
      else parent.append(new LeanText(3, data));
    },
    oncomment(data) {
      parent.append(new LeanText(8, data));
    },
    // In HTML mode htmlparser2 reports CDATA as a comment and never calls these.
    oncdatastart: () => undefined,
    oncdataend: () => undefined,
  };
  const parser = new htmlparser2.Parser(handler, {
    lowerCaseAttributeNames: false,
    decodeEntities: true,
    xmlMode: false,
  });
  parser.write(source);
  parser.end();
  return document;
}

/** The attributes as linkedom holds them after the parse and `parsePage`'s lower-casing. */
function attributeList(attributes: Record<string, string>, lowerCase: boolean): PageAttribute[] {
  const list: PageAttribute[] = [];
  let upper: PageAttribute[] | null = null;
  for (const name in attributes) {
    const value = attributes[name] as string;
    const attribute = { name, value: name === 'class' ? classTokens(value) : value };
    if (lowerCase && name !== name.toLowerCase()) (upper ??= []).push(attribute);
    else list.push(attribute);
  }
  if (!upper) return list;
  for (const { name, value } of upper) {
    const lower = name.toLowerCase();
    if (list.some((attribute) => attribute.name === lower)) continue;
    list.unshift({ name: lower, value: lower === 'class' ? classTokens(value) : value });
  }
  return list;
}

/** linkedom's `className` setter: the distinct tokens, in order, one space apart. */
function classTokens(value: string): string {
  if (!/\s/.test(value)) return value;
  return [...new Set(value.split(/\s+/).filter(Boolean))].join(' ');
}
