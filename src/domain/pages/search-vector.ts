/**
 * A page's text vector for the stored-pages index, built as Postgres's own
 * `to_tsvector('english', text)` would build it, without making Postgres parse the page.
 *
 * Why: on the embedded database Postgres's text-search parser costs ~0.5 µs a character
 * (WebAssembly), 10–13 ms for a page's 20,000 characters, more than the rest of a scrape
 * (docs/benchmarks.md, "The stored-pages index without the parser"). But a page is made of
 * whitespace-separated pieces that repeat from page to page ("the", "search.", "`config`",
 * "(default"), and the parser reads each piece the same way wherever it stands: between two
 * ASCII blanks it always begins a token afresh. So the vector of a text is the vectors of its
 * pieces, each piece's positions shifted by the positions the pieces before it took. Postgres
 * still reads every piece, once per process: each new piece of a page is sent with the others
 * in one `to_tsvector` call, and what it made of it is remembered (`SEARCH_VECTOR_CACHE_PIECES`).
 * The page's statement then casts the assembled vector (`?::tsvector`, ~1 ms) instead of parsing
 * the text.
 *
 * The one construct that spans blanks is an HTML tag (`<a href="x">`, a comment, and the text
 * of `<script>`/`<style>`, which the parser skips): a piece holding a possible tag is joined
 * with the pieces up to the tag's `>`, and where that could be cut wrong (quotes, comments,
 * `<?`, script and style) the page is left to `to_tsvector` whole (`null`). Equality with
 * Postgres is tested on the benchmark site's pages, the golden pages and hand-made edge cases
 * (`test/integration/search-vector.test.ts`, `bench/search-vector-parity.ts`).
 */

/** Runs one statement and returns its rows (the pages module passes the database). */
export type SearchVectorQuery = (sql: string, params: string[]) => Promise<Array<Record<string, unknown>>>;

/** What Postgres made of one piece: its lexemes with positions counted from 1, and how many positions it took. */
interface PieceVector {
  /** Positions the piece takes (its words, stop words included; not blanks or tags). */
  count: number;
  /** Lexeme and positions; `null` when the piece has none. */
  lexemes: Array<[string, number[]]> | null;
}

/** The piece that separates new pieces in one `to_tsvector` call; checked against Postgres once. */
const SENTINEL = 'zqxj';
/** A position Postgres writes as 16383 and stops at (MAXENTRYPOS − 1). */
const MAX_POSITION = 16383;
/** Positions Postgres keeps of one lexeme (MAXNUMPOS − 1). */
const MAX_POSITIONS = 255;
/** New pieces parsed in one call; a lexeme keeps 255 positions, the sentinel included. */
const PIECES_PER_CALL = 200;
/** A piece this long (a tag spanning lines, an unclosed `<`, minified code) sends its page to `to_tsvector`. */
const MAX_PIECE_CHARS = 4000;
/** Blanks that end any token but a tag: the parser's `isspace` on ASCII. */
const BLANKS = /[ \t\n\r\f\v]+/;
/** `<` as the parser's tag start reads it: a letter, `/`, `!`, `?`, `:` or `_` after it. */
const TAG_START = /<[A-Za-z/!?:_]/g;
/** Tags the parser reads differently (comments, declarations, skipped script and style text). */
const UNSURE_TAG = /<(?:[!?]|\/?(?:script|style))/i;
/** `<` as the parser's tag start reads it, from any index (for a test within a slice). */
const HAS_TAG_START = /<[A-Za-z/!?:_]/;

/**
 * The text's pieces in order, each to be read on its own; `null` when a tag makes the cut unsure
 * or a piece is too long to remember (the caller then indexes the text with `to_tsvector`).
 */
export function searchPieces(text: string): string[] | null {
  const pieces: string[] = [];
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
    if (!pushPieces(pieces, text.slice(from, regionStart))) return null;
    if (regionEnd - regionStart > MAX_PIECE_CHARS) return null;
    pieces.push(text.slice(regionStart, regionEnd));
    from = regionEnd;
    TAG_START.lastIndex = regionEnd;
  }
  return pushPieces(pieces, text.slice(from)) ? pieces : null;
}

