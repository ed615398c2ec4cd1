import { newId } from '../../ids.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import type { SearchResult } from '../../search/search-provider.js';
import type { Actor } from '../auth/actor.js';
import { SEARCH_LIMITS, type CreateSearchCommand } from './search.schema.js';

export interface SearchView {
  id: string;
  query: string;
  /** The provider that answered. */
  provider: string;
  results: SearchResult[];
  createdAt: Date;
}

/** Time one search may take before it is abandoned (504), whatever the provider's own timeout. */
const SEARCH_TIMEOUT_MS = 30_000;

/** `POST /v1/searches`: one query to a search provider (the same providers answers use). Not stored. */
export class SearchService {
  constructor(private readonly search: SearchRegistry) {}

  async create(actor: Actor, command: CreateSearchCommand, signal?: AbortSignal): Promise<SearchView> {
    const provider = this.search.require(command.provider);
    const limit = command.limit ?? SEARCH_LIMITS.defaultResults;
    const filtering = (command.include_domains?.length ?? 0) + (command.exclude_domains?.length ?? 0) > 0;
    const timeout = AbortSignal.timeout(SEARCH_TIMEOUT_MS);
    const found = await provider.search(command.query.trim(), {
      teamId: actor.teamId,
      // Filtered results are asked for with room to spare: some will be dropped.
      limit: filtering ? Math.min(limit * 3, SEARCH_LIMITS.maxResults * 3) : limit,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    const keep = domainFilter(command.include_domains, command.exclude_domains);
    return {
      id: newId('search'),
      query: command.query,
      provider: provider.id,
      results: found.filter((r) => keep(r.url)).slice(0, limit),
      createdAt: new Date(),
    };
  }
}

/** Whether a URL's host is on one of `include` (when given) and on none of `exclude`; subdomains count. */
export function domainFilter(include?: string[], exclude?: string[]): (url: string) => boolean {
  const norm = (d: string) =>
    d
      .trim()
      .toLowerCase()
      .replace(/^\*?\./, '')
      .replace(/\.$/, '');
  const inc = (include ?? []).map(norm).filter(Boolean);
  const exc = (exclude ?? []).map(norm).filter(Boolean);
  const on = (host: string, domains: string[]) => domains.some((d) => host === d || host.endsWith(`.${d}`));
  return (url) => {
    let host: string;
    try {
      host = new URL(url).hostname.toLowerCase();
    } catch {
      return false;
    }
    if (inc.length > 0 && !on(host, inc)) return false;
    return !on(host, exc);
  };
}
