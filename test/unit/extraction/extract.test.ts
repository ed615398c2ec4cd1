import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  type ExtractionResult,
  extractFromFacts,
  extractFromHtml,
  extractFromPassages,
  formatExtractionWarning,
  readDocumentFacts,
  toResolvedSchema,
} from '../../../src/extraction/index.js';
import { parsePage } from '../../../src/pipeline/dom.js';

const URL_ = 'https://shop.example/p/widget';

function extract(html: string, shape: unknown, prompt?: string) {
  return extractFromHtml({ html, url: URL_ }, { schema: toResolvedSchema(shape, 'json_format'), prompt });
}

const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

describe('filling a schema from a page', () => {
  it('keeps the exact shape and never invents: unknown keys null, nested objects of nulls, empty arrays', () => {
    const result = extract(
      `<html><body>${ld({ '@type': 'Product', name: 'Widget', offers: { price: '9.50', priceCurrency: 'EUR' } })}</body></html>`,
      {
        name: '',
        price: 0,
        sku: '',
        weight: { value: 0, unit: '' },
        variants: [{ color: '', price: 0 }],
        tags: [''],
        in_stock: true,
      },
    );
    expect(result.data).toEqual({
      name: 'Widget',
      price: 9.5,
      sku: null,
      weight: { value: null, unit: null },
      variants: [],
      tags: [],
      in_stock: null,
    });
    expect(Object.keys(result.data as object)).toEqual([
      'name',
      'price',
      'sku',
      'weight',
      'variants',
      'tags',
      'in_stock',
    ]);
    expect(result.filled).toEqual(['name', 'price']);
    expect(result.empty).toEqual(['sku', 'weight.value', 'weight.unit', 'variants', 'tags', 'in_stock']);
    expect(result.provenance).toEqual({ name: 'json-ld:Product.name', price: 'json-ld:Product.offers.price' });
    expect(result.sources).toEqual([]);
  });

  it('reads the item the schema describes; other items answer only keys that are not generic', () => {
    const html = `<html><body>
      ${ld({ '@type': 'Organization', name: 'Acme Corp', telephone: '+1 555 0100', url: 'https://acme.example' })}
      ${ld({ '@type': 'Product', name: 'Widget', description: 'A widget', offers: { price: 5 } })}
      ${ld({ '@type': 'WebSite', name: 'Acme Shop', url: 'https://shop.example' })}</body></html>`;
    const result = extract(html, { name: '', description: '', price: 0, url: '', telephone: '' });
    expect(result.data).toEqual({
      name: 'Widget',
      description: 'A widget',
      price: 5,
      url: null,
      telephone: '+1 555 0100',
    });
    expect(result.provenance.telephone).toBe('json-ld:Organization.telephone');
    const site = extract(
      `<html><body>${ld({ '@type': 'WebSite', name: 'Acme Shop' })}<h1>Blue widget</h1></body></html>`,
      { name: '' },
    );
    expect(site.data).toEqual({ name: 'Blue widget' });
    expect(
      extract(`<html><body>${ld({ '@type': 'WebSite', name: 'Acme Shop' })}</body></html>`, { name: '' }, 'the website')
        .data,
    ).toEqual({
      name: 'Acme Shop',
    });
  });

  it('lets the prompt choose between items that answer the same keys', () => {
    const html = `<html><body>${ld({ '@type': 'VideoObject', name: 'How to fold dumplings', description: 'video' })}
      ${ld({ '@type': 'Recipe', name: 'Pork dumplings', description: 'recipe' })}</body></html>`;
    expect(extract(html, { name: '', description: '' }).data).toEqual({
      name: 'How to fold dumplings',
      description: 'video',
    });
    expect(extract(html, { name: '', description: '' }, 'Get the recipe').data).toEqual({
      name: 'Pork dumplings',
      description: 'recipe',
    });
  });

  it('fills a top-level array schema from the page list that fits it best', () => {
    const html = `<html><body><table><thead><tr><th>Product</th><th>Price</th></tr></thead>
      <tbody><tr><td>Tamper</td><td>49,90 €</td></tr><tr><td>Pitcher</td><td>24,90 €</td></tr></tbody></table></body></html>`;
    const result = extractFromHtml(
      { html: html.replace('<html>', '<html lang="de">'), url: URL_ },
      {
        schema: toResolvedSchema(
          {
            type: 'array',
            items: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
          },
          's',
        ),
      },
    );
    expect(result.data).toEqual([
      { name: 'Tamper', price: 49.9 },
      { name: 'Pitcher', price: 24.9 },
    ]);
    expect(result.provenance).toEqual({ '': 'table' });
  });

  it('takes the currency from the price sign when no field names it, and says so', () => {
    const result = extract('<html lang="de"><body><p>Preis: 1.299,00 €</p></body></html>', { price: 0, currency: '' });
    expect(result.data).toEqual({ price: 1299, currency: 'EUR' });
    expect(result.provenance.currency).toBe('label:Preis (currency sign)');
  });

  it('does not take a heading for the answer when the page answers nothing else', () => {
    const challenge = '<html><head><title>Just a moment...</title></head><body><h1>shop.example</h1></body></html>';
    expect(extract(challenge, { name: '', price: 0, sku: '' }).data).toEqual({ name: null, price: null, sku: null });
    expect(extract(challenge, { name: '', price: 0 }).data).toEqual({ name: 'shop.example', price: null });
    expect(
      extract(`${challenge.slice(0, -14)}<p>Price: $5</p></body></html>`, { name: '', price: 0, sku: '' }).data,
    ).toEqual({
      name: 'shop.example',
      price: 5,
      sku: null,
    });
  });

  it('reads a page the pipeline already parsed, without changing it', () => {
    const html = readFileSync(new URL('../../fixtures/extraction/job-posting.html', import.meta.url), 'utf8');
    const schema = toResolvedSchema({ job_title: '', company: '', responsibilities: [''] }, 'json_format');
    const page = parsePage(html, URL_);
    const before = page.document.toString();
    const result = extractFromFacts(readDocumentFacts(page), { schema });
    expect(result).toEqual(extractFromHtml({ html, url: URL_ }, { schema }));
    expect(result.filled).toEqual(['job_title', 'company', 'responsibilities']);
    expect(page.document.toString()).toBe(before);
  });

  it('reads nothing from scripts, styles or malformed structured data, and does not throw on broken pages', () => {
    const html = `<html><head><script>var price = "Price: $1";</script><style>.price:after{content:"Price: $2"}</style>
      <script type="application/ld+json">{"@type": "Product", "name": </script></head><body><div><p>nothing here</body>`;
    expect(extract(html, { price: 0, name: '' }).data).toEqual({ price: null, name: null });
    expect(() => extract('<<<>>>', { a: '' })).not.toThrow();
    expect(() => extract('', { a: [{ b: '' }] })).not.toThrow();
  });
});

