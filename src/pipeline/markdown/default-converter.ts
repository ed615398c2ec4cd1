import type { MarkdownConverter } from '../markdown-converter.js';
import { loadMdream } from './mdream-binding.js';
import { createMdreamConverter } from './mdream-converter.js';
import { createTurndownConverter } from './turndown-converter.js';

/** The converter a pipeline uses when none is given, and why the faster ones were not used. */
export interface DefaultMarkdownConverter {
  converter: MarkdownConverter;
  /** Empty when mdream's native addon loaded; else what failed (the composition root logs it once). */
  problems: string[];
}

let chosen: DefaultMarkdownConverter | null = null;

/**
 * The fastest converter that loads, once per thread: mdream's native addon, else its WebAssembly
 * build, else turndown. Both mdream builds give the turndown converter's markdown (the golden
 * pages hold them to it) for a fraction of its CPU; turndown also converts any page whose
 * native conversion throws.
 *
 * @example
 * const { converter, problems } = defaultMarkdownConverter();
 * if (problems.length > 0) logger.info({ converter: converter.id, problems }, 'markdown converter');
 */
export function defaultMarkdownConverter(): DefaultMarkdownConverter {
  if (chosen) return chosen;
  const turndown = createTurndownConverter();
  const { binding, problems } = loadMdream();
  chosen = binding
    ? { converter: createMdreamConverter(binding, { fallback: turndown }), problems }
    : { converter: turndown, problems };
  return chosen;
}
