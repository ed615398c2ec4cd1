import type { Page } from './page.entity.js';

/** Columns and placeholders of a `pages` insert, for statements that insert a page with other rows. */
export const PAGE_INSERT_COLUMNS =
  'id, team_id, source, url, final_url, status_code, formats, page_metadata, links, actions_output, created_at';
export const PAGE_INSERT_VALUES = '?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now()';

/** The parameters for PAGE_INSERT_VALUES, in column order. */
export function pageInsertParams(page: Page): unknown[] {
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
  ];
}
