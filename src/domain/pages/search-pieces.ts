/**
 * Where a text is cut into the pieces its search vector is assembled from (search-vector.ts):
 * at ASCII blanks, after which Postgres's text-search parser always begins a token afresh, but
 * never inside a possible HTML tag, the one construct of the parser that spans blanks
 * (`<a href=x>`, a comment, and the text of `<script>`/`<style>`, which the parser skips). A
 * piece holding a possible tag is joined with what follows up to the tag's `>`; where that cut
 * could be wrong (quotes inside it, `<!`, `<?`, script and style) or a piece is too long, the
 * text is not cut at all and Postgres parses it whole.
 */

/** A piece this long (a tag spanning lines, an unclosed `<`, minified code) sends its page to `to_tsvector`. */
const MAX_PIECE_CHARS = 4000;
/** `<` as the parser's tag start reads it: a letter, `/`, `!`, `?`, `:` or `_` after it. */
const TAG_START = /<[A-Za-z/!?:_]/g;
/** Tags the parser reads differently (comments, declarations, skipped script and style text). */
const UNSURE_TAG = /<(?:[!?]|\/?(?:script|style))/i;
/** `<` as the parser's tag start reads it, from any index (for a test within a slice). */
const HAS_TAG_START = /<[A-Za-z/!?:_]/;

/**
 * Where the text's pieces are, in order: start and end (exclusive) of each, one after the other;
 * `null` when a tag makes the cut unsure or a piece is too long to remember (the caller then
 * indexes the text with `to_tsvector`).
 */
export function pieceBounds(text: string): number[] | null {
  const bounds: number[] = [];
  let from = 0;
  TAG_START.lastIndex = 0;
  for (let tag = TAG_START.exec(text); tag; tag = TAG_START.exec(text)) {
    const start = tag.index;
    // A tag, if it is one, ends at the first `>` (without quotes nothing in it can hide one). The
    // region runs from the blank before the `<` to the blank after the `>`, and on to the next
    // `>` while another tag starts between that `>` and the blank.
    let end = start;
    let regionEnd: number;
    for (;;) {
      end = text.indexOf('>', end + 1);
      if (end < 0) end = text.length;
      regionEnd = firstBlankFrom(text, end);
      const tail = text.slice(end + 1, regionEnd).search(HAS_TAG_START);
      if (tail < 0) break;
      end += 1 + tail;
    }
    const regionStart = lastBlankBefore(text, start, from);
    const tags = text.slice(start, regionEnd);
    if (UNSURE_TAG.test(tags) || tags.includes('"') || tags.includes("'")) return null;
    if (!pushBounds(bounds, text, from, regionStart)) return null;
    if (regionEnd - regionStart > MAX_PIECE_CHARS) return null;
    bounds.push(regionStart, regionEnd);
    from = regionEnd;
    TAG_START.lastIndex = regionEnd;
  }
  return pushBounds(bounds, text, from, text.length) ? bounds : null;
}

/** The text's pieces in order (`pieceBounds` as strings). */
export function searchPieces(text: string): string[] | null {
  const bounds = pieceBounds(text);
  if (!bounds) return null;
  const pieces: string[] = [];
  for (let i = 0; i < bounds.length; i += 2) pieces.push(text.slice(bounds[i], bounds[i + 1]));
  return pieces;
}

/** Adds the blank-separated pieces of `text[from, to)`; false when one is longer than MAX_PIECE_CHARS. */
function pushBounds(bounds: number[], text: string, from: number, to: number): boolean {
  let start = -1;
  for (let i = from; i <= to; i++) {
    if (i === to || isBlank(text.charCodeAt(i))) {
      if (start < 0) continue;
      if (i - start > MAX_PIECE_CHARS) return false;
      bounds.push(start, i);
      start = -1;
    } else if (start < 0) start = i;
  }
  return true;
}

/** Blanks that end any token but a tag: the parser's `isspace` on ASCII (space, tab, line feed, vertical tab, form feed, return). */
function isBlank(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

function lastBlankBefore(text: string, index: number, floor: number): number {
  let i = index;
  while (i > floor && !isBlank(text.charCodeAt(i - 1))) i--;
  return i;
}

function firstBlankFrom(text: string, index: number): number {
  let i = index;
  while (i < text.length && !isBlank(text.charCodeAt(i))) i++;
  return i;
}
