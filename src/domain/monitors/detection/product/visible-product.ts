import { type AvailabilityValue, availabilityFromText } from './availability.js';
import { type PriceValue, pricesInText } from './price.js';

/**
 * What a product page shows a reader, for pages without structured data: the price printed
 * in price-named elements, and stock phrases in the page's short texts and buttons.
 * Recommendation blocks ("related products", "customers also bought") are skipped: their
 * "Sold out" badges and prices belong to other products. Struck-through and "was" prices are
 * skipped too. Several different prices mean the page is not about one product: no price.
 */

const RELATED =
  /related|recommend|upsell|up-sell|cross-?sell|similar|also-(?:bought|viewed|like)|you-may|carousel|recently-viewed/i;
const OLD_PRICE = /(?:^|[-_\s])(?:old|was|compare|compare-at|original|strike|crossed|before|rrp|msrp)(?:[-_\s]|$)/i;
const PRICE_ELEMENTS = '[class*=price i], [id*=price i], [data-price], [itemprop=price]';
const STRUCK = new Set(['DEL', 'S', 'STRIKE']);

function attributeText(element: Element): string {
  return `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`;
}

/** True when the element or an ancestor (up to `root`) is a recommendation block or a struck price. */
function isExcluded(element: Element, root: Element, old: boolean): boolean {
  for (let node: Element | null = element; node && node !== root.parentElement; node = node.parentElement) {
    const names = attributeText(node);
    if (RELATED.test(names)) return true;
    if (old && (STRUCK.has(node.nodeName) || OLD_PRICE.test(node.getAttribute('class') ?? ''))) return true;
  }
  return false;
}

export function readVisiblePrice(roots: readonly Element[]): PriceValue | null {
  const found: { amount: string; currency: string | null }[] = [];
  for (const root of roots) {
    const candidates = Array.from(root.querySelectorAll(PRICE_ELEMENTS));
    const leaves = candidates.filter((el) => !candidates.some((other) => other !== el && el.contains(other)));
    for (const element of leaves) {
      if (isExcluded(element, root, true)) continue;
      const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (text.length > 0 && text.length <= 40) found.push(...pricesInText(text));
    }
  }
  const amounts = new Set(found.map((price) => price.amount));
  if (amounts.size !== 1) return null;
  const first = found[0] as { amount: string; currency: string | null };
  return { amount: first.amount, currency: first.currency, source: 'text' };
}

const BUTTON_INPUT_TYPES = new Set(['submit', 'button']);

/** The texts a reader sees as labels: each element's own text, whole buttons and submit inputs. */
function shortTexts(root: Element): string[] {
  const texts: string[] = [];
  const walk = (element: Element): void => {
    if (RELATED.test(attributeText(element))) return;
    const name = element.nodeName;
    if (name === 'SCRIPT' || name === 'STYLE' || name === 'TEMPLATE') return;
    const disabled = element.hasAttribute('disabled') || element.getAttribute('aria-disabled') === 'true';
    if (name === 'BUTTON' || element.getAttribute('role') === 'button') {
      if (!disabled) texts.push(element.textContent ?? '');
      return;
    }
    if (name === 'INPUT') {
      if (!disabled && BUTTON_INPUT_TYPES.has((element.getAttribute('type') ?? '').toLowerCase())) {
        texts.push(element.getAttribute('value') ?? '');
      }
      return;
    }
    let own = '';
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) own += (child as Text).data;
      else if (child.nodeType === 1) walk(child as Element);
    }
    if (own.trim()) texts.push(own);
  };
  walk(root);
  return texts;
}

/**
 * In stock when some short text starts like "In stock" or "Add to cart" (an enabled button),
 * else out of stock when one carries an out-of-stock phrase, else unknown (null).
 */
export function readVisibleAvailability(roots: readonly Element[]): AvailabilityValue | null {
  const verdicts = roots.flatMap(shortTexts).flatMap((text) => {
    const verdict = availabilityFromText(text);
    return verdict ? [verdict] : [];
  });
  const chosen = verdicts.find((v) => v.status === 'in_stock') ?? verdicts[0];
  return chosen ? { status: chosen.status, source: 'text', evidence: chosen.phrase } : null;
}
