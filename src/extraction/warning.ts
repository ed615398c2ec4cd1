import type { ExtractionResult } from './extract.js';

const MAX_LISTED = 25;

/** A key's path as the warning names it; the empty path is a schema whose top level is a list. */
const named = (path: string): string => path || 'the list';

function list(items: string[]): string {
  if (items.length <= MAX_LISTED) return items.join(', ');
  return `${items.slice(0, MAX_LISTED).join(', ')} and ${items.length - MAX_LISTED} more`;
}

/**
 * The `warning` a response carries when the deterministic extractor filled `json_content`: why
 * no model was used, which keys came from which rule, which stayed empty.
 *
 * @example
 * formatExtractionWarning(result, 'no model provider is configured');
 * // 'json_content was filled without a model (no model provider is configured), by rules reading
 * //  the page's structured data and labels: 2 of 3 keys found: title (json-ld:Product.name),
 * //  price (json-ld:Product.offers.price). Not found on the page, left empty: sku.'
 */
export function formatExtractionWarning(result: ExtractionResult, reason = 'no model is configured'): string {
  const total = result.filled.length + result.empty.length;
  const head = `json_content was filled without a model (${reason}), by rules reading the page's structured data and labels`;
  if (total === 0) return `${head}: the schema asks for no keys.`;
  if (result.filled.length === 0) {
    return `${head}: none of the ${total} requested keys was found on the page, all are empty: ${list(result.empty.map(named))}.`;
  }
  const found = result.filled.map((path) =>
    result.provenance[path] ? `${named(path)} (${result.provenance[path]})` : named(path),
  );
  const tail = result.empty.length > 0 ? ` Not found on the page, left empty: ${list(result.empty.map(named))}.` : '';
  return `${head}: ${result.filled.length} of ${total} keys found: ${list(found)}.${tail}`;
}
