import type { BlobStore } from '../../storage/blob-store.js';
import type { Page, PageFormat, StoredFormats } from './page.entity.js';

/** The content of a page's formats, as produced by a fetch. */
export type FormatContent = Partial<
  Record<'markdown' | 'html' | 'text' | 'json', string> & Record<'screenshot' | 'raw_pdf', Buffer>
>;

const FILES: Record<PageFormat, { name: string; contentType: string }> = {
  markdown: { name: 'content.md', contentType: 'text/markdown; charset=utf-8' },
  html: { name: 'content.html', contentType: 'text/html; charset=utf-8' },
  text: { name: 'content.txt', contentType: 'text/plain; charset=utf-8' },
  json: { name: 'content.json', contentType: 'application/json; charset=utf-8' },
  screenshot: { name: 'screenshot.png', contentType: 'image/png' },
  raw_pdf: { name: 'document.pdf', contentType: 'application/pdf' },
};

/** Response field of each format's hosted URL (spec; `pdf_hosted_url` per decisions.md). */
export const HOSTED_URL_FIELD: Record<PageFormat, string> = {
  markdown: 'markdown_hosted_url',
  html: 'html_hosted_url',
  text: 'text_hosted_url',
  json: 'json_hosted_url',
  screenshot: 'screenshot_hosted_url',
  raw_pdf: 'pdf_hosted_url',
};

/** Formats whose content is returned inline (as `<format>_content`) when small enough. */
export const TEXT_FORMATS = ['markdown', 'html', 'text', 'json'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

export interface PageContentOptions {
  /** Lifetime of hosted URLs (spec: 7 days). */
  hostedUrlTtlSeconds: number;
  /** Formats larger than this are not inlined (spec: 6 MB). */
  inlineLimitBytes: number;
}

/**
 * Keeps each format of a page as an object (`teams/<team>/pages/<retrieve_id>/content.md`, ...)
 * and hands out signed, expiring URLs to them. Writing is all-or-nothing: when one object
 * fails, the others are removed, so a failed fetch leaves no half-written content.
 */
export class PageContentStore {
  constructor(
    private readonly blobs: BlobStore,
    readonly options: PageContentOptions,
  ) {}

  private prefix(teamId: string, pageId: string): string {
    return `teams/${teamId}/pages/${pageId}/`;
  }

  async write(teamId: string, pageId: string, content: FormatContent): Promise<StoredFormats> {
    const entries = Object.entries(content).filter(([, v]) => v !== undefined) as [PageFormat, string | Buffer][];
    const stored: StoredFormats = {};
    const results = await Promise.allSettled(
      entries.map(async ([format, body]) => {
        const file = FILES[format];
        const key = this.prefix(teamId, pageId) + file.name;
        const info = await this.blobs.put(key, body, { contentType: file.contentType });
        stored[format] = { key, bytes: info.size, contentType: file.contentType };
      }),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) {
      await this.remove(teamId, pageId).catch(() => undefined);
      throw failed.reason;
    }
    return stored;
  }

  /** Removes every object of a page. */
  async remove(teamId: string, pageId: string): Promise<void> {
    await this.blobs.deletePrefix(this.prefix(teamId, pageId));
  }

  /** Signed URLs for the page's stored formats (all, or those listed). */
  async hostedUrls(page: Page, formats?: readonly PageFormat[]): Promise<Partial<Record<PageFormat, string>>> {
    const wanted = (formats ?? (Object.keys(page.formats) as PageFormat[])).filter((f) => page.formats[f]);
    const urls: Partial<Record<PageFormat, string>> = {};
    await Promise.all(
      wanted.map(async (format) => {
        const stored = page.formats[format]!;
        urls[format] = await this.blobs.signedGetUrl(stored.key, {
          expiresInSeconds: this.options.hostedUrlTtlSeconds,
          filename: `${page.id}-${FILES[format].name}`,
        });
      }),
    );
    return urls;
  }

  /** True when a format is too large to be returned inline. */
  exceedsInlineLimit(page: Page, format: PageFormat): boolean {
    return (page.formats[format]?.bytes ?? 0) > this.options.inlineLimitBytes;
  }

  /** The text of a stored format, or null when absent or over the inline limit. */
  async readInline(page: Page, format: TextFormat): Promise<string | null> {
    const stored = page.formats[format];
    if (!stored || this.exceedsInlineLimit(page, format)) return null;
    const body = await this.blobs.get(stored.key);
    return body === null ? null : body.toString('utf8');
  }
}
