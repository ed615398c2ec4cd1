import { describe, expect, it } from 'vitest';
import {
  summarizeChange,
  wordDiff,
  type LineChange,
  type ProductChange,
  type DataChange,
} from '../../../src/domain/monitors/detection/index.js';

const changed = (from: string, to: string): LineChange => ({ type: 'changed', from, to, words: wordDiff(from, to) });
const summary = (changes: LineChange[], product: ProductChange[] = [], data: DataChange[] = [], options = {}): string =>
  summarizeChange(
    {
      text: { added: 0, removed: 0, changed: 0, changes, unified_diff: '' },
      product_changes: product,
      data_changes: data,
    },
    options,
  );

const price = (amount: string) => ({ amount, currency: 'USD', source: 'json-ld' as const });

describe('summarizeChange', () => {
  it('says price, stock, data and lines, most telling first', () => {
    expect(
      summary(
        [
          changed('Price: $19.99', 'Price: $17.49'),
          { type: 'added', text: 'Free shipping' },
          { type: 'added', text: 'New colour: red' },
          { type: 'removed', text: 'Pre-order now' },
        ],
        [
          { field: 'price', from: price('19.99'), to: price('17.49'), direction: 'down', percent: -12.5 },
          { field: 'availability', from: 'out_of_stock', to: 'in_stock', back_in_stock: true },
        ],
        [{ op: 'replace', path: '/rating', from: 4.5, value: 4.6 }],
      ),
    ).toBe(
      'Price dropped from $19.99 to $17.49 (−12.5%). Back in stock. Data: rating changed from 4.5 to 4.6. ' +
        '2 lines added: ‘Free shipping’, ‘New colour: red’. 1 line removed: ‘Pre-order now’.',
    );
  });

  it('words rises, currency changes and stock loss', () => {
    expect(
      summary(
        [],
        [
          { field: 'price', from: price('10'), to: price('12.5'), direction: 'up', percent: 25 },
          { field: 'availability', from: 'in_stock', to: 'out_of_stock', back_in_stock: false },
        ],
      ),
    ).toBe('Price rose from $10 to $12.5 (+25%). Now out of stock.');
    expect(
      summary(
        [],
        [
          {
            field: 'price',
            from: price('10'),
            to: { ...price('10'), currency: 'EUR' },
            direction: 'changed',
            percent: null,
          },
        ],
      ),
    ).toBe('Price changed from $10 to €10.');
  });

  it('keeps a changed line that says more than the price', () => {
    const text = summary(
      [changed('Price: $19.99 (members only)', 'Price: $17.49 for everyone')],
      [{ field: 'price', from: price('19.99'), to: price('17.49'), direction: 'down', percent: -12.5 }],
    );
    expect(text).toContain('1 line changed: ‘Price: $19.99 (members only)’ → ‘Price: $17.49 for everyone’.');
  });

  it('lists a few examples and counts the rest', () => {
    const added: LineChange[] = ['a', 'b', 'c', 'd', 'e'].map((text) => ({ type: 'added', text }));
    expect(summary(added)).toBe('5 lines added: ‘a’, ‘b’, ‘c’ and 2 more.');
    expect(summary(added, [], [], { max_examples: 1 })).toBe('5 lines added: ‘a’ and 4 more.');
  });

  it('cuts long quotes, and quotes a long changed line from where it changed', () => {
    const long = 'x'.repeat(200);
    expect(summary([{ type: 'removed', text: long }])).toBe(`1 line removed: ‘${'x'.repeat(79)}…’.`);
    const base = `${'Widget Studio for macOS '.repeat(4)}<https://w.test/files/widget-studio-`;
    const text = summary([changed(`${base}2.4.1.dmg>`, `${base}2.4.2.dmg>`)]);
    expect(text).toContain('2.4.1.dmg>’ → ‘…');
    expect(text).toContain('2.4.2.dmg>’.');
  });

  it('stays within max_length, ending on a whole sentence', () => {
    const changes: LineChange[] = Array.from({ length: 30 }, (_, i) => ({
      type: i % 2 ? 'added' : 'removed',
      text: `A rather long line of text number ${i} that keeps going for a while`,
    }));
    const text = summary(
      changes,
      [{ field: 'availability', from: 'out_of_stock', to: 'in_stock', back_in_stock: true }],
      [],
      {
        max_length: 120,
      },
    );
    expect(text.length).toBeLessThanOrEqual(120);
    expect(text.startsWith('Back in stock.')).toBe(true);
    expect(text.endsWith(' …')).toBe(true);
    expect(summary([{ type: 'added', text: 'y'.repeat(500) }], [], [], { max_length: 100 }).length).toBeLessThanOrEqual(
      100,
    );
  });

  it('names data paths and shortens values', () => {
    expect(
      summary(
        [],
        [],
        [
          { op: 'add', path: '/products/2', value: { sku: 'D', name: 'A very long product name that goes on and on' } },
          { op: 'remove', path: '/a~1b', from: 'gone' },
          { op: 'replace', path: '', from: 1, value: 2 },
        ],
      ),
    ).toBe(
      'Data: products.2 added ({"sku":"D","name":"A very long product…); a/b removed (was gone); the data changed from 1 to 2.',
    );
  });

  it('is deterministic', () => {
    const input: LineChange[] = [changed('API Operational', 'API Partial Outage'), { type: 'added', text: 'Incident' }];
    expect(summary(input)).toBe(summary(input));
  });
});
