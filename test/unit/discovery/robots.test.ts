import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ALLOW_ALL, DISALLOW_ALL, parseRobotsTxt, robotsPolicy, robotsTxtUrl } from '../../../src/discovery/robots.js';
import { canonicalRobotsPath, compileRule, productToken, ruleMatches } from '../../../src/discovery/robots-rules.js';

// robots-parser (a Crawlee dependency) is CommonJS with loose typings: load it as such, as an oracle.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (
  url: string,
  text: string,
) => { isAllowed(url: string, ua?: string): boolean | undefined };

const policy = (text: string, ua = 'Gleaner') => robotsPolicy(parseRobotsTxt(text, 'https://a.example/robots.txt'), ua);

describe('RFC 9309 §5.1 example file', () => {
  const text = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF`;

  it.each([
    ['foobot', '/example/page.html', true],
    ['foobot', '/example/allowed.gif', true],
    ['foobot', '/example/other', false],
    ['foobot', '/', false],
    ['barbot', '/example/page.html', false],
    ['bazbot', '/example/page.html', false],
    ['barbot', '/example/other.gif', true],
    ['quxbot', '/example/page.html', true],
    ['quxbot', '/x.gif', true],
    ['otherbot', '/x.gif', false],
    ['otherbot', '/x.gif?size=1', true],
    ['otherbot', '/example/', false],
    ['otherbot', '/example/deeper', false],
    ['otherbot', '/publications/', true],
    ['otherbot', '/', true],
  ])('%s on %s → %s', (ua, path, allowed) => {
    expect(policy(text, ua).isAllowed(path)).toBe(allowed);
  });
});

describe('matching', () => {
  const cases: [string, string, string, boolean][] = [
    // [rules, path, description, allowed]
    [
      'Allow: /example/page/\nDisallow: /example/page/disallowed.gif',
      '/example/page/disallowed.gif',
      'longest match wins',
      false,
    ],
    [
      'Allow: /example/page/\nDisallow: /example/page/disallowed.gif',
      '/example/page/other',
      'longest match wins',
      true,
    ],
    ['Allow: /p\nDisallow: /', '/page', 'longer allow beats shorter disallow', true],
    ['Allow: /folder\nDisallow: /folder', '/folder/page', 'allow wins a tie', true],
    ['Disallow: /folder\nAllow: /folder', '/folder/page', 'allow wins a tie whatever the order', true],
    ['Allow: /page\nDisallow: /*.htm', '/page.htm', 'longer wildcard disallow wins', false],
    ['Allow: /$\nDisallow: /', '/', '$ anchors the root', true],
    ['Allow: /$\nDisallow: /', '/page.htm', '$ anchors the root', false],
    ['Disallow: /fish*', '/fish', 'trailing * is a prefix', false],
    ['Disallow: /fish*', '/fishheads/yummy.html', 'trailing *', false],
    ['Disallow: /fish*', '/Fish.asp', 'paths are case-sensitive', true],
    ['Disallow: /fish', '/fish.php?id=anything', 'plain prefix covers queries', false],
    ['Disallow: /fish', '/catfish', 'prefix must match from the start', true],
    ['Disallow: /*.php$', '/folder/filename.php', '*.php$', false],
    ['Disallow: /*.php$', '/filename.php?parameters', '$ excludes a query', true],
    ['Disallow: /*.php$', '/filename.php/', '$ excludes a trailing slash', true],
    ['Disallow: /*.php$', '/windows.PHP', 'case-sensitive extension', true],
    ['Disallow: /fish*.php', '/fishheads/catfish.php?parameters', 'middle *', false],
    ['Disallow: /fish*.php', '/Fish.PHP', 'middle * case-sensitive', true],
    ['Disallow: /*.php', '/folder/any.php.file.html', 'unanchored suffix anywhere', false],
    ['Disallow: /*?', '/search?q=1', '/*? blocks queries', false],
    ['Disallow: /*?', '/search', '/*? leaves plain paths', true],
    ['Disallow: /a$b', '/a$b', 'a $ inside a pattern is literal', false],
    ['Disallow: /a$b', '/a', 'a $ inside a pattern is literal', true],
    ['Disallow: /a**b', '/a/x/b', 'repeated * is one *', false],
    ['Disallow: *', '/anything', 'bare *', false],
    ['Disallow: fish', '/fish', 'a pattern without / gets one', false],
    ['Disallow:', '/anything', 'empty disallow allows all', true],
    ['Disallow: /', '/robots.txt', '/robots.txt is always allowed', true],
    ['Disallow: /a # comment', '/a', 'comments are stripped', false],
    ['Disallow: /a # comment', '/b', 'comments are stripped', true],
    ['Disallow: /foo/bar/ツ', '/foo/bar/%E3%83%84', 'UTF-8 pattern vs encoded path', false],
    ['Disallow: /foo/bar/%E3%83%84', '/foo/bar/ツ', 'encoded pattern vs UTF-8 path', false],
    ['Disallow: /foo/bar/%e3%83%84', '/foo/bar/%E3%83%84', 'escape case does not matter', false],
    ['Disallow: /foo/bar/%62%61%7A', '/foo/bar/baz', 'unreserved escapes are decoded (RFC 9309 §2.2.2)', false],
    ['Disallow: /foo/bar/baz', '/foo/bar/%62%61%7A', 'unreserved escapes are decoded in paths too', false],
    ['Disallow: /a%2Fb', '/a/b', 'an encoded slash is not a slash', true],
    ['Disallow: /a%2Fb', '/a%2fb', 'an encoded slash matches itself', false],
    ['Disallow: /a b', '/a%20b', 'spaces compare encoded', false],
    ['Disallow: /{x}', '/%7Bx%7D', 'characters the URL parser escapes compare escaped', false],
    ["Disallow: /*'", "/?q='", 'quotes in a query compare escaped', false],
  ];
  it.each(cases)('%j on %s (%s) → %s', (rules, path, _why, allowed) => {
    expect(policy(`User-agent: *\n${rules}`).isAllowed(path)).toBe(allowed);
  });

  it('accepts absolute URLs and ignores their fragment', () => {
    const p = policy('User-agent: *\nDisallow: /private$');
    expect(p.isAllowed('https://a.example/private#section')).toBe(false);
    expect(p.isAllowed('https://a.example/private?x')).toBe(true);
  });

  it('agrees with a regular-expression oracle on 20,000 random patterns and paths', () => {
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = (alphabet: string, max: number) =>
      Array.from({ length: random(max) }, () => alphabet[random(alphabet.length)]).join('');
    const oracle = (pattern: string, path: string) => {
      const anchored = pattern.endsWith('$');
      const body = (anchored ? pattern.slice(0, -1) : pattern)
        .split('*')
        .map((s) => s.replace(/[.$/]/g, (c) => `\\${c}`))
        .join('.*');
      return new RegExp(`^${body}${anchored ? '$' : ''}`).test(path);
    };
    for (let i = 0; i < 20_000; i++) {
      const pattern = `/${pick('ab/.*$', 7)}`;
      const path = `/${pick('ab/.$', 9)}`;
      expect(ruleMatches(compileRule(false, pattern), path), `${pattern} vs ${path}`).toBe(oracle(pattern, path));
    }
  });

  it('agrees with robots-parser (Google-compatible) on plain ASCII files', () => {
    const files = [
      'User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.pdf$\nAllow: /a/b/*.pdf$',
      'User-agent: gleaner\nDisallow: /\nAllow: /public\n\nUser-agent: *\nAllow: /',
      'User-agent: other\nDisallow: /\n\nUser-agent: *\nDisallow: /x*y\nAllow: /x/y',
    ];
    const paths = ['/', '/a', '/a/b', '/a/b/c.pdf', '/a/c.pdf', '/public/x', '/x/y', '/x/zzy', '/xy', '/b.pdf?x'];
    for (const file of files) {
      const ours = policy(file);
      const theirs = robotsParser('https://a.example/robots.txt', file);
      for (const path of paths) {
        expect(ours.isAllowed(path), `${JSON.stringify(file)} ${path}`).toBe(
          theirs.isAllowed(`https://a.example${path}`, 'Gleaner'),
        );
      }
    }
  });
});

