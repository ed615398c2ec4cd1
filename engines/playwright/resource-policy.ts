/**
 * What a page may load by default. Media and fonts cost bandwidth and time and change no text;
 * ad and tracker hosts slow pages down and add nothing a scrape wants. A request with
 * `loadAllResources` keeps everything; screenshots and printed PDFs keep fonts so text looks
 * right.
 */

/** Ad, analytics and tracking hosts (subdomains included). Kept short: the big networks only. */
export const BLOCKED_HOSTS = [
  'doubleclick.net',
  'googlesyndication.com',
  'googleadservices.com',
  'google-analytics.com',
  'googletagmanager.com',
  'googletagservices.com',
  'adservice.google.com',
  'analytics.google.com',
  'connect.facebook.net',
  'facebook.com/tr',
  'amazon-adsystem.com',
  'adnxs.com',
  'adsrvr.org',
  'criteo.com',
  'criteo.net',
  'taboola.com',
  'outbrain.com',
  'scorecardresearch.com',
  'quantserve.com',
  'hotjar.com',
  'hotjar.io',
  'mouseflow.com',
  'fullstory.com',
  'clarity.ms',
  'bat.bing.com',
  'segment.io',
  'segment.com',
  'mixpanel.com',
  'amplitude.com',
  'heap.io',
  'heapanalytics.com',
  'newrelic.com',
  'nr-data.net',
  'pubmatic.com',
  'rubiconproject.com',
  'openx.net',
  'casalemedia.com',
  'moatads.com',
  'chartbeat.com',
  'chartbeat.net',
  'yandex.ru/metrika',
  'mc.yandex.ru',
  'ads-twitter.com',
  'analytics.twitter.com',
  'ads.linkedin.com',
  'snap.licdn.com',
  'tiktok.com/i18n/pixel',
  'analytics.tiktok.com',
  'hubspot.net',
  'hs-analytics.net',
  'optimizely.com',
  'crazyegg.com',
  'zedo.com',
  'media.net',
  'adform.net',
  'smartadserver.com',
  '2mdn.net',
] as const;

const HOSTS = new Set<string>(BLOCKED_HOSTS.filter((h) => !h.includes('/')));
const HOST_PATHS = BLOCKED_HOSTS.filter((h) => h.includes('/')).map((h) => {
  const [host, ...rest] = h.split('/');
  return { host: host!, path: `/${rest.join('/')}` };
});

export interface ResourcePolicyOptions {
  loadAllResources: boolean;
  /** Screenshots and PDFs need the page's fonts. */
  keepFonts: boolean;
}

/** Why a subresource is not loaded, or null to load it. */
export function blockReason(resourceType: string, url: URL, options: ResourcePolicyOptions): string | null {
  if (options.loadAllResources) return null;
  if (resourceType === 'media' || resourceType === 'texttrack') return 'media';
  if (resourceType === 'font' && !options.keepFonts) return 'font';
  if (isBlockedHost(url)) return 'ad or tracker';
  return null;
}

export function isBlockedHost(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  // The host and every parent domain: a.b.doubleclick.net, b.doubleclick.net, doubleclick.net, net.
  for (let rest = host; ;) {
    if (HOSTS.has(rest)) return true;
    const dot = rest.indexOf('.');
    if (dot < 0) break;
    rest = rest.slice(dot + 1);
  }
  return HOST_PATHS.some((e) => (host === e.host || host.endsWith(`.${e.host}`)) && url.pathname.startsWith(e.path));
}
