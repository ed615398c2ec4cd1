import { isPlainObject, type LinkedNode, typesOf } from '../../../src/extraction/index.js';

/** Calls `visit` on every node (any depth, outermost first) of JSON-LD/microdata items; `@` keys are not entered. */
export function forEachNode(nodes: readonly LinkedNode[], visit: (node: LinkedNode) => void): void {
  const walk = (value: unknown, depth: number): void => {
    if (depth > 8) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    if (!isPlainObject(value)) return;
    visit(value);
    for (const [key, child] of Object.entries(value)) if (!key.startsWith('@')) walk(child, depth + 1);
  };
  walk(nodes, 0);
}

/** Every string under a property `name` (any depth) of JSON-LD/microdata nodes, in document order. */
export function valuesNamed(nodes: readonly LinkedNode[], name: string): string[] {
  const out: string[] = [];
  forEachNode(nodes, (node) => {
    const value = node[name];
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') out.push(item);
  });
  return out;
}

/** Every node (any depth) whose `@type` passes `test`, outermost first (an event's sub-events follow it). */
export function nodesOfType(nodes: readonly LinkedNode[], test: (types: string[]) => boolean): LinkedNode[] {
  const out: LinkedNode[] = [];
  forEachNode(nodes, (node) => {
    if (test(typesOf(node))) out.push(node);
  });
  return out;
}
