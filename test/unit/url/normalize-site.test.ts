import { describe, expect, it } from 'vitest';
import { isHttpUrl, registrableDomain, sameSite, siteHost } from '../../../src/url/normalize.js';

describe('isHttpUrl', () => {
  it.each([
    'http://example.com',
    'https://example.com/a?b#c',
    'HTTPS://EXAMPLE.COM',
    'http://127.0.0.1:3000/',
    'http://[::1]/',
  ])('accepts %s', (url) => expect(isHttpUrl(url)).toBe(true));
  it.each([
    'ftp://example.com',
    'mailto:a@example.com',
    'javascript:void(0)',
    'example.com',
    '/path',
    '',
    'http://',
    'file:///etc/passwd',
    42,
    null,
    undefined,
    { href: 'https://example.com' },
  ])('rejects %j', (value) => expect(isHttpUrl(value)).toBe(false));
});

describe('siteHost', () => {
  it('drops www, a trailing dot and case', () => {
    expect(siteHost('WWW.Example.COM.')).toBe('example.com');
    expect(siteHost('www2.example.com')).toBe('www2.example.com');
    expect(siteHost('wwwexample.com')).toBe('wwwexample.com');
  });
});

describe('registrableDomain', () => {
  it.each([
    ['docs.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['foo.github.io', 'foo.github.io'],
    ['EXAMPLE.com.', 'example.com'],
    ['docs.site.localhost', 'site.localhost'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
  ])('%s → %s', (host, domain) => expect(registrableDomain(host)).toBe(domain));

  it.each(['localhost', '127.0.0.1', '[::1]', 'co.uk', 'com'])('%s has none', (host) =>
    expect(registrableDomain(host)).toBeNull(),
  );
});

describe('sameSite', () => {
  const sub = { includeSubdomain: true };
  it.each([
    ['same host', 'https://example.com/a', 'https://example.com/', {}, true],
    ['www and bare host', 'https://www.example.com/a', 'https://example.com/', {}, true],
    ['bare host and www root', 'https://example.com/a', 'https://www.example.com/', {}, true],
    ['scheme ignored', 'http://example.com/a', 'https://example.com/', {}, true],
    ['port ignored', 'https://example.com:8443/a', 'https://example.com/', {}, true],
    ['host case and trailing dot', 'https://EXAMPLE.com./a', 'https://example.com/', {}, true],
    ['subdomain without the option', 'https://docs.example.com/a', 'https://example.com/', {}, false],
    ['subdomain with the option', 'https://docs.example.com/a', 'https://example.com/', sub, true],
    ['deep subdomain with the option', 'https://a.b.docs.example.com/', 'https://example.com/', sub, true],
    ['parent of a subdomain root', 'https://example.com/a', 'https://docs.example.com/', sub, true],
    ['sibling subdomains', 'https://blog.example.com/a', 'https://docs.example.com/', sub, true],
    ['sibling subdomains without the option', 'https://blog.example.com/a', 'https://docs.example.com/', {}, false],
    ['lookalike domain', 'https://notexample.com/a', 'https://example.com/', sub, false],
    ['suffix lookalike', 'https://example.com.evil.net/a', 'https://example.com/', sub, false],
    ['other domain', 'https://example.org/a', 'https://example.com/', sub, false],
    ['public suffix boundary (co.uk)', 'https://other.co.uk/', 'https://example.co.uk/', sub, false],
    ['private suffix boundary (github.io)', 'https://bar.github.io/', 'https://foo.github.io/', sub, false],
    ['private suffix subdomain', 'https://x.foo.github.io/', 'https://foo.github.io/', sub, true],
    ['localhost subdomain', 'http://docs.localhost:3000/', 'http://localhost:3000/', sub, true],
    ['localhost subdomain without the option', 'http://docs.localhost:3000/', 'http://localhost:3000/', {}, false],
    ['*.localhost site and its subdomain', 'http://docs.site.localhost/', 'http://site.localhost/', sub, true],
    ['two *.localhost sites', 'http://other.localhost/', 'http://site.localhost/', sub, false],
    ['same IP', 'http://127.0.0.1:4000/a', 'http://127.0.0.1:3000/', sub, true],
    ['different IP', 'http://127.0.0.2/a', 'http://127.0.0.1/', sub, false],
    ['IP and name', 'http://localhost/a', 'http://127.0.0.1/', sub, false],
    ['IPv6', 'http://[::1]:8080/a', 'http://[0::1]/', sub, true],
    ['IDN and punycode', 'https://xn--bcher-kva.example/a', 'https://Bücher.example/', {}, true],
    ['non-http url', 'mailto:a@example.com', 'https://example.com/', sub, false],
    ['non-http root', 'https://example.com/', 'ftp://example.com/', sub, false],
    ['garbage', 'not a url', 'https://example.com/', sub, false],
  ])('%s', (_name, url, root, options, expected) => {
    expect(sameSite(url, root, options)).toBe(expected);
  });
});
