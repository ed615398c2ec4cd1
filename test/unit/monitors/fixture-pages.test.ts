import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  captureSnapshot,
  detectChange,
  resolveDetectionOptions,
  type DetectionOptionsInput,
} from '../../../src/domain/monitors/detection/index.js';

/** Before/after pages modelled on real sites: a shop, a German shop, a newsroom, a rates page, downloads, a status page. */
const page = (name: string): string =>
  readFileSync(new URL(`../../fixtures/monitors/${name}.html`, import.meta.url), 'utf8');

function compare(before: string, after: string, input: DetectionOptionsInput = {}) {
  const options = resolveDetectionOptions(input);
  const url = 'https://site.example/watched';
  const previous = captureSnapshot({ url, html: before }, options);
  const current = captureSnapshot({ url, html: after }, options);
  return { previous, current, verdict: detectChange({ previous, current, options }) };
}

describe('fixture pages', () => {
  it('product page: a price drop and a new feature, not the rotating promo, ad, cart count, viewers, reviews or tokens', () => {
    const { previous, current, verdict } = compare(page('product-before'), page('product-after'));
    expect(previous.product?.price).toEqual({ amount: '19.99', currency: 'USD', source: 'json-ld' });
    expect(current.product?.price?.amount).toBe('17.49');
    expect(verdict.change_detected).toBe(true);
    expect(verdict.product_changes).toEqual([
      expect.objectContaining({ field: 'price', direction: 'down', percent: -12.5 }),
    ]);
    expect(verdict.text.changes).toEqual([
      expect.objectContaining({ type: 'changed', from: '$24.99 $19.99', to: '$24.99 $17.49' }),
      { type: 'added', text: 'Now with a limescale filter' },
    ]);
    expect(previous.text).not.toMatch(/Free shipping|CoffeeBox|authenticity|__session/);
    expect(verdict.summary).toBe(
      'Price dropped from $19.99 to $17.49 (−12.5%). 1 line added: ‘Now with a limescale filter’.',
    );
  });

  it('product page: related products marked "Sold out" do not make the product out of stock', () => {
    const { previous } = compare(page('product-before'), page('product-after'));
    expect(previous.product?.availability).toEqual({ status: 'in_stock', source: 'json-ld', evidence: 'InStock' });
  });

  it('German shop (microdata): back in stock', () => {
    const { previous, current, verdict } = compare(page('restock-sold-out'), page('restock-back-in-stock'));
    expect(previous.product).toEqual({
      price: { amount: '1299.00', currency: 'EUR', source: 'microdata' },
      availability: { status: 'out_of_stock', source: 'microdata', evidence: 'OutOfStock' },
    });
    expect(current.product?.availability?.status).toBe('in_stock');
    expect(verdict.product_changes).toEqual([
      { field: 'availability', from: 'out_of_stock', to: 'in_stock', back_in_stock: true },
    ]);
    expect(verdict.summary.startsWith('Back in stock.')).toBe(true);
    // "Zuletzt aktualisiert: 01.05.2024, 10:32 Uhr" moved too, and is no change.
    expect(verdict.text.changes.some((c) => JSON.stringify(c).includes('Zuletzt'))).toBe(false);
  });

  it('German shop: "Sold out" as text_must_not_be_present reports the restock once the text goes', () => {
    const rules = { text_must_not_be_present: ['ausverkauft'], include_selectors: ['[itemprop=offers]'] };
    const soldOut = compare(page('restock-sold-out'), page('restock-sold-out'), rules).verdict;
    expect(soldOut).toMatchObject({ change_detected: false, blocked_by: 'text_must_not_be_present' });
    const back = compare(page('restock-sold-out'), page('restock-back-in-stock'), rules).verdict;
    expect(back).toMatchObject({ change_detected: true, blocked_by: null });
  });

  it('newsroom: a new story at the top; ages, view counts, ads, Taboola and the cookie notice are noise', () => {
    const { previous, verdict } = compare(page('news-before'), page('news-after'));
    expect(previous.text).not.toMatch(/Lisbon|gadgets|cookies/);
    expect(verdict.change_detected).toBe(true);
    expect(verdict.text.changes).toEqual([
      { type: 'added', text: 'Acme recalls Model T toaster' },
      { type: 'added', text: 'Posted just now · 12 views · 0 comments' },
      { type: 'added', text: 'Owners can return the toaster to any store for a full refund.' },
    ]);
  });

  it('newsroom: with every noise filter off, the same pages differ on every story', () => {
    const off = Object.fromEntries(
      ['ads', 'consent_banners', 'timestamps', 'relative_times', 'counters', 'render_times'].map((id) => [id, false]),
    );
    const { verdict } = compare(page('news-before'), page('news-after'), { noise_filters: off });
    expect(verdict.text.changed + verdict.text.removed).toBeGreaterThanOrEqual(5);
  });

  it('rates page: only timestamps, a request id, render time and the copyright year moved: no change', () => {
    const { previous, current, verdict } = compare(page('timestamp-before'), page('timestamp-after'));
    expect(previous.text).not.toBe(current.text);
    expect(previous.fingerprint).toBe(current.fingerprint);
    expect(verdict).toMatchObject({ change_detected: false, summary: '' });
  });

  it('rates page: a rate or the opening hours changing is a change', () => {
    const before = page('timestamp-before');
    const rate = compare(before, page('timestamp-after').replace('1.0712', '1.0720')).verdict;
    expect(rate.change_detected).toBe(true);
    expect(rate.text.changes).toEqual([
      expect.objectContaining({ type: 'changed', from: 'EUR 1.0712 1.0744', to: 'EUR 1.0720 1.0744' }),
    ]);
    const hours = compare(before, before.replace('09:00–17:00', '09:00–18:00')).verdict;
    expect(hours.change_detected).toBe(true);
  });

  it('downloads page: session ids, CSRF tokens, signatures and cache busters in links are noise', () => {
    const withLinks = compare(page('session-links-before'), page('session-links-after'), { include_links: true });
    expect(withLinks.previous.text).toContain('<https://site.example/files/widget-studio-2.4.1.dmg;jsessionid=');
    expect(withLinks.verdict.change_detected).toBe(false);
    const strict = compare(page('session-links-before'), page('session-links-after'), {
      include_links: true,
      noise_filters: { session_tokens: false, random_ids: false },
    });
    expect(strict.verdict.change_detected).toBe(true);
  });

  it('downloads page: a new build behind the same link text is a change only with include_links', () => {
    const withLinks = compare(page('session-links-after'), page('session-links-new-build'), {
      include_links: true,
    }).verdict;
    expect(withLinks.change_detected).toBe(true);
    expect(withLinks.text.changed).toBe(1);
    expect(withLinks.summary).toContain('2.4.2.dmg');
    expect(compare(page('session-links-after'), page('session-links-new-build')).verdict.change_detected).toBe(false);
  });

  it('status page: an outage and a new incident; "Last updated … ago" is noise', () => {
    const { verdict } = compare(page('status-before'), page('status-after'));
    expect(verdict.change_detected).toBe(true);
    expect(verdict.text.changes).toContainEqual(
      expect.objectContaining({ type: 'changed', from: 'API Operational', to: 'API Partial Outage' }),
    );
    expect(verdict.text.changes).toContainEqual({ type: 'added', text: 'Elevated API error rates' });
    expect(verdict.text.changes.some((c) => JSON.stringify(c).includes('Last updated'))).toBe(false);
    expect(verdict.summary).toMatch(/^1 line changed: ‘API Operational’ → ‘API Partial Outage’\. 3 lines added:/);
  });

  it('status page: trigger_text watching for an outage', () => {
    const rules = { trigger_text: ['/outage|degraded/'] };
    expect(compare(page('status-before'), page('status-before'), rules).verdict.blocked_by).toBe('trigger_text');
    expect(compare(page('status-before'), page('status-after'), rules).verdict).toMatchObject({
      change_detected: true,
      triggered_lines: ['Partial System Outage', 'API Partial Outage'],
    });
  });
});
