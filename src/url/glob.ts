import { AppError } from '../errors.js';

/**
 * URL glob patterns: the ONE matching semantics shared by crawls (`include_urls`/`exclude_urls`),
 * maps and `links_on_page` (`include_links`/`exclude_links`). Documented in docs/content-pipeline.md.
 *
 * - A pattern starting with `/` matches the URL's path (`/blog/**`); any other pattern matches the whole
 *   absolute URL (`https://*.example.com/docs/**`, `**` + `/*.pdf`). A whole-URL pattern must be able to
 *   match a scheme: it contains `://` or starts with `**`.
 * - The query string takes part only when the pattern contains `?` (then `?` is a literal separator, never
 *   a wildcard): `/search?q=*`. The fragment never takes part; a pattern containing `#` is rejected.
 * - `*` matches any run of characters except `/`; `**` matches any run including `/`. `/**` at the end also
 *   matches the bare parent (`/blog/**` matches `/blog`), and `/**` + `/` in the middle matches zero or more
 *   segments (`/a/**` + `/b` matches `/a/b`). `{a,b}` matches either alternative. `\` escapes the next
 *   character.
 * - Scheme and host compare case-insensitively; path and query compare case-sensitively, in the
 *   percent-encoded form URLs take (`/café` in a pattern matches the URL path `/caf%C3%A9`).
 * - Exclusion wins over inclusion; an empty include list includes everything.
 */

/** Which part of the URL a pattern is matched against. */
export type GlobTarget = 'path' | 'url';

export interface CompiledGlob {
  /** The pattern as given (trimmed). */
  readonly pattern: string;
  readonly target: GlobTarget;
  /** Whether the query string takes part in the match (the pattern contains `?`). */
  readonly withQuery: boolean;
  test(url: URL): boolean;
}

/** A pattern that cannot be compiled; `reason` says why in words a client can act on. */
export class GlobSyntaxError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`invalid URL pattern ${JSON.stringify(pattern)}: ${reason}`);
    this.name = 'GlobSyntaxError';
  }
}

type Token =
  | { kind: 'literal'; text: string }
  | { kind: 'star' }
  | { kind: 'globstar' }
  | { kind: 'group'; alternatives: Token[][] };

/** Compiles one pattern, or throws `GlobSyntaxError`. */
export function compileGlob(rawPattern: string): CompiledGlob {
  const pattern = rawPattern.trim();
  if (pattern === '') throw new GlobSyntaxError(rawPattern, 'the pattern is empty');
  if (pattern.includes('#')) {
    throw new GlobSyntaxError(pattern, 'fragments (#...) are never matched; remove the "#" part');
  }
  const target: GlobTarget = pattern.startsWith('/') ? 'path' : 'url';
  if (target === 'url' && !pattern.includes('://') && !pattern.startsWith('**')) {
    throw new GlobSyntaxError(
      pattern,
      'a pattern must start with "/" (matches the path) or be a whole-URL pattern containing "://" or starting with "**" (for example "/docs/**", "https://example.com/**" or "**/*.pdf")',
    );
  }
  const source = target === 'url' ? normaliseUrlPattern(pattern) : pattern;
  const tokens = parseSequence(source, { index: 0 }, pattern, 0);
  let regex: RegExp;
  try {
    regex = new RegExp(`^${emitSequence(tokens, true)}$`);
  } catch {
    // Only a lone UTF-16 surrogate can get here (encodeURIComponent refuses it).
    throw new GlobSyntaxError(pattern, 'it contains characters that cannot appear in a URL');
  }
  const withQuery = pattern.includes('?');
  return {
    pattern,
    target,
    withQuery,
    test: (url) => regex.test(subjectOf(url, target, withQuery)),
  };
}

/** The string a pattern is matched against. */
function subjectOf(url: URL, target: GlobTarget, withQuery: boolean): string {
  const path = target === 'path' ? url.pathname : `${url.protocol}//${url.host}${url.pathname}`;
  return withQuery ? `${path}?${url.search.slice(1)}` : path;
}

/** Lower-cases scheme and host, and gives a host-only pattern the root path URLs always have. */
function normaliseUrlPattern(pattern: string): string {
  const schemeEnd = pattern.indexOf('://');
  if (schemeEnd < 0) return pattern;
  const pathStart = pattern.indexOf('/', schemeEnd + 3);
  if (pathStart < 0) {
    const queryStart = pattern.indexOf('?', schemeEnd + 3);
    if (queryStart < 0) return `${pattern.toLowerCase()}/`;
    return `${pattern.slice(0, queryStart).toLowerCase()}/${pattern.slice(queryStart)}`;
  }
  return pattern.slice(0, pathStart).toLowerCase() + pattern.slice(pathStart);
}

