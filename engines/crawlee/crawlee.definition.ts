import { defineEngine } from '../../src/engine/engine-definition.js';
import { createCrawleeEngine } from './crawlee.engine.js';

/**
 * `crawlee`: the crawl engine. Crawlee's crawlers fed from the crawl's frontier, every page
 * fetched by the scrape engines (http, or a browser engine when the crawl's options need one).
 */
export const crawleeEngine = defineEngine({
  id: 'crawlee',
  kind: 'crawl',
  description: "Crawlee's crawlers over the scrape engines, fed from the crawl's frontier",
  priority: 10,
  create: ({ config, engines }) => createCrawleeEngine({ engines, dataDir: config.dataDir }),
});
