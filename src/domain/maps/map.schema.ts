import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';

/** Longest URL a map accepts or lists (the same bound as scrape targets and sitemap `<loc>`s). */
export const MAP_URL_MAX_LENGTH = 8192;

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** A list of URL globs (src/url/glob.ts semantics); the patterns themselves are compiled by the service. */
const GlobList = z
  .array(
    z
      .string({ error: (issue) => `must be a string glob pattern (got ${typeName(issue.input)})` })
      .min(1, { error: 'must not be empty' })
      .max(2000),
    { error: (issue) => `must be an array of glob pattern strings (got ${typeName(issue.input)})` },
  )
  .max(100, { error: 'at most 100 patterns' });

const CursorField = z
  .string({ error: 'must be the string cursor of a previous map response' })
  .min(1)
  .max(1000)
  .describe('From a previous response: continues that map without discovering again.');

/** POST /v1/maps (spec: "POST /v1/maps"; decisions.md "Maps"). */
export const CreateMapInput = z
  .strictObject({
    url: z
      .string({
        error: (issue) =>
          issue.input === undefined
            ? 'is required (an absolute http(s) URL)'
            : `must be a URL string (got ${typeName(issue.input)})`,
      })
      .min(1)
      .max(MAP_URL_MAX_LENGTH)
      .describe('Website to list URLs for.'),
    search_query: z
      .string()
      .max(1000)
      .optional()
      .describe('Sorts URLs by relevance (BM25 over URL words, anchor text, titles).'),
    top_n: z
      .number()
      .int({ error: 'must be a whole number' })
      .min(1)
      .max(1_000_000)
      .optional()
      .describe('Keep the n most relevant URLs; requires search_query.'),
    include_subdomain: z.boolean().optional().describe('List pages on subdomains of the site too (default true).'),
    include_urls: GlobList.optional().describe(
      'Globs: `/…` matches the path, others the whole URL; `**` crosses segments.',
    ),
    exclude_urls: GlobList.optional().describe('Globs; exclusion wins. Excluded pages are not visited either.'),
    cursor: CursorField.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.top_n !== undefined && (body.search_query === undefined || body.search_query.trim() === '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['top_n'],
        message: 'requires search_query (top_n keeps the n most relevant URLs)',
      });
    }
  })
  .meta({ id: 'CreateMapRequest' });

export type CreateMapCommand = z.output<typeof CreateMapInput>;

/** The discovery options a map was made with, stored beside it. */
export type MapOptions = Omit<CreateMapCommand, 'url' | 'cursor'>;

export const MapIdParams = z.object({ map_id: resourceId('map') });

export const GetMapQuery = z.object({ cursor: CursorField.optional() });

export const MAP_LIST_PAGE = { min: 1, max: 100, default: 50 } as const;

/** GET /v1/maps: newest first, an integer offset `cursor` like the other lists. */
export const ListMapsQuery = z.object({
  cursor: queryInt(0, 1_000_000_000).optional().describe('Offset from the previous page.'),
  limit: queryInt(MAP_LIST_PAGE.min, MAP_LIST_PAGE.max)
    .optional()
    .describe(`1 to ${MAP_LIST_PAGE.max}, default ${MAP_LIST_PAGE.default}.`),
});
