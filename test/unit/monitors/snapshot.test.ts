import { describe, expect, it } from 'vitest';
import {
  captureSnapshot,
  comparableLines,
  resolveDetectionOptions,
} from '../../../src/domain/monitors/detection/index.js';

const URL = 'https://site.example/page';
const snap = (html: string, options: object = {}) =>
  captureSnapshot({ url: URL, html }, resolveDetectionOptions(options));

describe('captureSnapshot', () => {
  it('writes one logical line per block, whitespace collapsed, empty lines dropped', () => {
    const html = `<html><body><h1>  Title\n </h1><p>One   paragraph
      across lines.</p><ul><li>First</li><li>Second&nbsp;item</li></ul>
      <table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>$20</td></tr></table>
      <p>Line<br>break</p><div>\u200bZero\u200b width</div><p> </p></body></html>`;
    expect(snap(html).text.split('\n')).toEqual([
      'Title',
      'One paragraph across lines.',
      'First',
      'Second item',
      'Plan Price',
      'Pro $20',
      'Line',
      'break',
      'Zero width',
    ]);
  });

  it('removes ads, consent banners and hidden elements by default, page chrome only when asked', () => {
    const html = `<body><nav>Menu</nav><div class="ad-slot">Buy now!</div><div id="cookie-consent">Cookies?</div>
      <p hidden>Hidden</p><p style="display: none">Invisible</p><span aria-hidden="true">★</span>
      <p>Content</p><footer>Footer</footer></body>`;
    expect(snap(html).text).toBe('Menu\nContent\nFooter');
    expect(snap(html, { noise_filters: { page_chrome: true } }).text).toBe('Content');
    expect(snap(html, { noise_filters: { ads: false, hidden_elements: false } }).text).toBe(
      'Menu\nBuy now!\nHidden\nInvisible\n★\nContent\nFooter',
    );
  });

  it('keeps a page whose body a script hides until it runs', () => {
    expect(snap('<html><body style="display:none"><p>App shell</p></body></html>').text).toBe('App shell');
  });

  it('watches only include_selectors and drops ignore_selectors', () => {
    const html = `<body><div id="a"><p>Alpha</p><p class="skip">Skip me</p></div><div id="b">Beta</div>
      <div id="c"><div id="a2">Gamma</div></div></body>`;
    const only = snap(html, { include_selectors: ['#a', '#c', '#a2'], ignore_selectors: ['.skip'] });
    expect(only.text).toBe('Alpha\nGamma');
    expect(only.include_selectors_matched).toBe(true);
    const missing = snap(html, { include_selectors: ['#nope'] });
    expect(missing.text).toBe('');
    expect(missing.include_selectors_matched).toBe(false);
    expect(snap(html).include_selectors_matched).toBeNull();
  });

  it('writes link targets after their text with include_links, resolved against the page', () => {
    const html = `<body><p><a href="/dl/v2.zip">Download</a> or <a href="#top">top</a> or
      <a href="javascript:void(0)">js</a></p></body>`;
    expect(snap(html).text).toBe('Download or top or js');
    expect(snap(html, { include_links: true }).text).toBe('Download <https://site.example/dl/v2.zip> or top or js');
  });

  it('takes plain text (JSON, text/plain) line by line', () => {
    const snapshot = captureSnapshot(
      { url: URL, text: '{\r\n  "version": "1.2.3"\r\n}\n\n  ' },
      resolveDetectionOptions({}),
    );
    expect(snapshot.text).toBe('{\n"version": "1.2.3"\n}');
    expect(snapshot.product).toBeNull();
  });

  it('gives equal fingerprints to pages that differ only in noise, under the same settings', () => {
    const a = snap('<p>Updated 3 minutes ago</p><p>Price $10</p>');
    const b = snap('<p>Updated 2 hours ago</p><p>Price $10</p>');
    const c = snap('<p>Updated 2 hours ago</p><p>Price $11</p>');
    expect(a.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(a.fingerprint).not.toBe(c.fingerprint);
    const strict = snap('<p>Updated 3 minutes ago</p><p>Price $10</p>', { noise_filters: { relative_times: false } });
    expect(strict.fingerprint).not.toBe(a.fingerprint);
  });

  it('is a plain JSON object that survives a round trip', () => {
    const snapshot = snap('<p>Hello</p>');
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
    expect(snapshot).toMatchObject({ version: 1, url: URL, text: 'Hello' });
  });

  it('leaves processors out when both are off', () => {
    expect(snap('<p>$10</p>', { processors: { price: false, restock: false } }).product).toBeNull();
  });
});

describe('comparableLines', () => {
  it('drops lines matching ignore_text and masks noise in keys only', () => {
    const options = resolveDetectionOptions({ ignore_text: ['Delivery by', '/^\\d+ left$/'] });
    const lines = comparableLines('Kettle\nDelivery by Friday\nPosted 3 minutes ago\n3 left\nStill 3 left', options);
    expect(lines).toEqual([
      { text: 'Kettle', key: 'Kettle' },
      { text: 'Posted 3 minutes ago', key: 'Posted ⟦age⟧' },
      { text: 'Still 3 left', key: 'Still 3 left' },
    ]);
    expect(comparableLines('', options)).toEqual([]);
  });
});
