import { readJsonLd, readMicrodata } from '../../../src/extraction/index.js';
import { resolveUrl } from '../../../src/pipeline/dom.js';
import { requireHtml } from '../../../src/parsers/page-input.js';
import { defineParser } from '../../../src/parsers/parser.js';
import { valuesNamed } from '../support/linked-values.js';
import { type Network, NETWORKS, type Profile, profileOf } from './social-networks.js';

/**
 * `@olostep/extract-socials`: the page's social profiles by network, from links (`<a>`, `<link
 * rel="me">`), JSON-LD/microdata `sameAs`, and the Twitter card's `twitter:site`/`twitter:creator`
 * handles. Share buttons, intents, posts and videos are not profiles and are left out; a profile
 * linked twice (`twitter.com/acme` and `x.com/acme`) is listed once, as first seen. Every network
 * key is present, `[]` when the page links none. HTML pages only.
 *
 * @example
 * // { "twitter": ["https://x.com/acme"], "github": ["https://github.com/acme"], "facebook": [], ... }
 */
export const extractSocialsParser = defineParser({
  id: '@olostep/extract-socials',
  description:
    'Social network profile links on the page (Twitter/X, Facebook, Instagram, LinkedIn, YouTube, TikTok, GitHub, Mastodon and more), share links excluded.',
  outputSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    description: 'Profile URLs by network, each list in page order without repeats.',
    properties: Object.fromEntries(
      NETWORKS.map((network) => [network, { type: 'array', items: { type: 'string', format: 'uri' } }]),
    ),
    required: [...NETWORKS],
    additionalProperties: false,
  },
  parse(input) {
    const { document, baseUrl } = requireHtml(input, '@olostep/extract-socials');
    const found: Profile[] = [];
    for (const link of document.querySelectorAll('a[href], link[href], area[href]')) {
      const href = resolveUrl(link.getAttribute('href'), baseUrl);
      const relMe = /(?:^|\s)me(?:\s|$)/i.test(link.getAttribute('rel') ?? '');
      const profile = href ? profileOf(href, relMe) : null;
      if (profile) found.push(profile);
    }
    const linked = [...readJsonLd(document).items, ...readMicrodata(document, baseUrl)];
    for (const value of valuesNamed(linked, 'sameAs')) {
      const profile = profileOf(value.trim());
      if (profile) found.push(profile);
    }
    for (const name of ['twitter:site', 'twitter:creator']) {
      const content = document.querySelector(`meta[name="${name}"], meta[property="${name}"]`)?.getAttribute('content');
      const handle = content?.trim().replace(/^@/, '');
      const profile = handle && /^\w{1,15}$/.test(handle) ? profileOf(`https://x.com/${handle}`) : null;
      if (profile) found.push(profile);
    }
    return byNetwork(found);
  },
});

function byNetwork(found: Profile[]): Record<Network, string[]> {
  const result = Object.fromEntries(NETWORKS.map((network) => [network, [] as string[]])) as Record<Network, string[]>;
  const seen = new Set<string>();
  for (const profile of found) {
    const key = `${profile.network} ${profile.key}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result[profile.network].push(profile.url);
  }
  return result;
}
