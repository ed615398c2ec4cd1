import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';
import type { MapOptions } from './map.schema.js';

/** What discovery did for a map: kept for support questions ("why so few URLs?"). */
export interface MapStats {
  /** Sitemap documents read (every host). */
  sitemaps: number;
  /** URLs that came from sitemaps, before merging with links. */
  sitemapUrls: number;
  /** Pages fetched by link discovery (failures included). */
  pagesFetched: number;
  /** URLs that only link discovery found. */
  linkOnlyUrls: number;
  /** Hosts whose sitemaps were read. */
  hosts: number;
  durationMs: number;
  /** Set when a limit ended discovery before every source was read. */
  stoppedBy?: 'max_urls' | 'time_budget';
}

/**
 * A finished map. The URL list itself is an object in the blob store (one URL per line,
 * `map-results.ts`), so a map of 100,000 long URLs costs the database one small row.
 */
export class UrlMap {
  id!: string;
  teamId!: string;
  /** The start URL as normalised. */
  url!: string;
  options: MapOptions = {};
  /** URLs in the stored list. */
  urlsCount!: number;
  /** Size of the stored list in bytes (newline-terminated lines). */
  urlsBytes!: number;
  stats: MapStats = { sitemaps: 0, sitemapUrls: 0, pagesFetched: 0, linkOnlyUrls: 0, hosts: 0, durationMs: 0 };
  warning: string | null = null;
  createdAt: Date = new Date();
}

export const UrlMapSchema = new EntitySchema<UrlMap>({
  class: UrlMap,
  tableName: 'maps',
  indexes: [{ name: 'maps_team_id_created_at_index', properties: ['teamId', 'createdAt'] }],
  properties: {
    id: columns.id(),
    teamId: columns.team(),
    url: { type: 'string', columnType: 'text' },
    options: columns.jsonb(),
    urlsCount: { type: 'integer' },
    urlsBytes: { type: new BigIntType('number'), columnType: 'bigint' },
    stats: columns.jsonb(),
    warning: { type: 'text', nullable: true },
    createdAt: columns.createdAt(),
  },
});
