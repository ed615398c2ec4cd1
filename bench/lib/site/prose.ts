import type { Random } from './random.js';

/**
 * Technical prose from sentence templates. Slots: {N} noun, {Ns} plural noun, {V} verb, {Vs} verb
 * with -s, {A} adjective, {D} adverb, {T} product name, {X} a term that may become inline markup
 * (code, link, emphasis). Frequencies are Zipf-like so the text has the word statistics of real
 * documentation (a few words everywhere, a long tail), which matters to tokenizers and rankers.
 */

/** Word lists are written as one string each to keep this file short. */
function list(text: string, separator = ' '): readonly string[] {
  return text.split(separator);
}

const NOUNS = list(
  'request response server client cache queue worker connection page document table column index query ' +
    'schema record field value key token session timeout deadline budget limit proxy header cookie ' +
    'redirect retry backoff handler route endpoint payload body stream buffer chunk encoding charset ' +
    'parser tokenizer selector element attribute node tree branch commit release deployment container ' +
    'image volume cluster replica shard partition lease lock transaction migration rollback snapshot ' +
    'backup metric trace span log alert dashboard threshold histogram percentile latency throughput ' +
    'bottleneck profile thread process event listener callback promise signal channel socket port ' +
    'certificate secret credential permission role policy team tenant account invoice plan feature flag ' +
    'experiment variant rollout pipeline stage job schedule trigger webhook subscription crawler sitemap ' +
    'robot link anchor site',
);
const VERBS = list(
  'handle return store fetch parse render convert validate reject accept retry cancel schedule claim ' +
    'release lock flush drain compress decode encode resolve follow ignore skip limit measure sample ' +
    'record emit publish consume route split merge index rank filter sort group configure deploy rotate ' +
    'revoke expire refresh invalidate warm evict spill',
);
const ADJECTIVES = list(
  'default custom internal external public private local remote shared dedicated slow fast large small ' +
    'empty partial complete stale fresh expired idle busy concurrent sequential idempotent atomic durable ' +
    'transient optional required invalid malformed compressed encrypted signed cached nested flat wide ' +
    'narrow relative absolute canonical duplicate unique naïve robust',
);
const ADVERBS = list(
  'quickly safely eventually usually rarely always never automatically manually lazily eagerly silently ' +
    'explicitly implicitly concurrently once twice again',
);
const PRODUCTS = list(
  'PostgreSQL|Redis|Kubernetes|Docker|Node.js|TypeScript|Python|Go|Rust|nginx|Envoy|Kafka|RabbitMQ|S3|MinIO|' +
    'Grafana|Prometheus|OpenTelemetry|Terraform|GitHub Actions|Chromium|Firefox|SQLite|Elasticsearch|ClickHouse|' +
    'Linux|systemd',
  '|',
);

const TEMPLATES = [
  'The {A} {N} {Vs} every {N} before the {N} {Vs} it.',
  'When a {N} {Vs} a {A} {X}, the {N} {D} {Vs} the {N} and {Vs} a {N}.',
  'Each {X} {Vs} its own {N}, so two {Ns} never {V} the same {N}.',
  '{T} {Vs} {A} {Ns} {D}; the {N} only {Vs} them when the {N} is {A}.',
  'If the {N} is {A}, set {X} to a {A} value and {V} the {N} again.',
  'You can {V} the {N} with {X}, which {Vs} the {A} {N} instead of the {N}.',
  'A {A} {N} is cheaper than a {A} {N}: it {Vs} fewer {Ns} and {Vs} no {N}.',
  'Under load, {Ns} {V} {D} — the {N} {Vs} at the {N}, not at the {N}.',
  'We {V} the {X} per {N} because a {A} {N} would {V} every {N} in the {N}.',
  'This {N} {Vs} how {T} {Vs} {A} {Ns}, and why the {N} matters.',
  'In practice the {N} {Vs} within a few milliseconds; the {A} {N} {Vs} the rest.',
  'Note that {X} is {A} by default, and the {N} {Vs} it {D}.',
  'The {N} “{X}” {Vs} only {A} {Ns}; other {Ns} {V} the {A} path.',
  'Before you {V} a {N}, make sure the {N} can {V} a {A} {N} without a {N}.',
  '{T} and {T} both {V} {Ns}, but only one of them {Vs} the {N} {D}.',
  'Set the {N} to {NUM} and the {N} to {NUM} ms; larger values {V} the {N}.',
  'About {NUM}% of {Ns} {V} on the first {N}, and the rest {V} after a {N}.',
  'Why {V} the {N}? Because a {A} {N} {Vs} more {Ns} than it saves.',
];

