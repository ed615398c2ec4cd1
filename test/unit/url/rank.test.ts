import { describe, expect, it } from 'vitest';
import { rankByQuery, tokenize, urlTokens } from '../../../src/url/rank.js';

const urls = (ranked: { item: { url: string } }[]) => ranked.map((r) => r.item.url);

describe('tokenize', () => {
  it.each([
    [
      'splits on punctuation and lower-cases',
      'Hello, World! foo_bar-baz.qux/quux',
      ['hello', 'world', 'foo', 'bar', 'baz', 'qux', 'quux'],
    ],
    [
      'splits camelCase and acronyms',
      'getStarted HTMLParser parseHTTPResponse',
      ['get', 'started', 'html', 'parser', 'parse', 'http', 'response'],
    ],
    ['splits letters from digits', 'v2 a1b2 2024report', ['v', '2', 'a', '1', 'b', '2', '2024', 'report']],
    ['folds Latin diacritics', 'Café Ünïcödé naïve', ['cafe', 'unicode', 'naive']],
    ['keeps Cyrillic and Greek words (folded)', 'Привет Ёлка Ἀθῆναι', ['привет', 'елка', 'αθηναι']],
    ['splits Han and Kana into characters', '東京タワー', ['東', '京', 'タ', 'ワ', 'ー']],
    ['separates Han from Latin in a mixed run', '東京tower', ['東', '京', 'tower']],
    ['keeps Hangul words whole', '서울 여행', ['서울', '여행']],
    ['keeps Arabic words', 'مرحبا بالعالم', ['مرحبا', 'بالعالم']],
    ['normalises compatibility forms (NFKC)', 'ｆｕｌｌｗｉｄｔｈ ﬁle', ['fullwidth', 'file']],
    [
      'folds plurals lightly',
      'pages policies classes boxes matches status news bus',
      ['page', 'policy', 'class', 'box', 'match', 'status', 'new', 'bus'],
    ],
    ['returns nothing for symbols only', '— / ... !!!', []],
  ])('%s', (_name, text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });
});

describe('tokenize: the ASCII fast path and the Unicode path agree', () => {
  it('on 5,000 random ASCII strings', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = 'aAbBzZ09-_./ ?&=%HTMLxmlParser';
    for (let i = 0; i < 5000; i++) {
      const text = Array.from({ length: random(24) }, () => alphabet[random(alphabet.length)]).join('');
      // A no-break space is non-ASCII (forcing the Unicode path) and a separator in both.
      expect(tokenize(`${text}\u00a0`), JSON.stringify(text)).toEqual(tokenize(text));
    }
  });
});

describe('urlTokens', () => {
  it('takes host labels without www, path segments without extensions, decoded query', () => {
    expect(urlTokens('https://www.docs.example.com/Guides/getting-started.html?lang=en&q=hello+world')).toEqual([
      'doc',
      'example',
      'com',
      'guide',
      'getting',
      'started',
      'lang',
      'en',
      'q',
      'hello',
      'world',
    ]);
  });

  it('decodes percent-encoded non-ASCII paths', () => {
    expect(urlTokens('https://a.example/%E6%9D%B1%E4%BA%AC/caf%C3%A9')).toEqual(['a', 'example', '東', '京', 'cafe']);
  });

  it('survives malformed escapes and non-URLs', () => {
    expect(urlTokens('https://a.example/100%-sure')).toEqual(['a', 'example', '100', 'sure']);
    expect(urlTokens('not a url')).toEqual(['not', 'a', 'url']);
  });
});

