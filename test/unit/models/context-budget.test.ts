import { describe, expect, it } from 'vitest';
import { fitToTokenBudget, pageTokenBudget, schemaQueryText } from '../../../src/models/context-budget.js';
import { estimateTokens } from '../../../src/text/token-estimate.js';

/** A long page: a title, many filler sections, and the one fact that matters near the end. */
function longPage(): string {
  const filler = Array.from(
    { length: 40 },
    (_, i) => `## Story ${i}\n\nThe blacksmith hammered iron all day long, story number ${i}, nothing to see here.`,
  );
  return [
    '# Acme Anvils',
    '',
    'Family forge since 1901.',
    '',
    ...filler,
    '## Pricing',
    '',
    'A standard anvil costs 120 euros.',
    '',
    ...filler.slice(0, 5),
  ].join('\n');
}

describe('fitToTokenBudget', () => {
  it('returns the text unchanged when it fits', () => {
    const fitted = fitToTokenBudget('# Title\n\nShort page.', { query: 'price', budgetTokens: 1000 });
    expect(fitted).toMatchObject({ text: '# Title\n\nShort page.', cut: false, omitted: 0 });
  });

  it('keeps the beginning and the passages that matter, in document order, within the budget', () => {
    const page = longPage();
    const budget = 200;
    const fitted = fitToTokenBudget(page, { query: 'price of an anvil in euros', budgetTokens: budget });
    expect(fitted.cut).toBe(true);
    expect(estimateTokens(fitted.text)).toBeLessThanOrEqual(budget);
    expect(fitted.text.startsWith('# Acme Anvils')).toBe(true);
    expect(fitted.text).toContain('A standard anvil costs 120 euros.');
    expect(fitted.text).toContain('[…]');
    expect(fitted.omitted).toBeGreaterThan(0);
    const order = fitted.kept.map((p) => p.index);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // Cutting the end blindly would have lost the price.
    expect(page.slice(0, budget * 4)).not.toContain('120 euros');
  });

  it('names the section of a passage shown away from its heading', () => {
    const page = `# Guide\n\n${'Intro words here. '.repeat(30)}\n\n## Fees\n\n${'Unrelated sentence about weather. '.repeat(40)}\n\nThe yearly fee is 30 dollars.`;
    const fitted = fitToTokenBudget(page, { query: 'yearly fee dollars', budgetTokens: 120, maxPassageChars: 200 });
    expect(fitted.text).toContain('(Guide › Fees)\nThe yearly fee is 30 dollars.');
  });

  it('cuts the first passage itself when nothing else fits', () => {
    const fitted = fitToTokenBudget(`${'word '.repeat(400)}`, {
      query: 'word',
      budgetTokens: 20,
      maxPassageChars: 5000,
    });
    expect(fitted.cut).toBe(true);
    expect(estimateTokens(fitted.text)).toBeLessThanOrEqual(20);
    expect(fitted.text.startsWith('word word')).toBe(true);
  });
});

describe('pageTokenBudget', () => {
  it('is the context minus the reply, the fixed prompt parts and the template allowance', () => {
    // 8192 − 1024 − (2 + 3) − 64
    expect(pageTokenBudget({ contextTokens: 8192, maxOutputTokens: 1024 }, ['abcdefgh', 'abcdefghijkl'])).toBe(7099);
    expect(pageTokenBudget({ contextTokens: 1024, maxOutputTokens: 1000 }, ['x'.repeat(400)])).toBe(0);
  });
});

describe('schemaQueryText', () => {
  it('collects property names, titles, descriptions and enum values, nested included', () => {
    const text = schemaQueryText({
      type: 'object',
      title: 'Product',
      properties: {
        unit_price: { type: 'number', description: 'in euros' },
        availability: { enum: ['in_stock', 'sold out', 3] },
        variants: { type: 'array', items: { type: 'object', properties: { colorName: { type: 'string' } } } },
        ref: { $ref: '#/$defs/seller' },
      },
      $defs: { seller: { type: 'object', properties: { shopName: { type: 'string' } } } },
    });
    expect(text).toBe('Product unit_price in euros availability in_stock sold out variants colorName ref shopName');
  });
});
