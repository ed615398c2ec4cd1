import { describe, expect, it } from 'vitest';
import { profileOf } from '../../../plugins/parsers/extract-socials/social-networks.js';
import { calendarLink, compactDate } from '../../../plugins/parsers/extract-calendars/calendar-links.js';
import { PARSERS } from '../../../src/plugins.js';
import { AppError } from '../../../src/errors.js';
import { createParserRegistry, type Parser, ParserInputError } from '../../../src/parsers/parser.js';
import { conversionError } from '../../../src/pipeline/convert-pool.js';
import { thrownBy } from '../../support/thrown.js';

const registry = createParserRegistry(PARSERS);
const HTML_ONLY = [
  '@olostep/extract-socials',
  '@olostep/extract-images',
  '@olostep/extract-calendars',
  'structured-data',
  'tables',
];
const TEXT_TOO = ['@olostep/extract-emails', 'contacts'];

function run(id: string, text: string, contentType = 'text/html', options: Record<string, unknown> = {}) {
  return registry
    .require(id)
    .parse({ url: 'https://example.com/a/page', text, contentType, metadata: { title: '' } }, options);
}

function inputError(fn: () => unknown): ParserInputError {
  return thrownBy(fn, ParserInputError);
}

describe('built-in parsers', () => {
  it('registers the four public ids and our own, by id, each with a description and an object output schema', () => {
    expect(registry.list().map((parser) => parser.id)).toEqual([
      '@olostep/extract-calendars',
      '@olostep/extract-emails',
      '@olostep/extract-images',
      '@olostep/extract-socials',
      'contacts',
      'structured-data',
      'tables',
    ]);
    for (const parser of registry.list()) {
      expect(parser.description.length).toBeGreaterThan(20);
      expect(parser.outputSchema).toMatchObject({ type: 'object', additionalProperties: false });
      expect(JSON.parse(JSON.stringify(parser.outputSchema))).toEqual(parser.outputSchema);
    }
  });

  it('answers an unknown id with 404 parser_not_found naming the available ones', () => {
    const error = thrownBy(() => registry.require('@olostep/amazon-it-product'), AppError);
    expect(error.status).toBe(404);
    expect(error.code).toBe('parser_not_found');
    expect(error.detail).toContain('@olostep/extract-emails');
  });

  it.each(HTML_ONLY)('%s refuses a PDF, plain text, JSON and an empty page with 422 invalid_parser_input', (id) => {
    for (const [text, type] of [
      ['', 'application/pdf'],
      ['just words', 'text/plain'],
      ['{"a": 1}', 'application/json'],
      ['   ', 'text/html'],
    ] as const) {
      const error = inputError(() => run(id, text, type));
      expect(error.status).toBe(422);
      expect(error.code).toBe('invalid_parser_input');
      expect(error.metadata).toEqual({ parser: id });
    }
  });

  it.each(TEXT_TOO)('%s reads plain text and markdown, and refuses binary content', (id) => {
    const text =
      'Write to sales@example.com or jane [at] example [dot] org.\nPhone: +44 20 7946 0958\nAddress: 1 Main St, Springfield';
    const fromText = run(id, text, 'text/plain') as { emails: string[] };
    expect(fromText.emails).toEqual(['sales@example.com', 'jane@example.org']);
    expect(run(id, text, 'text/markdown')).toEqual(fromText);
    for (const type of ['application/pdf', 'image/png', 'application/octet-stream']) {
      expect(inputError(() => run(id, '', type)).code).toBe('invalid_parser_input');
    }
  });

  it('reads phones and labelled addresses from text pages (contacts)', () => {
    const text = 'Tel: 030 1234567\nFax: +49 30 7654321\nCall +44 20 7946 0958\nAddress: 1 Main St, Springfield';
    expect(run('contacts', text, 'text/plain')).toEqual({
      emails: [],
      phones: [
        { number: '030 1234567', normalized: '0301234567' },
        { number: '+44 20 7946 0958', normalized: '+442079460958' },
      ],
      addresses: [
        {
          text: '1 Main St, Springfield',
          street_address: null,
          locality: null,
          region: null,
          postal_code: null,
          country: null,
        },
      ],
    });
  });

  it.each(PARSERS.map((parser) => [parser.id, parser] as [string, Parser]))(
    '%s returns plain data that crosses a thread unchanged, the same each time, options ignored',
    (_id, parser) => {
      const html = `<html><head><script type="application/ld+json">{"@type":"Event","name":"X","startDate":"2025-01-02"}</script>
        <meta property="og:image" content="/a.png"></head><body><table><tr><th>A</th></tr><tr><td>1</td></tr></table>
        <a href="mailto:a@b.example">mail</a><a href="https://github.com/acme">gh</a></body></html>`;
      const input = { url: 'https://example.com/', text: html, contentType: 'text/html', metadata: {} };
      const output = parser.parse(input, {});
      expect(structuredClone(output)).toEqual(output);
      expect(JSON.parse(JSON.stringify(output))).toEqual(output);
      expect(parser.parse(input, { unknown_option: true })).toEqual(output);
    },
  );

  it.each(PARSERS.map((parser) => parser.id))('%s does not throw on broken markup', (id) => {
    const broken = [
      '<html><body><table><tr><td colspan="999999" rowspan="-3">x<td><table><tr><td>y</table>',
      '<html><script type="application/ld+json">{"@graph": [{"@id": "#a", "author": {"@id": "#a"}}, {"@id": "#a", "name": 1}]}</script>',
      `<html><body>${'<div>'.repeat(3000)}deep a@b.example${'</div>'.repeat(10)}`,
      '<html><body><a href="mailto:%E0%A4%A">bad escape</a><a href="http://[::1">bad url</a><img srcset=",,, 2x">',
    ];
    for (const text of broken) expect(() => run(id, text)).not.toThrow();
  });

  it('keeps invalid_parser_input across a conversion thread (the pool maps errors by kind and code)', () => {
    const mapped = conversionError(new ParserInputError('tables', 'application/pdf is not an HTML page'));
    expect(mapped).toBeInstanceOf(AppError);
    expect([mapped.kind, mapped.code, mapped.status]).toEqual(['unprocessable', 'invalid_parser_input', 422]);
  });
});

