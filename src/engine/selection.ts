import type { Capability, PageRequest, PageSnapshot } from './types.js';

/**
 * Which engine capabilities a request needs. Anything under `browser` needs a browser: actions,
 * screenshots, printing and screen sizes name their capability, and every browser setting needs
 * `javascript` (a page is rendered before it is acted on or captured). A proxy needs `proxy`.
 *
 * @example
 * const needs = requiredCapabilities({ browser: { screenshot: { fullPage: true } }, proxy });
 * // ['javascript', 'screenshot', 'proxy']
 */
export function requiredCapabilities(req: Pick<PageRequest, 'browser' | 'proxy'>): Capability[] {
  const needs = new Set<Capability>();
  const browser = req.browser;
  if (browser) {
    if ((browser.actions?.length ?? 0) > 0) needs.add('actions');
    if (browser.screenshot) needs.add('screenshot');
    if (browser.printPdf) needs.add('pdf');
    if (browser.screen) needs.add('screen');
    // A wait before capturing only means something on a page that runs scripts.
    if (needs.size > 0 || (browser.waitBeforeMs ?? 0) > 0) needs.add('javascript');
  }
  if (req.proxy) needs.add('proxy');
  const order: Capability[] = ['javascript', 'actions', 'screenshot', 'pdf', 'screen', 'proxy'];
  return order.filter((c) => needs.has(c));
}

/** Below this many characters of visible text, a page that loads scripts is treated as an empty shell. */
const EMPTY_TEXT_CHARS = 80;
/** An empty app root or a noscript gate counts only when the page shows less text than this. */
const THIN_TEXT_CHARS = 600;
/** Only the start of a very large document is examined: heuristics, not a parser. */
const MAX_SCAN_CHARS = 2_000_000;

/**
 * Anti-bot interstitials: vendor markers that only appear on challenge pages. Each is specific
 * enough that a normal article mentioning the vendor does not match.
 */
const CHALLENGES: [RegExp, string][] = [
  [/\b(?:_cf_chl_opt|cf-browser-verification|cf_chl_|challenge-platform\/h\/)/i, 'Cloudflare challenge'],
  [/<title>\s*(?:Just a moment\.\.\.|Attention Required! \| Cloudflare)\s*<\/title>/i, 'Cloudflare challenge'],
  [/<title>\s*DDoS-Guard\s*<\/title>|ddos-guard\.net\/(?:js|check)/i, 'DDoS-Guard check'],
  [/\bsucuri_cloudproxy_js\b|Sucuri WebSite Firewall - Access Denied/i, 'Sucuri firewall'],
  [/_Incapsula_Resource|Incapsula incident ID/i, 'Imperva Incapsula'],
  [/captcha-delivery\.com|geo\.captcha-delivery|\bdd=\{['"]rt['"]/i, 'DataDome'],
  [/\bpx-captcha\b|perimeterx\.net|_pxAppId/i, 'PerimeterX (HUMAN)'],
  [/\bAwsWafIntegration\b|awswaf\.com/i, 'AWS WAF challenge'],
  [/<title>\s*(?:Checking your browser|Please Wait\.\.\. \| Cloudflare)/i, 'browser check'],
];

/** Statuses anti-bot products answer with while they challenge the client. */
const CHALLENGE_STATUSES = new Set([202, 403, 429, 503]);

/** Empty mount points of client-rendered apps (React, Vue, Next, Nuxt, Angular, Svelte, Gatsby, Ember). */
const EMPTY_APP_ROOT =
  /<(div|main|section|body)\b[^>]*\bid\s*=\s*["']?(root|app|__next|__nuxt|___gatsby|svelte|q-app|react-root|ember-app|application)["']?[^>]*>(?:\s|<!--[\s\S]*?-->)*<\/\1>|<(app-root|ng-app)\b[^>]*>\s*<\/\3>/i;

/** Noscript text that says the page needs scripts. */
const NOSCRIPT_GATE =
  /<noscript\b[^>]*>[\s\S]{0,2000}?(?:enable javascript|javascript (?:is )?(?:required|disabled|must be enabled|to be enabled)|requires? javascript|turn on javascript|activate javascript|javascript aktivieren|activer javascript|habilitar javascript)[\s\S]*?<\/noscript>/i;

/**
 * Says why a page fetched without a browser probably needs one, or null. Looks at HTML only:
 * anti-bot interstitials (vendor markers, usually with 403/503), pages that load scripts but show
 * (almost) no text, empty SPA mount points (`<div id="root"></div>`, `__next`, `app-root`) and
 * `<noscript>` gates ("enable JavaScript") on thin pages. Server-rendered apps have text in their
 * root and are left alone; so are tiny pages without scripts.
 *
 * @example
 * detectScriptRequirement(snapshot); // 'empty app root <div id="root"> and 0 characters of text'
 */
export function detectScriptRequirement(snapshot: PageSnapshot): string | null {
  const type = snapshot.contentType;
  if (type !== 'text/html' && type !== 'application/xhtml+xml') return null;
  const html = (snapshot.text ?? '').slice(0, MAX_SCAN_CHARS);
  if (html.trim() === '') return null;
  const challenge = CHALLENGES.find(([pattern]) => pattern.test(html));
  if (challenge) {
    const status = CHALLENGE_STATUSES.has(snapshot.statusCode) ? `HTTP ${snapshot.statusCode} ` : '';
    return `${status}anti-bot interstitial (${challenge[1]})`;
  }
  const text = visibleTextLength(html);
  const scripts = /<script\b/i.test(html);
  if (scripts && text < EMPTY_TEXT_CHARS) return `page loads scripts but shows ${text} characters of text`;
  if (text >= THIN_TEXT_CHARS) return null;
  const root = EMPTY_APP_ROOT.exec(html);
  if (root)
    return `empty app root <${root[1] ?? root[3]}${root[2] ? ` id="${root[2]}"` : ''}> and ${text} characters of text`;
  if (NOSCRIPT_GATE.test(html)) return `<noscript> asks for JavaScript and the page shows ${text} characters of text`;
  return null;
}

/**
 * Length of the text a reader would see: the body without scripts, styles, templates, noscript,
 * SVG and comments, tags removed, entities counted as one character, whitespace collapsed.
 */
export function visibleTextLength(html: string): number {
  const bodyStart = html.search(/<body\b/i);
  const body = bodyStart >= 0 ? html.slice(bodyStart) : html.replace(/<head\b[\s\S]*?<\/head>/i, '');
  const stripped = body
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg|iframe|object)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(?:#\d+|#x[\da-f]+|[a-z]+);/gi, '_');
  return stripped.replace(/\s+/g, ' ').trim().length;
}
