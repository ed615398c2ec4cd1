import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { createContentPipeline } from '../../../src/pipeline/index.js';
import type { LinksOnPageOptions } from '../../../src/pipeline/index.js';
import { rankLinks, scoreLinks, tokenize } from '../../../src/pipeline/link-ranking.js';
import { thrownBy } from '../../support/thrown.js';

const pipeline = createContentPipeline();

const PAGE = `<!doctype html><html><head><base href="/docs/"></head><body>
<nav><a href="/">Home</a> <a href="/pricing">Pricing plans</a> <a href="/blog/">Blog</a></nav>
<main>
  <a href="getting-started">Getting started</a>
  <a href="api/authentication?v=2">Authentication</a>
  <a href="#install">Install (in-page)</a>
  <a href="https://other.example/guide.pdf">Printable guide (PDF)</a>
  <a href="mailto:help@example.com">Email us</a>
  <a href="javascript:void(0)">Menu</a>
  <a href="tel:+1555">Call</a>
  <a href="getting-started">Start here</a>
  <a href="/pricing"><img src="/p.png" alt="Enterprise pricing"></a>
  <map><area href="/map/north" alt="North"></map>
  <a href="  ">blank</a>
</main></body></html>`;

function links(options: LinksOnPageOptions): string[] {
  const result = pipeline.process(
    { text: PAGE, url: 'https://example.com/docs/index.html', contentType: 'text/html' },
    { formats: [], linksOnPage: options },
  );
  return result.links ?? [];
}

describe('links_on_page', () => {
  it('lists http(s) links of the whole page once each, absolute, in page order', () => {
    expect(links({})).toEqual([
      'https://example.com/',
      'https://example.com/pricing',
      'https://example.com/blog/',
      'https://example.com/docs/getting-started',
      'https://example.com/docs/api/authentication?v=2',
      'https://other.example/guide.pdf',
      'https://example.com/map/north',
    ]);
  });

  it('returns links as written when absolute_links is false', () => {
    expect(links({ absoluteLinks: false })).toEqual([
      '/',
      '/pricing',
      '/blog/',
      'getting-started',
      'api/authentication?v=2',
      'https://other.example/guide.pdf',
      '/map/north',
    ]);
  });

  it('filters with include/exclude globs on the absolute URL, exclusion winning', () => {
    expect(links({ includeLinks: ['/docs/**'] })).toEqual([
      'https://example.com/docs/getting-started',
      'https://example.com/docs/api/authentication?v=2',
    ]);
    expect(links({ includeLinks: ['/docs/**'], excludeLinks: ['/docs/api/**'] })).toEqual([
      'https://example.com/docs/getting-started',
    ]);
    expect(links({ excludeLinks: ['**/*.pdf', 'https://example.com/'] })).toHaveLength(5);
    expect(links({ absoluteLinks: false, includeLinks: ['https://other.example/**'] })).toEqual([
      'https://other.example/guide.pdf',
    ]);
  });

  it('orders by relevance to the query using URL words and every anchor text, ties in page order', () => {
    const ordered = links({ queryToOrderLinksBy: 'pricing' });
    expect(ordered[0]).toBe('https://example.com/pricing');
    expect(ordered.slice(1)).toEqual([
      'https://example.com/',
      'https://example.com/blog/',
      'https://example.com/docs/getting-started',
      'https://example.com/docs/api/authentication?v=2',
      'https://other.example/guide.pdf',
      'https://example.com/map/north',
    ]);
    expect(links({ queryToOrderLinksBy: 'start here guide' }).slice(0, 2)).toEqual([
      'https://example.com/docs/getting-started',
      'https://other.example/guide.pdf',
    ]);
    expect(links({ queryToOrderLinksBy: 'authentication api' })[0]).toBe(
      'https://example.com/docs/api/authentication?v=2',
    );
  });

  it('keeps page order for a query without words', () => {
    expect(links({ queryToOrderLinksBy: ' -- ' })).toEqual(links({}));
  });

  it('rejects malformed globs with the request field name', () => {
    expect(() => pipeline.prepare({ formats: [], linksOnPage: { excludeLinks: ['/ok', 'docs/**'] } })).toThrow(
      AppError,
    );
    const err = thrownBy(() => pipeline.prepare({ formats: [], linksOnPage: { includeLinks: ['{a'] } }), AppError);
    expect(err.detail).toMatch(/^links_on_page\.include_links\[0\]: invalid URL pattern/);
  });

  it('is not computed unless asked for', () => {
    const result = pipeline.process(
      { text: PAGE, url: 'https://example.com/docs/', contentType: 'text/html' },
      { formats: ['markdown'] },
    );
    expect(result.links).toBeUndefined();
    expect(result.timings.links).toBeUndefined();
  });
});

describe('link ranking (BM25)', () => {
  it('tokenizes URLs and text into lower-case words with plurals folded', () => {
    expect(tokenize('Pricing-Plans/2024?Categories=Shoes')).toEqual(['pricing', 'plan', '2024', 'category', 'shoe']);
    expect(tokenize('Café crème')).toEqual(['café', 'crème']);
  });

  it('prefers rarer matching words and shorter documents', () => {
    const make = (path: string, text: string) => ({ url: new URL(`https://e.com${path}`), text });
    const all = [
      make('/a', 'shipping policy shipping rates shipping zones and a lot of other words here'),
      make('/b', 'shipping'),
      make('/c', 'returns'),
      make('/d', 'returns shipping'),
    ];
    const scores = scoreLinks(all, 'shipping');
    expect(scores[2]).toBe(0);
    expect(scores[1]).toBeGreaterThan(scores[3] as number);
    expect(rankLinks(all, 'returns').map((l) => l.url.pathname)).toEqual(['/c', '/d', '/a', '/b']);
  });
});
