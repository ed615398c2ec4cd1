import type { Orm } from '../../db/orm.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import type { EngineRegistry } from '../../engine/registry.js';
import { parseTargetUrl } from '../../engine/target-url.js';
import { AppError, errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { compileUrlFilter } from '../../url/glob.js';
import { dedupeKey, normalizeUrl } from '../../url/normalize.js';
import { rankByQuery } from '../../url/rank.js';
import type { Actor } from '../auth/actor.js';
import { createEngineFetchers, type EngineFetchers } from './engine-fetchers.js';
import { createMapCursors, type MapCursors } from './map-cursor.js';
import { MAP_ENVELOPE_RESERVE_BYTES, MAP_RESPONSE_MAX_BYTES, MapResultStore } from './map-results.js';
import { UrlMap } from './map.entity.js';
import { MAP_LIST_PAGE, type CreateMapCommand, type MapOptions } from './map.schema.js';
import { mapSummaryView, type MapListView } from './map.view.js';
import { discoverSite } from './site-discovery.js';

/** Discovery budgets (MAP_TIME_BUDGET_MS, MAP_MAX_PAGES, MAP_MAX_URLS). */
export interface MapLimits {
  timeBudgetMs: number;
  maxPages: number;
  maxUrls: number;
}

export interface MapServiceDeps {
  orm: Orm;
  results: MapResultStore;
  guard: OutboundGuard;
  fetchers: EngineFetchers;
  /** The service's signing secret (cursors are HMAC-signed with it). */
  secret: string;
  limits: MapLimits;
  /** Product token matched against robots.txt groups. */
  robotsUserAgent: string;
  /** Largest response in bytes of JSON (default: the spec's 10 MB). */
  responseMaxBytes?: number;
}

/** One response of a map: the stored map and the stretch of its URLs this response carries. */
export interface MapPage {
  map: UrlMap;
  urls: string[];
  /** Continues the list; null when this response ends it. */
  cursor: string | null;
}

const WARNING_MAX_CHARS = 4000;
/** The product token robots.txt groups are matched against (`User-agent: Gleaner`). */
export const ROBOTS_PRODUCT_TOKEN = 'Gleaner';

/** POST /v1/maps and GET /v1/maps/{id}: discover a site's URLs once, store them, serve them in ≤ 10 MB pages. */
export class MapService {
  private readonly cursors: MapCursors;

  constructor(private readonly deps: MapServiceDeps) {
    this.cursors = createMapCursors(deps.secret);
  }

  async create(actor: Actor, command: CreateMapCommand, signal?: AbortSignal): Promise<MapPage> {
    if (command.cursor !== undefined) return this.continue(actor, command);
    const started = Date.now();
    const target = parseTargetUrl(command.url, 'url');
    await this.assertReachable(target);
    const { url: _url, cursor: _cursor, ...options } = command;
    const filter = compileUrlFilter(
      { include: options.include_urls, exclude: options.exclude_urls },
      { include: 'include_urls', exclude: 'exclude_urls' },
    );
    const startUrl = normalizeUrl(target)!;
    const deadline = started + this.deps.limits.timeBudgetMs;
    const timeout = AbortSignal.timeout(this.deps.limits.timeBudgetMs);
    const discovery = await discoverSite({
      startUrl,
      fetchers: this.deps.fetchers,
      includeSubdomain: options.include_subdomain ?? true,
      filter,
      maxUrls: this.deps.limits.maxUrls,
      maxPages: this.deps.limits.maxPages,
      deadline,
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      robotsUserAgent: this.deps.robotsUserAgent,
    });
    signal?.throwIfAborted();
    if (discovery.items.length === 0 && discovery.startError !== null) throw discovery.startError;
    const urls = rankedUrls(discovery.items, options);
    const map = Object.assign(new UrlMap(), {
      id: newId('map'),
      teamId: actor.teamId,
      url: startUrl,
      options: options satisfies MapOptions,
      stats: { ...discovery.stats, durationMs: Date.now() - started },
      warning: warningOf(discovery.notes),
      createdAt: new Date(),
    });
    await this.store(map, urls);
    return this.page(map, { index: 0, byte: 0 });
  }

  async get(actor: Actor, id: string, cursor?: string): Promise<MapPage> {
    if (cursor === undefined) return this.page(await this.find(actor, id), { index: 0, byte: 0 });
    const position = this.cursors.read(cursor);
    if (position.mapId !== id) throw cursorMismatch(`belongs to map ${position.mapId}, not ${id}`);
    return this.page(await this.find(actor, id), position);
  }

  /** The team's maps, newest first, without their URLs. */
  async list(actor: Actor, query: { cursor?: number; limit?: number }): Promise<MapListView> {
    const limit = query.limit ?? MAP_LIST_PAGE.default;
    const offset = query.cursor ?? 0;
    const maps = await this.deps.orm.em
      .fork()
      .find(UrlMap, { teamId: actor.teamId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: limit + 1, offset });
    return {
      maps: maps.slice(0, limit).map(mapSummaryView),
      nextCursor: maps.length > limit ? offset + limit : null,
    };
  }

  /** POST with a cursor: the stored map continues; nothing is discovered again. */
  private async continue(actor: Actor, command: CreateMapCommand): Promise<MapPage> {
    const position = this.cursors.read(command.cursor!);
    const map = await this.find(actor, position.mapId);
    if (dedupeKey(command.url) !== dedupeKey(map.url)) {
      throw cursorMismatch(`continues the map of ${map.url}, but url is ${JSON.stringify(command.url)}`);
    }
    return this.page(map, position);
  }

  private async find(actor: Actor, id: string): Promise<UrlMap> {
    const map = await this.deps.orm.em.fork().findOne(UrlMap, { id, teamId: actor.teamId });
    if (!map) throw errors.notFound('map', id);
    return map;
  }

  private async page(map: UrlMap, start: { index: number; byte: number }): Promise<MapPage> {
    const budget = (this.deps.responseMaxBytes ?? MAP_RESPONSE_MAX_BYTES) - MAP_ENVELOPE_RESERVE_BYTES;
    const list = { count: map.urlsCount, bytes: map.urlsBytes };
    const slice = await this.deps.results.read(map.teamId, map.id, list, start, budget);
    const cursor = slice.next === null ? null : this.cursors.issue({ mapId: map.id, ...slice.next });
    return { map, urls: slice.urls, cursor };
  }

  /** The list first, then the row: a row never points at a missing list. */
  private async store(map: UrlMap, urls: string[]): Promise<void> {
    const stored = await this.deps.results.write(map.teamId, map.id, urls);
    map.urlsCount = stored.count;
    map.urlsBytes = stored.bytes;
    try {
      await this.deps.orm.em.fork().persist(map).flush();
    } catch (err) {
      await this.deps.results.remove(map.teamId, map.id).catch(() => undefined);
      throw err;
    }
  }

  /** 403 before any work when the start host is refused (private address, deny list). */
  private async assertReachable(target: URL): Promise<void> {
    try {
      await this.deps.guard.assertAllowed(target);
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw errors.upstream(`url: ${target.hostname} could not be resolved (${(err as Error).message})`, err);
    }
  }
}

function rankedUrls(items: { url: string; text?: string }[], options: MapOptions): string[] {
  const query = options.search_query?.trim();
  if (query === undefined || query === '') return items.map((item) => item.url);
  return rankByQuery(items, query, options.top_n).map((ranked) => ranked.item.url);
}

function warningOf(notes: string[]): string | null {
  if (notes.length === 0) return null;
  const text = notes.join('; ');
  return text.length <= WARNING_MAX_CHARS ? text : `${text.slice(0, WARNING_MAX_CHARS - 1)}…`;
}

function cursorMismatch(problem: string): AppError {
  return new AppError('validation', 'validation_error', `cursor: ${problem}`, { metadata: { field: 'cursor' } });
}

export interface MapServiceWiring {
  orm: Orm;
  blobs: BlobStore;
  engines: EngineRegistry;
  guard: OutboundGuard;
  secret: string;
  limits: MapLimits;
  /** Budget of one fetch (SCRAPE_TIMEOUT_MS). */
  fetchTimeoutMs: number;
}

/**
 * The map service on the composition root's parts: discovery fetches through the engine
 * registry's `http` engine (so the outbound guard sees every request), lists go to the blob store.
 *
 * @example
 * const maps = createMapService({ orm, blobs, engines, guard, secret, limits: config.map, fetchTimeoutMs: config.scrape.timeoutMs });
 */
export function createMapService(wiring: MapServiceWiring): MapService {
  return new MapService({
    orm: wiring.orm,
    results: new MapResultStore(wiring.blobs),
    guard: wiring.guard,
    fetchers: createEngineFetchers(wiring.engines, { timeoutMs: wiring.fetchTimeoutMs }),
    secret: wiring.secret,
    limits: wiring.limits,
    robotsUserAgent: ROBOTS_PRODUCT_TOKEN,
  });
}
