import { describe, expect, it } from 'vitest';
import { compileSourcePolicy, domainMatches, normaliseDomain } from '../../../src/domain/monitors/planning/index.js';

describe('domainMatches', () => {
  it.each([
    ['example.com', 'example.com', true],
    ['www.example.com', 'example.com', true],
    ['docs.example.com', 'example.com', true],
    ['notexample.com', 'example.com', false],
    ['example.com.evil.io', 'example.com', false],
    ['example.com', '*.example.com', false],
    ['a.b.example.com', '*.example.com', true],
    ['example.com', 'www.example.com', true],
    ['docs.example.com', 'www.example.com', false],
    ['EXAMPLE.com.', 'example.com', true],
  ])('%s in %s: %s', (host, domain, expected) => expect(domainMatches(host, domain)).toBe(expected));
});

describe('normaliseDomain', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['https://example.com/', 'example.com'],
    ['*.Example.com', '*.example.com'],
    ['.example.com', '*.example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['example.com.', 'example.com'],
  ])('%s → %s', (raw, expected) => expect(normaliseDomain(raw, 'f')).toBe(expected));

  it.each(['example.com/blog', 'example.com:8080', 'user@example.com', 'exa mple.com', 'a*b.com'])(
    'refuses %s',
    (raw) => {
      expect(() => normaliseDomain(raw, 'source_policy.include_domains[0]')).toThrow(
        'source_policy.include_domains[0]',
      );
    },
  );
});

describe('compileSourcePolicy', () => {
  it('accepts everything without lists', () => {
    const policy = compileSourcePolicy(undefined);
    expect(policy.acceptsAll).toBe(true);
    expect(policy.explain('https://any.where/x')).toMatchObject({ keep: true, reason: 'no_include_rules' });
  });

  it('lets exclusion win over inclusion', () => {
    const policy = compileSourcePolicy({
      include_domains: ['example.com'],
      exclude_urls: ['**/*.pdf'],
      exclude_domains: ['ads.example.com'],
    });
    expect(policy.explain('https://example.com/a')).toMatchObject({
      keep: true,
      reason: 'included_domain',
      rule: 'example.com',
    });
    expect(policy.explain('https://example.com/a.pdf')).toMatchObject({
      keep: false,
      reason: 'excluded_url',
      rule: '**/*.pdf',
    });
    expect(policy.explain('https://ads.example.com/a')).toMatchObject({
      keep: false,
      reason: 'excluded_domain',
      rule: 'ads.example.com',
    });
    expect(policy.explain('https://other.com/a')).toMatchObject({ keep: false, reason: 'not_included' });
  });

  it('uses the crawl glob semantics for URL lists', () => {
    const policy = compileSourcePolicy({ include_urls: ['/docs/**', 'https://*.acme.io/blog/*'] });
    expect(policy.test('https://x.test/docs')).toBe(true);
    expect(policy.test('https://x.test/docs/a/b')).toBe(true);
    expect(policy.test('https://www.acme.io/blog/post')).toBe(true);
    expect(policy.test('https://www.acme.io/blog/2024/post')).toBe(false);
    expect(policy.explain('https://x.test/about')).toMatchObject({ keep: false, reason: 'not_included' });
  });

  it('includes a URL matching either include list', () => {
    const policy = compileSourcePolicy({ include_urls: ['https://a.com/**'], include_domains: ['b.com'] });
    expect(policy.test('https://a.com/x')).toBe(true);
    expect(policy.test('https://b.com/x')).toBe(true);
    expect(policy.test('https://c.com/x')).toBe(false);
  });

  it('normalises the lists it returns', () => {
    expect(compileSourcePolicy({ include_domains: ['HTTPS://Acme.io/'], include_urls: [' /a/** '] }).policy).toEqual({
      include_urls: ['/a/**'],
      exclude_urls: [],
      include_domains: ['acme.io'],
      exclude_domains: [],
    });
  });

  it('refuses invalid URLs to test', () => {
    expect(compileSourcePolicy({}).explain('not a url')).toMatchObject({ keep: false, reason: 'invalid_url' });
  });

  it.each([
    [[], 'source_policy: must be an object'],
    [{ include: [] }, 'source_policy.include: is not a source policy list'],
    [{ include_urls: '/a' }, 'source_policy.include_urls: must be an array'],
    [{ include_urls: [''] }, 'source_policy.include_urls[0]: must be a non-empty string'],
    [{ include_urls: ['docs/**'] }, 'source_policy.include_urls[0]: invalid URL pattern'],
    [{ exclude_domains: Array(101).fill('a.com') }, 'more than 100 entries'],
  ])('refuses %j', (input, message) => {
    expect(() => compileSourcePolicy(input)).toThrow(message);
  });
});
