import { readJsonLd, readMicrodata } from '../../../src/extraction/index.js';
import { requireHtml } from '../../../src/parsers/page-input.js';
import { defineParser } from '../../../src/parsers/parser.js';

/**
 * `structured-data`: every schema.org item the page declares. `json_ld`: each JSON-LD node as
 * written (an `@graph`'s members listed one by one, broken scripts repaired where a browser would
 * forgive them: comment wrappers, trailing commas, raw line breaks in strings); `microdata`:
 * each top-level microdata item in the JSON-LD shape (`@type`, `@id`, properties, nested items as
 * nodes); `errors`: scripts that could not be read. HTML pages only.
 *
 * @example
 * // { "json_ld": [{ "@context": "https://schema.org", "@type": "Product", "name": "Boot" }],
 * //   "microdata": [{ "@type": "Offer", "price": "189.00" }], "errors": [] }
 */
export const structuredDataParser = defineParser({
  id: 'structured-data',
  description: 'Every JSON-LD node and microdata item on the page, microdata in the JSON-LD shape.',
  outputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      json_ld: {
        type: 'array',
        description: 'JSON-LD nodes in page order (members of an @graph listed one by one).',
        items: { type: 'object' },
      },
      microdata: {
        type: 'array',
        description: 'Top-level microdata items: @type from itemtype, @id from itemid, properties by itemprop.',
        items: { type: 'object' },
      },
      errors: {
        type: 'array',
        description: 'One line per JSON-LD script that is not JSON even after repair.',
        items: { type: 'string' },
      },
    },
    required: ['json_ld', 'microdata', 'errors'],
    additionalProperties: false,
  },
  parse(input) {
    const { document, baseUrl } = requireHtml(input, 'structured-data');
    const { items, errors } = readJsonLd(document, { linkReferences: false });
    return { json_ld: items, microdata: readMicrodata(document, baseUrl), errors };
  },
});
