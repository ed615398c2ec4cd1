import { type ConvertContext, type MarkdownConverter, NeedsDomError } from '../markdown-converter.js';
import { isLeanNode } from '../lean/lean-tree.js';
import { writeConverterHtml } from './converter-html.js';
import { polishConverterOutput } from './converter-output.js';
import { MarkdownDraft } from './markdown-draft.js';
import type { MdreamBinding } from './mdream-binding.js';
import { tidyMarkdown } from './tidy.js';
import type { PageDocument, PageElement } from '../page-node.js';

export interface MdreamConverterOptions {
  /**
   * Converts a page whose native conversion fails (a WebAssembly panic, output that lost a
   * document); without it the error is thrown.
   */
  fallback?: MarkdownConverter;
}

/**
 * The markdown converter built on mdream (Rust): the content subtree is written as HTML the
 * converter renders the way this project's rules want (converter-html.ts), converted in one native
 * call with the snippets its tables and definition lists need, then brought to the same escaping
 * and layout as the turndown converter (converter-output.ts, tidy.ts): the same markdown for a
 * fraction of the CPU (docs/content-pipeline.md, "Converters compared").
 *
 * Does not change the DOM, so a fallback converter can still convert it. Reads only `PageNode`
 * members, so it converts the lean tree as well as linkedom's DOM.
 *
 * @example
 * const { binding } = loadMdream();
 * const converter = binding ? createMdreamConverter(binding, { fallback: createTurndownConverter() }) : null;
 */
export function createMdreamConverter(binding: MdreamBinding, options: MdreamConverterOptions = {}): MarkdownConverter {
  return {
    id: binding.kind === 'native' ? 'mdream' : 'mdream-wasm',
    leanTree: true,
    convert(root: PageElement | PageDocument, context: ConvertContext): string {
      const draft = new MarkdownDraft();
      const html = draft.documents(writeConverterHtml(root, context.baseUrl, draft));
      let markdown: string;
      try {
        markdown = draft.finish(polishConverterOutput(binding.convert(html)));
      } catch (err) {
        if (!options.fallback) throw err;
        // The fallback (turndown) needs linkedom's DOM: the pipeline processes the page again with one.
        if (isLeanNode(root) && !options.fallback.leanTree) throw new NeedsDomError(err);
        return options.fallback.convert(root, context);
      }
      return tidyMarkdown(markdown);
    },
  };
}
