import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { compileGlob, compileUrlFilter, createUrlFilter, GlobSyntaxError } from '../../../src/url/glob.js';

function matches(pattern: string, url: string): boolean {
  return compileGlob(pattern).test(new URL(url));
}

describe('compileGlob: path patterns', () => {
  it('matches the path only, ignoring scheme, host, query and fragment', () => {
    expect(matches('/docs/intro', 'https://example.com/docs/intro?x=1#top')).toBe(true);
    expect(matches('/docs/intro', 'http://other.org/docs/intro')).toBe(true);
    expect(matches('/docs/intro', 'https://example.com/docs/intro/')).toBe(false);
    expect(matches('/docs/intro', 'https://example.com/api/docs/intro')).toBe(false);
  });

  it('lets * match within one segment only', () => {
    expect(matches('/blog/*', 'https://e.com/blog/post-1')).toBe(true);
    expect(matches('/blog/*', 'https://e.com/blog/')).toBe(true);
    expect(matches('/blog/*', 'https://e.com/blog/2024/post')).toBe(false);
    expect(matches('/blog/*.html', 'https://e.com/blog/a.html')).toBe(true);
    expect(matches('/blog/*.html', 'https://e.com/blog/x/a.html')).toBe(false);
    expect(matches('/*/edit', 'https://e.com/item/edit')).toBe(true);
    expect(matches('/*/edit', 'https://e.com/a/b/edit')).toBe(false);
  });

  it('lets ** cross segments, and /** match the bare parent too', () => {
    expect(matches('/blog/**', 'https://e.com/blog')).toBe(true);
    expect(matches('/blog/**', 'https://e.com/blog/')).toBe(true);
    expect(matches('/blog/**', 'https://e.com/blog/2024/05/post')).toBe(true);
    expect(matches('/blog/**', 'https://e.com/blogroll')).toBe(false);
    expect(matches('/**', 'https://e.com/')).toBe(true);
    expect(matches('/**', 'https://e.com/any/thing')).toBe(true);
  });

  it('lets /**/ match zero or more whole segments', () => {
    expect(matches('/docs/**/index.html', 'https://e.com/docs/index.html')).toBe(true);
    expect(matches('/docs/**/index.html', 'https://e.com/docs/a/b/index.html')).toBe(true);
    expect(matches('/docs/**/index.html', 'https://e.com/docs/aindex.html')).toBe(false);
    expect(matches('/**/*.pdf', 'https://e.com/a.pdf')).toBe(true);
    expect(matches('/**/*.pdf', 'https://e.com/files/2024/a.pdf')).toBe(true);
  });

  it('treats ** inside a segment as "anything"', () => {
    expect(matches('/a**z', 'https://e.com/a/b/c/z')).toBe(true);
    expect(matches('/v**/api', 'https://e.com/v2/beta/api')).toBe(true);
  });

  it('ignores the query unless the pattern has "?", where ? is a literal separator', () => {
    expect(matches('/search', 'https://e.com/search?q=cats')).toBe(true);
    expect(matches('/search?q=*', 'https://e.com/search?q=cats')).toBe(true);
    expect(matches('/search?q=*', 'https://e.com/search?page=2')).toBe(false);
    expect(matches('/search?*', 'https://e.com/search')).toBe(true);
    expect(matches('/search?', 'https://e.com/search')).toBe(true);
    expect(matches('/search?', 'https://e.com/search?q=1')).toBe(false);
    expect(matches('/p?id=1', 'https://e.com/px')).toBe(false);
    expect(matches('/**?lang=fr', 'https://e.com/a/b?lang=fr')).toBe(true);
    expect(matches('/blog/**?page=*', 'https://e.com/blog/x?page=2')).toBe(true);
  });

  it('is case-sensitive on the path and compares in percent-encoded form', () => {
    expect(matches('/Docs/**', 'https://e.com/docs/a')).toBe(false);
    expect(matches('/café/*', 'https://e.com/caf%C3%A9/menu')).toBe(true);
    expect(matches('/café/*', 'https://e.com/café/menu')).toBe(true);
    expect(matches('/a b', 'https://e.com/a%20b')).toBe(true);
    expect(matches('/caf%C3%A9', 'https://e.com/café')).toBe(true);
  });

  it('supports {a,b} alternatives, nested, with wildcards inside', () => {
    expect(matches('/{blog,news}/**', 'https://e.com/news/x')).toBe(true);
    expect(matches('/{blog,news}/**', 'https://e.com/shop/x')).toBe(false);
    expect(matches('/*.{png,jp{e,}g}', 'https://e.com/a.jpg')).toBe(true);
    expect(matches('/*.{png,jp{e,}g}', 'https://e.com/a.jpeg')).toBe(true);
    expect(matches('/*.{png,jp{e,}g}', 'https://e.com/a.gif')).toBe(false);
    expect(matches('/{docs/**,api}', 'https://e.com/docs/a/b')).toBe(true);
  });

  it('treats regex metacharacters and escaped wildcards literally', () => {
    expect(matches('/a+b(1).html', 'https://e.com/a+b(1).html')).toBe(true);
    expect(matches('/a+b(1).html', 'https://e.com/aab(1)xhtml')).toBe(false);
    expect(matches('/star\\*', 'https://e.com/star*')).toBe(true);
    expect(matches('/star\\*', 'https://e.com/starry')).toBe(false);
    expect(matches('/x\\{y\\}', 'https://e.com/x{y}')).toBe(true);
    expect(matches('/a,b', 'https://e.com/a,b')).toBe(true);
    expect(matches('/[id]', 'https://e.com/[id]')).toBe(true);
  });

  it('trims surrounding whitespace', () => {
    expect(compileGlob('  /docs/**  ').pattern).toBe('/docs/**');
    expect(matches(' /docs/** ', 'https://e.com/docs/x')).toBe(true);
  });
});

