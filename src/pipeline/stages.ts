import { runCleanup } from './cleanup.js';
import { resolveUrl } from './dom.js';
import { collectLinks } from './links.js';
import { discoverLinks } from './page-links.js';
import type { MarkdownConverter } from './markdown-converter.js';
import { extractPageMetadata } from './metadata.js';
import type { PreparedContentOptions } from './options.js';
import { htmlToText } from './text-converter.js';
import type { PageDocument, PageElement } from './page-node.js';
import type { ContentResult } from './types.js';

/** One parsed page moving through the stages. */
export interface PageContext {
  /** The parsed page: the lean tree, or linkedom's document when `options.needsDom`. */
  document: PageDocument;
  /** linkedom's document, for the stages that need a real DOM (only when `options.needsDom`). */
  dom: Document | null;
  baseUrl: URL;
  /** What the formats are made of: the page root, then the transformer's main content. */
  root: PageElement;
  options: PreparedContentOptions;
  result: ContentResult;
}

/**
 * linkedom's document for a stage that needs it. Such stages only run when `options.needsDom`
 * (options.ts decides it from the same request fields), so its absence is a bug in that decision.
 */
export function requireDom(page: PageContext, stage: string): Document {
  if (!page.dom) throw new Error(`the ${stage} stage needs linkedom's DOM, but options.needsDom is false`);
  return page.dom;
}

/**
 * A step of the HTML pipeline. Stages run in order, each only when `wanted` says its output was
 * asked for, and each is timed under its id. Order matters: metadata and links read the page as
 * served, cleanup and the transformer reshape it, the converters read the result, and markdown
 * comes last because its converter may consume the DOM.
 */
export interface ContentStage {
  readonly id: string;
  wanted(options: PreparedContentOptions): boolean;
  run(page: PageContext): void;
}

const anyFormat = (options: PreparedContentOptions): boolean =>
  options.formats.markdown || options.formats.html || options.formats.text;

export const metadataStage: ContentStage = {
  id: 'metadata',
  wanted: () => true,
  run: (page) => {
    page.result.metadata = extractPageMetadata(page.document, page.baseUrl);
  },
};

export const linksStage: ContentStage = {
  id: 'links',
  wanted: (options) => options.links !== null || options.discoverLinks,
  run: (page) => {
    if (page.options.links) page.result.links = collectLinks(page.document, page.baseUrl, page.options.links);
    if (page.options.discoverLinks) page.result.pageLinks = discoverLinks(page.document, page.baseUrl);
  },
};

export const cleanupStage: ContentStage = {
  id: 'cleanup',
  wanted: anyFormat,
  run: (page) => runCleanup(page.document, page.options.cleanup),
};

export const transformerStage: ContentStage = {
  id: 'transformer',
  wanted: (options) => anyFormat(options) && options.transformer !== null,
  run: (page) => {
    const document = requireDom(page, 'transformer');
    // With the DOM, the page root is one of its elements.
    const transformed = page.options.transformer?.transform({
      document,
      root: page.root as Element,
      baseUrl: page.baseUrl,
    });
    if (!transformed) return;
    const root = transformed.root;
    if (transformed.title && !root.querySelector('h1')) {
      const heading = document.createElement('h1');
      heading.textContent = transformed.title;
      root.insertBefore(heading, root.firstChild);
    }
    page.root = root;
  },
};

export const htmlStage: ContentStage = {
  id: 'html',
  wanted: (options) => options.formats.html,
  run: (page) => {
    requireDom(page, 'html');
    const root = page.root as Element;
    absolutiseUrls(root, page.baseUrl);
    page.result.html = root.innerHTML.trim();
  },
};

export const textStage: ContentStage = {
  id: 'text',
  wanted: (options) => options.formats.text,
  run: (page) => {
    page.result.text = htmlToText(page.root);
  },
};

export function markdownStage(converter: MarkdownConverter): ContentStage {
  return {
    id: 'markdown',
    wanted: (options) => options.formats.markdown,
    run: (page) => {
      page.result.markdown = converter.convert(page.root, { baseUrl: page.baseUrl });
    },
  };
}

/** The html format carries absolute links and image URLs, like the markdown. */
function absolutiseUrls(root: Element, baseUrl: URL): void {
  for (const element of root.querySelectorAll('[href], [src]')) {
    for (const name of ['href', 'src']) {
      const value = element.getAttribute(name);
      if (value === null || value.trim().startsWith('#')) continue;
      const absolute = resolveUrl(value, baseUrl);
      if (absolute && absolute !== value) element.setAttribute(name, absolute);
    }
  }
}
