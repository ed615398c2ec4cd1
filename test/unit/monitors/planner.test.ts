import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { findQueryTargets, planMonitor, webQueryFrom } from '../../../src/domain/monitors/planning/index.js';

type Expected = { type: 'urls' | 'web_query' | 'both'; urls?: string[]; web_query?: string | null };

/** [query, what the planner tracks] */
const QUERIES: Array<[string, Expected]> = [
  ['Watch https://x.y/z for changes every hour', { type: 'urls', urls: ['https://x.y/z'], web_query: null }],
  ['https://example.com/pricing', { type: 'urls', urls: ['https://example.com/pricing'] }],
  ['watch example.com', { type: 'urls', urls: ['https://example.com/'] }],
  ['Keep an eye on docs.rs/serde for new versions', { type: 'urls', urls: ['https://docs.rs/serde'] }],
  [
    'Please monitor news.ycombinator.com every 10 minutes and ping me on Slack',
    { type: 'urls', urls: ['https://news.ycombinator.com/'] },
  ],
  [
    'Monitor https://status.example.com and https://www.example.com/pricing?utm_source=x, email me at ops@example.com',
    { type: 'urls', urls: ['https://status.example.com/', 'https://www.example.com/pricing'] },
  ],
  [
    'Check (https://en.wikipedia.org/wiki/Node_(software)) weekly',
    { type: 'urls', urls: ['https://en.wikipedia.org/wiki/Node_(software)'] },
  ],
  [
    'Can you keep track of job postings at stripe.com/jobs and send me a Slack message #hiring',
    { type: 'urls', urls: ['https://stripe.com/jobs'] },
  ],
  [
    'What changed on https://example.com/docs/api today? let me know via webhook',
    { type: 'urls', urls: ['https://example.com/docs/api'] },
  ],
  ['Track http://127.0.0.1:8080/status.', { type: 'urls', urls: ['http://127.0.0.1:8080/status'] }],
  [
    'Watch the changelog at www.acme.io/changelog and https://acme.io/changelog',
    { type: 'urls', urls: ['https://www.acme.io/changelog', 'https://acme.io/changelog'] },
  ],
  ['Monitor https://example.com/a and example.com/a', { type: 'urls', urls: ['https://example.com/a'] }],
  [
    'Notify me when the price of the Sony WH-1000XM5 drops at https://shop.example.com/p/wh1000xm5',
    { type: 'urls', urls: ['https://shop.example.com/p/wh1000xm5'] },
  ],
  [
    'Tell me when the pricing page of example.com changes',
    { type: 'both', urls: ['https://example.com/'], web_query: 'pricing page of example.com' },
  ],
  [
    'news about acme.io on their blog',
    { type: 'both', urls: ['https://acme.io/'], web_query: 'news about acme.io on their blog' },
  ],
  [
    'Watch the Apple Watch Ultra 3 price on apple.com daily',
    { type: 'both', urls: ['https://apple.com/'], web_query: 'Apple Watch Ultra 3 price on apple.com' },
  ],
  [
    'Monitor https://example.org/ for new job postings',
    { type: 'both', urls: ['https://example.org/'], web_query: 'example.org for new job postings' },
  ],
  [
    'Notify me by email every morning when Acme announces a new CEO',
    { type: 'web_query', urls: [], web_query: 'Acme announces a new CEO' },
  ],
  [
    'Let me know when the iPhone 17 release date is announced',
    { type: 'web_query', web_query: 'iPhone 17 release date is announced' },
  ],
  [
    'Alert me if the Python 3.14 release notes mention free-threading',
    { type: 'web_query', web_query: 'Python 3.14 release notes mention free-threading' },
  ],
  [
    'Track changes to setup.py in the requests project',
    { type: 'web_query', web_query: 'setup.py in the requests project' },
  ],
  ['Monitor Node.js releases', { type: 'web_query', web_query: 'Node.js releases' }],
  ['track new track releases by Taylor Swift', { type: 'web_query', web_query: 'new track releases by Taylor Swift' }],
  [
    'Follow the EU AI Act implementation timeline, notify me weekly on mondays at 9am UTC',
    { type: 'web_query', web_query: 'EU AI Act implementation timeline' },
  ],
  [
    'Please keep an eye on ASP.NET Core security advisories and send me an email digest daily',
    { type: 'web_query', web_query: 'ASP.NET Core security advisories' },
  ],
  [
    'I want to know as soon as GPU prices drop below $500',
    { type: 'web_query', web_query: 'GPU prices drop below $500' },
  ],
  [
    'Every 2 hours, check for new earthquake reports in Chile and text me',
    { type: 'web_query', web_query: 'new earthquake reports in Chile' },
  ],
  [
    'Watch for any changes to the WHO guidance on bird flu, twice a day',
    { type: 'web_query', web_query: 'WHO guidance on bird flu' },
  ],
  [
    'Monitor mentions of "Gleaner" on Hacker News via Slack #alerts',
    { type: 'web_query', web_query: 'mentions of "Gleaner" on Hacker News' },
  ],
];

