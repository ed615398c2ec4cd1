import type { PageDocument, PageElement } from './page-node.js';

/**
 * The HTML → markdown step, behind an interface so another converter can be measured against
 * the turndown one (docs/content-pipeline.md, "Adding a converter").
 */

export interface ConvertContext {
  /** Relative links and image URLs resolve against this (`<base href>` or the final URL). */
  baseUrl: URL;
}

/**
 * Converts a DOM subtree (linkedom's nodes, or the lean tree when `leanTree`) to GitHub-flavoured markdown.
 *
 * Contract: `convert` may consume the subtree (the turndown converter collapses whitespace in
 * place rather than paying for a clone), so callers convert last. Output: links and images
 * absolute, fenced code blocks with their language, GFM tables, no runs of blank lines, no
 * leading or trailing blank lines.
 *
 * @example
 * const converter: MarkdownConverter = {
 *   id: 'text-only',
 *   convert: (root) => (root.textContent ?? '').trim(),
 * };
 * createContentPipeline({ converter });
 */
export interface MarkdownConverter {
  readonly id: string;
  /**
   * True when `convert` reads only the `PageNode` members (page-node.ts), so it can be given the
   * lean tree; otherwise pages that ask for markdown are parsed with linkedom for it (turndown).
   */
  readonly leanTree?: boolean;
  convert(root: PageElement | PageDocument, context: ConvertContext): string;
}

/**
 * Thrown by a converter given the lean tree when it can only convert the page with linkedom's DOM
 * (the mdream converter's turndown fallback); the pipeline then processes the page again with it.
 */
export class NeedsDomError extends Error {
  constructor(readonly reason: unknown) {
    super(`the conversion needs linkedom's DOM: ${(reason as Error)?.message ?? String(reason)}`);
    this.name = 'NeedsDomError';
  }
}
