import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import {
  availabilityFromText,
  availabilityFromValue,
  captureSnapshot,
  compareProductStates,
  formatPrice,
  parseAmount,
  parsePriceText,
  readStructuredProduct,
  resolveDetectionOptions,
  type ProductState,
} from '../../../src/domain/monitors/detection/index.js';

const doc = (html: string): Document => parseHTML(html).document as unknown as Document;
const product = (html: string) =>
  captureSnapshot({ url: 'https://shop.example/p', html }, resolveDetectionOptions({})).product;
const jsonLd = (data: unknown): string => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe('prices', () => {
  it.each([
    ['19.99', '19.99'],
    ['19,99', '19.99'],
    ['1,234.56', '1234.56'],
    ['1.234,56', '1234.56'],
    ['1 234,56', '1234.56'],
    ["1'234.50", '1234.50'],
    ['1.299', '1299'],
    ['1,299', '1299'],
    ['1.234.567', '1234567'],
    ['007.50', '7.50'],
    ['12a', null],
  ])('parseAmount(%j) = %j', (raw, expected) => expect(parseAmount(raw)).toBe(expected));

  it.each([
    ['$19.99', '19.99', '$'],
    ['Now 19,99 €', '19.99', 'EUR'],
    ['EUR 1.299,00', '1299.00', 'EUR'],
    ['CHF 49.90', '49.90', 'CHF'],
    ['£17.49', '17.49', 'GBP'],
    ['¥1,980', '1980', 'JPY'],
    ['R$ 1.299,90', '1299.90', 'BRL'],
    ['24.99 USD', '24.99', 'USD'],
    ['1 299,00 kr', '1299.00', 'kr'],
  ])('parsePriceText(%j)', (text, amount, currency) => expect(parsePriceText(text)).toEqual({ amount, currency }));

  it('finds no price in text without a currency', () => {
    expect(parsePriceText('Model 2024, 3 left, 4.6 stars')).toBeNull();
  });

  it('formats prices for people', () => {
    expect(formatPrice({ amount: '17.49', currency: 'USD' })).toBe('$17.49');
    expect(formatPrice({ amount: '1299.00', currency: 'EUR' })).toBe('€1299.00');
    expect(formatPrice({ amount: '49.90', currency: 'CHF' })).toBe('CHF 49.90');
    expect(formatPrice({ amount: '5', currency: 'kr' })).toBe('kr5');
    expect(formatPrice({ amount: '19.99', high: '24.99', currency: 'USD' })).toBe('$19.99–$24.99');
    expect(formatPrice({ amount: '3', currency: null })).toBe('3');
  });
});

describe('availability', () => {
  it.each([
    ['https://schema.org/InStock', 'in_stock'],
    ['http://schema.org/OutOfStock', 'out_of_stock'],
    ['SoldOut', 'out_of_stock'],
    ['instock', 'in_stock'],
    ['out of stock', 'out_of_stock'],
    ['oos', 'out_of_stock'],
    ['https://schema.org/PreOrder', 'out_of_stock'],
    ['https://schema.org/LimitedAvailability', 'in_stock'],
    ['https://schema.org/MadeToOrder', null],
    [42, null],
  ])('availabilityFromValue(%j) = %s', (value, expected) => expect(availabilityFromValue(value)).toBe(expected));

  it.each([
    ['In stock', 'in_stock'],
    ['3 in stock', 'in_stock'],
    ['Add to cart', 'in_stock'],
    ['Sold out', 'out_of_stock'],
    ['Temporarily out of stock', 'out_of_stock'],
    ['Not in stock', 'out_of_stock'],
    ['Leider ausverkauft', 'out_of_stock'],
    ['Auf Lager', 'in_stock'],
    ['Rupture de stock', 'out_of_stock'],
    ['Agotado', 'out_of_stock'],
    ['Esaurito', 'out_of_stock'],
    ['Uitverkocht', 'out_of_stock'],
    ['Esgotado', 'out_of_stock'],
    ['品切れ', 'out_of_stock'],
    ['Coming soon', null],
    ['Free shipping on orders over $50', null],
  ])('availabilityFromText(%j)', (text, expected) => expect(availabilityFromText(text)?.status ?? null).toBe(expected));
});

