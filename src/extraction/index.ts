/**
 * The deterministic extractor: fills a requested JSON Schema from a page (or text passages)
 * without a model, and the page readers the parser plugins share. Pure: no configuration, no I/O.
 */
export { extractFromFacts, extractFromHtml, extractFromPassages } from './extract.js';
export type { ExtractionResult, ExtractOptions } from './extract.js';
export { formatExtractionWarning } from './warning.js';
export { resolveSchema, looksLikeJsonSchema, isPlainObject } from './json-schema.js';
export type { JsonSchema, ResolvedSchema, SchemaType } from './json-schema.js';
export { schemaFromExample, toResolvedSchema } from './example-shape.js';
export { objectSchema, MAX_SCHEMA_BYTES } from './request-schema.js';
export type { ObjectSchema } from './request-schema.js';
export { readDocumentFacts, readHtmlFacts } from './html-facts.js';
export { readPassageFacts } from './text-facts.js';
export type { Passage } from './text-facts.js';
export type { PageFacts, RecordSource, Collection, NamedList } from './facts.js';
export { readJsonLd, parseLenient, typesOf } from './json-ld.js';
export type { JsonLdResult, LinkedNode } from './json-ld.js';
export { readMicrodata } from './microdata.js';
export { readTable, tableGrid, cellText } from './html-tables.js';
export type { ReadTable, GridCell } from './html-tables.js';
export {
  emailsInText,
  phonesInText,
  normaliseEmail,
  normalisePhone,
  phoneFromTelLink,
  mailtoAddresses,
  decodeCloudflareEmail,
} from './contact-points.js';
export { addressLine, isAddressNode, textOf, cleanText, decodeUriSafely } from './text-values.js';
export { parseNumber, currencyFromText } from './numbers.js';
export { parseDate, formatDate } from './dates.js';
export { blockText } from './dom-text.js';
export { labelPairs } from './label-lines.js';
