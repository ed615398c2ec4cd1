import fs from 'node:fs';
import path from 'node:path';
import { builtinTransformers } from '../../../plugins/transformers/index.js';
import { createContentPipeline } from '../../../src/pipeline/index.js';

export interface ConvertTimes {
  /** Per page, the fastest of the rounds (ms): robust to other load on the machine. */
  bestMs: number[];
}

/** The first `count` article pages of the generated site, as the reference loop reads them. */
export function loadArticles(siteDir: string, count: number): { url: string; text: string }[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(siteDir, 'manifest.json'), 'utf8')) as {
    articlePaths: string[];
  };
  return manifest.articlePaths.slice(0, count).map((p) => ({
    url: `http://127.0.0.1:8000${p}`,
    text: fs.readFileSync(path.join(siteDir, p), 'utf8'),
  }));
}

/**
 * Converts every page to markdown (the scrape benchmark's options) `rounds` times after one
 * warm-up round, on the calling thread, and keeps each page's fastest time.
 */
export function convertPages(pages: { url: string; text: string }[], rounds: number): ConvertTimes {
  const pipeline = createContentPipeline({ transformers: builtinTransformers });
  const options = pipeline.prepare({ formats: ['markdown'] });
  const bestMs = pages.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round <= rounds; round++) {
    pages.forEach((page, i) => {
      const start = performance.now();
      pipeline.process({ text: page.text, url: page.url, contentType: 'text/html' }, options);
      if (round > 0) bestMs[i] = Math.min(bestMs[i]!, performance.now() - start);
    });
  }
  return { bestMs };
}
