import { decodeUriSafely } from '../../../src/extraction/index.js';

/**
 * Profile URLs of social networks, told apart from share buttons, posts and videos. Each network
 * names the hosts it answers on and reads the profile's handle from a URL path; a path that is
 * not a profile (`/sharer.php`, `/intent/tweet`, `/p/Cx1…`, `/watch`) yields nothing.
 */

export const NETWORKS = [
  'twitter',
  'facebook',
  'instagram',
  'linkedin',
  'youtube',
  'tiktok',
  'github',
  'mastodon',
  'threads',
  'bluesky',
  'pinterest',
  'reddit',
  'medium',
  'telegram',
  'whatsapp',
  'discord',
  'twitch',
  'snapchat',
] as const;

export type Network = (typeof NETWORKS)[number];

export interface Profile {
  network: Network;
  /** What identifies the profile within the network (lower case): duplicates are dropped by it. */
  key: string;
  url: string;
}

type Reader = (segments: string[], url: URL) => string | null;

const RESERVED_TWITTER = new Set([
  'share',
  'intent',
  'home',
  'search',
  'hashtag',
  'i',
  'login',
  'signup',
  'privacy',
  'tos',
  'explore',
  'settings',
  'notifications',
  'messages',
  'compose',
]);
const RESERVED_FACEBOOK = new Set([
  'sharer.php',
  'sharer',
  'share.php',
  'share',
  'dialog',
  'plugins',
  'tr',
  'login',
  'login.php',
  'help',
  'policies',
  'privacy',
  'l.php',
  'hashtag',
  'watch',
  'events',
  'photo.php',
  'photo',
  'story.php',
  'permalink.php',
  'business',
  'ads',
  'legal',
]);
const RESERVED_INSTAGRAM = new Set([
  'p',
  'reel',
  'reels',
  'explore',
  'accounts',
  'stories',
  'tv',
  'direct',
  'about',
  'legal',
]);
const RESERVED_GITHUB = new Set([
  'features',
  'pricing',
  'about',
  'login',
  'join',
  'marketplace',
  'sponsors',
  'topics',
  'explore',
  'site',
  'security',
  'enterprise',
  'apps',
  'settings',
  'notifications',
  'new',
  'organizations',
  'collections',
  'trending',
  'customer-stories',
  'readme',
  'search',
  'contact',
  'team',
  'events',
]);
const RESERVED_PINTEREST = new Set(['pin', 'search', 'ideas', 'today', 'business', 'login', 'categories', '_']);

const handle = (value: string | undefined, pattern = /^[\w.-]{1,100}$/): string | null =>
  value && pattern.test(value) ? value : null;

