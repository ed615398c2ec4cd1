import { z } from 'zod';

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export const SEARCH_LIMITS = { queryChars: 2000, defaultResults: 10, maxResults: 50 } as const;

/** Host names (`example.com` also matches its subdomains). */
const DomainList = z
  .array(z.string().min(1).max(253), { error: 'must be an array of domain names' })
  .max(100, { error: 'at most 100 domains' });

/** Which search provider answers, by id (absent: the default one). */
export const ProviderId = z
  .string({ error: (issue) => `must be a search provider id (got ${typeName(issue.input)})` })
  .min(1)
  .max(100)
  .describe('A search provider id (`searxng`, `stored`); absent: the service default.');

/** POST /v1/searches (decisions.md, "Additions": `{query, limit}`; `provider` and the domain filters are extensions). */
export const CreateSearchInput = z
  .strictObject({
    query: z
      .string({
        error: (issue) =>
          issue.input === undefined ? 'is required' : `must be a string (got ${typeName(issue.input)})`,
      })
      .max(SEARCH_LIMITS.queryChars, { error: `is longer than ${SEARCH_LIMITS.queryChars} characters` })
      .refine((q) => q.trim() !== '', { error: 'must not be empty' })
      .describe('What to search for.'),
    limit: z
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(1)
      .max(SEARCH_LIMITS.maxResults)
      .optional()
      .describe(`Results wanted at most (default ${SEARCH_LIMITS.defaultResults}).`),
    provider: ProviderId.optional(),
    include_domains: DomainList.optional().describe('Keep only results on these domains (and their subdomains).'),
    exclude_domains: DomainList.optional().describe('Drop results on these domains (and their subdomains).'),
  })
  .meta({ id: 'CreateSearchRequest' });

export type CreateSearchCommand = z.output<typeof CreateSearchInput>;
