import { type AvailabilityValue, availabilityFromValue, type StockStatus } from './availability.js';
import { type PriceValue, type ProductSource, normaliseCurrency, parseStructuredAmount, priceRange } from './price.js';

/**
 * The price and availability a page states in machine-readable form, read in order of
 * trust: JSON-LD (`Product`/`ProductGroup` offers), microdata (`itemprop=price`,
 * `itemprop=availability`), then Open Graph product tags (`product:price:amount`). Like
 * changedetection.io's restock processor this is for pages about ONE product: a page whose
 * data describes several distinct products (a category listing) yields nothing here.
 */

export interface StructuredProduct {
  price: PriceValue | null;
  availability: AvailabilityValue | null;
}

interface Offers {
  amounts: string[];
  currency: string | null;
  statuses: { status: StockStatus; value: string }[];
}

type JsonObject = Record<string, unknown>;

export function readStructuredProduct(document: Document): StructuredProduct {
  const readers: Array<[ProductSource, () => Offers | null]> = [
    ['json-ld', () => readJsonLd(document)],
    ['microdata', () => readMicrodata(document)],
    ['meta', () => readMeta(document)],
  ];
  const result: StructuredProduct = { price: null, availability: null };
  for (const [source, read] of readers) {
    const offers = read();
    if (!offers) continue;
    const range = priceRange(offers.amounts);
    if (!result.price && range) result.price = { ...range, currency: offers.currency, source };
    if (!result.availability && offers.statuses.length > 0) {
      // Variants: the product can be bought when any offer can.
      const chosen =
        offers.statuses.find((s) => s.status === 'in_stock') ?? (offers.statuses[0] as Offers['statuses'][0]);
      result.availability = { status: chosen.status, source, evidence: chosen.value };
    }
    if (result.price && result.availability) break;
  }
  return result;
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function types(node: JsonObject): string[] {
  return asArray(node['@type']).filter((t): t is string => typeof t === 'string');
}

function readJsonLd(document: Document): Offers | null {
  const nodes: JsonObject[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 6) return;
    for (const item of asArray(value)) {
      if (!isObject(item)) continue;
      nodes.push(item);
      visit(item['@graph'], depth + 1);
    }
  };
  for (const script of document.querySelectorAll('script[type]')) {
    if (script.getAttribute('type')?.trim().toLowerCase() !== 'application/ld+json') continue;
    try {
      visit(JSON.parse(script.textContent ?? ''), 0);
    } catch {
      // Malformed JSON-LD is common; the next source may still say.
    }
  }
  const groups = nodes.filter((node) => types(node).includes('ProductGroup'));
  const products = nodes.filter((node) => types(node).some((t) => /Product$/.test(t) && t !== 'ProductGroup'));
  const subject = pickSubject(groups, products);
  if (subject === null) {
    const bare = nodes.filter((node) => types(node).some((t) => t === 'Offer' || t === 'AggregateOffer'));
    return bare.length > 0 ? collectOffers(bare) : null;
  }
  const offerNodes = [subject, ...asArray(subject.hasVariant).filter(isObject)].flatMap((node) => asArray(node.offers));
  return collectOffers(offerNodes.filter(isObject));
}

/** The one product the page is about: a product group, or products that are all the same item. */
function pickSubject(groups: JsonObject[], products: JsonObject[]): JsonObject | null {
  if (groups.length === 1) return groups[0] as JsonObject;
  if (products.length === 0 || groups.length > 1) return null;
  const identity = (node: JsonObject): string =>
    String(node['@id'] ?? node.sku ?? node.productID ?? node.url ?? node.name ?? JSON.stringify(node.offers ?? ''));
  const distinct = new Set(products.map(identity));
  if (distinct.size > 1) return null;
  return (products.find((node) => node.offers !== undefined) ?? products[0]) as JsonObject;
}

function collectOffers(offerNodes: JsonObject[]): Offers {
  const found: Offers = { amounts: [], currency: null, statuses: [] };
  const visit = (offer: JsonObject, depth: number): void => {
    if (depth > 3) return;
    const specs = asArray(offer.priceSpecification).filter(isObject);
    for (const raw of [offer.price, offer.lowPrice, offer.highPrice, ...specs.map((s) => s.price)]) {
      const amount = parseStructuredAmount(raw);
      if (amount !== null) found.amounts.push(amount);
    }
    const currency = offer.priceCurrency ?? specs.find((s) => s.priceCurrency)?.priceCurrency;
    if (!found.currency && typeof currency === 'string') found.currency = normaliseCurrency(currency);
    const status = availabilityFromValue(offer.availability);
    if (status) found.statuses.push({ status, value: shortValue(offer.availability as string) });
    for (const nested of asArray(offer.offers).filter(isObject)) visit(nested, depth + 1);
  };
  for (const offer of offerNodes) visit(offer, 0);
  return found;
}

function shortValue(value: string): string {
  return value.trim().replace(/^https?:\/\/schema\.org\//i, '');
}

function itemValue(element: Element): string {
  return (
    element.getAttribute('content') ??
    element.getAttribute('href') ??
    element.getAttribute('value') ??
    element.textContent ??
    ''
  ).trim();
}

function readMicrodata(document: Document): Offers | null {
  const scopes = Array.from(document.querySelectorAll('[itemscope][itemtype]')).filter((el) =>
    /schema\.org\/(?:\w*Product|ProductModel)$/i.test(el.getAttribute('itemtype')?.trim() ?? ''),
  );
  const outer = scopes.filter((scope) => !scopes.some((other) => other !== scope && other.contains(scope)));
  if (outer.length > 1) return null;
  const root: ParentNode = outer[0] ?? document;
  const found: Offers = { amounts: [], currency: null, statuses: [] };
  for (const element of root.querySelectorAll('[itemprop]')) {
    const props = (element.getAttribute('itemprop') ?? '').split(/\s+/);
    const value = itemValue(element);
    if (props.some((p) => p === 'price' || p === 'lowPrice' || p === 'highPrice')) {
      const amount = parseStructuredAmount(value);
      if (amount !== null) found.amounts.push(amount);
    }
    if (props.includes('priceCurrency') && !found.currency) found.currency = normaliseCurrency(value);
    const status = props.includes('availability') ? availabilityFromValue(value) : null;
    if (status) found.statuses.push({ status, value: shortValue(value) });
  }
  return found.amounts.length > 0 || found.statuses.length > 0 ? found : null;
}

function readMeta(document: Document): Offers | null {
  const meta = new Map<string, string>();
  for (const element of document.querySelectorAll('meta[property], meta[name]')) {
    const key = (element.getAttribute('property') ?? element.getAttribute('name') ?? '').trim().toLowerCase();
    const content = element.getAttribute('content')?.trim();
    if (key && content && !meta.has(key)) meta.set(key, content);
  }
  const amount = parseStructuredAmount(meta.get('product:price:amount') ?? meta.get('og:price:amount'));
  const currency = normaliseCurrency(meta.get('product:price:currency') ?? meta.get('og:price:currency'));
  const availability = meta.get('product:availability') ?? meta.get('og:availability');
  const status = availabilityFromValue(availability);
  if (amount === null && !status) return null;
  return {
    amounts: amount === null ? [] : [amount],
    currency,
    statuses: status ? [{ status, value: availability as string }] : [],
  };
}
