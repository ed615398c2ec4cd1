import {
  AD_SLOT_SELECTORS,
  CONSENT_BANNER_SELECTORS,
  PAGE_CHROME_SELECTORS,
} from '../../../pipeline/remove-selectors.js';

/**
 * Element-level noise filters: parts of a page removed before its text is taken, because they
 * change between two fetches of an unchanged page. Each list belongs to one filter of the table
 * in noise-filters.ts and can be turned off there. Class and id tests use whole class names or
 * distinctive prefixes, so a page about advertising or cookies keeps its text.
 */

/** Ad slots (the content pipeline's list), sponsored blocks, recommendation widgets and rotating promo bars. */
export const AD_SELECTORS: readonly string[] = Object.freeze([
  ...AD_SLOT_SELECTORS,
  '.adverts',
  '.ad-unit',
  '.ad-wrapper',
  '.ad-banner',
  '.dfp-ad',
  '[id^=ad-slot]',
  '[data-ad-unit]',
  '[data-google-query-id]',
  '[aria-label=advertisement i]',
  '[aria-label=sponsored i]',
  '.sponsored',
  '.sponsored-post',
  '.sponsored-content',
  '[id^=taboola]',
  '.trc_related_container',
  '.OUTBRAIN',
  '.ob-widget',
  '.promo-banner',
  '.promo-bar',
  '.promo-carousel',
  '.announcement-bar',
]);

/** Cookie and consent banners: the content pipeline's list. */
export const CONSENT_SELECTORS: readonly string[] = CONSENT_BANNER_SELECTORS;

/** Site navigation, page-level header and footer, breadcrumbs: the content pipeline's list (off by default: see noise-filters.ts). */
export const PAGE_CHROME_NOISE_SELECTORS: readonly string[] = PAGE_CHROME_SELECTORS;

/** Content a reader never sees: hidden attributes and inline styles, templates. */
export const HIDDEN_SELECTORS: readonly string[] = Object.freeze([
  'template',
  '[hidden]',
  '[aria-hidden=true]',
  '[style*="display:none" i]',
  '[style*="display: none" i]',
  '[style*="visibility:hidden" i]',
  '[style*="visibility: hidden" i]',
]);

const HIDING_STYLE = /(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/**
 * Single-page apps hide `<body>` until their script runs; the served text is still the page.
 * Drops such a style from `<html>` and `<body>` so the hidden-elements filter cannot remove the page.
 */
export function unhideDocumentRoot(document: Document): void {
  for (const element of [document.documentElement, document.body]) {
    const style = element?.getAttribute('style');
    if (element && style && HIDING_STYLE.test(style)) element.removeAttribute('style');
  }
}