/** Adds the text's blank-separated pieces; false when one is longer than MAX_PIECE_CHARS. */
function pushPieces(pieces: string[], text: string): boolean {
  for (const piece of text.split(BLANKS)) {
    if (piece.length > MAX_PIECE_CHARS) return false;
    if (piece !== '') pieces.push(piece);
  }
  return true;
}

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

/**
 * Reads a tsvector as Postgres writes it (`'lexeme':1,3 'other':2`, no weights) into lexemes
 * with positions.
 */
export function parseTsvector(text: string): Array<[string, number[]]> {
  const out: Array<[string, number[]]> = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === ' ') {
      i++;
      continue;
    }
    if (text[i] !== "'") throw new Error(`unexpected tsvector text at ${i}: ${text.slice(i, i + 20)}`);
    let lexeme = '';
    i++;
    for (;;) {
      const c = text[i++];
      if (c === undefined) throw new Error('unterminated lexeme in tsvector text');
      if (c === '\\') lexeme += text[i++];
      else if (c === "'") {
        if (text[i] === "'") {
          lexeme += "'";
          i++;
        } else break;
      } else lexeme += c;
    }
    const positions: number[] = [];
    if (text[i] === ':') {
      i++;
      for (;;) {
        let n = 0;
        while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57)
          n = n * 10 + text.charCodeAt(i++) - 48;
        positions.push(n);
        if (text[i] !== ',') break;
        i++;
      }
    }
    out.push([lexeme, positions]);
  }
  return out;
}

/** A lexeme as a tsvector literal writes it. */
function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

export interface SearchVectorsOptions {
  /** Pieces remembered (two generations of half each; the older is dropped when the newer fills). */
  maxPieces: number;
}

/** Builds pages' text vectors from remembered pieces; one per process or thread. */
export class SearchVectors {
  private young = new Map<string, PieceVector>();
  private old = new Map<string, PieceVector>();
  /** Whether the database reads the sentinel as one word of its own (asked once). */
  private usable: Promise<boolean> | null = null;

  constructor(
    private readonly query: SearchVectorQuery,
    private readonly options: SearchVectorsOptions,
  ) {}

  /**
   * The text's vector as a tsvector literal, equal to `to_tsvector('english', text)`; `null`
   * when the text is left to `to_tsvector` (an unsure tag, or the index is off).
   */
  async literal(text: string): Promise<string | null> {
    if (this.options.maxPieces <= 0) return null;
    const pieces = searchPieces(text);
    if (!pieces) return null;
    const known = new Map<string, PieceVector>();
    const missing: string[] = [];
    for (const piece of pieces) {
      if (known.has(piece)) continue;
      const vector = this.recall(piece);
      if (vector) known.set(piece, vector);
      else if (piece.toLowerCase().includes(SENTINEL)) return null;
      else if (!missing.includes(piece)) missing.push(piece);
    }
    if (missing.length > 0) {
      const read = await this.read(missing);
      if (!read) return null;
      for (const [piece, vector] of read) {
        known.set(piece, vector);
        this.remember(piece, vector);
      }
    }
    return assemble(pieces, known);
  }

  private recall(piece: string): PieceVector | undefined {
    const young = this.young.get(piece);
    if (young) return young;
    const old = this.old.get(piece);
    if (old) this.remember(piece, old);
    return old;
  }

  private remember(piece: string, vector: PieceVector): void {
    if (this.young.size >= this.options.maxPieces / 2) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(piece, vector);
  }

