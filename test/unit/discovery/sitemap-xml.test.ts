import { describe, expect, it } from 'vitest';
import { readXmlSitemap } from '../../../src/discovery/sitemap-xml.js';
import { decodeXmlEntities, scanXml, type XmlHandler } from '../../../src/discovery/xml-tokenizer.js';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const locs = (xml: string, max = 1_000_000) => readXmlSitemap(xml, max).entries.map((e) => e.loc);

describe('decodeXmlEntities', () => {
  it('decodes the five predefined entities and numeric references', () => {
    expect(decodeXmlEntities('a&amp;b&lt;c&gt;d&quot;e&apos;f')).toBe('a&b<c>d"e\'f');
    expect(decodeXmlEntities('&#65;&#x42;&#X43;&#233;&#x1F600;')).toBe('ABCé😀');
  });

  it('leaves unknown entities literal: nothing is ever expanded', () => {
    expect(decodeXmlEntities('&lol9;&xxe;&nbsp;&amp')).toBe('&lol9;&xxe;&nbsp;&amp');
  });

  it('replaces invalid code points instead of throwing', () => {
    expect(decodeXmlEntities('&#0;&#xD800;&#x110000;&#99999999999;')).toBe('\uFFFD\uFFFD\uFFFD&#99999999999;');
  });
});

describe('scanXml', () => {
  function tokens(xml: string): string[] {
    const out: string[] = [];
    const handler: XmlHandler = {
      open: (name, attrs, selfClosing) =>
        out.push(`<${name}${attrs.trim() === '' ? '' : ` ${attrs.trim()}`}${selfClosing ? '/' : ''}>`),
      close: (name) => out.push(`</${name}>`),
      text: (text) => out.push(JSON.stringify(text)),
      wantsText: () => true,
      shouldStop: () => false,
    };
    const { error } = scanXml(xml, handler);
    if (error !== null) out.push(`!${error}`);
    return out;
  }

  it('emits elements, attributes with ">" in quotes, self-closing tags, text and CDATA', () => {
    expect(tokens(`<?xml version="1.0"?><a x='1>2' y="q"><b/>t&amp;u<![CDATA[<raw&amp;>]]></a>`)).toEqual([
      `<a x='1>2' y="q">`,
      '<b/>',
      '</b>',
      '"t&u"',
      '"<raw&amp;>"',
      '</a>',
    ]);
  });

  it('skips comments, processing instructions and a DOCTYPE with an internal subset', () => {
    const xml = `<!DOCTYPE r [ <!ENTITY e "x>y"> <!-- ] > --> <!ELEMENT r ANY> ]><!-- <no> --><?pi <no>?><r>ok</r>`;
    expect(tokens(xml)).toEqual(['<r>', '"ok"', '</r>']);
  });

  it.each([
    ['<a><!-- never closed', 'unterminated comment'],
    ['<a><![CDATA[ never closed', 'unterminated CDATA section'],
    ['<!DOCTYPE a [ <!ENTITY x "y"> ', 'unterminated declaration'],
    ['<a><?pi never closed', 'unterminated processing instruction'],
    ['<a x="never closed>', 'unterminated start tag'],
    ['<a></a', 'unterminated end tag'],
  ])('reports %j as %s', (xml, error) => {
    expect(tokens(xml).at(-1)).toBe(`!${error}`);
  });

  it('recovers from a "<" that is not a tag', () => {
    expect(tokens('<a>1 < 2</a><b>ok</b>')).toEqual([
      '<a>',
      '"1 "',
      '" 2"',
      '</a>',
      '<b>',
      '"ok"',
      '</b>',
      '!stray "<" at offset 5',
    ]);
    expect(tokens('<a <b>ok</b>')).toEqual(['<b>', '"ok"', '</b>', '!"<" inside a tag at offset 0']);
  });
});

