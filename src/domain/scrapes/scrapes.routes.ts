import { z } from 'zod';
import { CreateScrapeInput, ListScrapesQuery, ScrapeIdParams } from './scrape.schema.js';
import { ScrapeObject, ScrapeSummaryObject, presentScrape, presentScrapeSummary } from './scrape.presenter.js';
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
      path: '/v1/scrapes',
      operationId: 'listScrapes',
      summary: 'List scrapes',
      description:
        'Extension: the team’s scrapes, newest first, without their content (GET /v1/scrapes/{id} or /v1/retrieve for that).',
      tags,
      query: ListScrapesQuery,
      responses: {
        200: {
          description: 'A page of scrapes.',
          schema: z.object({
            object: z.literal('list'),
            data: z.array(ScrapeSummaryObject),
            cursor: z.number().int().optional().describe('Present when a further page exists.'),
          }),
        },
      },
      handler: async ({ actor, query }) => {
        const { scrapes: list, nextCursor } = await scrapes.list(actor, query);
        return {
          object: 'list',
          data: list.map(presentScrapeSummary),
          ...(nextCursor !== null ? { cursor: nextCursor } : {}),
        };
      },
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
