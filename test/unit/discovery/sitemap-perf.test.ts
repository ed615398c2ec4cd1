import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, sendGzip, sitemapIndex, startLocalSite, urlset, type LocalSite } from './support/local-site.js';

const run = promisify(execFile);
const probe = fileURLToPath(new URL('./support/measure-collect.ts', import.meta.url));
const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * 100,000 URLs: one plain 100k-entry urlset (~9 MB), and the protocol's shape (an index of two
 * 50,000-entry gzip parts). Bounds are generous for two shared cores; the numbers are printed.
 */
describe('collectSitemapUrls at 100,000 URLs', () => {
  let site: LocalSite;
  beforeAll(async () => {
    site = await startLocalSite();
    const urls = Array.from({ length: 100_000 }, (_, i) => site.url(`/catalog/category-${i % 97}/product-${i}`));
    site.route('/single.xml', send(urlset(urls, '2024-03-01')));
    site.route('/index.xml', send(sitemapIndex([site.url('/part-1.xml.gz'), site.url('/part-2.xml.gz')])));
    site.route('/part-1.xml.gz', sendGzip(urlset(urls.slice(0, 50_000), '2024-03-01')));
    site.route('/part-2.xml.gz', sendGzip(urlset(urls.slice(50_000), '2024-03-01')));
  });
  afterAll(async () => {
    await site.close();
  });

  it.each([
    ['single 100k urlset', '/single.xml'],
    ['index of two 50k gzip parts', '/index.xml'],
  ])(
    '%s',
    async (name, path) => {
      // A child process measures itself (peak RSS is per process); this one only serves the site.
      const { stdout } = await run(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', probe, site.url('/'), site.url(path)],
        {
          cwd: root,
        },
      );
      const m = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, number | string>;
      console.log(
        `[sitemap perf] ${name}: ${m.count} URLs in ${m.ms} ms; RSS ${m.baselineRssMiB} → peak ${m.peakRssMiB} MiB; ` +
          `result retained ${m.retainedHeapMiB} MiB of heap`,
      );
      expect(m).toMatchObject({
        count: 100_000,
        errors: 0,
        lastUrl: site.url(`/catalog/category-${99_999 % 97}/product-99999`),
      });
      // Time is reported above, not asserted: timings belong to bench/ (bench/map.bench.ts).
      expect((m.peakRssMiB as number) - (m.baselineRssMiB as number)).toBeLessThan(400);
    },
    60_000,
  );
});
