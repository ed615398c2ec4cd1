import TurndownService from 'turndown';
import type { ConvertContext, MarkdownConverter } from '../markdown-converter.js';
import { blockRules } from './block-rules.js';
import { codeRules, inlineCode } from './code-rules.js';
import { escapeMarkdownText } from './escape.js';
import { type ConversionState, inlineRules } from './inline-rules.js';
import { tableRules } from './table-rule.js';
import { tidyMarkdown } from './tidy.js';

/**
 * The markdown converter built on turndown, configured for GFM output (ATX headings, `-` bullets,
 * fenced code, `**strong**`, `*emphasis*` (works inside words, unlike `_`), `---` rules, inline links) with the rules of this folder.
 *
 * @example
 * const converter = createTurndownConverter();
 * converter.convert(document.body, { baseUrl: new URL('https://example.com/docs/') });
 */
export function createTurndownConverter(): MarkdownConverter {
  const state: ConversionState = { baseUrl: new URL('http://localhost/') };
  const service = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    fence: '```',
    emDelimiter: '*',
    strongDelimiter: '**',
    linkStyle: 'inlined',
    br: '  ',
  });
  service.escape = escapeMarkdownText;
  service.addRule('inlineCode', {
    filter: (node) => node.nodeName === 'CODE' && node.parentNode?.nodeName !== 'PRE',
    replacement: (content) => inlineCode(content),
  });
  blockRules(service);
  codeRules(service);
  inlineRules(service, state);
  tableRules(service);
  return {
    id: 'turndown',
    convert(root: Element | Document, context: ConvertContext): string {
      state.baseUrl = context.baseUrl;
      return tidyMarkdown(turndownInPlace(service, root));
    },
  };
}

/**
 * turndown clones its input before collapsing whitespace; on linkedom the clone of a 50 KB page
 * costs about as much as parsing it. The pipeline owns the DOM and converts last (the
 * MarkdownConverter contract), so the conversion works on the nodes themselves.
 */
function turndownInPlace(service: TurndownService, root: Element | Document): string {
  Object.defineProperty(root, 'cloneNode', { value: () => root, configurable: true, writable: true });
  try {
    return service.turndown(root as unknown as TurndownService.Node);
  } finally {
    delete (root as { cloneNode?: unknown }).cloneNode;
  }
}
