/**
 * The part of the DOM the default stages read (metadata, links, cleanup, text, the mdream
 * converter's HTML writer): both linkedom's nodes and the lean tree (lean/lean-tree.ts) satisfy it,
 * so one implementation of each stage serves both parses. Anything beyond it (creating nodes,
 * serialising, Readability, the extractor, turndown) needs linkedom's `Document`, and a request
 * that asks for one of those is parsed with linkedom (`PreparedContentOptions.needsDom`).
 *
 * Names and values are the DOM's: `nodeName` is upper case for elements, `localName` lower case;
 * node types 1 (element), 3 (text), 4 (CDATA), 8 (comment), 9 (document).
 */

export interface PageNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly parentNode: PageNode | null;
  readonly parentElement: PageElement | null;
  readonly firstChild: PageNode | null;
  readonly lastChild: PageNode | null;
  readonly nextSibling: PageNode | null;
  readonly previousSibling: PageNode | null;
  /** Text and CDATA descendants joined (elements), the data (text, comments), null (documents). */
  readonly textContent: string | null;
}

/** A text, CDATA or comment node. */
export interface PageText extends PageNode {
  readonly data: string;
}

export interface PageAttribute {
  readonly name: string;
  readonly value: string;
}

/** Both parses answer selector queries with css-select, skipping `<template>` content as linkedom does. */
export interface PageQueries {
  querySelector(selectors: string): PageElement | null;
  querySelectorAll(selectors: string): Iterable<PageElement>;
}

export interface PageElement extends PageNode, PageQueries {
  readonly localName: string;
  readonly firstElementChild: PageElement | null;
  readonly nextElementSibling: PageElement | null;
  readonly previousElementSibling: PageElement | null;
  readonly children: ArrayLike<PageElement> & Iterable<PageElement>;
  readonly attributes: ArrayLike<PageAttribute> & Iterable<PageAttribute>;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  hasAttributes(): boolean;
  /** Detaches the element (cleanup). */
  remove(): void;
}

export interface PageDocument extends PageNode, PageQueries {
  /** The first element child of the document. */
  readonly documentElement: PageElement | null;
  /** linkedom's getter: the element after `<head>`, a `<body>` inserted there when it is not one. */
  readonly body: PageElement | null;
}
