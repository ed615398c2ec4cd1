import { epochSeconds } from '../shared/time.js';
import type { UrlMap } from './map.entity.js';

/** A map as a list shows it (both transports): what was asked and how many URLs, not the URLs. */
export interface MapSummaryView {
  id: string;
  /** The start URL, normalised. */
  url: string;
  /** Epoch seconds. */
  created: number;
  /** URLs in the whole map (GET /v1/maps/{id} serves them). */
  totalUrlsCount: number;
  searchQuery: string | null;
  topN: number | null;
  includeSubdomain: boolean;
  includeUrls: string[];
  excludeUrls: string[];
  /** Why the list may be incomplete. */
  warning: string | null;
}

/** A page of a team's maps, newest first. */
export interface MapListView {
  maps: MapSummaryView[];
  /** Where the next page starts; null on the last. */
  nextCursor: number | null;
}

export function mapSummaryView(map: UrlMap): MapSummaryView {
  const { options } = map;
  return {
    id: map.id,
    url: map.url,
    created: epochSeconds(map.createdAt),
    totalUrlsCount: map.urlsCount,
    searchQuery: options.search_query ?? null,
    topN: options.top_n ?? null,
    includeSubdomain: options.include_subdomain ?? true,
    includeUrls: options.include_urls ?? [],
    excludeUrls: options.exclude_urls ?? [],
    warning: map.warning,
  };
}
