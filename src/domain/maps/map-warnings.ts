import type { RobotsFetchResult } from '../../discovery/robots.js';
import type { LinkDiscoveryResult } from './link-discovery.js';
import type { HostCollection } from './sitemap-hosts.js';

export interface NotesInput {
  sitemaps: HostCollection[];
  links: LinkDiscoveryResult;
  robots: RobotsFetchResult[];
  stoppedBy: 'max_urls' | 'time_budget' | undefined;
  maxUrls: number;
  found: number;
}

const LISTED = 3;

/**
 * The map's `warning`: why the list may be incomplete, in words a client can act on. Only what
 * changes the result is said (a guessed /sitemap.xml that does not exist is no news; a sitemap
 * that was cut, malformed or unreachable is).
 */
export function discoveryNotes(input: NotesInput): string[] {
  const notes: string[] = [];
  if (input.stoppedBy === 'max_urls') {
    notes.push(`the map stopped at ${input.maxUrls} URLs (the MAP_MAX_URLS limit); the site has more`);
  } else if (input.stoppedBy === 'time_budget') {
    notes.push(
      'discovery reached its time budget (MAP_TIME_BUDGET_MS) before reading every source; the list may be incomplete',
    );
  }
  const problems = input.sitemaps.flatMap(({ collection }) => collection.errors.filter((e) => e.code !== 'deadline'));
  if (problems.length > 0) {
    const listed = problems.slice(0, LISTED).map((e) => `${e.url}: ${e.message} (${e.code})`);
    const more = problems.length > LISTED ? ` (and ${problems.length - LISTED} more)` : '';
    notes.push(`some sitemaps could not be read in full: ${listed.join('; ')}${more}`);
  }
  for (const robots of input.robots.filter((r) => r.source === 'unreachable')) {
    const why = robots.status === null ? (robots.error ?? 'no answer') : `HTTP ${robots.status}`;
    notes.push(
      `${robots.url} could not be read (${why}); as RFC 9309 asks, no page of that site was read for links (its sitemaps were still read)`,
    );
  }
  if (input.links.startError !== null) {
    notes.push(`the start page could not be fetched (${input.links.startError.detail}); only sitemaps were used`);
  } else if (input.links.failures.length > 0) {
    notes.push(`some pages could not be fetched for links: ${input.links.failures.join('; ')}`);
  }
  if (input.links.robotsBlocked > 0) {
    notes.push(
      `${input.links.robotsBlocked} linked pages were not read because robots.txt disallows them (they are still listed)`,
    );
  }
  if (input.found === 0) notes.push('no URLs were found (no sitemap, and the start page had no links in scope)');
  return notes;
}
