import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';

/** A stored format of a page: the object holding it and its size. */
export interface StoredFormat {
  key: string;
  bytes: number;
  contentType: string;
}

/** Formats kept as objects, by the name clients use (`markdown`, `screenshot`, ...). */
export type StoredFormats = Partial<Record<PageFormat, StoredFormat>>;
export type PageFormat = 'markdown' | 'html' | 'text' | 'json' | 'screenshot' | 'raw_pdf';

/**
 * Retrievable content of one fetched page: what a `retrieve_id` names. Scrapes, batch items
 * and crawl pages each point at one. The formats themselves live in the blob store.
 */
export class Page {
  /** The retrieve_id. */
  id!: string;
  teamId!: string;
  /** `scrape`, `batch` or `crawl`: what produced it. */
  source!: string;
  url!: string;
  finalUrl: string | null = null;
  statusCode: number | null = null;
  formats: StoredFormats = {};
  pageMetadata: Record<string, unknown> = {};
  /** links_on_page when it was requested. */
  links: string[] | null = null;
  actionsOutput: unknown[] | null = null;
  createdAt: Date = new Date();
  /**
   * The page's text for the full-text index (`pages.search_vector`, filled on insert from
   * `pageSearchParams`); set by the executor, not a column of its own and not loaded back.
   */
  searchText: string | null = null;
  /**
   * `searchText`'s vector as a tsvector literal (search-vector.ts), when the executor could
   * assemble it: the inserts write it in place of `to_tsvector(searchText)`. Never loaded.
   */
  searchTextVector: string | null = null;
  /** The full-text vector (migration 0008); written by raw SQL, never loaded. */
  searchVector?: string | null;
}

export const PageSchema = new EntitySchema<Page>({
  class: Page,
  tableName: 'pages',
  indexes: [
    { name: 'pages_team_id_created_at_index', properties: ['teamId', 'createdAt'] },
    {
      name: 'pages_search_vector_index',
      expression: 'create index pages_search_vector_index on pages using gin (search_vector)',
    },
  ],
  properties: {
    id: columns.id(),
    teamId: columns.team(),
    source: { type: 'string', columnType: 'text' },
    url: { type: 'string', columnType: 'text' },
    finalUrl: { type: 'string', columnType: 'text', nullable: true },
    statusCode: { type: 'integer', nullable: true },
    formats: columns.jsonb(),
    pageMetadata: columns.jsonb(),
    links: { type: 'json', columnType: 'jsonb', nullable: true },
    actionsOutput: { type: 'json', columnType: 'jsonb', nullable: true },
    createdAt: columns.createdAt(),
    // Written into `search_vector` by the raw inserts (page-row.ts); never a column of its own.
    searchText: { type: 'string', nullable: true, persist: false },
    searchTextVector: { type: 'string', nullable: true, persist: false },
    searchVector: { type: 'string', columnType: 'tsvector', nullable: true, lazy: true, hidden: true },
  },
});
