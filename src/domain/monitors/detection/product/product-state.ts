import type { AvailabilityValue, StockStatus } from './availability.js';
import type { PriceValue } from './price.js';
import type { StructuredProduct } from './structured-data.js';
import { readVisibleAvailability, readVisiblePrice } from './visible-product.js';

/**
 * The restock and price processors: structured values read from each snapshot and compared
 * across snapshots ("price went from $19.99 to $17.49", "back in stock"), like
 * changedetection.io's restock processor. A value that cannot be read is null ("unknown"),
 * and a move to or from unknown is never reported as a change: the text diff still shows
 * whatever the page printed.
 */

export interface ProductState {
  price: PriceValue | null;
  availability: AvailabilityValue | null;
}

export interface ProcessorOptions {
  /** Read and compare the price (default true). */
  price: boolean;
  /** Read and compare the stock status (default true). */
  restock: boolean;
}

export type ProductChange =
  | {
      field: 'price';
      from: PriceValue;
      to: PriceValue;
      /** `changed` when the currency changed or only the top of a range moved. */
      direction: 'up' | 'down' | 'changed';
      /** Signed change of the (lowest) amount in percent, one decimal; null across currencies. */
      percent: number | null;
    }
  | { field: 'availability'; from: StockStatus; to: StockStatus; back_in_stock: boolean };

/**
 * Decides the product state of a page from its structured data (read before cleanup) and its
 * visible content `roots` (after cleanup). Structured data wins, except that a visible
 * out-of-stock phrase overrides structured "in stock" (shops leave stale availability in
 * their JSON-LD; changedetection.io makes the same call). With a price and no stock signal at
 * all, the item is taken to be in stock (`source: 'inferred'`).
 */
export function decideProductState(
  structured: StructuredProduct,
  roots: readonly Element[],
  options: ProcessorOptions,
): ProductState {
  const price = options.price || options.restock ? (structured.price ?? readVisiblePrice(roots)) : null;
  let availability: AvailabilityValue | null = null;
  if (options.restock) {
    const visible = readVisibleAvailability(roots);
    if (structured.availability) {
      const stale = structured.availability.status === 'in_stock' && visible?.status === 'out_of_stock';
      availability = stale ? visible : structured.availability;
    } else if (visible) {
      availability = visible;
    } else if (price) {
      availability = { status: 'in_stock', source: 'inferred', evidence: 'a price and no out-of-stock text' };
    }
  }
  return { price: options.price ? price : null, availability };
}

function samePrice(a: PriceValue, b: PriceValue): boolean {
  return a.amount === b.amount && (a.high ?? a.amount) === (b.high ?? b.amount) && a.currency === b.currency;
}

function priceChange(from: PriceValue, to: PriceValue): ProductChange {
  const sameCurrency = from.currency === to.currency;
  const before = Number(from.amount);
  const after = Number(to.amount);
  const direction = !sameCurrency || before === after ? 'changed' : after > before ? 'up' : 'down';
  const percent = sameCurrency && before > 0 ? Math.round(((after - before) / before) * 1000) / 10 : null;
  return { field: 'price', from, to, direction, percent };
}

/** The price and stock changes between two states, price first. */
export function compareProductStates(
  previous: ProductState | null,
  current: ProductState | null,
  options: ProcessorOptions,
): ProductChange[] {
  const changes: ProductChange[] = [];
  if (!previous || !current) return changes;
  if (options.price && previous.price && current.price && !samePrice(previous.price, current.price)) {
    changes.push(priceChange(previous.price, current.price));
  }
  const from = previous.availability?.status;
  const to = current.availability?.status;
  if (options.restock && from && to && from !== to) {
    changes.push({ field: 'availability', from, to, back_in_stock: to === 'in_stock' });
  }
  return changes;
}
