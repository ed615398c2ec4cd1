import { AppError } from '../../errors.js';
import { randomBase36 } from '../../ids.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import type { PageContentStore } from '../pages/page-content.js';
import type { ScrapeExecutor } from '../scrapes/scrape-executor.js';
import type { ScrapeOptions } from '../scrapes/scrape.schema.js';
import type { AnswerRequest } from './answer.schema.js';
import type { AnswerSettings } from './answer.settings.js';

/** A source read for an answer: its URL and its text as markdown (cut to the bytes budget). */
export interface ReadSource {
  url: string;
  markdown: string;
}

export interface SourceReading {
  read: ReadSource[];
  /** One line per source that could not be read (for the answer's warning). */
  failed: string[];
}

const SOURCE_OPTIONS: ScrapeOptions = { formats: ['markdown'] } as ScrapeOptions;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`{}|\\^]+/gi;

/** http(s) URLs written in the task, without trailing punctuation, once each. */
export function urlsInTask(task: string): string[] {
  const found = new Set<string>();
  for (const match of task.matchAll(URL_IN_TEXT)) {
    const url = match[0].replace(/[.,;:!?)\]]+$/, '');
    try {
      found.add(new URL(url).href);
    } catch {
      // not a URL after all
    }
  }
  return [...found];
}

/**
 * The URLs an answer reads, in order of preference: the request's `urls`, else URLs in the
 * task, else the search provider's results for the task (`search.provider`, default the
 * service's). At most `search.limit` (≤ ANSWER_MAX_SOURCES). Search failures pass through
 * (503 search_unavailable, 502 search_error, 400 for an unknown provider).
 */
export async function sourceUrls(
  task: string,
  request: AnswerRequest,
  deps: { search: SearchRegistry; teamId: string; maxSources: number; signal: AbortSignal },
): Promise<SourceUrls> {
  const max = Math.min(request.search?.limit ?? deps.maxSources, deps.maxSources);
  const none = new Map<string, string>();
  if (request.urls?.length) return { urls: unique(request.urls).slice(0, max), searched: false, stored: none };
  const inTask = urlsInTask(task);
  if (inTask.length > 0) return { urls: inTask.slice(0, max), searched: false, stored: none };
  const provider = deps.search.require(request.search?.provider);
  const results = await provider.search(searchQuery(task), { teamId: deps.teamId, limit: max, signal: deps.signal });
  const urls = unique(results.map((r) => r.url)).slice(0, max);
  const stored = new Map(results.filter((r) => r.retrieveId).map((r) => [r.url, r.retrieveId!] as const));
  return { urls, searched: true, stored };
}

/** Characters of the task a search is asked with at most (search engines refuse very long queries). */
export const SEARCH_QUERY_CHARS = 400;

/** The task as a search query: whitespace collapsed, cut at a word boundary. */
export function searchQuery(task: string): string {
  const q = task.replace(/\s+/g, ' ').trim();
  if (q.length <= SEARCH_QUERY_CHARS) return q;
  const cut = q.slice(0, SEARCH_QUERY_CHARS);
  const space = cut.lastIndexOf(' ');
  return space > SEARCH_QUERY_CHARS / 2 ? cut.slice(0, space) : cut;
}

export interface SourceUrls {
  urls: string[];
  searched: boolean;
  /** Results that are pages this deployment stored for the team: URL → retrieve_id. */
  stored: Map<string, string>;
}

/**
 * Reads the sources in parallel: pages the team stored (found by the stored-pages search) from
 * the blob store; the others through the scrape executor (the outbound guard, engines with
 * fallback, the content pipeline), each within ANSWER_SOURCE_TIMEOUT_MS; the objects the
 * executor stores are removed once read (answers keep only their JSON). Sources that fail are
 * listed, not fatal. Their markdown is kept in the URLs' order until ANSWER_MAX_BYTES.
 */
export async function readSources(
  urls: readonly string[],
  deps: {
    executor: ScrapeExecutor;
    pages: PageContentStore;
    settings: AnswerSettings;
    teamId: string;
    signal: AbortSignal;
    onRead: (done: number, total: number) => void;
    /** Pages already stored (URL → retrieve_id) and how to read one: their text is read, not fetched again. */
    stored?: Map<string, string>;
    readStored?: (pageId: string) => Promise<string | null>;
  },
): Promise<SourceReading> {
  const prepared = deps.executor.prepare(SOURCE_OPTIONS);
  let done = 0;
  const outcomes = await Promise.all(
    urls.map(async (url, i) => {
      const storedId = deps.stored?.get(url);
      if (storedId && deps.readStored) {
        const markdown = await deps.readStored(storedId).catch(() => null);
        if (markdown !== null) {
          deps.onRead(++done, urls.length);
          return { url, markdown };
        }
      }
      const pageId = `answer-source-${randomBase36(16)}`;
      const signal = AbortSignal.any([deps.signal, AbortSignal.timeout(deps.settings.sourceTimeoutMs)]);
      try {
        const executed = await deps.executor.execute(
          {
            teamId: deps.teamId,
            url,
            urlField: `sources[${i}]`,
            options: SOURCE_OPTIONS,
            pageId,
            source: 'scrape',
            signal,
          },
          prepared,
        );
        const status = executed.page.statusCode;
        if (status !== null && status >= 400) return { url, error: `answered HTTP ${status}` };
        return { url, markdown: executed.content.markdown ?? '' };
      } catch (err) {
        deps.signal.throwIfAborted();
        return { url, error: err instanceof AppError ? err.detail : 'could not be read' };
      } finally {
        await deps.pages.remove(deps.teamId, pageId).catch(() => undefined);
        deps.onRead(++done, urls.length);
      }
    }),
  );
  const read: ReadSource[] = [];
  const failed: string[] = [];
  let budget = deps.settings.maxBytes;
  for (const outcome of outcomes) {
    if ('error' in outcome) {
      failed.push(`${outcome.url}: ${outcome.error}`);
      continue;
    }
    if (budget <= 0 || outcome.markdown.trim() === '') continue;
    const markdown = cutToBytes(outcome.markdown, budget);
    budget -= Buffer.byteLength(markdown);
    read.push({ url: outcome.url, markdown });
  }
  return { read, failed };
}

function cutToBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  return Buffer.from(text)
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

function unique(urls: readonly string[]): string[] {
  return [...new Set(urls)];
}
