/**
 * The HTML → markdown step, behind an interface so another converter can be measured against
 * the turndown one (docs/content-pipeline.md, "Adding a converter").
 */

export interface ConvertContext {
  /** Relative links and image URLs resolve against this (`<base href>` or the final URL). */
  baseUrl: URL;
}

/**
 * Converts a DOM subtree (linkedom nodes) to GitHub-flavoured markdown.
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
  convert(root: Element | Document, context: ConvertContext): string;
}
