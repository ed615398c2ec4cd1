import {
  createMdreamConverter,
  createTurndownConverter,
  loadMdream,
  type MarkdownConverter,
} from '../../src/pipeline/index.js';

/**
 * Every markdown converter the service may run, for tests that hold them all to the same output:
 * turndown, mdream's WebAssembly build, and mdream's native addon when it is installed (npm skips
 * it on Node 20: docs/content-pipeline.md, "Installing mdream"). A converter that cannot load
 * here is listed with the reason, so a test can say it skipped it rather than pass silently.
 */
export interface ConverterCase {
  name: string;
  converter: MarkdownConverter | null;
  /** Why `converter` is null. */
  missing?: string;
}

export function markdownConverters(): ConverterCase[] {
  const wasm = loadMdream('wasm');
  const native = loadMdream('native');
  return [
    { name: 'turndown', converter: createTurndownConverter() },
    {
      name: 'mdream-wasm',
      converter: wasm.binding ? createMdreamConverter(wasm.binding) : null,
      missing: wasm.problems.join('; '),
    },
    {
      name: 'mdream',
      converter: native.binding?.kind === 'native' ? createMdreamConverter(native.binding) : null,
      missing: native.problems.join('; '),
    },
  ];
}