describe('planMonitor', () => {
  it('covers at least 25 queries', () => expect(QUERIES.length).toBeGreaterThanOrEqual(25));

  it.each(QUERIES)('%s', (query, expected) => {
    const plan = planMonitor(query);
    expect(plan.tracked).toMatchObject(expected);
    expect(plan.explanation.length).toBeGreaterThan(10);
    if (expected.type === 'web_query') expect(plan.tracked.urls).toEqual([]);
    if (expected.type === 'urls') expect(plan.tracked.web_query).toBeNull();
  });

  it('says what it chose', () => {
    expect(planMonitor('Watch https://example.com/pricing daily').explanation).toBe(
      'Tracking the URL named in the query (https://example.com/pricing).',
    );
    expect(planMonitor('Acme layoffs news').explanation).toBe(
      'The query names no URL or domain: searching the web for "Acme layoffs news".',
    );
    const both = planMonitor('news about acme.io on their blog');
    expect(both.search_domains).toEqual(['acme.io']);
    expect(both.explanation).toContain('searching the web for "news about acme.io on their blog"');
  });

  it('leaves out what the source policy refuses, with the reason', () => {
    const plan = planMonitor(
      'Watch https://a.example.com/x and https://blocked.com/y and https://a.example.com/admin',
      {
        exclude_domains: ['blocked.com'],
        exclude_urls: ['/admin/**'],
      },
    );
    expect(plan.tracked).toEqual({ type: 'urls', urls: ['https://a.example.com/x'], web_query: null });
    expect(plan.refused).toEqual([
      {
        url: 'https://blocked.com/y',
        reason: 'excluded_domain',
        explanation: 'https://blocked.com/y is excluded by exclude_domains "blocked.com"',
      },
      {
        url: 'https://a.example.com/admin',
        reason: 'excluded_url',
        explanation: 'https://a.example.com/admin is excluded by exclude_urls "/admin/**"',
      },
    ]);
    expect(plan.explanation).toContain('Left out: https://blocked.com/y is excluded by exclude_domains "blocked.com"');
  });

  it('falls back to a web search when every named URL is refused but the query says more', () => {
    const plan = planMonitor('Track Acme outage reports on twitter.com', { include_domains: ['status.acme.com'] });
    expect(plan.tracked).toEqual({ type: 'web_query', urls: [], web_query: 'Acme outage reports' });
    expect(plan.explanation).toMatch(/^No URL named in the query is allowed by the source policy: searching the web/);
  });

  it('keeps only include_urls / include_domains matches', () => {
    const plan = planMonitor('Watch https://docs.acme.io/a https://blog.acme.io/b https://other.com/c', {
      include_domains: ['docs.acme.io'],
      include_urls: ['https://other.com/**'],
    });
    expect(plan.tracked.urls).toEqual(['https://docs.acme.io/a', 'https://other.com/c']);
    expect(plan.refused.map((r) => r.reason)).toEqual(['not_included']);
  });

  it('tracks at most 20 URLs and says so', () => {
    const urls = Array.from({ length: 23 }, (_, i) => `https://example.com/p${i}`);
    const plan = planMonitor(`Watch ${urls.join(' ')}`);
    expect(plan.tracked.urls).toHaveLength(20);
    expect(plan.explanation).toContain('3 more left out: a monitor tracks at most 20 URLs.');
  });

  it.each([
    ['', 'query: must be a non-empty string'],
    ['every hour, notify me', 'query: says nothing to monitor'],
    ['x'.repeat(4001), 'query: is longer than 4000 characters'],
  ])('refuses %j', (query, message) => {
    expect(() => planMonitor(query)).toThrow(AppError);
    expect(() => planMonitor(query)).toThrow(message);
  });

  it('refuses a query whose only target the policy refuses', () => {
    expect(() => planMonitor('watch blocked.com', { exclude_domains: ['blocked.com'] })).toThrow(
      /every URL or domain it names is outside source_policy/,
    );
  });

  it('validates the source policy', () => {
    expect(() => planMonitor('watch example.com', { include_domains: ['example.com/blog'] })).toThrow(
      'source_policy.include_domains[0]',
    );
    expect(() => planMonitor('watch example.com', { exclude_urls: ['no-slash'] })).toThrow(
      'source_policy.exclude_urls[0]',
    );
  });
});

describe('findQueryTargets', () => {
  it('tells URLs, domains and e-mail addresses apart', () => {
    const { targets, emails } = findQueryTargets(
      'See https://a.io/x, b.io and mail ops@c.io (not c.io/ itself) or index.html',
    );
    expect(targets.map((t) => [t.kind, t.url])).toEqual([
      ['url', 'https://a.io/x'],
      ['domain', 'https://b.io/'],
      ['domain', 'https://c.io/'],
    ]);
    expect(emails.map((e) => e.text)).toEqual(['ops@c.io']);
  });

  it.each([
    ['changes to setup.py', []],
    ['crates on docs.rs', ['https://docs.rs/']],
    ['www.script.sh', ['https://www.script.sh/']],
    ['bun.sh/docs', ['https://bun.sh/docs']],
    ['Node.js and Vue.js', []],
    ['e.g. this', []],
    ['foo.github.io', ['https://foo.github.io/']],
    ['Bücher.de', ['https://xn--bcher-kva.de/']],
  ])('%s names %j', (query, urls) => {
    expect(findQueryTargets(query).targets.map((t) => t.url)).toEqual(urls);
  });
});

describe('webQueryFrom', () => {
  it.each([
    ['Please monitor every hour whether Acme ships v2', 'Acme ships v2'],
    ['check daily at 9:30 am UTC for Rust 2.0 announcements', 'Rust 2.0 announcements'],
    ['Let me know via email if SpaceX launches Starship', 'SpaceX launches Starship'],
    ['watch the Apple Watch page', 'Apple Watch page'],
    ['Keep me posted on the Fed rate decision, thanks', 'Fed rate decision, thanks'],
  ])('%s → %s', (query, expected) => expect(webQueryFrom(query)).toBe(expected));
});
