import { parseHTML } from 'linkedom';
import { AppError } from '../errors.js';

/**
 * What `remove_css_selectors: "default"` removes before conversion (docs/content-pipeline.md lists
 * it). Page chrome and things that are never content: scripts and styles, navigation, page-level
 * headers and footers (those inside an article, main or blockquote are content and stay), sidebars,
 * forms, inline SVG, hidden elements, cookie/consent banners and ad slots. Class and id tests use
 * whole-word or distinctive-prefix matches so an article about cookies keeps its recipe.
 */
/** Cookie and consent banners: generic names and the common consent platforms. */
export const CONSENT_BANNER_SELECTORS: readonly string[] = Object.freeze([
  '[id*=cookie-banner i]',
  '[class*=cookie-banner i]',
  '[id*=cookie-consent i]',
  '[class*=cookie-consent i]',
  '[id*=cookie-notice i]',
  '[class*=cookie-notice i]',
  '[id*=consent-banner i]',
  '[class*=consent-banner i]',
  '[aria-label*=cookie i]',
  '#onetrust-consent-sdk',
  '#CybotCookiebotDialog',
  '.cc-window',
  '.qc-cmp2-container',
]);

/** Ad slots marked by the classes, ids and attributes ad servers use. */
export const AD_SLOT_SELECTORS: readonly string[] = Object.freeze([
  '.ad',
  '.ads',
  '.advert',
  '.advertisement',
  '.ad-slot',
  '.ad-container',
  '.adsbygoogle',
  '[id^=google_ads]',
  '[id^=div-gpt-ad]',
  '[data-ad-slot]',
  '[data-ad]',
]);

/** Site navigation, page-level headers and footers (those inside an article, main or blockquote are content), breadcrumbs. */
export const PAGE_CHROME_SELECTORS: readonly string[] = Object.freeze([
  'nav',
  'header:not(article header, main header, [role=main] header)',
  'footer:not(article footer, main footer, [role=main] footer, blockquote footer, figure footer)',
  '[role=navigation]',
  '[role=banner]',
  '[role=contentinfo]',
  // Page chrome marked by the ids and classes most sites and CMS themes use.
  '#header',
  '#footer',
  '#nav',
  '.site-header',
  '.site-footer',
  '.breadcrumb',
  '.breadcrumbs',
  '[aria-label=breadcrumb i]',
  '.skip-link',
]);

export const DEFAULT_REMOVE_SELECTORS: readonly string[] = Object.freeze([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  ...PAGE_CHROME_SELECTORS,
  'aside',
  '#sidebar',
  'form',
  'svg',
  'dialog',
  '[aria-hidden=true]',
  ...CONSENT_BANNER_SELECTORS,
  ...AD_SLOT_SELECTORS,
]);

const FIELD = 'remove_css_selectors';

/** A tiny document used only to check that selectors compile. */
let probe: Document | null = null;

function probeDocument(): Document {
  probe ??= parseHTML('<html><body><p></p></body></html>').document as unknown as Document;
  return probe;
}

/** Returns why `selector` is not a usable CSS selector, or null when it is. */
export function cssSelectorProblem(selector: string): string | null {
  if (selector.trim() === '') return 'the selector is empty';
  try {
    probeDocument().querySelector(selector);
    return null;
  } catch (err) {
    return (err as Error).message || 'the selector does not parse';
  }
}

/**
 * Normalises `remove_css_selectors` to the list of selectors to remove. Accepts `"default"`,
 * `"none"`, an array of CSS selectors, or that array as a JSON string (what the Python SDK sends);
 * absent means `"default"`. Anything else throws a 400 `validation_error` naming the field.
 * REST and GraphQL both call this (from their zod schema) so bad input fails before any fetch.
 *
 * @example
 * normaliseRemoveCssSelectors('none');               // []
 * normaliseRemoveCssSelectors('[".promo", "#ads"]'); // ['.promo', '#ads']
 */
export function normaliseRemoveCssSelectors(value: unknown, field = FIELD): string[] {
  if (value === undefined || value === null || value === 'default') return [...DEFAULT_REMOVE_SELECTORS];
  if (value === 'none') return [];
  if (typeof value === 'string') return normaliseArray(parseJsonList(value, field), field);
  if (Array.isArray(value)) return normaliseArray(value, field);
  throw invalid(field, `must be "default", "none", an array of CSS selectors or that array as a JSON string`);
}

function parseJsonList(value: string, field: string): unknown[] {
  const trimmed = value.trim();
  if (!trimmed.startsWith('[')) {
    throw invalid(
      field,
      `must be "default", "none", an array of CSS selectors or that array as a JSON string; got the string ${JSON.stringify(truncate(value))}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch (err) {
    throw invalid(field, `is not valid JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(parsed)) throw invalid(field, 'must be a JSON array of CSS selectors');
  return parsed;
}

function normaliseArray(items: readonly unknown[], field: string): string[] {
  const selectors: string[] = [];
  items.forEach((item, i) => {
    if (typeof item !== 'string') throw invalid(`${field}[${i}]`, 'must be a string');
    const problem = cssSelectorProblem(item);
    if (problem)
      throw invalid(`${field}[${i}]`, `${JSON.stringify(truncate(item))} is not a valid CSS selector: ${problem}`);
    selectors.push(item.trim());
  });
  return selectors;
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function invalid(field: string, message: string): AppError {
  return new AppError('validation', 'validation_error', `${field}: ${message}`, { metadata: { field } });
}