describe('groups and user agents', () => {
  it('matches our product token case-insensitively, ignoring versions', () => {
    for (const line of [
      'User-agent: Gleaner',
      'User-agent: GLEANER',
      'User-agent: gleaner/2.1',
      'user-agent:gleaner',
    ]) {
      expect(policy(`${line}\nDisallow: /\n\nUser-agent: *\nAllow: /`).isAllowed('/x'), line).toBe(false);
    }
    expect(policy('User-agent: GleanerBot\nDisallow: /').isAllowed('/x')).toBe(true);
    expect(policy('User-agent: Gleaner\nDisallow: /', 'Gleaner/1.0 (+https://gleaner.dev)').isAllowed('/x')).toBe(
      false,
    );
  });

  it('prefers our group over *, and uses * without one', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: gleaner\nDisallow: /only-this';
    expect(policy(text).isAllowed('/x')).toBe(true);
    expect(policy(text).isAllowed('/only-this')).toBe(false);
    expect(policy(text).matchedAgent).toBe('gleaner');
    expect(policy(text, 'OtherBot').isAllowed('/x')).toBe(false);
    expect(policy(text, 'OtherBot').matchedAgent).toBe('*');
  });

  it('merges every group naming the agent', () => {
    const text =
      'User-agent: gleaner\nDisallow: /x\n\nUser-agent: other\nDisallow: /y\n\nUser-agent: gleaner\nDisallow: /z';
    const p = policy(text);
    expect([p.isAllowed('/x'), p.isAllowed('/y'), p.isAllowed('/z')]).toEqual([false, true, false]);
  });

  it('consecutive user-agent lines share a group; sitemap and unknown lines do not break it', () => {
    const text = 'User-agent: a\nSitemap: https://a.example/s.xml\nHost: a.example\nUser-agent: gleaner\nDisallow: /';
    expect(policy(text).isAllowed('/x')).toBe(false);
    expect(policy(text, 'a').isAllowed('/x')).toBe(false);
  });

  it('a user-agent line after rules starts a new group', () => {
    const text = 'User-agent: a\nDisallow: /a\nUser-agent: gleaner\nDisallow: /g';
    expect(policy(text).isAllowed('/a')).toBe(true);
    expect(policy(text).isAllowed('/g')).toBe(false);
  });

  it('ignores rules before any user-agent line', () => {
    expect(policy('Disallow: /\nUser-agent: *\nDisallow: /x').isAllowed('/y')).toBe(true);
  });

  it('allows everything without groups, with an empty group or an empty file', () => {
    for (const text of ['', '# nothing\n', 'Sitemap: https://a.example/s.xml', 'User-agent: gleaner\n']) {
      expect(policy(text).isAllowed('/anything'), JSON.stringify(text)).toBe(true);
    }
    expect(policy('').matchedAgent).toBeNull();
  });

  it('extracts product tokens', () => {
    expect(productToken(' Googlebot-News/1.0 ')).toBe('googlebot-news');
    expect(productToken('*')).toBe('*');
    expect(productToken('Mozilla/5.0 (compatible)')).toBe('mozilla');
    expect(productToken('123')).toBe('');
  });
});