describe('filling a schema from text passages (answers without a model)', () => {
  const passages = [
    {
      url: 'https://a.example/pricing',
      text: '# Pricing\n\n**Plan:** Pro\n- Price: $29 per month\n\n## Features\n- SSO\n- Audit log\n\n| Plan | Price |\n|---|---|\n| Basic | $9 |\n| Pro | $29 |',
    },
    { url: 'https://b.example/about', text: 'Price: $35\nFounded: 2012\nHeadquarters: Lisbon' },
  ];

  it('reads label lines, lists under headings and markdown tables; earlier passages win; sources list the pages used', () => {
    const result = extractFromPassages(passages, {
      schema: toResolvedSchema(
        { plan: '', price: 0, founded: 0, features: [''], plans: [{ plan: '', price: 0 }], ceo: '' },
        'json_format',
      ),
    });
    expect(result.data).toEqual({
      plan: 'Pro',
      price: 29,
      founded: 2012,
      features: ['SSO', 'Audit log'],
      plans: [
        { plan: 'Basic', price: 9 },
        { plan: 'Pro', price: 29 },
      ],
      ceo: null,
    });
    expect(result.provenance).toEqual({
      plan: 'label:Plan',
      price: 'label:Price',
      founded: 'label:Founded',
      features: 'list:Features',
      plans: 'table',
    });
    expect(result.sources).toEqual(['https://a.example/pricing', 'https://b.example/about']);
  });

  it('fills nothing from passages that say nothing about the keys', () => {
    const result = extractFromPassages([{ text: 'The weather was fine.' }], {
      schema: toResolvedSchema({ answer: '' }, 'json_format'),
    });
    expect(result).toEqual({ data: { answer: null }, provenance: {}, filled: [], empty: ['answer'], sources: [] });
  });
});

describe('the warning', () => {
  const result = (filled: string[], empty: string[], provenance: Record<string, string> = {}): ExtractionResult => ({
    data: {},
    provenance,
    filled,
    empty,
    sources: [],
  });

  it('says which keys came from which rule and which stayed empty', () => {
    expect(
      formatExtractionWarning(
        result(['title', 'price'], ['sku'], { title: 'json-ld:Product.name', price: 'label:Price' }),
      ),
    ).toBe(
      "json_content was filled without a model (no model is configured), by rules reading the page's structured data and labels: " +
        '2 of 3 keys found: title (json-ld:Product.name), price (label:Price). Not found on the page, left empty: sku.',
    );
    expect(formatExtractionWarning(result([], ['a', 'b']), 'the model provider failed')).toBe(
      "json_content was filled without a model (the model provider failed), by rules reading the page's structured data and labels: " +
        'none of the 2 requested keys was found on the page, all are empty: a, b.',
    );
    expect(formatExtractionWarning(result([], []))).toMatch(/the schema asks for no keys\.$/);
  });

  it('shortens long key lists', () => {
    const keys = Array.from({ length: 30 }, (_, i) => `k${i}`);
    expect(formatExtractionWarning(result([], keys))).toMatch(/k24 and 5 more\.$/);
  });
});