describe('structured product data', () => {
  it('reads a JSON-LD product offer', () => {
    const html = jsonLd({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebPage', name: 'x' },
        {
          '@type': 'Product',
          name: 'Kettle',
          offers: { '@type': 'Offer', price: 19.99, priceCurrency: 'usd', availability: 'https://schema.org/InStock' },
        },
      ],
    });
    expect(readStructuredProduct(doc(html))).toEqual({
      price: { amount: '19.99', currency: 'USD', source: 'json-ld' },
      availability: { status: 'in_stock', source: 'json-ld', evidence: 'InStock' },
    });
  });

  it('gives variants a price range and calls the product in stock when any variant is', () => {
    const html = jsonLd({
      '@type': 'ProductGroup',
      name: 'Shirt',
      hasVariant: [
        {
          '@type': 'Product',
          name: 'Shirt S',
          offers: { price: '24.99', priceCurrency: 'EUR', availability: 'OutOfStock' },
        },
        {
          '@type': 'Product',
          name: 'Shirt M',
          offers: { price: '19.99', priceCurrency: 'EUR', availability: 'InStock' },
        },
      ],
    });
    const { price, availability } = readStructuredProduct(doc(html));
    expect(price).toEqual({ amount: '19.99', high: '24.99', currency: 'EUR', source: 'json-ld' });
    expect(availability?.status).toBe('in_stock');
  });

  it('reads AggregateOffer bounds and priceSpecification', () => {
    const agg = jsonLd({
      '@type': 'Product',
      name: 'TV',
      offers: { '@type': 'AggregateOffer', lowPrice: 399, highPrice: 499, priceCurrency: 'GBP' },
    });
    expect(readStructuredProduct(doc(agg)).price).toEqual({
      amount: '399',
      high: '499',
      currency: 'GBP',
      source: 'json-ld',
    });
    const spec = jsonLd({
      '@type': 'Product',
      name: 'TV',
      offers: { priceSpecification: { price: '449.00', priceCurrency: 'GBP' } },
    });
    expect(readStructuredProduct(doc(spec)).price?.amount).toBe('449.00');
  });

  it('refuses a listing of several products, as changedetection.io does', () => {
    const html = jsonLd([
      { '@type': 'Product', name: 'A', offers: { price: 10, priceCurrency: 'USD' } },
      { '@type': 'Product', name: 'B', offers: { price: 20, priceCurrency: 'USD' } },
    ]);
    expect(readStructuredProduct(doc(html))).toEqual({ price: null, availability: null });
  });

  it('survives malformed JSON-LD and falls back to microdata, then Open Graph', () => {
    const micro = `<script type="application/ld+json">{"@type": "Product",</script>
      <div itemscope itemtype="https://schema.org/Product"><span itemprop="price" content="1299.00">1.299,00 €</span>
      <meta itemprop="priceCurrency" content="EUR"><link itemprop="availability" href="https://schema.org/OutOfStock"></div>`;
    expect(readStructuredProduct(doc(micro))).toEqual({
      price: { amount: '1299.00', currency: 'EUR', source: 'microdata' },
      availability: { status: 'out_of_stock', source: 'microdata', evidence: 'OutOfStock' },
    });
    const og = `<meta property="product:price:amount" content="49.90"><meta property="product:price:currency" content="CHF">
      <meta property="product:availability" content="instock">`;
    expect(readStructuredProduct(doc(og))).toEqual({
      price: { amount: '49.90', currency: 'CHF', source: 'meta' },
      availability: { status: 'in_stock', source: 'meta', evidence: 'instock' },
    });
  });
});

