import { describe, expect, it } from 'vitest';
import {
  emailsInText,
  labelPairs,
  parseLenient,
  phonesInText,
  readJsonLd,
  readMicrodata,
  readTable,
} from '../../../src/extraction/index.js';
import { keyTerm, matchScore, requestedKey } from '../../../src/extraction/key-names.js';
import { parsePage } from '../../../src/pipeline/dom.js';

function doc(html: string) {
  return parsePage(html, 'https://example.com/dir/page');
}

describe('JSON-LD', () => {
  it('repairs what browsers forgive and reports what cannot be read, never throwing', () => {
    expect(parseLenient('<!-- {"a": 1,} -->')).toEqual({ a: 1 });
    expect(parseLenient('//<![CDATA[\n{"a": [1, 2,],}\n//]]>')).toEqual({ a: [1, 2] });
    expect(parseLenient('{"text": "line one\nline two\tend"}')).toEqual({ text: 'line one\nline two\tend' });
    expect(parseLenient('{"a": 1}\n{"b": 2}')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(parseLenient('{"a": 1};')).toEqual({ a: 1 });
    expect(parseLenient('{ not json')).toBeUndefined();
    expect(parseLenient('   ')).toBeUndefined();
    const { document } = doc(`<html><head>
      <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Article","author":{"@id":"#p"}},{"@type":"Person","@id":"#p","name":"Ann"}]}</script>
      <script type="Application/LD+JSON">[{"@type":"A"},{"@type":"B"}]</script>
      <script type="application/ld+json">{ broken</script>
      <script type="text/javascript">{"@type":"NotLinkedData"}</script></head></html>`);
    const result = readJsonLd(document);
    expect(result.items).toEqual([
      { '@type': 'Article', author: { '@type': 'Person', '@id': '#p', name: 'Ann' } },
      { '@type': 'Person', '@id': '#p', name: 'Ann' },
      { '@type': 'A' },
      { '@type': 'B' },
    ]);
    expect(result.errors).toEqual(['JSON-LD script 3 is not valid JSON']);
    expect(readJsonLd(document, { linkReferences: false }).items[0]).toEqual({
      '@type': 'Article',
      author: { '@id': '#p' },
    });
  });

  it('ends on reference cycles', () => {
    const { document } = doc(`<script type="application/ld+json">{"@graph":[
      {"@id":"#a","@type":"Thing","next":{"@id":"#b"}},{"@id":"#b","@type":"Thing","next":{"@id":"#a"}}]}</script>`);
    const [a] = readJsonLd(document).items;
    expect(a).toMatchObject({ '@id': '#a', next: { '@id': '#b', next: { '@id': '#a' } } });
  });
});

describe('microdata', () => {
  it('reads items into the JSON-LD shape: types, ids, nested items, repeated and multiple property names, attribute values', () => {
    const { document, baseUrl } = doc(`<div itemscope itemtype="https://schema.org/Product" itemid="urn:sku:1">
      <h1 itemprop="name">Boot</h1>
      <a itemprop="url" href="/p/boot">Boot</a><a itemprop="brand" href="/brands/np">Northpeak</a>
      <img itemprop="image" src="a.jpg"><img itemprop="image" src="b.jpg">
      <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
        <meta itemprop="price" content="189.00"><link itemprop="availability" href="https://schema.org/InStock">
        <time itemprop="validFrom" datetime="2025-01-01">New Year</time>
      </div>
      <span itemprop="description alternateName">Waterproof</span>
      <data itemprop="sku" value="NP-1">NP 1</data>
      <div itemscope itemtype="https://schema.org/Review"><span itemprop="author">Dan</span></div>
    </div>`);
    expect(readMicrodata(document, baseUrl)).toEqual([
      {
        '@type': 'Product',
        '@id': 'urn:sku:1',
        name: 'Boot',
        url: 'https://example.com/p/boot',
        brand: { name: 'Northpeak', url: 'https://example.com/brands/np' },
        image: ['https://example.com/dir/a.jpg', 'https://example.com/dir/b.jpg'],
        offers: {
          '@type': 'Offer',
          price: '189.00',
          availability: 'https://schema.org/InStock',
          validFrom: '2025-01-01',
        },
        description: 'Waterproof',
        alternateName: 'Waterproof',
        sku: 'NP-1',
      },
      { '@type': 'Review', author: 'Dan' },
    ]);
  });
});

describe('tables', () => {
  it('spreads colspan and rowspan, finds header rows, and names repeated or missing headers', () => {
    const { document } = doc(`<table><caption> Results </caption>
      <thead><tr><th rowspan="2">Team</th><th colspan="2">Score</th></tr><tr><th>Home</th><th>Away</th></tr></thead>
      <tbody><tr><td>Ajax</td><td>2</td><td>1</td></tr><tr><td>PSV</td><td colspan="2">n/a</td></tr></tbody></table>`);
    const table = readTable(document.querySelector('table') as Element);
    expect(table).toMatchObject({
      caption: 'Results',
      headers: ['Team', 'Score Home', 'Score Away'],
      rows: [
        { Team: 'Ajax', 'Score Home': '2', 'Score Away': '1' },
        { Team: 'PSV', 'Score Home': 'n/a', 'Score Away': 'n/a' },
      ],
      pairs: [],
    });
    const plain = readTable(
      doc('<table><tr><td>a</td><td>a</td><td>b</td></tr></table>').document.querySelector('table') as Element,
    );
    expect(plain?.headers).toEqual(['column_1', 'column_2', 'column_3']);
    const repeated = readTable(
      doc('<table><tr><th>x</th><th>x</th></tr><tr><td>1</td><td>2</td></tr></table>').document.querySelector(
        'table',
      ) as Element,
    );
    expect(repeated?.rows).toEqual([{ x: '1', x_2: '2' }]);
  });

  it('reads label/value tables as pairs and side-by-side tables as columns, icons as their label or ✓/✗', () => {
    const { document } =
      doc(`<table><tr><th>Weight</th><td>1.4 lb</td></tr><tr><th>Color</th><td>Brown</td></tr></table>
      <table><thead><tr><th></th><th>Free</th><th>Pro</th></tr></thead><tbody>
      <tr><th>Price</th><td>$0</td><td>$9</td></tr>
      <tr><th>SSO</th><td><span class="icon icon-cross"></span></td><td><i class="fa fa-check"></i></td></tr>
      <tr><th>API</th><td><img src="x.svg" alt="Not included"></td><td><span aria-label="Included">●</span></td></tr></tbody></table>`);
    const [kv, compare] = Array.from(document.querySelectorAll('table')).map((table) => readTable(table));
    expect(kv?.pairs).toEqual([
      ['Weight', '1.4 lb'],
      ['Color', 'Brown'],
    ]);
    expect(compare?.columns).toEqual([
      { heading: 'Free', Price: '$0', SSO: '✗', API: 'Not included' },
      { heading: 'Pro', Price: '$9', SSO: '✓', API: '●' },
    ]);
  });
});

describe('label: value text', () => {
  it('reads labels in prose, lists and markdown, and refuses clock times, URLs and sentences', () => {
    expect(
      labelPairs(
        [
          'Price: $29',
          '- **Salary:** €60,000',
          '* Bedrooms: 3',
          'Ort：Berlin',
          'Parking: free lot · Wheelchair accessible: yes',
          'Doors open at 10:30',
          'https://example.com',
          'He said: come in. She left: later',
          'Note:',
          'A very long label with far too many words in it: value',
        ].join('\n'),
      ),
    ).toEqual([
      ['Price', '$29'],
      ['Salary', '€60,000'],
      ['Bedrooms', '3'],
      ['Ort', 'Berlin'],
      ['Parking', 'free lot'],
      ['Wheelchair accessible', 'yes'],
      ['He said', 'come in. She left: later'],
    ]);
  });
});

describe('emails and phones in text', () => {
  it('finds plain and disguised addresses, not file names or prose', () => {
    expect(
      emailsInText(
        'Mail Sales@Example.com, jane [at] example [dot] org, bob(at)example(punkt)de, ADA AT EXAMPLE DOT IO. ' +
          'Logo: logo@2x.png. Meet at noon. dots: a..b@example.com',
      ),
    ).toEqual(['sales@example.com', 'jane@example.org', 'bob@example.de', 'ada@example.io']);
  });

  it('takes international numbers anywhere, national ones only after a phone label, faxes never', () => {
    expect(
      phonesInText(
        'Call +1 (555) 010-7788. Tel.: 030 1234567. Fax: +49 30 7654321. Order 2024-12-01, ref 555-0100, tel: (0)89 12',
      ),
    ).toEqual(['+1 (555) 010-7788', '030 1234567']);
  });
});

describe('key names', () => {
  it('normalises camelCase, snake_case, kebab-case, plurals and accents to one term', () => {
    expect(keyTerm('datePublished')).toBe('date published');
    expect(keyTerm('date_published')).toBe('date published');
    expect(keyTerm('Date-Published:')).toBe('date published');
    expect(keyTerm('openingHoursSpecification')).toBe('opening hour specification');
    expect(keyTerm('Öffnungszeiten')).toBe('offnungszeiten');
    expect(keyTerm('categories')).toBe('category');
    expect(keyTerm('address')).toBe('address');
    expect(keyTerm('og:image:URL')).toBe('og image url');
  });

  it('scores same names, synonyms, compounds with their context, name endings and description hints', () => {
    const field = (leaf: string, qualified = leaf, context: string[] = []) => ({
      leaf,
      qualified,
      context: new Set(context),
    });
    expect(matchScore(requestedKey('price'), field('price'))).toBe(100);
    expect(matchScore(requestedKey('price'), field('price', 'offer price'))).toBe(100);
    expect(matchScore(requestedKey('title'), field('headline'))).toBe(90);
    expect(
      matchScore(
        requestedKey('company_name'),
        field('name', 'hiring organization name', ['job', 'posting', 'hiring', 'organization']),
      ),
    ).toBe(80);
    expect(matchScore(requestedKey('original_price'), field('price'))).toBe(0);
    expect(matchScore(requestedKey('price'), field('unit price'))).toBe(65);
    expect(matchScore(requestedKey('description'), field('plan desc'))).toBe(65);
    expect(matchScore(requestedKey('prep_time_minutes'), field('prep time'))).toBe(90);
    expect(matchScore(requestedKey('x', 'number of reviews'), field('review count'))).toBe(40);
    expect(matchScore(requestedKey('x', 'the product name'), field('name'))).toBe(0);
  });
});
