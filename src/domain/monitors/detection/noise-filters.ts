import { isTrackingParam } from '../../../url/normalize.js';
import {
  COMPACT_AGE_LINE,
  DATE,
  DATE_TIME,
  LABELLED_TIMESTAMP,
  MACHINE_TIMESTAMP,
  RELATIVE_TIME,
  TIME,
} from './date-patterns.js';
import { COPYRIGHT_YEAR, COUNTER_PATTERNS, RENDER_TIME } from './counter-patterns.js';
import { AD_SELECTORS, CONSENT_SELECTORS, HIDDEN_SELECTORS, PAGE_CHROME_NOISE_SELECTORS } from './noise-selectors.js';

/**
 * The noise filters. A filter either removes elements before the text is taken (stage `html`)
 * or masks spans of a line in its comparison key (stage `text`): the line a reader sees keeps
 * its words, but two lines that differ only inside masked spans compare equal. A mask replaces
 * a span with a placeholder naming its class (`⟦age⟧`), so "3 minutes ago" equals "2 hours ago"
 * but never equals a price, and a line whose other words change is still a change.
 *
 * Filters mask a span only when its class is noise whatever its value: an age, a view count,
 * a session token. Values that can be content (an event date, opening hours, a price, stock left)
 * are left alone unless the line labels them as a page timestamp ("Last updated: …").
 */

export type NoiseFilterId =
  | 'ads'
  | 'consent_banners'
  | 'hidden_elements'
  | 'page_chrome'
  | 'timestamps'
  | 'relative_times'
  | 'dates'
  | 'counters'
  | 'render_times'
  | 'session_tokens'
  | 'random_ids'
  | 'copyright_years';

export interface NoiseFilter {
  readonly id: NoiseFilterId;
  readonly stage: 'html' | 'text';
  /** Whether the filter runs when a monitor does not say. */
  readonly enabled_by_default: boolean;
  /** One sentence for docs and previews. */
  readonly description: string;
  /** Stage `html`: elements removed. */
  readonly selectors?: readonly string[];
  /** Stage `text`: the line with noise spans replaced by placeholders. */
  readonly mask?: (line: string) => string;
}

function regexMask(pattern: string, placeholder: string, flags = 'giu'): (line: string) => string {
  const regex = new RegExp(pattern, flags);
  return (line) => line.replace(regex, placeholder);
}

const labelledTimestamp = new RegExp(LABELLED_TIMESTAMP, 'giu');
const machineTimestamp = new RegExp(MACHINE_TIMESTAMP, 'giu');
const compactAge = new RegExp(COMPACT_AGE_LINE, 'iu');

// Cheap tests first: the full patterns try dozens of month and label names at every position,
// and most lines hold no date at all.
const HAS_DIGIT = /\d/;
const HAS_MACHINE_TIME = /\d:[0-5]\d:[0-5]\d|\d{4}-\d\d-\d\d[T\s]\d/;

function maskTimestamps(line: string): string {
  if (!HAS_DIGIT.test(line)) return line;
  const labelled = line.replace(labelledTimestamp, (_all, label: string) => `${label}⟦timestamp⟧`);
  return HAS_MACHINE_TIME.test(labelled) ? labelled.replace(machineTimestamp, '⟦timestamp⟧') : labelled;
}

const maskAges = regexMask(RELATIVE_TIME, '⟦age⟧');

function maskRelativeTimes(line: string): string {
  return compactAge.test(line) ? '⟦age⟧' : maskAges(line);
}

const anyDateTime = new RegExp(`${DATE_TIME}|${DATE}|${TIME}`, 'giu');

