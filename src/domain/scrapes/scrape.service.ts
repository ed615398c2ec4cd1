import type { Orm } from '../../db/orm.js';
import { exec, execLarge } from '../../db/sql.js';
import { errors } from '../../errors.js';
import { idSuffix, newId } from '../../ids.js';
import type { Actor } from '../auth/actor.js';
import type { PageView, PageViews } from '../pages/page-views.js';
import { PAGE_INSERT_COLUMNS, PAGE_INSERT_VALUES, pageInsertParams } from '../pages/page-row.js';
import { Page } from '../pages/page.entity.js';
import type { ScrapeExecutor } from './scrape-executor.js';
import { wantsScreenshot } from './scrape-plan.js';
import { Scrape } from './scrape.entity.js';
import { SCRAPE_LIST_PAGE, type CreateScrapeCommand, type ScrapeOptions } from './scrape.schema.js';
import { scrapeSummaryView, type ScrapeListView, type ScrapeSummaryRow } from './scrape.view.js';

export interface ScrapeView {
  scrape: Scrape;
  page: PageView;
  /** Formats the request asked for. */
  formats: string[];
  linksRequested: boolean;
}

/** POST /v1/scrapes and GET /v1/scrapes/{id}: one URL, synchronously. */
export class ScrapeService {
  constructor(
    private readonly orm: Orm,
    private readonly executor: ScrapeExecutor,
    private readonly views: PageViews,
  ) {}

  async create(actor: Actor, command: CreateScrapeCommand, signal?: AbortSignal): Promise<ScrapeView> {
    const { url_to_scrape, url, metadata, ...options } = command;
    const target = (url_to_scrape ?? url)!;
    const prepared = this.executor.prepare(options);
    const scrapeId = newId('scrape');
    // A scrape's retrieve_id is the suffix of its id (decisions.md: opaque to clients).
    const pageId = idSuffix('scrape', scrapeId)!;
    const executed = await this.executor.execute(
      {
        teamId: actor.teamId,
        url: target,
        urlField: url_to_scrape !== undefined ? 'url_to_scrape' : 'url',
        options,
        pageId,
        source: 'scrape',
        signal,
      },
      prepared,
    );
    const scrape = Object.assign(new Scrape(), {
      id: scrapeId,
      teamId: actor.teamId,
      url: executed.page.url,
      pageId,
      request: options as Record<string, unknown>,
      metadata: metadata ?? {},
      warning: executed.warnings.length > 0 ? executed.warnings.join('; ') : null,
      createdAt: new Date(),
    });
    try {
      // One statement, one round trip: the page and the scrape are stored together or not at all.
      await execLarge(
        this.orm.em,
        `with page as (insert into pages (${PAGE_INSERT_COLUMNS}) values (${PAGE_INSERT_VALUES}) returning id)
         insert into scrapes (id, team_id, url, page_id, request, metadata, warning, created_at)
         select ?, ?, ?, page.id, ?, ?, ?, now() from page`,
        [
          ...pageInsertParams(executed.page),
          scrape.id,
          scrape.teamId,
          scrape.url,
          JSON.stringify(scrape.request),
          JSON.stringify(scrape.metadata),
          scrape.warning,
        ],
      );
    } catch (err) {
      await this.views.content.remove(actor.teamId, pageId).catch(() => undefined);
      throw err;
    }
    return this.view(
      scrape,
      await this.views.fromFresh(executed.page, executed.content, requestedFormats(options)),
      options,
    );
  }

  async get(actor: Actor, id: string): Promise<ScrapeView> {
    const em = this.orm.em.fork();
    const scrape = await em.findOne(Scrape, { id, teamId: actor.teamId });
    if (!scrape) throw errors.notFound('scrape', id);
    const page = await em.findOneOrFail(Page, { id: scrape.pageId });
    const options = scrape.request as ScrapeOptions;
    return this.view(scrape, await this.views.fromStored(page, requestedFormats(options)), options);
  }

  /** The team's scrapes, newest first, without their content. */
  async list(actor: Actor, query: { cursor?: number; limit?: number }): Promise<ScrapeListView> {
    const limit = query.limit ?? SCRAPE_LIST_PAGE.default;
    const offset = query.cursor ?? 0;
    const rows = await exec<ScrapeSummaryRow & { request: ScrapeOptions }>(
      this.orm.em.fork(),
      `select s.id, s.url, s.page_id, s.request, s.metadata, s.warning, s.created_at, p.page_metadata
       from scrapes s join pages p on p.id = s.page_id
       where s.team_id = ? order by s.created_at desc, s.id desc limit ? offset ?`,
      [actor.teamId, limit + 1, offset],
    );
    return {
      scrapes: rows.slice(0, limit).map((row) => scrapeSummaryView(row, requestedFormats(row.request ?? {}))),
      nextCursor: rows.length > limit ? offset + limit : null,
    };
  }

  private view(scrape: Scrape, page: PageView, options: ScrapeOptions): ScrapeView {
    return { scrape, page, formats: requestedFormats(options), linksRequested: options.links_on_page !== undefined };
  }
}

function requestedFormats(options: ScrapeOptions): string[] {
  const formats = [...(options.formats ?? ['markdown'])];
  if (wantsScreenshot(options) && !formats.includes('screenshot')) formats.push('screenshot');
  // A parser or llm_extract implies json (scrape-plan.ts).
  if ((options.parser || options.llm_extract) && !formats.includes('json')) formats.push('json');
  return formats;
}
