import { RetrieveQuery } from './retrieve.schema.js';
import { RetrieveObject, presentRetrieve } from './page.presenter.js';
import { defineRoute } from '../../module/route.js';
import type { PageViews } from './page-views.js';

export function retrieveRoutes({ pages }: { pages: PageViews }) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/retrieve',
      operationId: 'retrieve',
      summary: 'Retrieve stored content',
      description:
        'Content of a scrape, batch item or crawl page by its retrieve_id. Formats over 6 MB are served by their hosted URLs only.',
      tags: ['Scrapes'],
      query: RetrieveQuery,
      responses: {
        200: { description: 'The content.', schema: RetrieveObject },
        404: { description: 'No such retrieve_id (`page_not_found`).' },
      },
      handler: async ({ actor, query }) =>
        presentRetrieve(await pages.retrieve(actor, query.retrieve_id, query.formats)),
    }),
  ];
}
