import type { Orm } from '../../db/orm.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../auth/actor.js';
import { TEXT_FORMATS, type FormatContent, type PageContentStore, type TextFormat } from './page-content.js';
import { Page, type PageFormat } from './page.entity.js';

/** A page ready to present: inline text where small enough, hosted URLs for every stored format. */
export interface PageView {
  page: Page;
  /** Inline content of the text formats shown (null when over the inline limit). */
  inline: Partial<Record<TextFormat, string | null>>;
  hosted: Partial<Record<PageFormat, string>>;
  /** True when a shown format is over the inline limit (then only its hosted URL serves it). */
  sizeExceeded: boolean;
}

/**
 * Builds PageViews for responses, from content just produced (no read back) or from the
 * store (GET and retrieve). Also serves GET /v1/retrieve.
 */
export class PageViews {
  constructor(
    private readonly orm: Orm,
    readonly content: PageContentStore,
  ) {}

  /** A view of content just produced: inline text comes from memory. */
  async fromFresh(page: Page, content: FormatContent, formats: readonly string[]): Promise<PageView> {
    const shown = shownFormats(page, formats);
    const inline: PageView['inline'] = {};
    let sizeExceeded = false;
    for (const format of shown) {
      if (!isText(format)) continue;
      const over = this.content.exceedsInlineLimit(page, format);
      sizeExceeded ||= over;
      inline[format] = over ? null : (content[format] ?? null);
    }
    return { page, inline, hosted: await this.content.hostedUrls(page, shown), sizeExceeded };
  }

  /** A view read back from the store. */
  async fromStored(page: Page, formats: readonly string[]): Promise<PageView> {
    const shown = shownFormats(page, formats);
    const inline: PageView['inline'] = {};
    let sizeExceeded = false;
    await Promise.all(
      shown.filter(isText).map(async (format) => {
        sizeExceeded ||= this.content.exceedsInlineLimit(page, format);
        inline[format] = await this.content.readInline(page, format);
      }),
    );
    return { page, inline, hosted: await this.content.hostedUrls(page, shown), sizeExceeded };
  }

  /** GET /v1/retrieve: stored content of a scrape, batch item or crawl page of the team. */
  async retrieve(actor: Actor, retrieveId: string, formats?: readonly TextFormat[]): Promise<PageView> {
    const page = await this.orm.em.fork().findOne(Page, { id: retrieveId, teamId: actor.teamId });
    if (!page)
      throw new AppError(
        'not_found',
        'page_not_found',
        `no stored content has retrieve_id ${JSON.stringify(retrieveId)}`,
      );
    // Without `formats`, "all formats" (spec): the text formats plus the hosted URLs of a
    // screenshot or PDF the page was scraped with (crawl and batch pages have no other door).
    return this.fromStored(page, formats ?? ALL_FORMATS);
  }
}

const ALL_FORMATS = [...TEXT_FORMATS, 'screenshot', 'raw_pdf'] as const;

const isText = (format: string): format is TextFormat => (TEXT_FORMATS as readonly string[]).includes(format);

/** The requested formats the page actually has. */
function shownFormats(page: Page, formats: readonly string[]): PageFormat[] {
  return formats.filter((f): f is PageFormat => f in page.formats);
}