  /**
   * What Postgres makes of each new piece: one `to_tsvector` per call of up to PIECES_PER_CALL
   * pieces, all calls in one statement; `null` when a call reached Postgres's limits.
   */
  private async read(pieces: string[]): Promise<Map<string, PieceVector> | null> {
    this.usable ??= this.checkSentinel();
    if (!(await this.usable)) return null;
    const calls: string[] = [];
    for (let i = 0; i < pieces.length; i += PIECES_PER_CALL) {
      calls.push(
        pieces
          .slice(i, i + PIECES_PER_CALL)
          .map((piece) => `${piece} ${SENTINEL}`)
          .join(' '),
      );
    }
    const rows = await this.query(
      `select to_tsvector('english', t.text)::text as vector from json_array_elements_text(?::json) with ordinality as t(text, n) order by t.n`,
      [JSON.stringify(calls)],
    );
    const out = new Map<string, PieceVector>();
    for (const [call, row] of rows.entries()) {
      const lexemes = parseTsvector(String(row.vector));
      // A lexeme at Postgres's limits (255 positions, position 16383) may have lost positions.
      if (lexemes.some(([, p]) => p.length >= MAX_POSITIONS || p[p.length - 1]! >= MAX_POSITION)) return null;
      if (!splitCall(lexemes, pieces.slice(call * PIECES_PER_CALL, (call + 1) * PIECES_PER_CALL), out)) return null;
    }
    return out;
  }

  /**
   * The sentinel must come back as itself, one word at its own position: asked once of the
   * database's dictionary. If not (another configuration), every page goes to `to_tsvector`.
   */
  private async checkSentinel(): Promise<boolean> {
    try {
      const rows = await this.query(`select to_tsvector('english', ?)::text as vector`, [`a ${SENTINEL}`]);
      return rows[0]?.vector === `'${SENTINEL}':2`;
    } catch (err) {
      this.usable = null;
      throw err;
    }
  }
}

/**
 * Cuts one call's vector back into its pieces' vectors at the sentinel's positions; false when
 * the sentinel is not where it was put (nothing is then remembered).
 */
function splitCall(lexemes: Array<[string, number[]]>, pieces: string[], out: Map<string, PieceVector>): boolean {
  const sentinel = lexemes.find(([lexeme]) => lexeme === SENTINEL)?.[1] ?? [];
  if (sentinel.length !== pieces.length) return false;
  const vectors: PieceVector[] = pieces.map((_, i) => ({
    count: sentinel[i]! - (i === 0 ? 0 : sentinel[i - 1]!) - 1,
    lexemes: null,
  }));
  for (const [lexeme, positions] of lexemes) {
    if (lexeme === SENTINEL) continue;
    let piece = 0;
    for (const position of positions) {
      while (position > sentinel[piece]!) piece++;
      const base = piece === 0 ? 0 : sentinel[piece - 1]!;
      const vector = vectors[piece]!;
      vector.lexemes ??= [];
      const last = vector.lexemes[vector.lexemes.length - 1];
      if (last && last[0] === lexeme) last[1].push(position - base);
      else vector.lexemes.push([lexeme, [position - base]]);
    }
  }
  pieces.forEach((piece, i) => out.set(piece, vectors[i]!));
  return true;
}

/**
 * The pieces' vectors, shifted and joined as `to_tsvector` joins a text's words: a position past
 * 16383 is written as 16383, a lexeme keeps its first 255 distinct positions and none after a
 * 16383.
 */
function assemble(pieces: string[], known: Map<string, PieceVector>): string {
  const positions = new Map<string, number[]>();
  let base = 0;
  for (const piece of pieces) {
    const vector = known.get(piece)!;
    if (vector.lexemes) {
      for (const [lexeme, relative] of vector.lexemes) {
        let list = positions.get(lexeme);
        if (!list) positions.set(lexeme, (list = []));
        for (const r of relative) {
          const position = Math.min(base + r, MAX_POSITION);
          const last = list[list.length - 1];
          if (list.length >= MAX_POSITIONS || last === MAX_POSITION || last === position) continue;
          list.push(position);
        }
      }
    }
    base += vector.count;
  }
  let out = '';
  for (const [lexeme, list] of positions) out += `${out === '' ? '' : ' '}${quoteLexeme(lexeme)}:${list.join(',')}`;
  return out;
}
