import type { SqlValue } from '../../db/sql.js';
import type { Page } from './page.entity.js';

/**
 * The page's `search_vector` (migration 0008, searched by the stored-pages search provider):
 * its title weighs most, then its description, then its text. Four placeholders, filled by
 * `pageSearchParams`. English stemming (`pricing` finds `price`); other languages are indexed
 * word by word. The text's vector comes assembled (`searchTextVector`, search-vector.ts: the same
 * vector without the parser's cost) or, when it could not be, from `to_tsvector` of the text.
 */
export const PAGE_SEARCH_VECTOR = `setweight(to_tsvector('english', ?), 'A') || setweight(to_tsvector('english', ?), 'B') || coalesce(?::tsvector, to_tsvector('english', ?))`;

/** Columns and placeholders of a `pages` insert, for statements that insert a page with other rows. */
export const PAGE_INSERT_COLUMNS =
  'id, team_id, source, url, final_url, status_code, formats, page_metadata, links, actions_output, created_at, search_vector';
export const PAGE_INSERT_VALUES = `?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), ${PAGE_SEARCH_VECTOR}`;

/**
 * The parameters of PAGE_SEARCH_VECTOR: title, description, then the text's vector as a literal
 * (`searchTextVector`) or, without one, the text (`searchText`, which the executor cut to
 * PAGE_SEARCH_TEXT_CHARS).
 */
export function pageSearchParams(page: Page): Array<string | null> {
  const meta = page.pageMetadata;
  const text = (key: string) => (typeof meta[key] === 'string' ? (meta[key] as string).slice(0, 2000) : '');
  const vector = page.searchTextVector;
  return [text('title'), text('description'), vector, vector === null ? (page.searchText ?? '') : null];
}

/** The parameters for PAGE_INSERT_VALUES, in column order. */
export function pageInsertParams(page: Page): SqlValue[] {
  return [
    page.id,
    page.teamId,
    page.source,
    page.url,
    page.finalUrl,
    page.statusCode,
    JSON.stringify(page.formats),
    JSON.stringify(page.pageMetadata),
    page.links === null ? null : JSON.stringify(page.links),
    page.actionsOutput === null ? null : JSON.stringify(page.actionsOutput),
    ...pageSearchParams(page),
  ];
}
