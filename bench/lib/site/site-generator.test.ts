import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticSite, type StaticSite } from '../static-site-server.js';
import { buildSite, readManifest, type SiteManifest, writeSite } from './site-generator.js';
import { MAX_PAGE_BYTES, MIN_PAGE_BYTES } from './site-pages.js';
import { planSite } from './site-plan.js';

const OPTIONS = { articles: 120, seed: 'test' };

function files(options = OPTIONS): Map<string, string | Buffer> {
  return new Map([...buildSite(options)].map((f) => [f.path, f.content]));
}

describe('buildSite', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = files();
    const b = files();
    const c = files({ ...OPTIONS, seed: 'other' });
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [p, content] of a) expect(b.get(p)).toEqual(content);
    const firstArticle = [...a.keys()][0]!;
    expect(c.get(firstArticle)).toBeUndefined(); // other titles, other paths
  });

  it('keeps an article the same whatever the article count', () => {
    const small = files({ articles: 20, seed: 'test' });
    const large = files();
    const firstArticle = [...small.keys()][0]!;
    const inSmall = String(small.get(firstArticle));
    const inLarge = String(large.get(firstArticle));
    // Link targets differ (more pages to link to); the article's own structure does not.
    const headings = (html: string) => [...html.matchAll(/<h[1-3][^>]*>(.*?)</g)].map((m) => m[1]);
    expect(headings(inSmall).length).toBeGreaterThan(5);
    expect(headings(inSmall)).toEqual(headings(inLarge));
  });

  it('writes articles of 30–80 KB with headings, lists, tables, code in several languages, images with alt text', () => {
    const hrefs = new Set(planSite(OPTIONS.seed, OPTIONS.articles).articles.map((a) => a.href));
    const articles = [...files()].filter(([p]) => hrefs.has(p));
    expect(articles).toHaveLength(OPTIONS.articles);
    const all = articles.map(([, html]) => String(html)).join('\n');
    for (const [, html] of articles) {
      const size = Buffer.byteLength(html);
      expect(size).toBeGreaterThanOrEqual(MIN_PAGE_BYTES);
      expect(size).toBeLessThanOrEqual(MAX_PAGE_BYTES);
      expect(String(html)).toMatch(/<h2 id=/);
    }
    for (const tag of [
      '<ul>',
      '<ol>',
      '<table',
      'class="data wide"',
      '<figure',
      '<dl>',
      '<blockquote>',
      'hljs-keyword',
    ]) {
      expect(all).toContain(tag);
    }
    const languages = new Set([...all.matchAll(/class="language-(\w+)"/g)].map((m) => m[1]));
    expect(languages.size).toBeGreaterThanOrEqual(6);
    expect(all).toMatch(/<img src="\/images\/[^"]+" alt="[^"]{10,}"/);
  });

  it('links every public page from the home page (a crawler finds them through links)', () => {
    const site = files();
    const seen = new Set<string>(['/index.html']);
    const queue = ['/index.html'];
    while (queue.length > 0) {
      const html = String(site.get(queue.shift()!));
      for (const [, href] of html.matchAll(/href="(\/[^"#]*)/g)) {
        if (!href!.endsWith('.html') || seen.has(href!) || !site.has(href!)) continue;
        seen.add(href!);
        queue.push(href!);
      }
    }
    const pages = [...site.keys()].filter((p) => p.endsWith('.html'));
    expect(pages.filter((p) => !seen.has(p))).toEqual([]);
  });

  it('lists every public page in sitemap.xml and in the parts of sitemap_index.xml, not the drafts', () => {
    const site = files({ articles: 600, seed: 'test' });
    const locs = (xml: string) => [...xml.matchAll(/<loc>__SITE_ORIGIN__([^<]+)<\/loc>/g)].map((m) => m[1]!);
    const flat = locs(String(site.get('/sitemap.xml')));
    const parts = locs(String(site.get('/sitemap_index.xml')));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.at(-1)).toMatch(/\.xml\.gz$/);
    const fromParts = parts.flatMap((part) => {
      const body = site.get(part)!;
      return locs(part.endsWith('.gz') ? gunzipSync(body as Buffer).toString() : String(body));
    });
    expect(fromParts).toEqual(flat);
    const publicPages = [...site.keys()].filter((p) => p.endsWith('.html') && !p.startsWith('/private/'));
    expect(new Set(flat)).toEqual(new Set(publicPages));
    expect(String(site.get('/robots.txt'))).toMatch(
      /Disallow: \/private\/[\s\S]*Sitemap: __SITE_ORIGIN__\/sitemap_index.xml/,
    );
  });
});

describe('writeSite and the static server', () => {
  let dir: string;
  let manifest: SiteManifest;
  let site: StaticSite;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-site-'));
    manifest = await writeSite(path.join(dir, 'out'), { articles: 30, seed: 'srv' });
    site = await startStaticSite({ root: path.join(dir, 'out'), gzip: true });
  });
  afterAll(async () => {
    await site.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('records the site in its manifest and refuses to clear a directory that is not a site', async () => {
    expect(manifest.articlePaths).toHaveLength(30);
    expect(await readManifest(path.join(dir, 'out'), { articles: 30, seed: 'srv' })).toEqual(manifest);
    expect(await readManifest(path.join(dir, 'out'), { articles: 31, seed: 'srv' })).toBeNull();
    await fs.mkdir(path.join(dir, 'foreign'));
    await fs.writeFile(path.join(dir, 'foreign', 'keep.txt'), 'mine');
    await expect(writeSite(path.join(dir, 'foreign'), { articles: 1, seed: 'x' })).rejects.toThrow(/refusing/);
    expect(await fs.readFile(path.join(dir, 'foreign', 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('serves pages over keep-alive, gzip on request, the origin in sitemaps and robots.txt, 404 and HEAD', async () => {
    const page = manifest.articlePaths[0]!;
    const plain = await fetch(`${site.origin}${page}`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const html = await plain.text();
    expect(html).toBe(await fs.readFile(path.join(dir, 'out', page), 'utf8'));
    const zipped = await fetch(`${site.origin}${page}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(await zipped.text()).toBe(html); // fetch decompresses
    const robots = await (await fetch(`${site.origin}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${site.origin}/sitemap_index.xml`);
    const sitemap = await (await fetch(`${site.origin}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${site.origin}${page}</loc>`);
    expect((await fetch(`${site.origin}/nope.html`)).status).toBe(404);
    expect((await fetch(`${site.origin}/images/anything.png`)).headers.get('content-type')).toBe('image/png');
    const head = await fetch(`${site.origin}${page}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(site.requests()).toBe(7);
  });
});
