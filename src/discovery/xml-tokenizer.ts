/**
 * A forgiving, bomb-proof XML tokenizer for sitemaps and feeds.
 *
 * It does one linear pass with `indexOf` and never builds a tree. Safety comes from what it
 * does NOT do: DOCTYPE declarations (and their internal subsets) are skipped unread, so no
 * entity is ever defined, expanded or fetched; only the five predefined entities and numeric
 * character references are decoded, anything else (`&lol9;`) stays literal text. A billion
 * laughs document therefore costs its own length in time and nothing in memory.
 * Malformed input never throws: the first problem is reported and scanning goes on where
 * that is possible, so the readable part of a broken document is still delivered.
 */

/** Receives tokens in document order. Names are given as written (prefix included). */
export interface XmlHandler {
  open(name: string, rawAttributes: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Entity-decoded character data (CDATA sections are passed through undecoded). */
  text(text: string): void;
  /** Text is only sliced and decoded while this returns true (fast path for ignored content). */
  wantsText(): boolean;
  /** Checked between tokens: true ends the scan early (limits reached). */
  shouldStop(): boolean;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Decodes `&lt; &gt; &amp; &quot; &apos;` and `&#NN;` / `&#xHH;`. Unknown named references are
 * left exactly as written: they could only be defined by a DTD, which we never read.
 */
export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,10}|[A-Za-z][A-Za-z0-9._-]{0,31});/g, (whole, ref: string) => {
    if (ref.charCodeAt(0) !== 35 /* # */) return PREDEFINED[ref] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : '\uFFFD';
  });
}

/** Index just past the `>` closing a start tag, honouring quoted attribute values; -1 at EOF. */
function findTagEnd(src: string, from: number): number {
  for (let i = from; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 62 /* > */) return i + 1;
    if (c === 34 /* " */ || c === 39 /* ' */) {
      const close = src.indexOf(c === 34 ? '"' : "'", i + 1);
      if (close < 0) return -1;
      i = close;
    } else if (c === 60 /* < */) {
      return -(i + 2); // a new tag began inside this one: malformed, resume at i
    }
  }
  return -1;
}

/** Index just past a `<!DOCTYPE …>` (or any `<!…>` declaration), skipping its internal subset. */
function skipDeclaration(src: string, from: number): number {
  let depth = 0;
  for (let i = from; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 34 || c === 39) {
      const close = src.indexOf(c === 34 ? '"' : "'", i + 1);
      if (close < 0) return -1;
      i = close;
    } else if (c === 60 /* < */ && src.startsWith('<!--', i)) {
      const close = src.indexOf('-->', i + 4);
      if (close < 0) return -1;
      i = close + 2;
    } else if (c === 91 /* [ */) depth++;
    else if (c === 93 /* ] */) depth = Math.max(0, depth - 1);
    else if (c === 62 /* > */ && depth === 0) return i + 1;
  }
  return -1;
}

/** Finds the end of a construct that closes with a fixed marker; -1 when unterminated. */
function skipTo(src: string, from: number, marker: string): number {
  const at = src.indexOf(marker, from);
  return at < 0 ? -1 : at + marker.length;
}

interface Step {
  next: number;
  error?: string;
}

function markupDeclaration(src: string, lt: number, handler: XmlHandler): Step {
  if (src.startsWith('<!--', lt)) {
    const next = skipTo(src, lt + 4, '-->');
    return next < 0 ? { next: src.length, error: 'unterminated comment' } : { next };
  }
  if (src.startsWith('<![CDATA[', lt)) {
    const next = skipTo(src, lt + 9, ']]>');
    if (next < 0) return { next: src.length, error: 'unterminated CDATA section' };
    if (handler.wantsText()) handler.text(src.slice(lt + 9, next - 3));
    return { next };
  }
  const next = skipDeclaration(src, lt + 2);
  return next < 0 ? { next: src.length, error: 'unterminated declaration' } : { next };
}

function element(src: string, lt: number, handler: XmlHandler): Step {
  if (src.charCodeAt(lt + 1) === 47 /* / */) {
    const next = skipTo(src, lt + 2, '>');
    if (next < 0) return { next: src.length, error: 'unterminated end tag' };
    handler.close(src.slice(lt + 2, next - 1).trim());
    return { next };
  }
  // "a < b" in text: no name follows, so this "<" is a stray character, not a tag.
  if (!/[A-Za-z_:\u0080-\uffff]/.test(src.charAt(lt + 1))) return { next: lt + 1, error: `stray "<" at offset ${lt}` };
  const end = findTagEnd(src, lt + 1);
  if (end === -1) return { next: src.length, error: 'unterminated start tag' };
  if (end < -1) return { next: -end - 2, error: `"<" inside a tag at offset ${lt}` };
  const inner = src.slice(lt + 1, end - 1);
  const name = /^[^\s/>]+/.exec(inner)?.[0] ?? '';
  const selfClosing = inner.endsWith('/');
  handler.open(name, inner.slice(name.length, selfClosing ? -1 : undefined), selfClosing);
  if (selfClosing) handler.close(name);
  return { next: end };
}

/**
 * Scans `src` and feeds `handler`. Returns the first well-formedness problem noticed (with
 * scanning continued past it where possible), or null.
 */
export function scanXml(src: string, handler: XmlHandler): { error: string | null } {
  let error: string | null = null;
  let i = 0;
  while (i < src.length && !handler.shouldStop()) {
    const lt = src.indexOf('<', i);
    const textEnd = lt < 0 ? src.length : lt;
    if (textEnd > i && handler.wantsText()) handler.text(decodeXmlEntities(src.slice(i, textEnd)));
    if (lt < 0) break;
    const c = src.charCodeAt(lt + 1);
    let step: Step;
    if (c === 33 /* ! */) step = markupDeclaration(src, lt, handler);
    else if (c === 63 /* ? */) {
      const next = skipTo(src, lt + 2, '?>');
      step = next < 0 ? { next: src.length, error: 'unterminated processing instruction' } : { next };
    } else step = element(src, lt, handler);
    if (step.error !== undefined && error === null) error = step.error;
    i = step.next;
  }
  return { error };
}