export interface ProseContext {
  /** Returns markup for an {X} slot: a code span, a link, emphasis, or a plain term. */
  term(rng: Random): string;
}

function fill(rng: Random, template: string, context: ProseContext): string {
  return template.replace(/\{(Ns|N|Vs|V|A|D|T|X|NUM)\}/g, (_, slot: string) => {
    switch (slot) {
      case 'N':
        return NOUNS[rng.zipfIndex(NOUNS.length)]!;
      case 'Ns':
        return plural(NOUNS[rng.zipfIndex(NOUNS.length)]!);
      case 'V':
        return VERBS[rng.zipfIndex(VERBS.length)]!;
      case 'Vs':
        return thirdPerson(VERBS[rng.zipfIndex(VERBS.length)]!);
      case 'A':
        return ADJECTIVES[rng.zipfIndex(ADJECTIVES.length)]!;
      case 'D':
        return rng.pick(ADVERBS);
      case 'T':
        return rng.pick(PRODUCTS);
      case 'NUM':
        return String(rng.int(2, 500));
      default:
        return context.term(rng);
    }
  });
}

function plural(noun: string): string {
  if (/(s|sh|ch|x)$/.test(noun)) return `${noun}es`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  return `${noun}s`;
}

function thirdPerson(verb: string): string {
  return plural(verb);
}

export function sentence(rng: Random, context: ProseContext): string {
  const text = fill(rng, rng.pick(TEMPLATES), context).replace(/\b([Aa]) (?=[aeiou])/g, '$1n ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function paragraphText(rng: Random, context: ProseContext, sentences = rng.int(3, 7)): string {
  const out: string[] = [];
  for (let i = 0; i < sentences; i++) out.push(sentence(rng, context));
  return out.join(' ');
}

/** A title-cased phrase of 3–7 words ("Configure Idempotent Retry Budgets for PostgreSQL"). */
export function titlePhrase(rng: Random): string {
  const verb = VERBS[rng.zipfIndex(VERBS.length)]!;
  const words = [verb, rng.pick(ADJECTIVES), plural(rng.pick(NOUNS))];
  const inProduct = rng.chance(0.5);
  if (inProduct) words.push('in', rng.pick(PRODUCTS));
  else if (rng.chance(0.5)) words.push('with', rng.pick(NOUNS), plural(rng.pick(NOUNS)));
  return words.map((w, i) => (i > 0 && (w === 'in' || w === 'with') ? w : capitalise(w))).join(' ');
}

/** A short noun phrase for headings, list items and table cells. */
export function nounPhrase(rng: Random, words = rng.int(1, 3)): string {
  const out: string[] = [];
  if (words > 1) out.push(rng.pick(ADJECTIVES));
  for (let i = out.length; i < words; i++) out.push(NOUNS[rng.zipfIndex(NOUNS.length)]!);
  return out.join(' ');
}

export function identifier(rng: Random): string {
  const parts = [rng.pick(VERBS), capitalise(rng.pick(NOUNS))];
  if (rng.chance(0.4)) parts.push(capitalise(rng.pick(NOUNS)));
  return parts.join('');
}

export function pickNoun(rng: Random): string {
  return rng.pick(NOUNS);
}

export function pickProduct(rng: Random): string {
  return rng.pick(PRODUCTS);
}

export function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}
