import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import { errors } from '../../errors.js';
import type { SearchProvider, SearchResult } from '../../search/search-provider.js';

export const STORED_PAGES_SEARCH = 'stored';

/**
 * The built-in search provider: PostgreSQL full text over the pages this deployment stored
 * (scrapes, batch items, crawl pages), of the searching team only. Any word of the query may
 * match (`plainto_tsquery` with its `&` turned into `|`), ranked by `ts_rank_cd` with the title
 * weighing most; one result per URL (its latest copy), error pages (status ≥ 400) left out.
 *
 * @example
 * search.register(createStoredPagesSearch(orm));
 * await search.require('stored').search('pricing plans', { teamId, limit: 5, signal });
 */
export function createStoredPagesSearch(orm: Orm): SearchProvider {
  return {
    id: STORED_PAGES_SEARCH,
    description: 'Pages this deployment has stored (PostgreSQL full text)',
    async search(query, { teamId, limit, signal }) {
      const q = query.trim();
      if (q === '') throw errors.validation('search query must not be empty');
      signal.throwIfAborted();
      const rows = await exec<{ id: string; url: string; title: string | null; snippet: string | null }>(
        orm.em.fork(),
        `with q as (select nullif(replace(plainto_tsquery('english', ?)::text, ' & ', ' | '), '')::tsquery as q)
         select id, url, title, snippet from (
           select distinct on (coalesce(p.final_url, p.url)) p.id, coalesce(p.final_url, p.url) as url,
                  p.page_metadata->>'title' as title, p.page_metadata->>'description' as snippet,
                  ts_rank_cd(p.search_vector, q.q, 1) as rank
           from pages p, q
           where p.team_id = ? and q.q is not null and p.search_vector @@ q.q
             and (p.status_code is null or p.status_code < 400)
           order by coalesce(p.final_url, p.url), p.created_at desc
         ) found
         order by rank desc, url
         limit ?`,
        [q.slice(0, 2000), teamId, Math.max(1, Math.floor(limit))],
      );
      return rows
        .filter((r) => /^https?:\/\//i.test(r.url))
        .map((r): SearchResult => ({
          url: r.url,
          title: r.title?.trim() || r.url,
          snippet: (r.snippet ?? '').replace(/\s+/g, ' ').trim().slice(0, 500),
          retrieveId: r.id,
        }));
    },
  };
}
