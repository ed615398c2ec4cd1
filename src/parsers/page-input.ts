import { pageRoot, parsePage, type ParsedPage } from '../pipeline/dom.js';
import { classifyContent } from '../pipeline/non-html.js';
import { htmlToText } from '../pipeline/text-converter.js';
import { type ParserInput, ParserInputError } from './parser.js';

/** What a parser reads a page as: its parsed HTML, or its text for parsers that also read text. */
export type ReadablePage = { kind: 'html'; page: ParsedPage; text: string } | { kind: 'text'; text: string };

/** Text types a text-reading parser accepts besides HTML. */
const TEXT_TYPES =
  /^(?:text\/|application\/(?:json|xml|javascript|x-javascript|ld\+json|x-yaml|yaml)$|application\/[\w.+-]+\+(?:json|xml)$)/;

/**
 * The page as HTML, or a 422 `invalid_parser_input` naming what it is instead. XHTML and pages
 * served without a content type that sniff as HTML count as HTML.
 *
 * @example
 * const { document, baseUrl } = requireHtml(page, 'tables');
 */
export function requireHtml(input: ParserInput, parserId: string): ParsedPage {
  const type = input.contentType.trim().toLowerCase();
  if (!input.text.trim())
    throw new ParserInputError(parserId, `the page has no text (${type || 'unknown content type'})`);
  if (classifyContent(type, input.text) !== 'html') {
    throw new ParserInputError(parserId, `${type || 'the content'} is not an HTML page`);
  }
  return parsePage(input.text, input.url);
}

/**
 * The page as HTML when it is HTML, else as text for any textual content type (plain text,
 * markdown, JSON, XML, CSV...). Binary content (PDF, images, archives) is a 422.
 */
export function requireReadable(input: ParserInput, parserId: string): ReadablePage {
  const type = input.contentType.trim().toLowerCase();
  if (classifyContent(type, input.text) === 'html') {
    const page = parsePage(input.text, input.url);
    return { kind: 'html', page, text: htmlToText(pageRoot(page.document)) };
  }
  if (type !== '' && !TEXT_TYPES.test(type)) throw new ParserInputError(parserId, `${type} is not a text or HTML page`);
  return { kind: 'text', text: input.text };
}
