import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { gunzipBounded, isGzip } from '../../../src/discovery/gzip.js';
import { parseSitemapDocument } from '../../../src/discovery/sitemap-document.js';
import { sitemapIndex, urlset } from './support/local-site.js';

const MiB = 1024 * 1024;
const base = { url: 'https://a.example/sitemap.xml', maxEntries: 100_000, maxBytes: 10 * MiB };

describe('gunzipBounded', () => {
  it('inflates a normal file', async () => {
    const result = await gunzipBounded(gzipSync(Buffer.from('hello')), 1024);
    expect(result).toEqual({ data: Buffer.from('hello'), truncated: false });
  });

  it('inflates concatenated gzip members', async () => {
    const two = Buffer.concat([gzipSync(Buffer.from('ab')), gzipSync(Buffer.from('cd'))]);
    expect((await gunzipBounded(two, 1024)).data.toString()).toBe('abcd');
  });

  it('stops a decompression bomb at the limit without holding the whole output', async () => {
    // 512 concatenated members of 1 MiB of zeros: ~0.5 MB on the wire, 512 MiB inflated.
    const member = gzipSync(Buffer.alloc(MiB), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 512 }, () => member));
    expect(bomb.length).toBeLessThan(MiB);
    const before = process.memoryUsage();
    const result = await gunzipBounded(bomb, 4 * MiB);
    expect(result.truncated).toBe(true);
    expect(result.data.length).toBe(4 * MiB);
    const grown = process.memoryUsage().arrayBuffers - before.arrayBuffers;
    expect(grown).toBeLessThan(64 * MiB);
  });

  it('keeps what inflated before corrupt bytes and reports the error', async () => {
    const good = gzipSync(Buffer.from('x'.repeat(100_000)));
    const corrupt = Buffer.concat([good.subarray(0, 200), Buffer.alloc(200, 0xff)]);
    const result = await gunzipBounded(corrupt, MiB);
    expect(result.error).toMatch(/\w/);
    expect(result.truncated).toBe(false);
    // What inflated before the corrupt bytes is kept: some of the x's, and nothing else.
    expect(result.data.length).toBeGreaterThan(0);
    expect(result.data.toString()).toMatch(/^x+$/);
  });

  it('yields the prefix of a cut-off stream', async () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join('\n');
    const gz = gzipSync(Buffer.from(text));
    const result = await gunzipBounded(gz.subarray(0, Math.floor(gz.length / 2)), 10 * MiB);
    expect(result.data.length).toBeGreaterThan(1000);
    expect(text.startsWith(result.data.toString())).toBe(true);
  });

  it('isGzip looks at the magic bytes only', () => {
    expect(isGzip(gzipSync(Buffer.from('a')))).toBe(true);
    expect(isGzip(Buffer.from('<urlset>'))).toBe(false);
    expect(isGzip(Buffer.from([0x1f]))).toBe(false);
  });
});