describe('readXmlSitemap', () => {
  it('reads a urlset with lastmod, whitespace and entities in loc', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
      <urlset ${NS}>
        <url><loc>
          https://a.example/x?a=1&amp;b=2
        </loc><lastmod>2024-05-01</lastmod><changefreq>daily</changefreq><priority>0.5</priority></url>
        <url><loc><![CDATA[https://a.example/y?a=1&b=2]]></loc></url>
        <url><lastmod>2024-01-01</lastmod></url>
      </urlset>`;
    expect(readXmlSitemap(xml, 100)).toEqual({
      kind: 'urlset',
      entries: [{ loc: 'https://a.example/x?a=1&b=2', lastmod: '2024-05-01' }, { loc: 'https://a.example/y?a=1&b=2' }],
      error: null,
      limited: false,
    });
  });

  it('reads a sitemap index', () => {
    const xml = `<sitemapindex ${NS}><sitemap><loc>https://a.example/s1.xml.gz</loc><lastmod>2024-01-02T03:04:05+00:00</lastmod></sitemap><sitemap><loc>/s2.xml</loc></sitemap></sitemapindex>`;
    const result = readXmlSitemap(xml, 100);
    expect(result.kind).toBe('sitemapindex');
    expect(result.entries).toEqual([
      { loc: 'https://a.example/s1.xml.gz', lastmod: '2024-01-02T03:04:05+00:00' },
      { loc: '/s2.xml' },
    ]);
  });

  it('ignores image, video, news and hreflang children: only <url><loc> is a page', () => {
    const xml = `<urlset ${NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
      <url><loc>https://a.example/page</loc>
        <image:image><image:loc>https://a.example/img.png</image:loc></image:image>
        <video:video><video:content_loc>https://a.example/v.mp4</video:content_loc><video:player_loc>https://a.example/p</video:player_loc></video:video>
        <xhtml:link rel="alternate" hreflang="de" href="https://a.example/de/page"/>
      </url></urlset>`;
    expect(locs(xml)).toEqual(['https://a.example/page']);
  });

  it('does not take an image loc for the page when the image comes first', () => {
    const xml = `<urlset xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><url><image:image><image:loc>https://a.example/img.png</image:loc></image:image><loc>https://a.example/page</loc></url></urlset>`;
    expect(locs(xml)).toEqual(['https://a.example/page']);
  });

  it('accepts a prefixed sitemap namespace and upper-case names', () => {
    expect(
      locs(
        `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://a.example/1</sm:loc></sm:url></sm:urlset>`,
      ),
    ).toEqual(['https://a.example/1']);
    expect(locs(`<URLSET><URL><LOC>https://a.example/2</LOC></URL></URLSET>`)).toEqual(['https://a.example/2']);
  });

  it('takes the first loc of an entry only', () => {
    expect(locs(`<urlset><url><loc>https://a.example/1</loc><loc>https://a.example/2</loc></url></urlset>`)).toEqual([
      'https://a.example/1',
    ]);
  });

  it('reads RSS 2.0, RSS 1.0 (RDF) and Atom feeds', () => {
    const rss = `<rss version="2.0"><channel><link>https://a.example/</link><item><title>T</title><link>https://a.example/post-1</link><pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate></item><item><link>https://a.example/post-2</link></item></channel></rss>`;
    expect(readXmlSitemap(rss, 10).entries).toEqual([
      { loc: 'https://a.example/post-1', lastmod: 'Tue, 02 Jan 2024 10:00:00 GMT' },
      { loc: 'https://a.example/post-2' },
    ]);
    const rdf = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><link>https://a.example/</link></channel><item><link>https://a.example/r1</link><dc:date>2024-03-01</dc:date></item></rdf:RDF>`;
    expect(readXmlSitemap(rdf, 10)).toMatchObject({
      kind: 'rss',
      entries: [{ loc: 'https://a.example/r1', lastmod: '2024-03-01' }],
    });
    const atom = `<feed xmlns="http://www.w3.org/2005/Atom"><link href="https://a.example/"/><entry><link rel="edit" href="https://a.example/edit/1"/><link href="https://a.example/e1" rel="alternate"/><updated>2024-02-01T00:00:00Z</updated></entry><entry><link href='https://a.example/e2?a=1&amp;b=2'/></entry></feed>`;
    expect(readXmlSitemap(atom, 10)).toMatchObject({
      kind: 'atom',
      entries: [
        { loc: 'https://a.example/e1', lastmod: '2024-02-01T00:00:00Z' },
        { loc: 'https://a.example/e2?a=1&b=2' },
      ],
    });
  });

  it('says "unknown" for documents that are not sitemaps', () => {
    expect(
      readXmlSitemap('<!doctype html><html><body><a href="https://a.example/">x</a></body></html>', 10),
    ).toMatchObject({
      kind: 'unknown',
      entries: [],
    });
  });

  it('stops at maxEntries and says so', () => {
    const xml = `<urlset>${Array.from({ length: 50 }, (_, i) => `<url><loc>https://a.example/${i}</loc></url>`).join('')}</urlset>`;
    const result = readXmlSitemap(xml, 7);
    expect(result.entries).toHaveLength(7);
    expect(result.limited).toBe(true);
    expect(result.error).toBeNull();
  });

  it('ignores a loc longer than 8,192 characters', () => {
    const long = `https://a.example/${'x'.repeat(9000)}`;
    expect(locs(`<urlset><url><loc>${long}</loc></url><url><loc>https://a.example/ok</loc></url></urlset>`)).toEqual([
      'https://a.example/ok',
    ]);
  });

  describe('malformed documents yield what could be read plus an error', () => {
    it('a document cut in the middle of an entry keeps complete entries only', () => {
      const result = readXmlSitemap(
        `<urlset><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url><url><loc>https://a.exa`,
        10,
      );
      expect(result.entries.map((e) => e.loc)).toEqual(['https://a.example/1', 'https://a.example/2']);
      expect(result.error).toBe('document ended before its root element closed');
    });

    it('a document cut after a complete loc still yields that entry', () => {
      const result = readXmlSitemap(`<urlset><url><loc>https://a.example/1</loc><lastmod>2024`, 10);
      expect(result.entries).toEqual([{ loc: 'https://a.example/1' }]);
      expect(result.error).toBe('document ended before its root element closed');
    });

    it('mismatched end tags close what they can (a loc closed implicitly still counts)', () => {
      const result = readXmlSitemap(
        `<urlset><url><loc>https://a.example/1</url><url><loc>https://a.example/2</loc></oops></url></urlset>`,
        10,
      );
      expect(result.entries.map((e) => e.loc)).toEqual(['https://a.example/1', 'https://a.example/2']);
      expect(result.error).toBe('</url> closes elements left open');
    });

    it('garbage between entries is skipped', () => {
      const result = readXmlSitemap(
        `<urlset><url><loc>https://a.example/1</loc></url> <<>> & <url><loc>https://a.example/2</loc></url></urlset>`,
        10,
      );
      expect(result.entries.map((e) => e.loc)).toEqual(['https://a.example/1', 'https://a.example/2']);
      expect(result.error).not.toBeNull();
    });

    it('binary junk does not crash', () => {
      const junk = Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 256)).toString('latin1');
      const result = readXmlSitemap(`<urlset>${junk}<url><loc>https://a.example/after</loc></url></urlset>`, 10);
      expect(result.kind).toBe('urlset');
    });

    it('100,000 levels of nesting cost nothing and do not overflow the stack', () => {
      const depth = 100_000;
      const xml = `<urlset>${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}<url><loc>https://a.example/deep</loc></url></urlset>`;
      const started = performance.now();
      expect(locs(xml)).toEqual(['https://a.example/deep']);
      expect(performance.now() - started).toBeLessThan(2000);
    });
  });

  describe('XML bombs', () => {
    it('billion laughs: entities are neither defined nor expanded', () => {
      const lol = [`<!ENTITY lol "lol">`];
      for (let i = 1; i <= 9; i++) lol.push(`<!ENTITY lol${i} "${`&lol${i - 1 === 0 ? '' : i - 1};`.repeat(10)}">`);
      const xml = `<?xml version="1.0"?><!DOCTYPE urlset [${lol.join('\n')}]><urlset><url><loc>https://a.example/&lol9;</loc></url><url><loc>https://a.example/ok</loc></url></urlset>`;
      const before = process.memoryUsage().heapUsed;
      const started = performance.now();
      const result = readXmlSitemap(xml, 10);
      expect(performance.now() - started).toBeLessThan(500);
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(20 * 1024 * 1024);
      expect(result.entries.map((e) => e.loc)).toEqual(['https://a.example/&lol9;', 'https://a.example/ok']);
      expect(result.error).toBeNull();
    });

    it('external entities (XXE) are never resolved', () => {
      const xml = `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY % p SYSTEM "http://127.0.0.1:1/evil.dtd"> %p;]><urlset><url><loc>&xxe;</loc></url></urlset>`;
      expect(locs(xml)).toEqual(['&xxe;']);
    });

    it('a quadratic-blowup DOCTYPE (one huge entity used many times) stays linear', () => {
      const big = 'x'.repeat(100_000);
      const xml = `<!DOCTYPE urlset [<!ENTITY a "${big}">]><urlset>${'<url><loc>&a;</loc></url>'.repeat(10_000)}</urlset>`;
      const started = performance.now();
      const result = readXmlSitemap(xml, 100_000);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(result.entries).toHaveLength(10_000);
      expect(result.entries[0]?.loc).toBe('&a;');
    });
  });
});
