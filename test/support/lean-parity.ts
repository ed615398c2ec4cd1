import type { ContentInput, ContentOptions, ContentPipeline, ContentResult } from '../../src/pipeline/index.js';

/**
 * The lean tree against linkedom's DOM: the same page and options through both parses, every
 * format the lean path serves compared byte for byte. Used by the unit test (golden and adversarial
 * pages) and by bench/lean-parity.ts (the generated site's articles).
 */

/** Option sets the lean path serves (no html, transformer, extractor: those always take the DOM). */
export const LEAN_OPTION_SETS: Record<string, ContentOptions> = {
  default: { formats: ['markdown'] },
  everything: {
    formats: ['markdown', 'text'],
    linksOnPage: { queryToOrderLinksBy: 'install guide' },
    discoverLinks: true,
  },
  none: { formats: ['markdown', 'text'], removeCssSelectors: 'none', linksOnPage: { absoluteLinks: false } },
  custom: {
    formats: ['markdown', 'text'],
    removeCssSelectors: ['div > p:first-child', 'ul li:nth-child(2)', '[class*=note i]', 'table td + td'],
    removeImages: true,
    removeClassNames: ['highlight', 'lead'],
  },
};

/** What the lean path produces (timings aside). */
function comparable(result: ContentResult): Omit<ContentResult, 'timings'> {
  const { timings: _timings, ...rest } = result;
  return rest;
}

export interface ParityCheck {
  /** The option set that differed, and the first differing field. */
  differences: { options: string; field: string; lean: unknown; dom: unknown }[];
  /** Option sets where linkedom's path threw (the lean path then must not). */
  domFailures: { options: string; error: string }[];
}

/** Runs `input` through both parses with every option set; the differences say where they disagree. */
export function checkLeanParity(pipeline: ContentPipeline, input: ContentInput): ParityCheck {
  const check: ParityCheck = { differences: [], domFailures: [] };
  for (const [name, options] of Object.entries(LEAN_OPTION_SETS)) {
    const prepared = pipeline.prepare(options);
    if (prepared.needsDom) throw new Error(`option set ${name} needs the DOM: it does not test the lean path`);
    const lean = comparable(pipeline.process(input, prepared));
    let dom: Omit<ContentResult, 'timings'>;
    try {
      dom = comparable(pipeline.process(input, { ...prepared, needsDom: true }));
    } catch (err) {
      check.domFailures.push({ options: name, error: (err as Error).message });
      continue;
    }
    for (const field of new Set([...Object.keys(lean), ...Object.keys(dom)])) {
      const a = JSON.stringify(lean[field as keyof typeof lean]);
      const b = JSON.stringify(dom[field as keyof typeof dom]);
      if (a !== b) check.differences.push({ options: name, field, lean: a, dom: b });
    }
  }
  return check;
}
