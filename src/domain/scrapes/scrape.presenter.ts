import { z } from 'zod';
import type { ScrapeView } from './scrape.service.js';
import type { ScrapeSummaryView } from './scrape.view.js';
import { epochSeconds } from '../shared/time.js';
import { PageContentFields, PageMetadataObject, presentContent } from '../pages/page.presenter.js';

export const ScrapeResultObject = z
  .looseObject({
    ...PageContentFields,
    screenshot_hosted_url: z.string().nullable().optional(),
    pdf_hosted_url: z.string().nullable().optional().describe('raw_pdf: the PDF (original bytes or printed page).'),
    links_on_page: z.array(z.string()).nullable().optional(),
    page_metadata: PageMetadataObject,
    actions_output: z.array(z.unknown()).optional().describe('Results of execute_js actions, in order.'),
  })
  .meta({ id: 'ScrapeResult' });

export const ScrapeObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('scrape'),
    created: z.number().int().describe('Epoch seconds.'),
    url: z.string().describe('The scraped URL as requested.'),
    url_to_scrape: z.string(),
    retrieve_id: z.string().describe('Identifier for GET /v1/retrieve.'),
    result: ScrapeResultObject,
    metadata: z.record(z.string(), z.string()),
    credits_consumed: z.number().nullable(),
    cost_usd: z.number().nullable(),
    size_exceeded: z.boolean(),
    warning: z.string().optional(),
  })
  .meta({ id: 'Scrape' });

export function presentScrape(view: ScrapeView): z.output<typeof ScrapeObject> {
  const { scrape, page } = view;
  const result: Record<string, unknown> = {
    ...presentContent(page),
    page_metadata: page.page.pageMetadata,
  };
  if (view.linksRequested) result.links_on_page = page.page.links ?? [];
  if (page.page.actionsOutput) result.actions_output = page.page.actionsOutput;
  return {
    id: scrape.id,
    object: 'scrape',
    created: epochSeconds(scrape.createdAt),
    url: scrape.url,
    url_to_scrape: scrape.url,
    retrieve_id: page.page.id,
    result: result as z.output<typeof ScrapeResultObject>,
    metadata: scrape.metadata,
    credits_consumed: 1,
    cost_usd: null,
    size_exceeded: page.sizeExceeded,
    ...(scrape.warning ? { warning: scrape.warning } : {}),
  };
}

/** A scrape in a list: without `result`'s content (GET /v1/scrapes/{id} and /v1/retrieve serve it). */
export const ScrapeSummaryObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('scrape'),
    created: z.number().int().describe('Epoch seconds.'),
    url: z.string().describe('The scraped URL as requested.'),
    url_to_scrape: z.string(),
    retrieve_id: z.string().describe('Identifier for GET /v1/retrieve.'),
    formats: z.array(z.string()).describe('Formats the request asked for.'),
    page_metadata: PageMetadataObject,
    metadata: z.record(z.string(), z.string()),
    warning: z.string().optional(),
  })
  .meta({ id: 'ScrapeSummary' });

export function presentScrapeSummary(view: ScrapeSummaryView): z.output<typeof ScrapeSummaryObject> {
  return {
    id: view.id,
    object: 'scrape',
    created: view.created,
    url: view.url,
    url_to_scrape: view.url,
    retrieve_id: view.retrieveId,
    formats: view.formats,
    page_metadata: view.pageMetadata as z.output<typeof PageMetadataObject>,
    metadata: view.metadata,
    ...(view.warning ? { warning: view.warning } : {}),
  };
}
