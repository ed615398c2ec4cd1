import { type CompiledSelectors, compileSelectors, removeMatching } from './selector-matcher.js';
import type { PageDocument } from './page-node.js';

/**
 * Cleanup: removes what `remove_css_selectors`, `remove_images` and `remove_class_names` name.
 * Simple selectors are tested in one walk of the document (selector-matcher.ts); the few others
 * (`header:not(article header)`, user selectors with combinators) in one css-select query.
 */

export interface CleanupOptions {
  selectors: readonly string[];
  removeImages: boolean;
  removeClassNames: readonly string[];
}

/** Compiled once per request, reused for every page (batches, crawls). */
export type CleanupPlan = CompiledSelectors;

const IMAGE_SELECTORS = ['img', 'picture', 'amp-img', 'image'];

export function planCleanup(options: CleanupOptions): CleanupPlan {
  const selectors = options.removeImages ? [...options.selectors, ...IMAGE_SELECTORS] : options.selectors;
  return compileSelectors(selectors, options.removeClassNames);
}

export function runCleanup(document: PageDocument, plan: CleanupPlan): void {
  const root = document.documentElement;
  if (root) removeMatching(root, plan);
  // Collected before removing (linkedom's querySelectorAll returns a list, the lean tree's an array).
  if (plan.complex) for (const element of [...document.querySelectorAll(plan.complex)]) element.remove();
}
