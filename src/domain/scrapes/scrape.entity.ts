import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';
import { Page } from '../pages/page.entity.js';

/** A completed synchronous scrape. Failed scrapes are answered with an error and leave nothing. */
export class Scrape {
  id!: string;
  teamId!: string;
  /** The URL as requested. */
  url!: string;
  pageId!: string;
  /** The validated request, kept to answer GET with what was asked. */
  request: Record<string, unknown> = {};
  metadata: Record<string, string> = {};
  warning: string | null = null;
  createdAt: Date = new Date();
}

export const ScrapeSchema = new EntitySchema<Scrape>({
  class: Scrape,
  tableName: 'scrapes',
  indexes: [{ name: 'scrapes_team_id_created_at_index', properties: ['teamId', 'createdAt'] }],
  properties: {
    id: columns.id(),
    teamId: columns.team(),
    url: { type: 'string', columnType: 'text' },
    pageId: {
      kind: 'm:1',
      entity: () => Page,
      mapToPk: true,
      fieldName: 'page_id',
      deleteRule: 'cascade',
      columnType: 'text',
    },
    request: columns.jsonb(),
    metadata: columns.jsonb(),
    warning: { type: 'text', nullable: true },
    createdAt: columns.createdAt(),
  },
});
