import { z } from 'zod';
import { queryList } from '../../validation.js';
import { TEXT_FORMATS } from './page-content.js';

export const RetrieveQuery = z.object({
  retrieve_id: z.string({ error: 'is required' }).min(1).max(100).describe('From a scrape, batch item or crawl page.'),
  formats: queryList(z.enum(TEXT_FORMATS))
    .optional()
    .describe('html, markdown, text, json; repeated, with [] or comma-separated. Default: all.'),
});
