import { defineModule } from '../../module/app-module.js';
import { pagesModule } from '../pages/pages.module.js';
import { ScrapeExecutor } from './scrape-executor.js';
import { ScrapeSchema } from './scrape.entity.js';
import { ScrapeService } from './scrape.service.js';
import { scrapeGraphQL } from './scrapes.graphql.js';
import { scrapeRoutes } from './scrapes.routes.js';
import { parsersGraphQL } from './parsers.graphql.js';
import { parserRoutes } from './parsers.routes.js';

/**
 * `POST /v1/scrapes`, `GET /v1/parsers`, and the executor every page of the service goes through
 * (batches and crawls too).
 */
export const scrapesModule = defineModule({
  name: 'scrapes',
  entities: [ScrapeSchema],
  services: (ctx) => {
    const { pages, pageContent, pageSettings, searchVectors } = ctx.use(pagesModule);
    const executor = new ScrapeExecutor({
      engines: ctx.engines,
      guard: ctx.guard,
      pipeline: ctx.pipeline,
      parsers: ctx.parsers,
      pages: pageContent,
      timeoutMs: ctx.config.scrape.timeoutMs,
      convertPool: ctx.convertPool,
      proxies: ctx.proxies,
      models: ctx.models,
      searchTextChars: pageSettings.searchTextChars,
      searchVectors,
    });
    return { scrapes: new ScrapeService(ctx.orm, executor, pages), executor, parsers: ctx.parsers };
  },
  routes: ({ scrapes, parsers }) => [...scrapeRoutes({ scrapes }), ...parserRoutes({ parsers })],
  graphql: (kit, { scrapes, parsers }) => {
    scrapeGraphQL(kit, scrapes);
    parsersGraphQL(kit, parsers);
  },
});
