import type { TextSpan } from './query-targets.js';

/**
 * The search query a monitor's natural-language query becomes: the query less what is about
 * the monitor rather than the subject: how often ("every hour", "daily at 9am"), how to tell
 * ("notify me", "let me know when", "via Slack", e-mail addresses), and the request itself
 * ("please monitor", "keep an eye on", "for changes to"). Deterministic: rules applied in
 * order, then connectors left dangling at either end are dropped.
 */

const UNIT =
  '(?:seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|mornings?|evenings?|nights?|afternoons?|weekdays?|weekends?|business\\s+days?)';
const WEEKDAY = '(?:mon|tues|wednes|thurs|fri|satur|sun)days?';
const CLOCK = "\\d{1,2}(?::\\d{2})?\\s*(?:am|pm|a\\.m\\.|p\\.m\\.|h|o'clock)|\\d{1,2}:\\d{2}|noon|midnight";
const ZONE = '(?:\\s*(?:utc|gmt|[a-z]{1,4}t)\\b)?';
const NOTE = 'message|notification|alert|digest|summary|update|heads[-\\s]up';
const CHANNEL =
  '(?:e-?mail|mail|slack|webhooks?|sms|text(?:\\s+message)?|discord|teams|telegram|push(?:\\s+notifications?)?)';

/** Scheduling phrases, applied in order (case-insensitive). */
const SCHEDULE: readonly RegExp[] = [
  new RegExp(
    `\\b(?:every|each)\\s+(?:other\\s+|single\\s+)?(?:\\d+\\s+|few\\s+|couple\\s+of\\s+)?(?:${UNIT}|${WEEKDAY})(?:\\s+(?:at|around|by)\\s+(?:${CLOCK})${ZONE})?`,
    'gi',
  ),
  new RegExp(`\\b(?:once|twice|thrice|\\d+\\s+times)\\s+(?:a|an|per|every|each)\\s+${UNIT}`, 'gi'),
  /\b(?:hourly|daily|nightly|weekly|bi-?weekly|fortnightly|monthly|quarterly|yearly|annually)\b/gi,
  new RegExp(`\\b(?:on\\s+)?(?:${WEEKDAY}|weekdays|weekends)\\b(?:\\s+(?:at|around)\\s+(?:${CLOCK})${ZONE})?`, 'gi'),
  new RegExp(`\\b(?:at|around|by)\\s+(?:${CLOCK})${ZONE}`, 'gi'),
  /\b(?:in|using)\s+utc\b/gi,
  /\b(?:starting|beginning|from)\s+(?:today|tomorrow|now|next\s+week)\b/gi,
  /\b(?:continuously|constantly|regularly|periodically|frequently|from\s+now\s+on|going\s+forward)\b/gi,
];

/** Notification phrases, applied in order (case-insensitive). */
const NOTIFY: readonly RegExp[] = [
  new RegExp(
    `\\b(?:and\\s+)?(?:please\\s+)?(?:notify|alert|e-?mail|ping|message|text|tell|remind|inform|warn|update)\\s+(?:me|us|the\\s+team|my\\s+team|our\\s+team)\\b(?:\\s+(?:by|via|on|over|through|in|with)\\s+${CHANNEL})?`,
    'gi',
  ),
  /\b(?:and\s+)?(?:let|keep)\s+(?:me|us)\s+(?:know|posted|informed|updated)\b/gi,
  new RegExp(
    `\\b(?:and\\s+)?(?:send|post|push|deliver|give)\\s+(?:me\\s+|us\\s+)?(?:an?\\s+)?(?:(?:daily|weekly|hourly|short)\\s+)?(?:${CHANNEL}(?:\\s+(?:${NOTE}))?|${NOTE})s?\\b`,
    'gi',
  ),
  new RegExp(`\\b(?:by|via|on|over|through|to|in|with)\\s+${CHANNEL}(?:\\s+channel)?\\b`, 'gi'),
  /(?:^|\s)#[\w-]+/g,
  /\b(?:i\s+(?:want|need|would\s+like)\s+to\s+(?:know|be\s+(?:told|notified|alerted)))\b/gi,
];