interface Cursor {
  index: number;
}

/** Parses until the end of input or, inside a group, an unescaped `,` or `}`. */
function parseSequence(source: string, cursor: Cursor, pattern: string, depth: number): Token[] {
  const tokens: Token[] = [];
  let literal = '';
  const flush = (): void => {
    if (literal) tokens.push({ kind: 'literal', text: literal });
    literal = '';
  };
  while (cursor.index < source.length) {
    const ch = source[cursor.index] as string;
    if (depth > 0 && (ch === ',' || ch === '}')) break;
    cursor.index++;
    if (ch === '\\') {
      const escaped = source[cursor.index];
      if (escaped === undefined) throw new GlobSyntaxError(pattern, 'it ends with a lone "\\"');
      literal += escaped;
      cursor.index++;
    } else if (ch === '*') {
      flush();
      tokens.push(parseStars(source, cursor, pattern));
    } else if (ch === '{') {
      flush();
      tokens.push(parseGroup(source, cursor, pattern, depth + 1));
    } else if (ch === '}') {
      throw new GlobSyntaxError(pattern, 'it has a "}" without a matching "{"');
    } else {
      literal += ch;
    }
  }
  flush();
  return tokens;
}

function parseStars(source: string, cursor: Cursor, pattern: string): Token {
  let count = 1;
  while (source[cursor.index] === '*') {
    count++;
    cursor.index++;
  }
  if (count > 2) throw new GlobSyntaxError(pattern, `"${'*'.repeat(count)}" is not a wildcard; use "*" or "**"`);
  return count === 2 ? { kind: 'globstar' } : { kind: 'star' };
}

function parseGroup(source: string, cursor: Cursor, pattern: string, depth: number): Token {
  const alternatives: Token[][] = [];
  for (;;) {
    alternatives.push(parseSequence(source, cursor, pattern, depth));
    const closer = source[cursor.index];
    if (closer === undefined) throw new GlobSyntaxError(pattern, 'it has a "{" without a matching "}"');
    cursor.index++;
    if (closer === '}') return { kind: 'group', alternatives };
  }
}

/** How a `**` is emitted, chosen from its neighbours. */
type GlobstarForm = 'tail' | 'middle' | 'lead' | 'any';

/**
 * Emits the regex of a token sequence. `**` takes its meaning from its neighbours: `/**` at the end
 * of the path part also matches the bare parent, `/**` + `/` matches zero or more whole segments.
 * Those forms re-emit the neighbouring "/" themselves (optionally), so the literals drop it.
 */
function emitSequence(tokens: readonly Token[], topLevel: boolean, state: EmitState = { inQuery: false }): string {
  const forms = tokens.map((token, i) =>
    token.kind === 'globstar' ? globstarForm(tokens[i - 1], tokens[i + 1], i === 0 && topLevel) : null,
  );
  let out = '';
  tokens.forEach((token, i) => {
    if (token.kind === 'literal') {
      const prevForm = forms[i - 1];
      const nextForm = forms[i + 1];
      let body = token.text;
      if ((prevForm === 'middle' || prevForm === 'lead') && body.startsWith('/')) body = body.slice(1);
      if ((nextForm === 'middle' || nextForm === 'tail') && body.endsWith('/')) body = body.slice(0, -1);
      out += emitLiteral(body, state);
    } else if (token.kind === 'star') {
      out += '[^/]*';
    } else if (token.kind === 'group') {
      const alternatives = token.alternatives.map((alt) => emitSequence(alt, false, { ...state }));
      out += `(?:${alternatives.join('|')})`;
    } else {
      out += GLOBSTAR_REGEX[forms[i] ?? 'any'];
    }
  });
  return out;
}

/** Whether emission has passed the `?` that starts the query part. */
interface EmitState {
  inQuery: boolean;
}

function emitLiteral(text: string, state: EmitState): string {
  if (state.inQuery) return escapeRegex(encodeLiteral(text, QUERY_ENCODE));
  const q = text.indexOf('?');
  if (q < 0) return escapeRegex(encodeLiteral(text, PATH_ENCODE));
  state.inQuery = true;
  return (
    escapeRegex(encodeLiteral(text.slice(0, q), PATH_ENCODE)) +
    '\\?' +
    escapeRegex(encodeLiteral(text.slice(q + 1), QUERY_ENCODE))
  );
}

const GLOBSTAR_REGEX: Record<GlobstarForm, string> = {
  tail: '(?:/.*)?',
  middle: '/(?:.*/)?',
  lead: '(?:.*/)?',
  any: '.*',
};