function maskCounters(line: string): string {
  if (!HAS_DIGIT.test(line)) return line;
  let masked = line;
  for (const pattern of COUNTER_PATTERNS) {
    masked = masked.replace(pattern, (...args: unknown[]) => {
      const groups = args[args.length - 1] as Record<string, string | undefined>;
      return `${groups.before ?? ''}⟦count⟧${groups.after ?? ''}`;
    });
  }
  return masked;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`]+/giu;
const SESSION_PARAM =
  /^(?:sid|sessid|sessionid|session_id|session|phpsessid|jsessionid|aspsessionid\w*|cfid|cftoken|csrf|csrf_?token|_csrf|xsrf|xsrf_?token|_token|authenticity_token|token|auth|nonce|sig|signature|expires|x-amz-[\w-]+|x-goog-[\w-]+|hmac|key-pair-id|policy)$/i;
const CACHE_BUSTER_PARAM =
  /^(?:_|cb|t|ts|time|timestamp|nocache|no_cache|cachebuster|cache_bust|rand|random|r|v|ver|rev|hash|bust)$/i;
/** Values a cache buster takes: a long number (epoch, random) or a long hex/alphanumeric run with digits. */
const RANDOM_VALUE = /^(?:\d{6,}|(?=[\w-]*\d)[\w-]{8,})$/;

/** Masks session, CSRF and signature parameters, cache busters and tracking parameters in URLs. */
function maskUrlTokens(line: string): string {
  return line.replace(URL_IN_TEXT, (url) =>
    url
      .replace(/;(?:jsessionid|phpsessid|sid)=[^?#;/]*/gi, ';⟦session⟧')
      .replace(/([?&])([^=&#]+)=([^&#]*)/g, (pair, sep: string, name: string, value: string) => {
        if (SESSION_PARAM.test(name) || isTrackingParam(name)) return `${sep}${name}=⟦token⟧`;
        if (CACHE_BUSTER_PARAM.test(name) && RANDOM_VALUE.test(value)) return `${sep}${name}=⟦token⟧`;
        return pair;
      }),
  );
}

const RANDOM_ID = [
  // UUIDs of any version.
  '(?<![\\p{L}\\p{N}])[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?![\\p{L}\\p{N}])',
  // JSON Web Tokens.
  '(?<![\\w-])eyJ[\\w-]{8,}\\.[\\w-]{8,}\\.[\\w-]{8,}',
  // Runs of 32+ base64 characters; kept only when they mix upper case, lower case and digits (below).
  '(?<![\\w+/=-])[\\w+/-]{32,}={0,2}(?![\\w+/=-])',
].join('|');
/** A label, then an id of 6+ characters with a digit in it ("Session expired" is words, not an id). */
const LABELLED_ID =
  /((?<![\p{L}\p{N}])(?:request|req|trace|span|correlation|session|ray|nonce|csrf|xsrf)[ _-]?(?:id|token|key)?\s*[:#=]?\s*)((?=[\w-]*\d)[\w-]{6,})/giu;

const randomId = new RegExp(RANDOM_ID, 'gu');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * UUIDs and JSON Web Tokens are always random; another long run only when it mixes upper case,
 * lower case and digits. Hex hashes, being one case only, stay: a new commit hash is content.
 */
function maskRun(run: string): string {
  if (UUID.test(run) || run.startsWith('eyJ')) return '⟦id⟧';
  return /[A-Z]/.test(run) && /[a-z]/.test(run) && /\d/.test(run) ? '⟦id⟧' : run;
}

/** Masks ids in the text between URLs: an id in a URL path names the resource (a new file, a new video). */
function maskRandomIds(line: string): string {
  if (!HAS_DIGIT.test(line)) return line;
  let out = '';
  let last = 0;
  const maskText = (text: string): string =>
    text.replace(LABELLED_ID, (_all, label: string) => `${label}⟦id⟧`).replace(randomId, maskRun);
  for (const url of line.matchAll(URL_IN_TEXT)) {
    out += maskText(line.slice(last, url.index)) + url[0];
    last = url.index + url[0].length;
  }
  return out + maskText(line.slice(last));
}

export const NOISE_FILTERS: readonly NoiseFilter[] = Object.freeze([
  { id: 'ads', stage: 'html', enabled_by_default: true, selectors: AD_SELECTORS,
    description: 'Removes ad slots, sponsored and recommendation widgets (Taboola, Outbrain) and rotating promo bars.' },
  { id: 'consent_banners', stage: 'html', enabled_by_default: true, selectors: CONSENT_SELECTORS,
    description: 'Removes cookie and consent banners.' },
  { id: 'hidden_elements', stage: 'html', enabled_by_default: true, selectors: HIDDEN_SELECTORS,
    description: 'Removes what a reader never sees: hidden and aria-hidden elements, inline display:none or visibility:hidden, templates.' },
  { id: 'page_chrome', stage: 'html', enabled_by_default: false, selectors: PAGE_CHROME_NOISE_SELECTORS,
    description: 'Removes site navigation, page-level header and footer and breadcrumbs. Off by default: a change there can matter.' },
  { id: 'timestamps', stage: 'text', enabled_by_default: true, mask: maskTimestamps,
    description: 'Masks page timestamps: a date or time after a freshness label ("Last updated:", "as of", "Stand:", "mis à jour le"…), ISO 8601 and HTTP date-times, and any time given to the second.' },
  { id: 'relative_times', stage: 'text', enabled_by_default: true, mask: maskRelativeTimes,
    description: 'Masks ages and countdowns: "3 minutes ago", "vor 2 Stunden", "il y a 3 jours", "hace 1 hora", "just now", "yesterday", "2h 14m", a line that is only "5m".' },
  { id: 'dates', stage: 'text', enabled_by_default: false, mask: (line) => (HAS_DIGIT.test(line) ? line.replace(anyDateTime, '⟦date⟧') : line),
    description: 'Masks every date and time of day. Off by default: an event date or opening hours are content; turn on for pages that print the current date.' },
  { id: 'counters', stage: 'text', enabled_by_default: true, mask: maskCounters,
    description: 'Masks engagement counters: "1,234 views", "12 comments", "Stars: 1.2k", "Cart (3)", "5 people are viewing this". Never prices or stock left.' },
  { id: 'render_times', stage: 'text', enabled_by_default: true, mask: regexMask(RENDER_TIME, '$1⟦duration⟧'),
    description: 'Masks render timings: "Page generated in 0.12 seconds", "query took 35 ms".' },
  { id: 'session_tokens', stage: 'text', enabled_by_default: true, mask: maskUrlTokens,
    description: 'In URLs (link targets, printed URLs): masks session, CSRF and signature parameters, ;jsessionid, tracking parameters, and cache busters with random values (?_=1714550000, ?v=8f3a9c2e).' },
  { id: 'random_ids', stage: 'text', enabled_by_default: true, mask: maskRandomIds,
    description: 'Masks UUIDs, JSON Web Tokens, long mixed-case base64 runs and labelled ids ("Request ID: …", "Ray ID: …", "nonce=…"). Hex hashes stay: a new commit or checksum is content.' },
  { id: 'copyright_years', stage: 'text', enabled_by_default: true, mask: regexMask(COPYRIGHT_YEAR, '$1⟦year⟧'),
    description: 'Masks the year after ©, (c) or "Copyright" (and year ranges), which moves every 1 January.' },
] satisfies NoiseFilter[]); // prettier-ignore

export const NOISE_FILTER_IDS: readonly NoiseFilterId[] = NOISE_FILTERS.map((filter) => filter.id);

/** The filter table as `{id: enabled}` with the defaults. */
export function defaultNoiseFilters(): Record<NoiseFilterId, boolean> {
  return Object.fromEntries(NOISE_FILTERS.map((f) => [f.id, f.enabled_by_default])) as Record<NoiseFilterId, boolean>;
}

/** Element selectors of the enabled `html` filters. */
export function noiseSelectors(enabled: Readonly<Record<NoiseFilterId, boolean>>): string[] {
  return NOISE_FILTERS.filter((f) => f.stage === 'html' && enabled[f.id]).flatMap((f) => f.selectors ?? []);
}

/** The comparison key of a line: the line with every enabled `text` filter's mask applied. */
export function createLineMasker(enabled: Readonly<Record<NoiseFilterId, boolean>>): (line: string) => string {
  const masks = NOISE_FILTERS.flatMap((f) => (f.stage === 'text' && enabled[f.id] && f.mask ? [f.mask] : []));
  return (line) => masks.reduce((key, mask) => mask(key), line);
}