/** Politeness and the request for a monitor, anywhere in the query. */
const REQUEST: readonly RegExp[] = [
  /\b(?:please|kindly)\b/gi,
  /\b(?:can|could|would|will)\s+you\b/gi,
  /\bi\s+(?:want|need|would\s+like|'d\s+like)(?:\s+you)?\s+to\b/gi,
  /\bset\s+up\s+an?\s+(?:monitor|watch|alert)\s+(?:on|for)\b/gi,
  /\bkeep\s+(?:an\s+)?(?:eye|tabs|track)\s+(?:on|of)\b/gi,
  /\b(?:look|watch)\s+out\s+for\b/gi,
  /\b(?:for\s+)?(?:any\s+)?changes?\s+(?:to|on|in|of|at)\b/gi,
  /\b(?:when|whenever|if)\s+(?:it|this|the\s+page|that\s+page|anything|something)\s+(?:changes|is\s+updated|updates)\b/gi,
  /\b(?:for\s+)?(?:any\s+)?changes\b/gi,
  /\bas\s+soon\s+as\b/gi,
];

/**
 * A verb asking to watch, only where the query starts: "Watch the Apple Watch page" keeps its
 * second "Watch", "new track by …" keeps "track".
 */
const LEADING_VERB =
  /^\s*(?:monitor(?:ing)?|watch(?:ing)?|track(?:ing)?|follow(?:ing)?|observe|check(?:ing)?|scan(?:ning)?|find|search\s+for|look\s+for)\b(?!-)(?:\s+(?:on|for|out\s+for))?/i;

/** Words that cannot start or end a search query on their own; checked one word at a time. */
const DANGLING =
  /^(?:and|or|but|so|then|when|whenever|if|once|whether|that|about|for|on|of|to|at|in|with|by|me|us|it|the|a|an|any|also|just)$/i;

/** `query` with each span replaced by its `replacement` (default: removed). */
export function replaceSpans(query: string, spans: readonly (TextSpan & { replacement?: string })[]): string {
  let out = '';
  let last = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    out += `${query.slice(last, span.start)} ${span.replacement ?? ''} `;
    last = span.end;
  }
  return out + query.slice(last);
}

/**
 * @example
 * webQueryFrom('Notify me by email every morning when Acme announces a new CEO');
 * // → 'Acme announces a new CEO'
 */
export function webQueryFrom(text: string): string {
  let out = ` ${text} `;
  for (const rule of [...SCHEDULE, ...NOTIFY, ...REQUEST]) out = out.replace(rule, ' ');
  return trimDangling(trimDangling(out).replace(LEADING_VERB, ' '));
}

/** Collapses spacing, drops punctuation runs and connectors left at either end. */
function trimDangling(text: string): string {
  let words = text
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/([,;:])(?:\s*[,;:.])+/g, '$1')
    .split(/\s+/)
    .filter(Boolean);
  const strip = (word: string): string => word.replace(/^[,.;:!?()"'“”‘’-]+|[,.;:!?()"'“”‘’-]+$/g, '');
  for (;;) {
    const before = words.length;
    while (words.length > 0 && (strip(words[0] as string) === '' || DANGLING.test(strip(words[0] as string))))
      words.shift();
    while (words.length > 0 && (strip(words.at(-1) as string) === '' || DANGLING.test(strip(words.at(-1) as string))))
      words.pop();
    if (words.length === before) break;
  }
  if (words.length === 0) return '';
  words = [...words.slice(0, -1), strip(words.at(-1) as string) || (words.at(-1) as string)];
  words[0] = strip(words[0] as string) || (words[0] as string);
  return words.join(' ').replace(/\s+([,.;:!?])/g, '$1');
}

/** Words that say nothing about a subject: what is left when a query only asks to watch a page. */
const GENERIC = new Set([
  'page', 'pages', 'site', 'sites', 'website', 'websites', 'homepage', 'home', 'front', 'url', 'urls', 'link', 'links',
  'this', 'that', 'these', 'those', 'it', 'its', 'content', 'contents', 'anything', 'everything', 'something', 'updates',
  'update', 'updated', 'changed', 'change', 'new', 'any', 'all', 'the', 'a', 'an', 'and', 'or', 'of', 'on', 'in', 'at',
  'to', 'for', 'with', 'from', 'is', 'are', 'be', 'when', 'if', 'whenever', 'there', 'their', 'our', 'my', 'me', 'us',
  'main', 'whole', 'entire', 'web', 'here', 'above', 'below', 'following', 'listed', 'both',
]); // prettier-ignore

/** The words of `text` that name a subject (not generic words, not bare numbers). */
export function topicWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}'-]+/u)
    .filter((word) => word !== '' && !GENERIC.has(word) && !/^\d+$/.test(word));
}