const READERS: Array<[Network, RegExp, Reader]> = [
  [
    'twitter',
    /^(?:mobile\.)?(?:twitter|x)\.com$/,
    ([first, second]) =>
      second === undefined && first && !RESERVED_TWITTER.has(first.toLowerCase()) ? handle(first, /^\w{1,15}$/) : null,
  ],
  [
    'facebook',
    /^(?:m\.|web\.|business\.)?(?:facebook|fb)\.com$/,
    (segments, url) => {
      if (segments[0] === 'profile.php') return url.searchParams.get('id');
      if (segments[0] === 'pages' || segments[0] === 'groups')
        return segments.length >= 2 ? segments.slice(0, 3).join('/') : null;
      const [first] = segments;
      return segments.length === 1 && first && !RESERVED_FACEBOOK.has(first.toLowerCase()) ? handle(first) : null;
    },
  ],
  [
    'instagram',
    /^(?:m\.)?instagram\.com$/,
    ([first, second]) =>
      second === undefined && first && !RESERVED_INSTAGRAM.has(first.toLowerCase()) ? handle(first) : null,
  ],
  [
    'linkedin',
    /^(?:[a-z]{2}\.)?linkedin\.com$/,
    ([kind, name]) =>
      kind && ['in', 'company', 'school', 'showcase', 'pub'].includes(kind) && name ? `${kind}/${name}` : null,
  ],
  [
    'youtube',
    /^(?:m\.)?youtube\.com$/,
    ([first, second]) => {
      if (first?.startsWith('@')) return handle(first.slice(1)) ? first : null;
      return first && ['channel', 'c', 'user'].includes(first) && second ? `${first}/${second}` : null;
    },
  ],
  [
    'tiktok',
    /^(?:m\.)?tiktok\.com$/,
    ([first, second]) => (first?.startsWith('@') && second === undefined ? first : null),
  ],
  [
    'github',
    /^github\.com$/,
    (segments) => {
      const [first, second] = segments;
      if (first === 'orgs' && second && segments.length === 2) return second;
      return first && segments.length === 1 && !RESERVED_GITHUB.has(first.toLowerCase()) ? handle(first) : null;
    },
  ],
  [
    'threads',
    /^threads\.(?:net|com)$/,
    ([first, second]) => (first?.startsWith('@') && second === undefined ? first : null),
  ],
  ['bluesky', /^bsky\.app$/, ([kind, name, rest]) => (kind === 'profile' && name && rest === undefined ? name : null)],
  [
    'pinterest',
    /^(?:[a-z]{2}\.)?pinterest\.(?:com|[a-z]{2}|co\.uk)$/,
    ([first, second]) =>
      first && second === undefined && !RESERVED_PINTEREST.has(first.toLowerCase()) ? handle(first) : null,
  ],
  [
    'reddit',
    /^(?:old\.|www\.)?reddit\.com$/,
    ([kind, name, rest]) =>
      kind && ['user', 'u', 'r'].includes(kind) && name && rest === undefined
        ? `${kind === 'u' ? 'user' : kind}/${name}`
        : null,
  ],
  ['medium', /^medium\.com$/, ([first, second]) => (first?.startsWith('@') && second === undefined ? first : null)],
  [
    'telegram',
    /^(?:t\.me|telegram\.me)$/,
    ([first, second]) =>
      first && second === undefined && !['share', 'joinchat', 'addstickers', 'iv'].includes(first)
        ? handle(first)
        : null,
  ],
  [
    'whatsapp',
    /^(?:wa\.me|api\.whatsapp\.com)$/,
    ([first], url) => (first === 'send' ? url.searchParams.get('phone') : handle(first, /^\+?\d{6,15}$/)),
  ],
  [
    'discord',
    /^(?:discord\.gg|discord\.com|discordapp\.com)$/,
    ([first, second], url) =>
      url.hostname === 'discord.gg' ? handle(first) : first === 'invite' && second ? second : null,
  ],
  [
    'twitch',
    /^(?:m\.)?twitch\.tv$/,
    ([first, second]) =>
      first && second === undefined && !['directory', 'search', 'settings', 'p'].includes(first) ? handle(first) : null,
  ],
  ['snapchat', /^(?:www\.)?snapchat\.com$/, ([kind, name]) => (kind === 'add' && name ? handle(name) : null)],
];

/** The profile a link points to, or null (not a social network, or a share/post/video link). */
export function profileOf(href: string, relMe = false): Profile | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase().replace(/^www\./, '');
  const segments = url.pathname.split('/').filter(Boolean).map(decodeUriSafely);
  for (const [network, hosts, read] of READERS) {
    if (!hosts.test(host)) continue;
    const key = read(segments, url);
    return key ? { network, key: key.toLowerCase(), url: clean(url, network) } : null;
  }
  // Mastodon runs on many hosts: a `/@user` profile on a host named like one, or linked rel="me".
  const [first, second] = segments;
  if (
    first?.startsWith('@') &&
    second === undefined &&
    handle(first.slice(1)) &&
    (relMe || /mastodon|social|toot|fosstodon/.test(host))
  ) {
    return { network: 'mastodon', key: `${first}@${host}`.toLowerCase(), url: clean(url, 'mastodon') };
  }
  return null;
}

/** The URL as written, without tracking parameters and fragments (Facebook's `profile.php?id=` kept). */
function clean(url: URL, network: Network): string {
  const copy = new URL(url.href);
  copy.hash = '';
  if (
    !(network === 'facebook' && copy.pathname.endsWith('profile.php')) &&
    !(network === 'whatsapp' && copy.pathname === '/send')
  ) {
    copy.search = '';
  }
  return copy.href.replace(/\/$/, '');
}
