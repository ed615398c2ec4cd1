import type { ProductSource } from './price.js';

/**
 * Stock: schema.org availability values and the phrases shops print, in several languages
 * (the out-of-stock list follows changedetection.io's restock processor, less phrases that are
 * too general to decide on: "coming soon", "notify me", "rupture").
 */

export type StockStatus = 'in_stock' | 'out_of_stock';

export interface AvailabilityValue {
  status: StockStatus;
  source: ProductSource;
  /** What decided it: the schema.org value (`OutOfStock`) or the phrase found (`sold out`). */
  evidence: string;
}

/** schema.org `ItemAvailability` values (and Open Graph's) that mean the item can be bought now. */
const IN_STOCK_VALUES = new Set(['instock', 'instoreonly', 'limitedavailability', 'onlineonly', 'presale', 'availablefororder', 'available']); // prettier-ignore
const OUT_OF_STOCK_VALUES = new Set(['outofstock', 'soldout', 'discontinued', 'backorder', 'preorder', 'oos', 'unavailable', 'notavailable']); // prettier-ignore

/**
 * The status a structured availability value states (`https://schema.org/InStock`, `instock`,
 * `out of stock`, `oos`), or null for values that say neither (`MadeToOrder`, `Reserved`).
 */
export function availabilityFromValue(raw: unknown): StockStatus | null {
  if (typeof raw !== 'string') return null;
  const token = raw
    .trim()
    .replace(/^https?:\/\/schema\.org\//i, '')
    .replace(/[^a-z]/gi, '')
    .toLowerCase();
  if (IN_STOCK_VALUES.has(token)) return 'in_stock';
  if (OUT_OF_STOCK_VALUES.has(token)) return 'out_of_stock';
  return null;
}

/** Short texts that start with one of these say the item can be bought (checked first, as changedetection.io does). */
const IN_STOCK_START = new RegExp(
  '^(?:' +
    [
      '\\d+ (?:in stock|available|left in stock)',
      'in stock',
      'only \\d+ left',
      'add to (?:cart|basket|bag)',
      'buy now',
      'auf lager',
      'sofort lieferbar',
      'in den warenkorb',
      'en stock',
      'ajouter au panier',
      'añadir al carrito',
      'en existencia',
      'disponibile',
      'aggiungi al carrello',
      'op voorraad',
      'in winkelwagen',
      'em estoque',
      'adicionar ao carrinho',
    ].join('|') +
    ')',
  'iu',
);

/** Phrases that say the item cannot be bought now, lower case. */
const OUT_OF_STOCK_PHRASES: readonly string[] = [
  'out of stock', 'out-of-stock', 'sold out', 'sold-out', 'temporarily out of stock', 'currently unavailable',
  'temporarily unavailable', 'not in stock', 'no longer available', 'no longer in stock', 'this item is currently unavailable',
  "isn't in stock right now", 'isn’t in stock right now', 'notify me when available', 'notify me when in stock',
  'email me when available', 'back in stock soon', 'awaiting stock', 'backordered', 'available for back order',
  'ausverkauft', 'nicht auf lager', 'nicht lagernd', 'nicht lieferbar', 'nicht verfügbar', 'nicht vorrätig',
  'nicht mehr lieferbar', 'zurzeit nicht verfügbar', 'artikel zurzeit vergriffen', 'vergriffen',
  'épuisé', 'en rupture de stock', 'rupture de stock', 'actuellement indisponible', 'article épuisé', 'indisponible',
  'agotado', 'no disponible', 'sin existencias', 'esgotado', 'indisponível', 'não disponível', 'esaurito',
  'prodotto esaurito', 'non disponibile', 'uitverkocht', 'niet op voorraad', 'niet leverbaar', 'niet beschikbaar',
  'brak w magazynie', 'produkt niedostępny', 'stokta yok', 'tükendi', '品切れ', '已售完', '품절',
]; // prettier-ignore

/** Whether one short text of a page says in stock, out of stock, or neither. */
export function availabilityFromText(text: string): { status: StockStatus; phrase: string } | null {
  const lower = text.toLowerCase().replace(/\s+/g, ' ').trim();
  if (lower === '' || lower.length > 120) return null;
  const inStock = IN_STOCK_START.exec(lower);
  if (inStock) return { status: 'in_stock', phrase: inStock[0] };
  const phrase = OUT_OF_STOCK_PHRASES.find((candidate) => lower.includes(candidate));
  return phrase ? { status: 'out_of_stock', phrase } : null;
}
