import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { DEFAULT_REMOVE_SELECTORS, normaliseRemoveCssSelectors } from '../../../src/pipeline/index.js';

function validationError(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('validation_error');
    return err as AppError;
  }
  throw new Error('expected a validation error');
}

describe('normaliseRemoveCssSelectors', () => {
  it('maps "default" and absence to the documented default list', () => {
    expect(normaliseRemoveCssSelectors('default')).toEqual([...DEFAULT_REMOVE_SELECTORS]);
    expect(normaliseRemoveCssSelectors(undefined)).toEqual([...DEFAULT_REMOVE_SELECTORS]);
    expect(normaliseRemoveCssSelectors(null)).toEqual([...DEFAULT_REMOVE_SELECTORS]);
    for (const required of ['script', 'style', 'noscript', 'iframe', 'nav', 'aside', 'form', 'svg']) {
      expect(DEFAULT_REMOVE_SELECTORS).toContain(required);
    }
    expect(DEFAULT_REMOVE_SELECTORS).toContain('[role=navigation]');
    expect(DEFAULT_REMOVE_SELECTORS).toContain('[aria-hidden=true]');
  });

  it('maps "none" to an empty list', () => {
    expect(normaliseRemoveCssSelectors('none')).toEqual([]);
  });

  it('accepts an array and the same array as a JSON string (Python SDK)', () => {
    expect(normaliseRemoveCssSelectors(['.promo', ' #ads '])).toEqual(['.promo', '#ads']);
    expect(normaliseRemoveCssSelectors('[".promo", "div > p.note"]')).toEqual(['.promo', 'div > p.note']);
    expect(normaliseRemoveCssSelectors('  []  ')).toEqual([]);
  });

  it('rejects invalid JSON with a message naming the field', () => {
    const err = validationError(() => normaliseRemoveCssSelectors('[".promo",'));
    expect(err.detail).toMatch(/^remove_css_selectors: is not valid JSON/);
    expect(err.metadata.field).toBe('remove_css_selectors');
  });

  it('rejects JSON that is not an array of strings', () => {
    expect(validationError(() => normaliseRemoveCssSelectors('{"a":1}')).detail).toMatch(
      /^remove_css_selectors: must be/,
    );
    expect(validationError(() => normaliseRemoveCssSelectors('[".a", 3]')).detail).toBe(
      'remove_css_selectors[1]: must be a string',
    );
  });

  it('rejects other strings and types', () => {
    expect(validationError(() => normaliseRemoveCssSelectors('script, style')).detail).toMatch(
      /got the string "script, style"/,
    );
    expect(validationError(() => normaliseRemoveCssSelectors(42)).detail).toMatch(/^remove_css_selectors: must be/);
    expect(validationError(() => normaliseRemoveCssSelectors({})).detail).toMatch(/^remove_css_selectors: must be/);
  });

  it('rejects selectors that do not parse, naming the index', () => {
    const err = validationError(() => normaliseRemoveCssSelectors(['.ok', 'div[']));
    expect(err.detail).toMatch(/^remove_css_selectors\[1\]: "div\[" is not a valid CSS selector/);
    expect(err.metadata.field).toBe('remove_css_selectors[1]');
    expect(validationError(() => normaliseRemoveCssSelectors(['  '])).detail).toMatch(/the selector is empty/);
  });

  it('uses the field name it is given', () => {
    expect(validationError(() => normaliseRemoveCssSelectors(7, 'scrape_options.remove_css_selectors')).detail).toMatch(
      /^scrape_options\.remove_css_selectors:/,
    );
  });
});