describe('compileGlob: whole-URL patterns', () => {
  it('matches scheme, host and path', () => {
    expect(matches('https://example.com/docs/**', 'https://example.com/docs/a/b')).toBe(true);
    expect(matches('https://example.com/docs/**', 'http://example.com/docs/a')).toBe(false);
    expect(matches('https://example.com/docs/**', 'https://example.org/docs/a')).toBe(false);
    expect(matches('http*://example.com/**', 'http://example.com/a')).toBe(true);
    expect(matches('*://example.com/**', 'https://example.com/a')).toBe(true);
  });

  it('lets * in the host stay within the host', () => {
    expect(matches('https://*.example.com/**', 'https://docs.example.com/a')).toBe(true);
    expect(matches('https://*.example.com/**', 'https://a.b.example.com/a')).toBe(true);
    expect(matches('https://*.example.com/**', 'https://example.com/a')).toBe(false);
    expect(matches('https://*.example.com/**', 'https://evil.com/x.example.com/a')).toBe(false);
  });

  it('compares scheme and host case-insensitively, path case-sensitively', () => {
    expect(matches('HTTPS://Example.COM/Docs/*', 'https://example.com/Docs/a')).toBe(true);
    expect(matches('HTTPS://Example.COM/Docs/*', 'https://example.com/docs/a')).toBe(false);
  });

  it('gives a host-only pattern the root path', () => {
    expect(matches('https://example.com', 'https://example.com/')).toBe(true);
    expect(matches('https://example.com', 'https://example.com/a')).toBe(false);
    expect(matches('https://example.com?q=*', 'https://example.com/?q=1')).toBe(true);
  });

  it('matches ports as written in the URL', () => {
    expect(matches('http://127.0.0.1:8080/**', 'http://127.0.0.1:8080/x')).toBe(true);
    expect(matches('http://127.0.0.1/**', 'http://127.0.0.1:8080/x')).toBe(false);
  });

  it('accepts patterns that start with ** (any scheme and host)', () => {
    expect(matches('**/*.pdf', 'https://e.com/files/a.pdf')).toBe(true);
    expect(matches('**/*.pdf', 'https://e.com/a.pdf')).toBe(true);
    expect(matches('**/*.pdf', 'https://e.com/a.pdf.html')).toBe(false);
    expect(matches('**/admin/**', 'https://e.com/x/admin/users')).toBe(true);
    expect(matches('**/admin/**', 'https://e.com/administrator')).toBe(false);
  });

  it('ignores the query unless asked', () => {
    expect(matches('https://e.com/*', 'https://e.com/a?next=/b/c')).toBe(true);
    expect(matches('https://e.com/a?next=**', 'https://e.com/a?next=/b/c')).toBe(true);
    expect(matches('https://e.com/a?next=*', 'https://e.com/a?next=/b/c')).toBe(false);
  });
});

