import type { PageAttribute, PageDocument, PageElement, PageNode, PageText } from '../page-node.js';
import { leanQueryAll, leanQueryOne } from './lean-selector.js';

/**
 * The lean tree: plain objects linked like the DOM (parent, first/last child, siblings), built
 * straight from htmlparser2's events (lean-parser.ts) and implementing only `PageNode`
 * (page-node.ts). A 56 KB page builds in under a millisecond where linkedom's DOM takes ~10 ms:
 * linkedom keeps every node, attribute and end tag in one linked list, and builds an upper-case
 * `nodeName`, a `classList` and a NodeList on demand. The tree is read-only apart from `remove()`
 * and the `<head>`/`<body>` linkedom's `document.body` getter inserts (mirrored so both parses
 * hand the stages the same shape).
 */

const UPPER_NAMES = new Map<string, string>();

function upperName(localName: string): string {
  let upper = UPPER_NAMES.get(localName);
  if (upper === undefined) {
    upper = localName.toUpperCase();
    if (UPPER_NAMES.size < 4096) UPPER_NAMES.set(localName, upper);
  }
  return upper;
}

export abstract class LeanNode implements PageNode {
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;
  parentNode: LeanParent | null = null;
  nextSibling: LeanNode | null = null;
  previousSibling: LeanNode | null = null;

  get firstChild(): LeanNode | null {
    return null;
  }

  get lastChild(): LeanNode | null {
    return null;
  }

  get parentElement(): LeanElement | null {
    return this.parentNode instanceof LeanElement ? this.parentNode : null;
  }

  abstract get textContent(): string | null;

  /** Detaches the node from its parent. */
  remove(): void {
    const parent = this.parentNode;
    if (!parent) return;
    if (this.previousSibling) this.previousSibling.nextSibling = this.nextSibling;
    else parent.first = this.nextSibling;
    if (this.nextSibling) this.nextSibling.previousSibling = this.previousSibling;
    else parent.last = this.previousSibling;
    this.parentNode = this.nextSibling = this.previousSibling = null;
  }
}

/** Text (3), CDATA (4) and comments (8). */
export class LeanText extends LeanNode implements PageText {
  constructor(
    readonly nodeType: 3 | 4 | 8,
    public data: string,
  ) {
    super();
  }

  get nodeName(): string {
    return this.nodeType === 3 ? '#text' : this.nodeType === 8 ? '#comment' : '#cdata-section';
  }

  get textContent(): string {
    return this.data;
  }
}

/** Elements and the document: nodes with children. */
export abstract class LeanParent extends LeanNode {
  first: LeanNode | null = null;
  last: LeanNode | null = null;

  override get firstChild(): LeanNode | null {
    return this.first;
  }

  override get lastChild(): LeanNode | null {
    return this.last;
  }

  get firstElementChild(): LeanElement | null {
    return nextElement(this.first);
  }

  get children(): LeanElement[] {
    const children: LeanElement[] = [];
    for (let child = this.firstElementChild; child; child = child.nextElementSibling) children.push(child);
    return children;
  }

  /** Appends `node` (detached) as the last child. */
  append(node: LeanNode): void {
    node.parentNode = this;
    node.previousSibling = this.last;
    if (this.last) this.last.nextSibling = node;
    else this.first = node;
    this.last = node;
  }

  /** Inserts `node` (detached) before `reference`, a child of this node (null: at the end). */
  insertBefore(node: LeanNode, reference: LeanNode | null): void {
    if (!reference) return this.append(node);
    node.parentNode = this;
    node.nextSibling = reference;
    node.previousSibling = reference.previousSibling;
    if (reference.previousSibling) reference.previousSibling.nextSibling = node;
    else this.first = node;
    reference.previousSibling = node;
  }

  querySelector(selectors: string): LeanElement | null {
    return leanQueryOne(this, selectors);
  }

  querySelectorAll(selectors: string): LeanElement[] {
    return leanQueryAll(this, selectors);
  }
}

export class LeanElement extends LeanParent implements PageElement {
  readonly nodeType = 1;
  readonly nodeName: string;

  constructor(
    readonly localName: string,
    /** In source order; `class` holds linkedom's normalised token list (see lean-parser.ts). */
    readonly attributes: PageAttribute[],
  ) {
    super();
    this.nodeName = upperName(localName);
  }

  get tagName(): string {
    return this.nodeName;
  }

  get nextElementSibling(): LeanElement | null {
    return nextElement(this.nextSibling);
  }

  get previousElementSibling(): LeanElement | null {
    for (let node = this.previousSibling; node; node = node.previousSibling) {
      if (node instanceof LeanElement) return node;
    }
    return null;
  }

  getAttribute(name: string): string | null {
    const attributes = this.attributes;
    for (let i = 0; i < attributes.length; i++) {
      const attribute = attributes[i] as PageAttribute;
      if (attribute.name === name) return attribute.value;
    }
    return null;
  }

  hasAttribute(name: string): boolean {
    return this.getAttribute(name) !== null;
  }

  hasAttributes(): boolean {
    return this.attributes.length > 0;
  }

  /** Text and CDATA descendants in document order (a loop, not recursion: pages nest deeply). */
  get textContent(): string {
    let text = '';
    let node: LeanNode | null = this.first;
    while (node && node !== this) {
      if (node.nodeType === 3 || node.nodeType === 4) text += (node as LeanText).data;
      const child = node instanceof LeanParent ? node.first : null;
      if (child) {
        node = child;
        continue;
      }
      while (node && node !== this && !node.nextSibling) node = node.parentNode;
      node = node && node !== this ? node.nextSibling : null;
    }
    return text;
  }
}

export class LeanDocument extends LeanParent implements PageDocument {
  readonly nodeType = 9;
  readonly nodeName = '#document';

  get textContent(): null {
    return null;
  }

  get documentElement(): LeanElement | null {
    return this.firstElementChild;
  }

  /** linkedom's getter: the first child of the document element, a `<head>` prepended when it is not one. */
  get head(): LeanElement {
    const html = this.documentElement as LeanElement;
    let head = html.firstElementChild;
    if (!head || head.nodeName !== 'HEAD') {
      head = new LeanElement('head', []);
      html.insertBefore(head, html.first);
    }
    return head;
  }

  /** linkedom's getter: the element after `<head>`, a `<body>` inserted there when it is not one. */
  get body(): LeanElement {
    const head = this.head;
    let body = head.nextElementSibling;
    if (!body || body.nodeName !== 'BODY') {
      body = new LeanElement('body', []);
      (head.parentNode as LeanParent).insertBefore(body, head.nextSibling);
    }
    return body;
  }
}

function nextElement(node: LeanNode | null): LeanElement | null {
  for (let current = node; current; current = current.nextSibling) {
    if (current instanceof LeanElement) return current;
  }
  return null;
}

/** Whether `node` belongs to the lean tree (not linkedom's DOM). */
export function isLeanNode(node: unknown): node is LeanNode {
  return node instanceof LeanNode;
}
