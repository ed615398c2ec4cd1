import { describe, expect, it } from 'vitest';
import {
  createUrlDeduper,
  dedupeKey,
  dedupeUrls,
  isTrackingParam,
  normalizePercentEncoding,
  normalizeUrl,
} from '../../../src/url/normalize.js';

describe('normalizeUrl', () => {
  it.each([
    [
      'lower-cases scheme and host, keeps path case',
      'HTTPS://WWW.Example.COM/Path/To',
      'https://www.example.com/Path/To',
    ],
    ['converts an IDN host to punycode', 'http://Bücher.example/', 'http://xn--bcher-kva.example/'],
    ['keeps a punycode host as is', 'http://xn--bcher-kva.example/', 'http://xn--bcher-kva.example/'],
    ['drops the default http port', 'http://example.com:80/a', 'http://example.com/a'],
    ['drops the default https port', 'https://example.com:443/a', 'https://example.com/a'],
    ['keeps a non-default port', 'https://example.com:8443/a', 'https://example.com:8443/a'],
    ['keeps port 443 on http (not its default)', 'http://example.com:443/a', 'http://example.com:443/a'],
    ['removes the fragment', 'https://example.com/a#section-2', 'https://example.com/a'],
    ['removes an empty fragment', 'https://example.com/a#', 'https://example.com/a'],
    ['resolves dot segments', 'https://example.com/a/./b/../c/', 'https://example.com/a/c/'],
    ['resolves encoded dot segments', 'https://example.com/a/%2e%2E/b', 'https://example.com/b'],
    ['does not climb above the root', 'https://example.com/../../a', 'https://example.com/a'],
    ['adds the root path', 'https://example.com', 'https://example.com/'],
    ['decodes unreserved escapes', 'https://example.com/%7Euser/%41%62%2D%5F%2E', 'https://example.com/~user/Ab-_.'],
    ['upper-cases other escapes', 'https://example.com/a%2fb%c3%a9', 'https://example.com/a%2Fb%C3%A9'],
    ['keeps an encoded slash encoded', 'https://example.com/a%2Fb', 'https://example.com/a%2Fb'],
    ['encodes spaces and non-ASCII in the path', 'https://example.com/a b/é', 'https://example.com/a%20b/%C3%A9'],
    ['sorts query parameters by name', 'https://example.com/?b=2&a=1&c=3', 'https://example.com/?a=1&b=2&c=3'],
    [
      'keeps the order of repeated names',
      'https://example.com/?z=1&a=2&a=1&a=3',
      'https://example.com/?a=2&a=1&a=3&z=1',
    ],
    ['sorts by decoded name', 'https://example.com/?%62=1&a=2', 'https://example.com/?a=2&b=1'],
    [
      'drops utm_* parameters',
      'https://example.com/p?utm_source=x&utm_medium=y&utm_campaign=z&id=7',
      'https://example.com/p?id=7',
    ],
    [
      'drops tracking names case-insensitively',
      'https://example.com/p?UTM_Source=x&GCLID=1&id=7',
      'https://example.com/p?id=7',
    ],
    [
      'drops click ids',
      'https://example.com/p?fbclid=a&gclid=b&msclkid=c&yclid=d&mc_cid=e&mc_eid=f&_hsenc=g&_hsmi=h&ref_src=i&igshid=j&x=1',
      'https://example.com/p?x=1',
    ],
    ['drops the query when only tracking was in it', 'https://example.com/p?utm_source=x', 'https://example.com/p'],
    ['drops an empty query', 'https://example.com/p?', 'https://example.com/p'],
    ['drops empty query pieces', 'https://example.com/p?&a=1&&b=2&', 'https://example.com/p?a=1&b=2'],
    ['keeps valueless parameters as written', 'https://example.com/p?flag&a=', 'https://example.com/p?a=&flag'],
    [
      'keeps + and %20 distinct in the query',
      'https://example.com/?q=a+b&r=a%20b',
      'https://example.com/?q=a+b&r=a%20b',
    ],
    [
      'keeps non-tracking lookalikes',
      'https://example.com/?ref=home&utm=1&source=x',
      'https://example.com/?ref=home&source=x&utm=1',
    ],
    ['removes a trailing dot of the host', 'https://example.com./a', 'https://example.com/a'],
    ['keeps userinfo', 'https://user:pw@example.com/', 'https://user:pw@example.com/'],
    ['handles IPv6 hosts', 'http://[0:0:0:0:0:0:0:1]:80/x', 'http://[::1]/x'],
    ['handles IPv4 hosts', 'http://127.000.000.001:8080/', 'http://127.0.0.1:8080/'],
    ['trims surrounding whitespace', '  https://example.com/a \n', 'https://example.com/a'],
    ['keeps the trailing slash (it is a different URL to fetch)', 'https://example.com/a/', 'https://example.com/a/'],
  ])('%s', (_name, input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it.each([
    ['mailto:a@example.com'],
    ['javascript:alert(1)'],
    ['ftp://example.com/file'],
    ['data:text/html,hi'],
    ['file:///etc/passwd'],
    ['not a url'],
    ['//example.com/protocol-relative-without-base'],
    ['/relative/without/base'],
    [''],
    ['http://'],
    ['https://exa mple.com/'],
  ])('returns null for %j', (input) => {
    expect(normalizeUrl(input)).toBeNull();
  });

  it('resolves relative references against a base', () => {
    const base = 'https://example.com/docs/guide/index.html';
    expect(normalizeUrl('../api/', { base })).toBe('https://example.com/docs/api/');
    expect(normalizeUrl('page#x', { base })).toBe('https://example.com/docs/guide/page');
    expect(normalizeUrl('//cdn.example.com/a', { base })).toBe('https://cdn.example.com/a');
    expect(normalizeUrl('?b=1&a=2', { base })).toBe('https://example.com/docs/guide/index.html?a=2&b=1');
    expect(normalizeUrl('mailto:x@example.com', { base })).toBeNull();
  });

  it('can keep tracking parameters and query order when asked', () => {
    const url = 'https://example.com/?utm_source=x&b=1&a=2';
    expect(normalizeUrl(url, { removeTracking: false })).toBe('https://example.com/?a=2&b=1&utm_source=x');
    expect(normalizeUrl(url, { sortQuery: false })).toBe('https://example.com/?b=1&a=2');
  });

  it('accepts URL objects', () => {
    expect(normalizeUrl(new URL('HTTP://EXAMPLE.com:80/#x'))).toBe('http://example.com/');
  });

  it('is idempotent', () => {
    const inputs = [
      'HTTPS://WWW.Example.COM:443/a/./b/../%7e%2f?utm_source=1&z=%c3%a9&a#f',
      'http://Bücher.example/ä ö?x=ü',
      'https://example.com/p?&a=1&&b=2&',
      'http://[::1]:8080/%2e/x?b&a',
    ];
    for (const input of inputs) {
      const once = normalizeUrl(input);
      expect(once).not.toBeNull();
      expect(normalizeUrl(once as string)).toBe(once);
    }
  });
});

describe('normalizePercentEncoding', () => {
  it('decodes exactly the unreserved set', () => {
    const unreserved = 'ABCXYZabcxyz0189-._~';
    const encoded = [...unreserved].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    expect(normalizePercentEncoding(encoded)).toBe(unreserved);
    expect(normalizePercentEncoding('%2f%3a%3F%23%5b%5D%40%21%24%26%27%28%29%2a%2B%2c%3B%3d%25%20')).toBe(
      '%2F%3A%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%25%20',
    );
  });

  it('leaves broken escapes alone', () => {
    expect(normalizePercentEncoding('100%')).toBe('100%');
    expect(normalizePercentEncoding('%zz%4')).toBe('%zz%4');
  });
});

describe('isTrackingParam', () => {
  it.each([
    'utm_source',
    'utm_content',
    'UTM_TERM',
    'gclid',
    'fbclid',
    'mc_cid',
    'mc_eid',
    'msclkid',
    '_hsenc',
    'igshid',
  ])('%s is tracking', (name) => expect(isTrackingParam(name)).toBe(true));
  it.each(['id', 'page', 'ref', 'q', 'utm', 'source', 'lang', 'sort'])('%s is content', (name) =>
    expect(isTrackingParam(name)).toBe(false),
  );
});

describe('dedupeKey', () => {
  it.each([
    ['trailing slash', 'https://example.com/docs/', 'https://example.com/docs'],
    ['several trailing slashes', 'https://example.com/docs//', 'https://example.com/docs'],
    ['root with and without slash', 'https://example.com/', 'https://example.com'],
    ['scheme', 'http://example.com/a', 'https://example.com/a'],
    ['www prefix', 'https://www.example.com/a', 'https://example.com/a'],
    ['fragment', 'https://example.com/a#x', 'https://example.com/a'],
    ['tracking and query order', 'https://example.com/a?b=2&a=1&utm_source=x', 'https://example.com/a?a=1&b=2'],
    ['default port', 'https://example.com:443/a', 'https://example.com/a'],
    ['escapes of unreserved characters', 'https://example.com/%7Ea', 'https://example.com/~a'],
    ['userinfo', 'https://u:p@example.com/a', 'https://example.com/a'],
  ])('treats %s variants as one page', (_name, a, b) => {
    expect(dedupeKey(a)).not.toBeNull();
    expect(dedupeKey(a)).toBe(dedupeKey(b));
  });

  it.each([
    ['path case', 'https://example.com/A', 'https://example.com/a'],
    ['query values', 'https://example.com/a?p=1', 'https://example.com/a?p=2'],
    ['query presence', 'https://example.com/a?p=1', 'https://example.com/a'],
    ['ports', 'https://example.com:8443/a', 'https://example.com/a'],
    ['subdomains', 'https://docs.example.com/a', 'https://example.com/a'],
    ['an encoded slash', 'https://example.com/a%2Fb', 'https://example.com/a/b'],
    ['a file and its directory index', 'https://example.com/a/index.html', 'https://example.com/a/'],
  ])('keeps %s apart', (_name, a, b) => {
    expect(dedupeKey(a)).not.toBe(dedupeKey(b));
  });

  it('is null for non-http URLs', () => {
    expect(dedupeKey('mailto:a@b.c')).toBeNull();
  });
});

describe('createUrlDeduper', () => {
  it('keeps the first spelling of each page and rejects variants', () => {
    const seen = createUrlDeduper();
    expect(seen.add('https://example.com/a/')).toBe('https://example.com/a/');
    expect(seen.add('http://www.example.com/a#top')).toBeNull();
    expect(seen.add('https://example.com/a?utm_source=x')).toBeNull();
    expect(seen.add('b', 'https://example.com/a/')).toBe('https://example.com/a/b');
    expect(seen.add('mailto:x@example.com')).toBeNull();
    expect(seen.has('https://EXAMPLE.com/a')).toBe(true);
    expect(seen.has('https://example.com/c')).toBe(false);
    expect(seen.size).toBe(2);
  });
});

describe('dedupeUrls', () => {
  it('normalises, dedupes in first-seen order and drops invalid entries', () => {
    expect(
      dedupeUrls([
        'https://example.com/b',
        'https://example.com/a/',
        'https://example.com/a',
        'not a url',
        'https://example.com/b#frag',
        'https://example.com/c?utm_medium=email',
      ]),
    ).toEqual(['https://example.com/b', 'https://example.com/a/', 'https://example.com/c']);
  });

  it('upgrades an http spelling to https in place, never the reverse', () => {
    expect(dedupeUrls(['http://example.com/a', 'https://example.com/b', 'https://example.com/a'])).toEqual([
      'https://example.com/a',
      'https://example.com/b',
    ]);
    expect(dedupeUrls(['https://example.com/a', 'http://example.com/a'])).toEqual(['https://example.com/a']);
  });
});
