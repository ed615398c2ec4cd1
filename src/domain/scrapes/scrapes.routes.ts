import { CreateScrapeInput, ScrapeIdParams } from './scrape.schema.js';
import { ScrapeObject, presentScrape } from './scrape.presenter.js';
import { defineRoute } from '../../module/route.js';
import type { ScrapeService } from './scrape.service.js';

const tags = ['Scrapes'];

export function scrapeRoutes({ scrapes }: { scrapes: ScrapeService }) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/scrapes',
      operationId: 'createScrape',
      summary: 'Scrape a URL',
      description:
        'Fetches one URL and returns the requested formats. Each format is also stored and served by a hosted URL valid for 7 days; formats over 6 MB are not inlined (`size_exceeded`).',
      tags,
      body: CreateScrapeInput,
      responses: {
        200: { description: 'The scrape.', schema: ScrapeObject },
        403: { description: 'The target is refused by the outbound policy (`blacklisted_domain`).' },
        404: { description: 'Unknown parser (`parser_not_found`).' },
        422: { description: 'The parser cannot read this page (`invalid_parser_input`).' },
        502: {
          description:
            'The target could not be reached (`upstream_error`), or the model failed llm_extract (`model_error`).',
        },
        504: { description: 'The target or the model did not answer in time (`request_timeout`).' },
      },
      handler: async ({ actor, body, signal }) => presentScrape(await scrapes.create(actor, body, signal)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/scrapes/{scrape_id}',
      operationId: 'getScrape',
      summary: 'Get a scrape',
      tags,
      params: ScrapeIdParams,
      responses: {
        200: { description: 'The scrape.', schema: ScrapeObject },
        404: { description: 'No such scrape (`scrape_not_found`).' },
      },
      handler: async ({ actor, params }) => presentScrape(await scrapes.get(actor, params.scrape_id)),
    }),
  ];
}