describe('compileGlob: malformed patterns', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /empty/],
    ['   ', /empty/],
    ['docs/**', /must start with "\/"/],
    ['*.pdf', /must start with "\/"/],
    ['example.com/**', /must start with "\/"/],
    ['/a/***', /"\*\*\*" is not a wildcard/],
    ['/{a,b', /"\{" without a matching "\}"/],
    ['/a}', /"\}" without a matching "\{"/],
    ['/a\\', /lone "\\"/],
    ['/docs#intro', /fragments/],
    ['/\ud800', /cannot appear in a URL/],
  ];
  it.each(cases)('rejects %j', (pattern, reason) => {
    let caught: unknown;
    try {
      compileGlob(pattern);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(GlobSyntaxError);
    expect((caught as GlobSyntaxError).message).toMatch(reason);
    expect((caught as GlobSyntaxError).pattern).toBe(pattern.trim() === '' ? pattern : pattern.trim());
  });
});

describe('compileUrlFilter', () => {
  it('includes everything when there is no include pattern', () => {
    const filter = compileUrlFilter({});
    expect(filter.acceptsAll).toBe(true);
    expect(filter.test('https://e.com/anything')).toBe(true);
    expect(filter.explain('https://e.com/x')).toEqual({ keep: true, reason: 'no_include_patterns' });
  });

  it('keeps only included URLs, and exclusion wins over inclusion', () => {
    const filter = compileUrlFilter({ include: ['/docs/**', '/blog/*'], exclude: ['/docs/internal/**'] });
    expect(filter.acceptsAll).toBe(false);
    expect(filter.test('https://e.com/docs/a')).toBe(true);
    expect(filter.test('https://e.com/blog/a')).toBe(true);
    expect(filter.test('https://e.com/shop')).toBe(false);
    expect(filter.test('https://e.com/docs/internal/secret')).toBe(false);
    expect(filter.explain('https://e.com/docs/internal/secret')).toEqual({
      keep: false,
      reason: 'excluded',
      pattern: '/docs/internal/**',
    });
    expect(filter.explain('https://e.com/blog/a')).toEqual({ keep: true, reason: 'included', pattern: '/blog/*' });
    expect(filter.explain('https://e.com/shop')).toEqual({ keep: false, reason: 'not_included' });
  });

  it('applies excludes alone, keeping everything else', () => {
    const keep = createUrlFilter({ exclude: ['**/*.{pdf,zip}', 'https://ads.example.com/**'] });
    expect(keep('https://e.com/a.pdf')).toBe(false);
    expect(keep('https://e.com/b.zip')).toBe(false);
    expect(keep('https://ads.example.com/x')).toBe(false);
    expect(keep('https://e.com/page')).toBe(true);
  });

  it('accepts parsed URLs and drops strings that are not absolute URLs', () => {
    const filter = compileUrlFilter({ include: ['/a'] });
    expect(filter.test(new URL('https://e.com/a'))).toBe(true);
    expect(filter.test('/a')).toBe(false);
    expect(filter.explain('not a url')).toEqual({ keep: false, reason: 'invalid_url' });
  });

  it('rejects a malformed pattern with a validation error naming the field and index', () => {
    let caught: unknown;
    try {
      compileUrlFilter(
        { include: ['/ok/**'], exclude: ['/fine', 'bad/**'] },
        { include: 'links_on_page.include_links', exclude: 'links_on_page.exclude_links' },
      );
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    const err = caught as AppError;
    expect(err.status).toBe(400);
    expect(err.code).toBe('validation_error');
    expect(err.detail).toMatch(/^links_on_page\.exclude_links\[1\]: invalid URL pattern "bad\/\*\*": /);
    expect(err.metadata.field).toBe('links_on_page.exclude_links[1]');
  });

  it('uses generic field names by default', () => {
    expect(() => compileUrlFilter({ include: ['{'] })).toThrow(/^include\[0\]: invalid URL pattern/);
  });
});
