import { z } from 'zod';
import { queryList, resourceId } from '../../validation.js';
import { TEXT_FORMATS } from './page-content.js';

export const RetrieveQuery = z.object({
  retrieve_id: resourceId('page', 'stored content with retrieve_id').describe(
    'From a scrape, batch item or crawl page.',
  ),
  formats: queryList(z.enum(TEXT_FORMATS))
    .optional()
    .describe('html, markdown, text, json; repeated, with [] or comma-separated. Default: all.'),
});