describe('rankByQuery', () => {
  const site = [
    { url: 'https://a.example/' },
    { url: 'https://a.example/blog/how-we-price-things' },
    { url: 'https://a.example/pricing', text: 'Plans and pricing' },
    { url: 'https://a.example/docs/getting-started' },
    { url: 'https://a.example/docs/api/authentication' },
    { url: 'https://a.example/about' },
  ];

  it('puts the most relevant first and keeps every item by default', () => {
    const ranked = rankByQuery(site, 'pricing');
    expect(urls(ranked)[0]).toBe('https://a.example/pricing');
    expect(ranked).toHaveLength(site.length);
    expect(ranked[0]?.score).toBeGreaterThan(0);
  });

  it('keeps input order for items that do not match', () => {
    const ranked = rankByQuery(site, 'authentication');
    expect(urls(ranked)).toEqual([
      'https://a.example/docs/api/authentication',
      'https://a.example/',
      'https://a.example/blog/how-we-price-things',
      'https://a.example/pricing',
      'https://a.example/docs/getting-started',
      'https://a.example/about',
    ]);
    expect(ranked.slice(1).every((r) => r.score === 0)).toBe(true);
  });

  it('is stable for ties: equal scores keep input order', () => {
    const items = ['c', 'a', 'b'].map((x) => ({ url: `https://a.example/${x}/guide` }));
    expect(rankByQuery(items, 'guide').map((r) => r.index)).toEqual([0, 1, 2]);
  });

  it('cuts at topN and can drop non-matches', () => {
    expect(urls(rankByQuery(site, 'docs', 1))).toEqual(['https://a.example/docs/getting-started']);
    expect(rankByQuery(site, 'docs', 0)).toEqual([]);
    expect(urls(rankByQuery(site, 'docs', undefined, { onlyMatches: true }))).toEqual([
      'https://a.example/docs/getting-started',
      'https://a.example/docs/api/authentication',
    ]);
    expect(rankByQuery(site, 'docs', 2.9)).toHaveLength(2);
    expect(rankByQuery(site, 'docs', -1)).toEqual([]);
  });

  it('returns input order with score 0 for a query without words', () => {
    expect(rankByQuery(site, ' — ? ').map((r) => [r.index, r.score])).toEqual(site.map((_s, i) => [i, 0]));
  });

  it('uses anchor text and titles', () => {
    const items = [
      { url: 'https://a.example/p/1', text: 'Refund policy' },
      { url: 'https://a.example/p/2', text: 'Careers' },
    ];
    expect(urls(rankByQuery(items, 'refunds', 1))).toEqual(['https://a.example/p/1']);
  });

  it('weighs rare words above common ones (IDF)', () => {
    const items = [
      { url: 'https://a.example/docs/intro' },
      { url: 'https://a.example/docs/install' },
      { url: 'https://a.example/docs/kubernetes' },
      { url: 'https://a.example/docs/install/kubernetes' },
      { url: 'https://a.example/blog/docs-news' },
    ];
    // "docs" is everywhere, "kubernetes" in two: the page with both and the shorter one lead.
    expect(urls(rankByQuery(items, 'docs kubernetes', 2))).toEqual([
      'https://a.example/docs/kubernetes',
      'https://a.example/docs/install/kubernetes',
    ]);
  });

  it('lets one rare word beat many occurrences of a common one', () => {
    const items = [
      ...['a', 'b', 'c', 'd', 'e'].map((x) => ({ url: `https://a.example/docs/${x}` })),
      { url: 'https://a.example/docs/docs/docs' },
      { url: 'https://a.example/kubernetes' },
    ];
    expect(urls(rankByQuery(items, 'docs kubernetes', 1))).toEqual(['https://a.example/kubernetes']);
  });

  it('prefers shorter documents for the same term frequency (length normalisation)', () => {
    const items = [
      { url: 'https://a.example/archive/2019/05/misc/notes/webhooks-and-other-things' },
      { url: 'https://a.example/webhooks' },
    ];
    expect(rankByQuery(items, 'webhooks')[0]?.index).toBe(1);
  });

  it('counts a repeated term more, with saturation', () => {
    const once = { url: 'https://a.example/api/x/y', text: 'a b' };
    const twice = { url: 'https://a.example/api/x/api', text: 'a b' };
    const [first, second] = rankByQuery([once, twice], 'api');
    expect(first?.item).toBe(twice);
    expect((first?.score ?? 0) / (second?.score ?? 1)).toBeLessThan(2);
  });

  it('matches prefixes at half weight (install → installation)', () => {
    const items = [
      { url: 'https://a.example/installation' },
      { url: 'https://a.example/install' },
      { url: 'https://a.example/other' },
    ];
    const ranked = rankByQuery(items, 'install');
    expect(urls(ranked).slice(0, 2)).toEqual(['https://a.example/install', 'https://a.example/installation']);
    expect(ranked[1]?.score).toBeGreaterThan(0);
    expect(ranked[2]?.score).toBe(0);
  });

  it('matches across case, accents, camelCase and percent-encoding', () => {
    const items = [
      { url: 'https://a.example/menu/caf%C3%A9-au-lait' },
      { url: 'https://a.example/gettingStarted' },
      { url: 'https://a.example/%E6%9D%B1%E4%BA%AC/guide' },
    ];
    expect(rankByQuery(items, 'CAFE', 1)[0]?.index).toBe(0);
    expect(rankByQuery(items, 'getting started', 1)[0]?.index).toBe(1);
    expect(rankByQuery(items, '東京', 1)[0]?.index).toBe(2);
  });

  // Timing is reported (bench numbers live in docs/discovery.md), not asserted.
  it('ranks 100,000 URLs', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => ({
      url: `https://shop.example/catalog/category-${i % 97}/product-${i}-${i % 13 === 0 ? 'wireless-headphones' : 'garden-chair'}`,
      text: i % 7 === 0 ? 'Wireless audio' : undefined,
    }));
    const started = performance.now();
    const ranked = rankByQuery(items, 'wireless headphones', 100);
    const elapsed = performance.now() - started;
    console.log(`[rank perf] 100,000 URLs ranked in ${elapsed.toFixed(0)} ms`);
    expect(ranked).toHaveLength(100);
    expect(ranked.every((r) => r.item.url.includes('wireless-headphones'))).toBe(true);
  });
});
