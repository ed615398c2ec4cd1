import { describe, expect, it } from 'vitest';
import {
  captureSnapshot,
  detectChange,
  resolveDetectionOptions,
  type DetectionOptionsInput,
  type MonitorSnapshot,
} from '../../../src/domain/monitors/detection/index.js';

const URL = 'https://shop.example/item';

function run(
  beforeHtml: string | null,
  afterHtml: string,
  input: DetectionOptionsInput = {},
  data?: { previous: unknown; current: unknown },
) {
  const options = resolveDetectionOptions(input);
  const previous = beforeHtml === null ? null : captureSnapshot({ url: URL, html: beforeHtml }, options);
  const current = captureSnapshot({ url: URL, html: afterHtml }, options);
  return detectChange({ previous, current, options, data });
}

describe('detectChange', () => {
  it('sets the baseline on the first snapshot without reporting a change', () => {
    const verdict = run(null, '<p>Hello</p>');
    expect(verdict).toMatchObject({
      change_detected: false,
      first_snapshot: true,
      advance_baseline: true,
      summary: '',
    });
    expect(verdict.text.unified_diff).toBe('');
  });

  it('reports a text change with counts, a unified diff and a summary', () => {
    const verdict = run('<p>Alpha</p><p>Beta</p>', '<p>Alpha</p><p>Gamma</p><p>Delta</p>');
    expect(verdict.change_detected).toBe(true);
    expect([verdict.text.added, verdict.text.removed, verdict.text.changed]).toEqual([2, 1, 0]);
    expect(verdict.text.unified_diff).toBe(
      '--- previous\n+++ current\n@@ -1,2 +1,3 @@\n Alpha\n-Beta\n+Gamma\n+Delta\n',
    );
    expect(verdict.summary).toBe('2 lines added: ‘Gamma’, ‘Delta’. 1 line removed: ‘Beta’.');
  });

  it('uses the labels given for the unified diff headers', () => {
    const options = resolveDetectionOptions({});
    const previous = captureSnapshot({ url: URL, text: 'a' }, options);
    const current = captureSnapshot({ url: URL, text: 'b' }, options);
    const verdict = detectChange({ previous, current, options, labels: { previous: 'a@1', current: 'a@2' } });
    expect(verdict.text.unified_diff.split('\n').slice(0, 2)).toEqual(['--- a@1', '+++ a@2']);
  });

  it('reports no change when only noise moved', () => {
    const verdict = run(
      '<p>Story</p><p>Posted 3 minutes ago · 12 views</p>',
      '<p>Story</p><p>Posted 1 hour ago · 40 views</p>',
    );
    expect(verdict).toMatchObject({ change_detected: false, blocked_by: null, advance_baseline: true });
  });

  it('ignores lines matching ignore_text', () => {
    const verdict = run('<p>Kettle</p><p>Delivery by Friday</p>', '<p>Kettle</p><p>Delivery by Monday</p>', {
      ignore_text: ['/^delivery by/'],
    });
    expect(verdict.change_detected).toBe(false);
    expect(
      run('<p>Kettle</p><p>Delivery by Friday</p>', '<p>Kettle</p><p>Delivery by Monday</p>').change_detected,
    ).toBe(true);
  });

  it('trusts equal fingerprints without diffing', () => {
    const options = resolveDetectionOptions({});
    const current = captureSnapshot({ url: URL, text: 'a\nb' }, options);
    const previous: MonitorSnapshot = { ...current, text: 'something else entirely' };
    expect(detectChange({ previous, current, options }).change_detected).toBe(false);
  });

  describe('trigger_text (changedetection.io: nothing counts until the trigger is on the page)', () => {
    const options = { trigger_text: ['/tickets (are )?on sale/'] };
    it('blocks a change while no line matches, and keeps the baseline', () => {
      const verdict = run('<p>Tour 2025</p><p>Dates soon</p>', '<p>Tour 2025</p><p>Dates: May 1</p>', options);
      expect(verdict).toMatchObject({ change_detected: false, blocked_by: 'trigger_text', advance_baseline: false });
      expect(verdict.text.changed).toBe(1);
    });
    it('reports the change once a line matches', () => {
      const verdict = run('<p>Tour 2025</p><p>Dates soon</p>', '<p>Tour 2025</p><p>Tickets on sale now!</p>', options);
      expect(verdict).toMatchObject({
        change_detected: true,
        blocked_by: null,
        triggered_lines: ['Tickets on sale now!'],
      });
    });
    it('does not count a trigger inside an ignored line', () => {
      const verdict = run('<p>A</p>', '<p>B</p><p>Ad: tickets on sale elsewhere</p>', {
        ...options,
        ignore_text: ['Ad:'],
      });
      expect(verdict.blocked_by).toBe('trigger_text');
    });
  });

  describe('text_must_not_be_present (changedetection.io: nothing counts while the text is on the page)', () => {
    const options = { text_must_not_be_present: ['Sold out'] };
    it('blocks changes while the text is there', () => {
      const verdict = run('<p>Kettle</p><p>Sold out</p>', '<p>Kettle v2</p><p>Sold out</p>', options);
      expect(verdict).toMatchObject({
        change_detected: false,
        blocked_by: 'text_must_not_be_present',
        blocking_lines: ['Sold out'],
        advance_baseline: false,
      });
    });
    it('reports the change when the text goes', () => {
      const verdict = run('<p>Kettle</p><p>Sold out</p>', '<p>Kettle</p><p>Add to basket</p>', options);
      expect(verdict).toMatchObject({ change_detected: true, blocked_by: null, advance_baseline: true });
      expect(verdict.summary).toContain('‘Sold out’');
    });
    it('looks at ignored lines too', () => {
      const verdict = run('<p>A</p>', '<p>B</p><p>Sold out</p>', { ...options, ignore_text: ['Sold'] });
      expect(verdict.blocked_by).toBe('text_must_not_be_present');
    });
  });

  it('reports a price change seen only in structured data', () => {
    const page = (price: string) =>
      `<script type="application/ld+json">{"@type":"Product","name":"K","offers":{"price":"${price}","priceCurrency":"USD"}}</script><p>Kettle</p>`;
    const verdict = run(page('19.99'), page('21.00'));
    expect(verdict.change_detected).toBe(true);
    expect(verdict.text.changes).toEqual([]);
    expect(verdict.summary).toBe('Price rose from $19.99 to $21.00 (+5.1%).');
    expect(run(page('19.99'), page('21.00'), { processors: { price: false } }).change_detected).toBe(false);
  });

  it('reports data changes of output_schema extraction', () => {
    const verdict = run('<p>Same</p>', '<p>Same</p>', {}, { previous: { price: 10 }, current: { price: 12 } });
    expect(verdict.change_detected).toBe(true);
    expect(verdict.data_changes).toEqual([{ op: 'replace', path: '/price', from: 10, value: 12 }]);
    expect(verdict.summary).toBe('Data: price changed from 10 to 12.');
    expect(run(null, '<p>Same</p>', {}, { previous: undefined, current: { price: 12 } }).data_changes).toEqual([]);
  });
});
