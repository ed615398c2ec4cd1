import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createProxyPool, parseProxyList, redactProxyUrl } from '../../../src/engine/proxy-pool.js';
import { AppError, errors } from '../../../src/errors.js';

describe('parseProxyList', () => {
  it('parses URLs with credentials and country tags', () => {
    expect(
      parseProxyList([
        'http://u:p%23w@proxy.example:8000#us|ca',
        ' socks5://10.0.0.9:1080 ',
        'https://h:443#De',
        'http://h2#fr',
      ]),
    ).toEqual([
      { url: 'http://u:p%23w@proxy.example:8000', countries: ['US', 'CA'] },
      { url: 'socks5://10.0.0.9:1080', countries: [] },
      { url: 'https://h', countries: ['DE'] },
      { url: 'http://h2', countries: ['FR'] },
    ]);
  });

  it.each([
    ['proxy.example:8000', /scheme proxy\.example is not supported/],
    ['not a url', /not a URL/],
    ['ftp://proxy.example:21', /scheme ftp is not supported/],
    ['socks5://proxy.example', /explicit port/],
    ['http://proxy.example:8000/path', /no path/],
    ['http://proxy.example:8000#usa', /"usa" is not an ISO 3166-1 alpha-2 code/],
    ['http://proxy.example:8000#us||ca', /"" is not an ISO/],
  ])('refuses %s', (entry, message) => {
    expect(() => parseProxyList([entry])).toThrow(message);
  });

  it('never shows a password in its errors', () => {
    expect(() => parseProxyList(['ftp://user:hunter2@proxy.example:21'])).toThrow(/user:\*\*\*@/);
    expect(() => parseProxyList(['ftp://user:hunter2@proxy.example:21'])).not.toThrow(/hunter2/);
    expect(redactProxyUrl('http://user:hunter2@proxy.example:8000#us')).toBe('http://user:***@proxy.example:8000');
  });

  it('is what PROXY_URLS parses into, and a bad entry stops the boot naming the variable', () => {
    const config = loadConfig({ PROXY_URLS: 'http://a:1#us, http://b:2' });
    expect(config.proxies).toEqual([
      { url: 'http://a:1', countries: ['US'] },
      { url: 'http://b:2', countries: [] },
    ]);
    expect(loadConfig({}).proxies).toEqual([]);
    expect(() => loadConfig({ PROXY_URLS: 'http://a:1#usa' })).toThrow(/PROXY_URLS=.*"usa" is not an ISO/);
  });
});

describe('proxy pool', () => {
  const entries = parseProxyList(['http://g1:1', 'http://g2:2', 'http://us1:3#us', 'http://us2:4#us|ca']);

  it('uses untagged proxies for requests without a country, rotating', () => {
    const pool = createProxyPool(entries);
    expect(pool.plan(null).proxies.map((p) => p.url)).toEqual(['http://g1:1', 'http://g2:2']);
    expect(pool.plan(undefined).proxies.map((p) => p.url)).toEqual(['http://g2:2', 'http://g1:1']);
    expect(pool.plan(null).warning).toBeUndefined();
  });

  it('picks proxies tagged with the country, case-insensitively, and says which country', () => {
    const pool = createProxyPool(entries);
    expect(pool.plan('ca')).toEqual({ proxies: [{ url: 'http://us2:4', country: 'CA' }] });
    expect(pool.plan('US').proxies.map((p) => p.url)).toEqual(['http://us1:3', 'http://us2:4']);
  });

  it('goes through a general proxy with a warning when no proxy exits in the country', () => {
    const plan = createProxyPool(entries).plan('fr');
    expect(plan.proxies.map((p) => p.url)).toEqual(['http://g1:1', 'http://g2:2']);
    expect(plan.warning).toBe('no proxy for country FR; geo-routing was not applied');
    const none = createProxyPool([]).plan('fr');
    expect(none).toEqual({ proxies: [], warning: 'no proxy for country FR; geo-routing was not applied' });
  });

  it('puts a failed proxy last while it cools down, and back after the cooldown', () => {
    let clock = 1_000_000;
    const pool = createProxyPool(parseProxyList(['http://a:1', 'http://b:2']), () => clock);
    const firsts = () => [pool.plan(null), pool.plan(null)].map((p) => p.proxies[0]!.url);
    pool.reportFailure({ url: 'http://a:1' });
    expect(firsts()).toEqual(['http://b:2', 'http://b:2']);
    expect(pool.plan(null).proxies.map((p) => p.url)).toEqual(['http://b:2', 'http://a:1']);
    clock += 30_001;
    expect(firsts().sort()).toEqual(['http://a:1', 'http://b:2']);
    // Consecutive failures double the cooldown: 30 s, then 60 s; a success starts over.
    pool.reportSuccess({ url: 'http://a:1' });
    pool.reportFailure({ url: 'http://a:1' });
    pool.reportFailure({ url: 'http://a:1' });
    clock += 59_000;
    expect(firsts()).toEqual(['http://b:2', 'http://b:2']);
    clock += 2_000;
    expect(firsts().sort()).toEqual(['http://a:1', 'http://b:2']);
    // Without a success in between, the third failure cools down for 120 s.
    pool.reportFailure({ url: 'http://a:1' });
    clock += 119_000;
    expect(firsts()).toEqual(['http://b:2', 'http://b:2']);
  });

  it('run rotates to the next proxy on a 502 or 504 and reports what happened', async () => {
    const pool = createProxyPool(entries);
    const tried: (string | null)[] = [];
    const result = await pool.run('us', async (proxy) => {
      tried.push(proxy?.url ?? null);
      if (proxy?.url === 'http://us1:3') throw errors.upstream('connection to example.com was refused');
      return 'page';
    });
    expect(tried).toEqual(['http://us1:3', 'http://us2:4']);
    expect(result.value).toBe('page');
    expect(result.proxy).toEqual({ url: 'http://us2:4', country: 'US' });
    expect(result.warnings).toEqual([
      'proxy http://us1:3 failed (connection to example.com was refused); retried through another proxy',
    ]);
    // The failed one is now tried last.
    expect(pool.plan('us').proxies.map((p) => p.url)).toEqual(['http://us2:4', 'http://us1:3']);
  });

  it('run does not rotate on the target refusing the request (403) or on bugs', async () => {
    const pool = createProxyPool(entries);
    let calls = 0;
    const blocked = pool.run(null, async () => {
      calls++;
      throw errors.blocked('internal.test resolves to 127.0.0.1');
    });
    await expect(blocked).rejects.toBeInstanceOf(AppError);
    expect(calls).toBe(1);
    await expect(pool.run(null, async () => Promise.reject(new TypeError('bug')))).rejects.toThrow('bug');
  });

  it('run gives up after maxAttempts and rethrows the last failure', async () => {
    const pool = createProxyPool(entries);
    let calls = 0;
    const run = pool.run(
      'us',
      async () => {
        calls++;
        throw errors.timeout(`attempt ${calls} timed out`);
      },
      { maxAttempts: 2 },
    );
    await expect(run).rejects.toMatchObject({ status: 504, detail: 'attempt 2 timed out' });
    expect(calls).toBe(2);
  });

  it('run goes direct when there is no proxy, keeping the country warning', async () => {
    const result = await createProxyPool([]).run('jp', async (proxy) => proxy);
    expect(result).toEqual({
      value: null,
      proxy: null,
      warnings: ['no proxy for country JP; geo-routing was not applied'],
    });
  });
});