describe('lenient syntax', () => {
  it.each([
    ['BOM', '\uFEFFUser-agent: *\nDisallow: /x'],
    ['CR line endings', 'User-agent: *\rDisallow: /x'],
    ['CRLF line endings', 'User-agent: *\r\nDisallow: /x'],
    ['key case', 'USER-AGENT: *\nDISALLOW: /x'],
    ['"useragent" typo', 'useragent: *\nDisallow: /x'],
    ['"user agent" typo', 'user agent: *\nDisallow: /x'],
    ['"dissallow" typo', 'User-agent: *\nDissallow: /x'],
    ['missing colon', 'User-agent *\nDisallow /x'],
    ['spaces around the colon', 'User-agent : *\nDisallow :   /x   '],
  ])('%s', (_name, text) => {
    expect(policy(text).isAllowed('/x')).toBe(false);
    expect(policy(text).isAllowed('/y')).toBe(true);
  });
});

describe('crawl-delay and sitemaps', () => {
  it('reads crawl-delay for the matching group, the largest when groups merge', () => {
    const text =
      'User-agent: *\nCrawl-delay: 10\n\nUser-agent: gleaner\nCrawl-delay: 0.5\n\nUser-agent: gleaner\nCrawl-delay: 2';
    expect(policy(text).crawlDelay).toBe(2);
    expect(policy(text, 'other').crawlDelay).toBe(10);
    expect(policy('User-agent: *\nDisallow: /').crawlDelay).toBeUndefined();
  });

  it.each(['abc', '-1', '', 'Infinity'])('ignores crawl-delay %j', (value) => {
    expect(policy(`User-agent: *\nCrawl-delay: ${value}`).crawlDelay).toBeUndefined();
  });

  it('collects sitemap lines from anywhere, resolved, normalised and deduplicated', () => {
    const text = `Sitemap: https://a.example/s1.xml
User-agent: *
Disallow: /x
Sitemap: /s2.xml.gz
sitemap:https://cdn.example/s3.xml#frag
Sitemap: https://a.example/s1.xml
Sitemap: ftp://a.example/no.xml
Sitemap: `;
    expect(parseRobotsTxt(text, 'https://a.example/robots.txt').sitemaps).toEqual([
      'https://a.example/s1.xml',
      'https://a.example/s2.xml.gz',
      'https://cdn.example/s3.xml',
    ]);
    expect(policy(text).sitemaps).toHaveLength(3);
  });
});

