import { describe, expect, it } from 'vitest';
import { createContentPipeline } from '../../../src/pipeline/index.js';

const pipeline = createContentPipeline();

function metadata(html: string, url = 'https://example.com/a/page') {
  return pipeline.process({ text: html, url, contentType: 'text/html' }, { formats: [] }).metadata;
}

describe('page_metadata', () => {
  it('gives an empty title when the page has none', () => {
    expect(metadata('<p>no head at all</p>')).toEqual({ title: '' });
  });

  it('reads the title from <title>, not from an SVG title, falling back to og:title', () => {
    expect(metadata('<html><body><svg><title>icon</title></svg></body></html>').title).toBe('');
    expect(metadata('<html><head><title>\n  Real\n  title </title></head></html>').title).toBe('Real title');
    expect(metadata('<html><head><meta property="og:title" content="From OG"></head></html>').title).toBe('From OG');
  });

  it('reads description, language, canonical, icon and Open Graph with absolute URLs', () => {
    const meta = metadata(`<html lang="fr"><head>
      <meta name="Description" content="  Une   page ">
      <link rel="canonical" href="../canonical">
      <link rel="apple-touch-icon" href="/touch.png"><link rel="shortcut icon" href="/fav.ico">
      <meta property="og:image" content="/first.png"><meta property="og:image" content="/second.png">
      <meta property="og:url" content="https://example.com/og"><meta property="og:locale" content="fr_FR">
      <meta name="twitter:image" content="/tw.png"><meta name="robots" content="noindex">
    </head></html>`);
    expect(meta).toEqual({
      title: '',
      description: 'Une page',
      language: 'fr',
      canonical_url: 'https://example.com/canonical',
      og_image: 'https://example.com/first.png',
      og_url: 'https://example.com/og',
      og_locale: 'fr_FR',
      twitter_image: 'https://example.com/tw.png',
      favicon: 'https://example.com/fav.ico',
      robots: 'noindex',
    });
  });

  it('falls back to Content-Language and og:locale for the language', () => {
    expect(metadata('<html><head><meta http-equiv="Content-Language" content="de"></head></html>').language).toBe('de');
    expect(metadata('<html><head><meta property="og:locale" content="pt_BR"></head></html>').language).toBe('pt_BR');
  });

  it('takes author and dates from JSON-LD (also inside @graph) when meta tags lack them', () => {
    const meta = metadata(`<html><head>
      <script type="application/ld+json">{ not json</script>
      <script type="application/ld+json">{"@graph":[{"@type":"WebSite"},{"@type":"Article","datePublished":"2024-01-02","dateModified":"2024-01-03","author":[{"name":"A. One"},{"name":"B. Two"}]}]}</script>
    </head></html>`);
    expect(meta.author).toBe('A. One, B. Two');
    expect(meta.published_time).toBe('2024-01-02');
    expect(meta.modified_time).toBe('2024-01-03');
  });

  it('prefers meta tags over JSON-LD', () => {
    const meta = metadata(`<html><head><meta name="author" content="Meta Author">
      <script type="application/ld+json">{"author":"LD Author"}</script></head></html>`);
    expect(meta.author).toBe('Meta Author');
  });

  it('is extracted before cleanup, so JSON-LD scripts still count', () => {
    const result = pipeline.process(
      {
        text: '<html><head><script type="application/ld+json">{"datePublished":"2020-05-05"}</script></head><body><p>x</p></body></html>',
        url: 'https://example.com/',
        contentType: 'text/html',
      },
      { formats: ['markdown'] },
    );
    expect(result.metadata.published_time).toBe('2020-05-05');
    expect(result.markdown).toBe('x');
  });
});
