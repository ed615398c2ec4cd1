import {
  decodeCloudflareEmail,
  emailsInText,
  mailtoAddresses,
  normaliseEmail,
  readJsonLd,
  readMicrodata,
} from '../../../src/extraction/index.js';
import { type ReadablePage, requireReadable } from '../../../src/parsers/page-input.js';
import { defineParser } from '../../../src/parsers/parser.js';
import { valuesNamed } from '../support/linked-values.js';

/**
 * `@olostep/extract-emails`: every email address a page shows or links, lower-cased, without
 * repeats, in this order: `mailto:` links, the visible text (including the disguised forms
 * "jane [at] example [dot] com" and Cloudflare's `data-cfemail`), then `email` fields of JSON-LD
 * and microdata. Scripts, styles and form placeholders are not read. Reads HTML and any text
 * type (plain text, markdown, JSON...); binary content is a 422.
 *
 * @example
 * // { "emails": ["sales@example.com", "jane@example.com"] }
 */
export const extractEmailsParser = defineParser({
  id: '@olostep/extract-emails',
  description:
    'Email addresses shown or linked on the page (mailto: links, text, disguised "name [at] domain [dot] com" forms, structured data).',
  outputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      emails: {
        type: 'array',
        description: 'Distinct addresses, lower case, in page order (links first).',
        items: { type: 'string', format: 'email' },
      },
    },
    required: ['emails'],
    additionalProperties: false,
  },
  parse(input) {
    return { emails: emailsOf(requireReadable(input, '@olostep/extract-emails')) };
  },
});

/** The addresses of a page (shared with the contacts parser). */
export function emailsOf(readable: ReadablePage): string[] {
  if (readable.kind === 'text') return emailsInText(readable.text);
  const { document, baseUrl } = readable.page;
  const found: string[] = [];
  for (const link of document.querySelectorAll('a[href], area[href]')) {
    const href = link.getAttribute('href')?.trim() ?? '';
    if (/^mailto:/i.test(href)) found.push(...mailtoAddresses(href));
  }
  found.push(...emailsInText(readable.text));
  for (const element of document.querySelectorAll('[data-cfemail]')) {
    const email = decodeCloudflareEmail(element.getAttribute('data-cfemail') ?? '');
    if (email) found.push(email);
  }
  const linked = [...readJsonLd(document).items, ...readMicrodata(document, baseUrl)];
  for (const value of valuesNamed(linked, 'email')) {
    const email = normaliseEmail(value);
    if (email) found.push(email);
  }
  return [...new Set(found)];
}