describe('fixed policies and helpers', () => {
  it('ALLOW_ALL allows, DISALLOW_ALL disallows all but /robots.txt', () => {
    expect(ALLOW_ALL.isAllowed('/anything')).toBe(true);
    expect(DISALLOW_ALL.isAllowed('/anything')).toBe(false);
    expect(DISALLOW_ALL.isAllowed('https://a.example/robots.txt')).toBe(true);
  });

  it('robotsTxtUrl keeps scheme, host and port', () => {
    expect(robotsTxtUrl('https://a.example:8443/x/y?z#f')).toBe('https://a.example:8443/robots.txt');
    expect(robotsTxtUrl('ftp://a.example/')).toBeNull();
    expect(robotsTxtUrl('nope')).toBeNull();
  });

  it('canonicalRobotsPath is idempotent', () => {
    for (const s of ['/a b/ツ?q=é&x=%7e', '/%2f%41%zz', '/{x}\'"<>`']) {
      expect(canonicalRobotsPath(canonicalRobotsPath(s))).toBe(canonicalRobotsPath(s));
    }
  });

  // Speed is a benchmark's business (bench/), not a test's: this only checks a big file is read whole.
  it('applies every rule of a 500 KiB file', () => {
    const rules = Array.from({ length: 20_000 }, (_, i) => `Disallow: /section-${i}/*.pdf$`).join('\n');
    const p = policy(`User-agent: *\n${rules}`);
    for (let i = 0; i < 1000; i++) expect(p.isAllowed(`/section-${i}/file.pdf`)).toBe(false);
    expect(p.isAllowed('/section-19999/x.pdf')).toBe(false);
    expect(p.isAllowed('/section-19999/x.pdf?y')).toBe(true);
  });
});
