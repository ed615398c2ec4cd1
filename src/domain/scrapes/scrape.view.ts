import { epochSeconds } from '../shared/time.js';

/**
 * A scrape as a list shows it (both transports): what was asked and what came back, without
 * the content (GET /v1/scrapes/{id} and the retrieve operation serve that).
 */
export interface ScrapeSummaryView {
  id: string;
  /** The URL as requested. */
  url: string;
  /** Use with retrieve. */
  retrieveId: string;
  /** Epoch seconds. */
  created: number;
  /** Formats the request asked for. */
  formats: string[];
  /** What the page said about itself: `status_code`, `title`, `final_url`, `content_type`, … */
  pageMetadata: Record<string, unknown>;
  metadata: Record<string, string>;
  warning: string | null;
}

/** A page of a team's scrapes, newest first. */
export interface ScrapeListView {
  scrapes: ScrapeSummaryView[];
  /** Where the next page starts; null on the last. */
  nextCursor: number | null;
}

/** The columns the list reads (`scrapes` joined with its page). */
export interface ScrapeSummaryRow {
  id: string;
  url: string;
  page_id: string;
  metadata: Record<string, string> | null;
  warning: string | null;
  created_at: Date | string;
  page_metadata: Record<string, unknown> | null;
}

export function scrapeSummaryView(row: ScrapeSummaryRow, formats: string[]): ScrapeSummaryView {
  return {
    id: row.id,
    url: row.url,
    retrieveId: row.page_id,
    created: epochSeconds(new Date(row.created_at)),
    formats,
    pageMetadata: row.page_metadata ?? {},
    metadata: row.metadata ?? {},
    warning: row.warning,
  };
}