function globstarForm(prev: Token | undefined, next: Token | undefined, atStart: boolean): GlobstarForm {
  const afterSlash = prev?.kind === 'literal' && prev.text.endsWith('/');
  const beforeSlash = next?.kind === 'literal' && next.text.startsWith('/');
  const atPathEnd = next === undefined || (next.kind === 'literal' && next.text.startsWith('?'));
  if (afterSlash && atPathEnd) return 'tail';
  if (afterSlash && beforeSlash) return 'middle';
  if (atStart && beforeSlash) return 'lead';
  return 'any';
}

/**
 * Characters a parsed URL percent-encodes (WHATWG path and query percent-encode sets, less `?` and `#`
 * which patterns use structurally), besides everything outside printable ASCII. `%xx` stays as written.
 */
const PATH_ENCODE = /[^\x21-\x7e]+|["<>`{}]/gu;
const QUERY_ENCODE = /[^\x21-\x7e]+|["<>']/gu;

function encodeLiteral(text: string, set: RegExp): string {
  return text.replace(set, (run) =>
    run.length === 1 && run < '\x7f' ? `%${run.charCodeAt(0).toString(16).toUpperCase()}` : encodeURIComponent(run),
  );
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export interface UrlFilterSpec {
  include?: readonly string[] | null;
  exclude?: readonly string[] | null;
}

/** Field names used in validation errors (`links_on_page.include_links[2]: ...`). */
export interface UrlFilterFieldNames {
  include?: string;
  exclude?: string;
}

/** Why a URL was kept or dropped; `pattern` is the deciding pattern when there is one. */
export interface UrlFilterDecision {
  keep: boolean;
  reason: 'excluded' | 'included' | 'not_included' | 'no_include_patterns' | 'invalid_url';
  pattern?: string;
}

export interface UrlFilter {
  /** True when the URL passes (absolute URL string or a parsed URL). */
  test(url: string | URL): boolean;
  /** The decision with the pattern that made it, for previews. */
  explain(url: string | URL): UrlFilterDecision;
  /** True when neither list has a pattern (everything passes). */
  readonly acceptsAll: boolean;
}

/**
 * Compiles include/exclude lists once. Malformed patterns throw a 400 `validation_error` naming
 * the field and index.
 *
 * @example
 * const filter = compileUrlFilter({ include: ['/docs/**'], exclude: ['**' + '/*.pdf'] });
 * filter.test('https://example.com/docs/a');       // true
 * filter.explain('https://example.com/docs/a.pdf'); // { keep: false, reason: 'excluded', pattern: '**' + '/*.pdf' }
 */
export function compileUrlFilter(spec: UrlFilterSpec, fields: UrlFilterFieldNames = {}): UrlFilter {
  const include = compileList(spec.include ?? [], fields.include ?? 'include');
  const exclude = compileList(spec.exclude ?? [], fields.exclude ?? 'exclude');
  const explain = (input: string | URL): UrlFilterDecision => {
    const url = toUrl(input);
    if (!url) return { keep: false, reason: 'invalid_url' };
    const excludedBy = exclude.find((glob) => glob.test(url));
    if (excludedBy) return { keep: false, reason: 'excluded', pattern: excludedBy.pattern };
    if (include.length === 0) return { keep: true, reason: 'no_include_patterns' };
    const includedBy = include.find((glob) => glob.test(url));
    if (includedBy) return { keep: true, reason: 'included', pattern: includedBy.pattern };
    return { keep: false, reason: 'not_included' };
  };
  const test = (input: string | URL): boolean => {
    const url = toUrl(input);
    if (!url) return false;
    if (exclude.some((glob) => glob.test(url))) return false;
    return include.length === 0 || include.some((glob) => glob.test(url));
  };
  return { test, explain, acceptsAll: include.length === 0 && exclude.length === 0 };
}

/**
 * The predicate form of `compileUrlFilter`.
 *
 * @example
 * const keep = createUrlFilter({ include: ['https://*.example.com/**'] });
 * keep('https://docs.example.com/x'); // true
 */
export function createUrlFilter(spec: UrlFilterSpec, fields: UrlFilterFieldNames = {}): (url: string | URL) => boolean {
  return compileUrlFilter(spec, fields).test;
}

function compileList(patterns: readonly string[], field: string): CompiledGlob[] {
  return patterns.map((pattern, i) => {
    try {
      return compileGlob(pattern);
    } catch (err) {
      if (!(err instanceof GlobSyntaxError)) throw err;
      throw new AppError('validation', 'validation_error', `${field}[${i}]: ${err.message}`, {
        metadata: { field: `${field}[${i}]` },
      });
    }
  });
}

function toUrl(input: string | URL): URL | null {
  if (typeof input !== 'string') return input;
  try {
    return new URL(input);
  } catch {
    return null;
  }
}
