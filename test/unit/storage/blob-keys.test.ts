import { describe, expect, it } from 'vitest';
import {
  assertValidContentType,
  assertValidKey,
  assertValidPrefix,
  assertValidRange,
  attachmentDisposition,
  mediaTypeOf,
} from '../../../src/storage/blob-store.js';

describe('assertValidKey', () => {
  it.each(['a', 'teams/team_1/scrapes/scrape_2/markdown.md', 'dir with space/ünï cödé &+=?#%.txt', '..a/b..', '...'])(
    'accepts %j',
    (key) => {
      expect(() => assertValidKey(key)).not.toThrow();
    },
  );

  it.each([
    '',
    '..',
    '../etc/passwd',
    'a/../../b',
    'a/..',
    './a',
    'a/./b',
    '/etc/passwd',
    'a//b',
    'a/',
    'a\\..\\b',
    'a\0b',
    'a\nb',
    'x'.repeat(1025),
  ])('refuses %j', (key) => {
    expect(() => assertValidKey(key)).toThrow(/invalid object key/);
  });

  it('accepts prefixes with a trailing slash but never the empty prefix', () => {
    expect(() => assertValidPrefix('teams/t1/')).not.toThrow();
    expect(() => assertValidPrefix('teams/t')).not.toThrow();
    expect(() => assertValidPrefix('')).toThrow();
    expect(() => assertValidPrefix('/')).toThrow();
    expect(() => assertValidPrefix('../')).toThrow();
  });
});

describe('content types and ranges', () => {
  it('accepts media types with parameters and refuses header injection', () => {
    for (const ok of ['text/html', 'text/markdown; charset=utf-8', 'application/vnd.api+json', 'image/svg+xml']) {
      expect(() => assertValidContentType(ok), ok).not.toThrow();
    }
    for (const bad of ['', 'html', 'text/html\r\nSet-Cookie: a=b', 'text/html; x=\u00e9', `text/${'x'.repeat(300)}`]) {
      expect(() => assertValidContentType(bad), bad).toThrow(/invalid content type/);
    }
    expect(mediaTypeOf(' Text/HTML ; charset=utf-8')).toBe('text/html');
  });

  it('checks byte ranges', () => {
    expect(() => assertValidRange({ start: 0, end: 0 })).not.toThrow();
    expect(() => assertValidRange({ start: 5, end: 4 })).toThrow();
    expect(() => assertValidRange({ start: -1, end: 4 })).toThrow();
    expect(() => assertValidRange({ start: 0.5, end: 4 })).toThrow();
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII fallback and an RFC 8187 encoded name', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition('résumé "final".pdf')).toBe(
      `attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
    expect(attachmentDisposition("it's (1).txt")).toBe(
      `attachment; filename="it's (1).txt"; filename*=UTF-8''it%27s%20%281%29.txt`,
    );
  });
});
