import type { LeanElement, LeanNode, LeanParent } from './lean-tree.js';
import { type CompiledSelector, cssSelect } from './linkedom-parts.js';

/**
 * Selector queries on the lean tree: css-select (the one linkedom uses) with an adapter that reads
 * the lean nodes the way linkedom's adapter reads its own (shared/matches.js), and the same walk:
 * document order, descendants only, `<template>` content skipped. Unlike linkedom, which compiles
 * the selector on every call, compiled selectors are kept (the pipeline's selectors are a fixed
 * set, a request's own cleanup selectors a few more).
 */

const ELEMENT = 1;
const TEXT = 3;

const isTag = (node: LeanNode): node is LeanElement => node.nodeType === ELEMENT;

function childNodes(node: LeanNode): LeanNode[] {
  const children: LeanNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) children.push(child);
  return children;
}

function textOf(node: LeanNode | LeanNode[]): string {
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (isTag(node)) return textOf(childNodes(node));
  return node.nodeType === TEXT ? (node.textContent ?? '') : '';
}

function existsOne(test: (element: LeanElement) => boolean, nodes: LeanNode[]): boolean {
  return nodes.some((node) => isTag(node) && (test(node) || existsOne(test, childNodes(node))));
}

function findAll(test: (element: LeanElement) => boolean, nodes: LeanNode[]): LeanElement[] {
  const found: LeanElement[] = [];
  for (const node of nodes) {
    if (!isTag(node)) continue;
    if (test(node)) found.push(node);
    found.push(...findAll(test, childNodes(node)));
  }
  return found;
}

function findOne(test: (element: LeanElement) => boolean, nodes: LeanNode[]): LeanElement | null {
  for (const node of nodes) {
    if (!isTag(node)) continue;
    if (test(node)) return node;
    const inner = findOne(test, childNodes(node));
    if (inner) return inner;
  }
  return null;
}

function removeSubsets(nodes: LeanNode[]): LeanNode[] {
  let index = nodes.length;
  while (index--) {
    const node = nodes[index] as LeanNode;
    if (index && nodes.lastIndexOf(node, index - 1) > -1) {
      nodes.splice(index, 1);
      continue;
    }
    for (let parent = node.parentNode; parent; parent = parent.parentNode) {
      if (nodes.includes(parent)) {
        nodes.splice(index, 1);
        break;
      }
    }
  }
  return nodes;
}

const adapter = {
  isTag,
  existsOne,
  // linkedom answers null (not undefined) for a missing attribute; css-select treats both alike.
  getAttributeValue: (element: LeanElement, name: string) => element.getAttribute(name),
  getChildren: childNodes,
  getName: (element: LeanElement) => element.localName,
  getParent: (node: LeanNode) => node.parentNode,
  getSiblings: (node: LeanNode) => (node.parentNode ? childNodes(node.parentNode) : [node]),
  getText: textOf,
  hasAttrib: (element: LeanElement, name: string) => element.hasAttribute(name),
  removeSubsets,
  findAll,
  findOne,
};

const compiled = new Map<string, CompiledSelector<LeanElement>>();

/** The compiled selector list (throws css-select's error for an invalid one, as linkedom does). */
export function compileLeanSelector(selectors: string): CompiledSelector<LeanElement> {
  let test = compiled.get(selectors);
  if (!test) {
    test = cssSelect.compile<LeanElement>(selectors, { xmlMode: false, adapter });
    // Selectors come from the code and from requests' cleanup options: a bound keeps the latter in check.
    if (compiled.size >= 512) compiled.clear();
    compiled.set(selectors, test);
  }
  return test;
}

/**
 * Calls `visit` on every element under `root` in document order, not descending into `<template>`
 * (linkedom's `querySelectorAll` skips its content); a loop, not recursion. Stops when `visit` returns true.
 */
function walkElements(root: LeanParent, visit: (element: LeanElement) => boolean | void): void {
  let node: LeanNode | null = root.firstChild;
  while (node) {
    let next: LeanNode | null = null;
    if (isTag(node)) {
      if (visit(node) === true) return;
      if (node.localName !== 'template') next = node.firstChild;
    }
    if (!next) {
      let current: LeanNode | null = node;
      while (current && current !== root && !current.nextSibling) current = current.parentNode;
      next = current && current !== root ? current.nextSibling : null;
    }
    node = next;
  }
}

export function leanQueryAll(root: LeanParent, selectors: string): LeanElement[] {
  const test = compileLeanSelector(selectors);
  const found: LeanElement[] = [];
  walkElements(root, (element) => {
    if (test(element)) found.push(element);
  });
  return found;
}

export function leanQueryOne(root: LeanParent, selectors: string): LeanElement | null {
  const test = compileLeanSelector(selectors);
  let found: LeanElement | null = null;
  walkElements(root, (element) => {
    if (!test(element)) return false;
    found = element;
    return true;
  });
  return found;
}