describe('product state of a page', () => {
  it('reads the visible price, skipping struck-through prices and recommendations', () => {
    const html = `<div class="price-box"><del class="price">$24.99</del><span class="price">$19.99</span></div>
      <section class="related-products"><span class="price">$9.99</span> Sold out</section><button>Add to cart</button>`;
    expect(product(html)).toEqual({
      price: { amount: '19.99', currency: '$', source: 'text' },
      availability: { status: 'in_stock', source: 'text', evidence: 'add to cart' },
    });
  });

  it('gives no price when the page shows several different ones', () => {
    expect(product('<span class="price">$19.99</span><span class="price">$29.99</span>')?.price).toBeNull();
  });

  it('reads stock from visible text, ignoring disabled buttons', () => {
    const html = '<span class="price">$19.99</span><p>Sold out</p><button disabled>Add to cart</button>';
    expect(product(html)?.availability).toEqual({ status: 'out_of_stock', source: 'text', evidence: 'sold out' });
  });

  it('trusts a visible out-of-stock phrase over stale structured "in stock"', () => {
    const html = `${jsonLd({ '@type': 'Product', name: 'K', offers: { price: 5, priceCurrency: 'USD', availability: 'InStock' } })}
      <p class="stock">Currently unavailable</p>`;
    expect(product(html)?.availability).toEqual({
      status: 'out_of_stock',
      source: 'text',
      evidence: 'currently unavailable',
    });
  });

  it('infers in stock from a price and no out-of-stock sign; knows nothing without a price', () => {
    expect(product('<span class="price">$19.99</span>')?.availability).toEqual({
      status: 'in_stock',
      source: 'inferred',
      evidence: 'a price and no out-of-stock text',
    });
    expect(product('<p>Hello</p>')).toEqual({ price: null, availability: null });
  });
});

describe('compareProductStates', () => {
  const state = (
    amount: string | null,
    status: 'in_stock' | 'out_of_stock' | null,
    currency = 'USD',
  ): ProductState => ({
    price: amount === null ? null : { amount, currency, source: 'json-ld' },
    availability: status === null ? null : { status, source: 'json-ld', evidence: status },
  });
  const both = { price: true, restock: true };

  it('reports price moves with direction and percentage', () => {
    expect(compareProductStates(state('19.99', 'in_stock'), state('17.49', 'in_stock'), both)).toEqual([
      {
        field: 'price',
        from: state('19.99', null).price,
        to: state('17.49', null).price,
        direction: 'down',
        percent: -12.5,
      },
    ]);
    const [up] = compareProductStates(state('10', null), state('12.5', null), both);
    expect(up).toMatchObject({ direction: 'up', percent: 25 });
    const [currency] = compareProductStates(state('10', null), state('10', null, 'EUR'), both);
    expect(currency).toMatchObject({ direction: 'changed', percent: null });
  });

  it('reports back in stock and out of stock, never moves to or from unknown', () => {
    expect(compareProductStates(state('5', 'out_of_stock'), state('5', 'in_stock'), both)).toEqual([
      { field: 'availability', from: 'out_of_stock', to: 'in_stock', back_in_stock: true },
    ]);
    expect(compareProductStates(state('5', 'in_stock'), state('5', 'out_of_stock'), both)[0]).toMatchObject({
      back_in_stock: false,
    });
    expect(compareProductStates(state('5', 'in_stock'), state(null, null), both)).toEqual([]);
    expect(compareProductStates(state(null, null), state('5', 'in_stock'), both)).toEqual([]);
    expect(compareProductStates(null, state('5', 'in_stock'), both)).toEqual([]);
  });

  it('compares only what the processors are on for', () => {
    const before = state('10', 'out_of_stock');
    const after = state('8', 'in_stock');
    expect(compareProductStates(before, after, { price: false, restock: true }).map((c) => c.field)).toEqual([
      'availability',
    ]);
    expect(compareProductStates(before, after, { price: true, restock: false }).map((c) => c.field)).toEqual(['price']);
  });
});
