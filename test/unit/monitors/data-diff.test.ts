import { describe, expect, it } from 'vitest';
import { type DataChange, diffData, escapePointerToken } from '../../../src/domain/monitors/detection/index.js';

/**
 * Applies an index-compared diff as an RFC 6902 patch would (add/remove/replace on JSON
 * Pointers), to prove the list applies in order.
 */
function apply(document: unknown, changes: DataChange[]): unknown {
  let root = structuredClone(document);
  for (const change of changes) {
    const tokens =
      change.path === ''
        ? []
        : change.path
            .slice(1)
            .split('/')
            .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (tokens.length === 0) {
      root = change.op === 'remove' ? undefined : structuredClone(change.value);
      continue;
    }
    let parent = root as Record<string, unknown> | unknown[];
    for (const token of tokens.slice(0, -1)) parent = (parent as Record<string, unknown>)[token] as typeof parent;
    const last = tokens[tokens.length - 1] as string;
    if (Array.isArray(parent)) {
      const index = Number(last);
      if (change.op === 'add') parent.splice(index, 0, structuredClone(change.value));
      else if (change.op === 'remove') parent.splice(index, 1);
      else parent[index] = structuredClone(change.value);
    } else if (change.op === 'remove') {
      delete parent[last];
    } else {
      parent[last] = structuredClone(change.value);
    }
  }
  return root;
}

describe('diffData', () => {
  it('reports replaced, added and removed fields', () => {
    expect(
      diffData(
        { name: 'Kettle', price: 19.99, colour: 'blue', specs: { litres: 1.7 } },
        { name: 'Kettle', price: 17.49, specs: { litres: 1.7, watts: 2200 }, badge: 'Sale' },
      ),
    ).toEqual([
      { op: 'replace', path: '/price', from: 19.99, value: 17.49 },
      { op: 'remove', path: '/colour', from: 'blue' },
      { op: 'add', path: '/specs/watts', value: 2200 },
      { op: 'add', path: '/badge', value: 'Sale' },
    ]);
  });

  it('escapes keys as JSON Pointer tokens', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c');
    expect(diffData({ 'a/b': 1, 'm~n': 1 }, { 'a/b': 2, 'm~n': 2 }).map((c) => c.path)).toEqual(['/a~1b', '/m~0n']);
  });

  it('replaces a value whose type changed, and treats null as a value', () => {
    expect(diffData({ a: 1, b: null, c: [1] }, { a: '1', b: 0, c: { 0: 1 } })).toEqual([
      { op: 'replace', path: '/a', from: 1, value: '1' },
      { op: 'replace', path: '/b', from: null, value: 0 },
      { op: 'replace', path: '/c', from: [1], value: { 0: 1 } },
    ]);
  });

  it('compares arrays of plain values by index, in an order that applies as a patch', () => {
    const before = { tags: ['a', 'b', 'c', 'd'] };
    const shorter = { tags: ['a', 'x'] };
    const changes = diffData(before, shorter);
    expect(changes).toEqual([
      { op: 'replace', path: '/tags/1', from: 'b', value: 'x' },
      { op: 'remove', path: '/tags/3', from: 'd' },
      { op: 'remove', path: '/tags/2', from: 'c' },
    ]);
    expect(apply(before, changes)).toEqual(shorter);
    const longer = { tags: ['a', 'b', 'c', 'd', 'e', 'f'] };
    expect(apply(before, diffData(before, longer))).toEqual(longer);
  });

  it('matches objects with an id-like key wherever they moved, and ignores reordering', () => {
    const before = {
      products: [
        { sku: 'A', price: 10 },
        { sku: 'B', price: 20 },
        { sku: 'C', price: 30 },
      ],
    };
    const after = {
      products: [
        { sku: 'D', price: 40 },
        { sku: 'C', price: 30 },
        { sku: 'A', price: 9 },
      ],
    };
    expect(diffData(before, after)).toEqual([
      { op: 'remove', path: '/products/1', from: { sku: 'B', price: 20 } },
      { op: 'add', path: '/products/0', value: { sku: 'D', price: 40 } },
      { op: 'replace', path: '/products/2/price', from: 10, value: 9 },
    ]);
    expect(diffData(before, { products: [...before.products].reverse() })).toEqual([]);
  });

  it('falls back to indexes when ids repeat or some item lacks the key', () => {
    const repeated = diffData(
      [
        { id: 1, v: 'a' },
        { id: 1, v: 'b' },
      ],
      [
        { id: 1, v: 'b' },
        { id: 1, v: 'a' },
      ],
    );
    expect(repeated.map((c) => c.path)).toEqual(['/0/v', '/1/v']);
    const missing = diffData([{ id: 1 }, { name: 'x' }], [{ name: 'x' }, { id: 1 }]);
    expect(missing.map((c) => c.op)).toEqual(['remove', 'add', 'remove', 'add']);
  });

  it('keeps 1 and "1" apart as ids', () => {
    expect(diffData([{ id: 1 }], [{ id: '1' }]).map((c) => c.op)).toEqual(['remove', 'add']);
  });

  it('reports nothing for equal documents and a whole-document change at the root', () => {
    expect(diffData({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
    expect(diffData('x', 'y')).toEqual([{ op: 'replace', path: '', from: 'x', value: 'y' }]);
    expect(diffData(undefined, { a: 1 })).toEqual([{ op: 'add', path: '', value: { a: 1 } }]);
  });

  it('handles deep documents without overflowing', () => {
    let before: unknown = 1;
    let after: unknown = 2;
    for (let i = 0; i < 200; i++) {
      before = { n: before };
      after = { n: after };
    }
    const [change] = diffData(before, after);
    expect(change?.op).toBe('replace');
    expect(change?.path.split('/')).toHaveLength(65);
  });
});