describe('social profile links', () => {
  it.each([
    ['https://twitter.com/intent/tweet?text=hi', null],
    ['https://www.facebook.com/sharer/sharer.php?u=x', null],
    ['https://www.linkedin.com/sharing/share-offsite/?url=x', null],
    ['https://www.instagram.com/p/C7xYz12AbCd/', null],
    ['https://www.youtube.com/watch?v=abc', null],
    ['https://github.com/acme/widgets', null],
    ['https://www.tiktok.com/@acme/video/123', null],
    ['https://t.me/share/url?url=x', null],
    ['https://x.com/acme?ref_src=twsrc', ['twitter', 'https://x.com/acme']],
    ['https://www.facebook.com/profile.php?id=100064', ['facebook', 'https://www.facebook.com/profile.php?id=100064']],
    ['https://de.linkedin.com/in/jane-doe/', ['linkedin', 'https://de.linkedin.com/in/jane-doe']],
    ['https://www.youtube.com/channel/UC123', ['youtube', 'https://www.youtube.com/channel/UC123']],
    ['https://github.com/orgs/acme', ['github', 'https://github.com/orgs/acme']],
    ['https://wa.me/4915112345678', ['whatsapp', 'https://wa.me/4915112345678']],
    ['https://hachyderm.io/@jane', null],
    ['https://mastodon.example.com/@acme', ['mastodon', 'https://mastodon.example.com/@acme']],
  ] as const)('%s', (href, expected) => {
    const profile = profileOf(href);
    expect(profile ? [profile.network, profile.url] : null).toEqual(expected);
  });

  it('takes any /@user host as Mastodon when the page links it rel="me"', () => {
    expect(profileOf('https://hachyderm.io/@jane', true)).toEqual({
      network: 'mastodon',
      key: '@jane@hachyderm.io',
      url: 'https://hachyderm.io/@jane',
    });
  });
});

describe('calendar links', () => {
  it('reads compact dates of calendar templates without inventing a time or zone', () => {
    expect(compactDate('20250614T193000Z')).toBe('2025-06-14T19:30:00Z');
    expect(compactDate('20250614T1930')).toBe('2025-06-14T19:30:00');
    expect(compactDate('20250614')).toBe('2025-06-14');
    expect(compactDate('June 14')).toBeNull();
  });

  it('recognises calendar files by extension, scheme and type, and ignores calendar apps that add nothing', () => {
    expect(calendarLink('https://ex.com/feed?format=ical', null, 'text/calendar; charset=utf-8')?.provider).toBe(
      'ical',
    );
    expect(calendarLink('webcal://ex.com/a.ics', 'Subscribe', null)?.provider).toBe('webcal');
    expect(
      calendarLink('https://calendar.google.com/calendar/ical/abc%40group/public/basic.ics', null, null)?.provider,
    ).toBe('google');
    expect(calendarLink('https://calendar.google.com/calendar/u/0/r', null, null)).toBeNull();
    expect(calendarLink('https://ex.com/calendar', 'Calendar', null)).toBeNull();
  });
});