describe('parseSitemapDocument', () => {
  it('normalises and resolves page URLs, keeps parseable lastmod as ISO', async () => {
    const xml = `<urlset><url><loc>https://A.example:443/a/./b#x</loc><lastmod>2024-05-01</lastmod></url><url><loc>/relative?utm_source=x</loc><lastmod>yesterday</lastmod></url><url><loc>mailto:x@a.example</loc></url></urlset>`;
    const parsed = await parseSitemapDocument(Buffer.from(xml), base);
    expect(parsed).toEqual({
      kind: 'urlset',
      urls: [
        { url: 'https://a.example/a/b', lastmod: '2024-05-01T00:00:00.000Z' },
        { url: 'https://a.example/relative' },
      ],
      sitemaps: [],
      errors: [],
    });
  });

  it('returns child sitemaps of an index', async () => {
    const parsed = await parseSitemapDocument(
      Buffer.from(sitemapIndex(['https://a.example/s1.xml.gz', 's2.xml'])),
      base,
    );
    expect(parsed.kind).toBe('sitemapindex');
    expect(parsed.sitemaps.map((s) => s.url)).toEqual(['https://a.example/s1.xml.gz', 'https://a.example/s2.xml']);
    expect(parsed.urls).toEqual([]);
  });

  it('inflates gzip by magic bytes, whatever the name', async () => {
    const gz = gzipSync(Buffer.from(urlset(['https://a.example/1', 'https://a.example/2'])));
    const parsed = await parseSitemapDocument(gz, { ...base, url: 'https://a.example/sitemap.xml' });
    expect(parsed.urls.map((u) => u.url)).toEqual(['https://a.example/1', 'https://a.example/2']);
  });

  it('reads plain-text sitemaps, skipping lines that are not http(s) URLs', async () => {
    const text =
      '\uFEFFhttps://a.example/1\r\n\n  https://a.example/2#x  \n# comment\nftp://a.example/f\nnot a url\nhttp://a.example/3\n';
    const parsed = await parseSitemapDocument(Buffer.from(text), { ...base, url: 'https://a.example/sitemap.txt' });
    expect(parsed).toEqual({
      kind: 'text',
      urls: [{ url: 'https://a.example/1' }, { url: 'https://a.example/2' }, { url: 'http://a.example/3' }],
      sitemaps: [],
      errors: [],
    });
  });

  it('reports a text document without URLs as not a sitemap', async () => {
    const parsed = await parseSitemapDocument(Buffer.from('hello\nworld\n'), base);
    expect(parsed.errors).toEqual([{ url: base.url, code: 'not_a_sitemap', message: expect.stringContaining('URL') }]);
  });

  it('reports an HTML page as not a sitemap', async () => {
    const parsed = await parseSitemapDocument(Buffer.from('<!doctype html><html><body>Not found</body></html>'), base);
    expect(parsed.urls).toEqual([]);
    expect(parsed.errors.map((e) => e.code)).toEqual(['not_a_sitemap']);
  });

  it('reports malformed XML next to the URLs it could read', async () => {
    const parsed = await parseSitemapDocument(
      Buffer.from('<urlset><url><loc>https://a.example/1</loc></url><url><loc>https://a.example/2</loc></url></oops>'),
      base,
    );
    expect(parsed.urls.map((u) => u.url)).toEqual(['https://a.example/1', 'https://a.example/2']);
    expect(parsed.errors).toEqual([{ url: base.url, code: 'malformed', message: 'malformed XML: unexpected </oops>' }]);
  });

  it('decodes UTF-16 with a byte order mark and declared legacy encodings', async () => {
    const xml = urlset(['https://a.example/caf\u00e9']);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(xml, 'utf-16le')]);
    expect((await parseSitemapDocument(utf16, base)).urls).toEqual([{ url: 'https://a.example/caf%C3%A9' }]);
    const latin1 = iconv.encode(xml.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'), 'latin1');
    expect((await parseSitemapDocument(latin1, base)).urls).toEqual([{ url: 'https://a.example/caf%C3%A9' }]);
  });

  it('cuts an oversized plain document at maxBytes, keeping complete entries', async () => {
    const urls = Array.from({ length: 1000 }, (_, i) => `https://a.example/page-${i}`);
    const xml = Buffer.from(urlset(urls));
    const parsed = await parseSitemapDocument(xml, { ...base, maxBytes: Math.floor(xml.length / 2) });
    expect(parsed.urls.length).toBeGreaterThan(400);
    expect(parsed.urls.length).toBeLessThan(600);
    expect(parsed.urls.map((u) => u.url)).toEqual(urls.slice(0, parsed.urls.length));
    // The broken end is explained by the cut; it is not reported as malformed.
    expect(parsed.errors).toEqual([]);
  });

  it('drops a text line cut by the limit', async () => {
    const parsed = await parseSitemapDocument(Buffer.from('https://a.example/one\nhttps://a.example/two-is-long'), {
      ...base,
      maxBytes: 40, // cuts after "https://a.example/", itself a valid URL
    });
    expect(parsed.urls).toEqual([{ url: 'https://a.example/one' }]);
  });

  it('reports a gzip bomb as too large and keeps the URLs before the limit', async () => {
    const row = '<url><loc>https://a.example/p</loc></url>';
    // Concatenated gzip members inflate as one stream: ~82 MB of urlset from a small file.
    const member = gzipSync(Buffer.from(row.repeat(20_000)));
    const gz = Buffer.concat([gzipSync(Buffer.from('<urlset>')), ...Array.from({ length: 100 }, () => member)]);
    const parsed = await parseSitemapDocument(gz, { ...base, maxBytes: 2 * MiB });
    expect(parsed.errors).toEqual([
      { url: base.url, code: 'too_large', message: expect.stringContaining(`${2 * MiB} bytes`) },
    ]);
    expect(parsed.urls.length).toBeGreaterThan(40_000);
  });

  it('reports corrupt gzip as decompress_failed', async () => {
    const gz = gzipSync(Buffer.from(urlset(['https://a.example/1'])));
    gz.fill(0xaa, 12);
    const parsed = await parseSitemapDocument(gz, base);
    expect(parsed.errors.map((e) => e.code)).toEqual(['decompress_failed']);
  });

  it('respects maxEntries', async () => {
    const urls = Array.from({ length: 100 }, (_, i) => `https://a.example/${i}`);
    expect((await parseSitemapDocument(Buffer.from(urlset(urls)), { ...base, maxEntries: 10 })).urls).toHaveLength(10);
    expect((await parseSitemapDocument(Buffer.from(urls.join('\n')), { ...base, maxEntries: 10 })).urls).toHaveLength(
      10,
    );
  });
});
