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
 * anti-bot interstitials (vendor markers on a page with a challenge status or little text), pages that load scripts but show
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
  // Exact below THIN_TEXT_CHARS, which is all the rules below need; a text-rich page stops early.
  const text = visibleTextLength(html, THIN_TEXT_CHARS);
  const challengeStatus = CHALLENGE_STATUSES.has(snapshot.statusCode);
  // Interstitials show a line or two, or answer with a challenge status: a page with a
  // screenful of text and a 200 is the page itself, so its markup is not scanned for vendors.
  const challenge = challengeStatus || text < THIN_TEXT_CHARS ? CHALLENGES.find(([p]) => p.test(html)) : undefined;
  if (challenge)
    return `${challengeStatus ? `HTTP ${snapshot.statusCode} ` : ''}anti-bot interstitial (${challenge[1]})`;
  const scripts = /<script\b/i.test(html);
  if (scripts && text < EMPTY_TEXT_CHARS) return `page loads scripts but shows ${text} characters of text`;
  if (text >= THIN_TEXT_CHARS) return null;
  const root = EMPTY_APP_ROOT.exec(html);
  if (root)
    return `empty app root <${root[1] ?? root[3]}${root[2] ? ` id="${root[2]}"` : ''}> and ${text} characters of text`;
  if (NOSCRIPT_GATE.test(html)) return `<noscript> asks for JavaScript and the page shows ${text} characters of text`;
  return null;
}

/** Elements whose content a reader never sees as text. */
const HIDDEN_ELEMENTS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object']);
const CLOSERS = new Map([...HIDDEN_ELEMENTS].map((name) => [name, new RegExp(`</${name}\\s*>`, 'gi')]));
const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z]+);/iy;
const TAG_NAME = /<\/?([a-z][a-z0-9-]*)/iy;

/**
 * Length of the text a reader would see: the body without scripts, styles, templates, noscript,
 * SVG and comments, tags removed, entities counted as one character, whitespace collapsed and
 * trimmed. One pass without copies; with `atLeast` it stops as soon as that much text was seen
 * (the answer is then exact only below `atLeast`), so most pages are decided by their first
 * screenful.
 */
export function visibleTextLength(html: string, atLeast = Infinity): number {
  const bodyStart = html.search(/<body\b/i);
  const body = bodyStart >= 0 ? html.slice(bodyStart) : html.replace(/<head\b[\s\S]*?<\/head>/i, '');
  const n = body.length;
  let count = 0;
  let gap = false; // whitespace or a tag since the last character counted
  let i = 0;
  while (i < n && count < atLeast) {
    const c = body.charCodeAt(i);
    if (c === 60 /* < */) {
      if (body.startsWith('<!--', i)) {
        const end = body.indexOf('-->', i + 4);
        if (end >= 0) {
          i = end + 3;
          gap = true;
          continue;
        }
      }
      const end = body.indexOf('>', i + 1);
      if (end < 0) {
        i++; // a lone '<' is text, as in the page
      } else {
        TAG_NAME.lastIndex = i;
        const name = TAG_NAME.exec(body)?.[1]?.toLowerCase();
        const closer = name && body.charCodeAt(i + 1) !== 47 /* / */ ? CLOSERS.get(name) : undefined;
        i = end + 1;
        if (closer) {
          closer.lastIndex = i;
          if (closer.exec(body)) i = closer.lastIndex;
        }
        gap = true;
        continue;
      }
    } else if (isSpace(c)) {
      gap = true;
      i++;
      continue;
    } else if (c === 38 /* & */) {
      ENTITY.lastIndex = i;
      i = ENTITY.test(body) ? ENTITY.lastIndex : i + 1;
    } else {
      i++;
    }
    if (gap && count > 0) count++;
    count++;
    gap = false;
  }
  return count;
}

/** The characters `\s` matches in JavaScript regular expressions. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
