/**
 * A page's text vector for the stored-pages index, built as Postgres's own
 * `to_tsvector('english', text)` builds it, without Postgres parsing the page (docs/answers.md,
 * "The stored-pages index: a text's vector from its pieces").
 *
 * Why: on the embedded database the text-search parser costs ~0.5 µs a character (WebAssembly),
 * 9–13 ms for a page's 20,000 characters, more than the rest of a scrape. But a page is made of
 * blank-separated pieces that repeat from page to page (`the`, `search.`, `` `config` ``), and
 * the parser reads each piece the same way wherever it stands (search-pieces.ts says where the
 * text is cut). So a text's vector is its pieces' vectors, each shifted by the positions the
 * pieces before it took. Postgres reads each piece once per process: a page's new pieces go in
 * one `to_tsvector` call, and what it made of them is remembered (PAGE_SEARCH_PIECES). The
 * page's insert then casts the assembled literal (`?::tsvector`) instead of parsing the text.
 *
 * Equality with Postgres, position for position: test/integration/search-vector.test.ts and
 * bench/search-vector-parity.ts.
 */
import { PieceTable } from './piece-table.js';
import { pieceBounds } from './search-pieces.js';

/** Runs one statement and returns its rows (the pages module passes the database). */
export type SearchVectorQuery = (sql: string, params: string[]) => Promise<Array<Record<string, unknown>>>;

/**
 * A lexeme, once per process however many pieces give it: written out as the literal needs it,
 * with scratch room for the page being assembled (`assemble` runs without awaiting, so one page
 * at a time uses it).
 */
interface Lexeme {
  /** `'lexeme'` as a tsvector literal writes it. */
  quoted: string;
  /** The page being assembled that `written`, `count` and `last` belong to. */
  page: number;
  /** The lexeme with its positions so far, as the literal writes them. */
  written: string;
  /** Positions written. */
  count: number;
  /** The last position written. */
  last: number;
}

/**
 * What Postgres made of one piece. Most pieces are one word: those are kept as their lexeme
 * alone (`null` for a stop word), one position taken, the lexeme at it. Others keep how many
 * positions they take (words, stop words included; not blanks or tags) and their lexemes with
 * positions counted from 1.
 */
type PieceVector = Lexeme | null | { count: number; lexemes: Array<[Lexeme, number[]]> };

/** A piece's vector as read from the database, before its lexemes are the process's own. */
interface RawVector {
  count: number;
  lexemes: Array<[string, number[]]>;
}

/** The piece that separates new pieces in one `to_tsvector` call; checked against Postgres once. */
const SENTINEL = 'zqxj';
/** A position Postgres writes as 16383 and stops at (MAXENTRYPOS − 1). */
const MAX_POSITION = 16383;
/** Positions Postgres keeps of one lexeme (MAXNUMPOS − 1). */
const MAX_POSITIONS = 255;
/** New pieces parsed in one call; a lexeme keeps 255 positions, the sentinel included. */
const PIECES_PER_CALL = 200;

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

/**
 * A copy of `piece` that does not hold on to the page it was cut from (V8 keeps a longer
 * substring as a view of its parent string: remembered, it would keep the page's whole text).
 */
function detached(piece: string): string {
  return (' ' + piece).slice(1);
}

/** A lexeme as a tsvector literal writes it. */
function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

export interface SearchVectorsOptions {
  /**
   * Pieces remembered (and lexemes: far fewer); when full, they are forgotten and learnt again.
   * 0: every text is left to `to_tsvector`.
   */
  maxPieces: number;
}

/** Builds pages' text vectors from remembered pieces; one per process or thread. */
export class SearchVectors {
  private pieces = new PieceTable<PieceVector>();
  private lexemes = new Map<string, Lexeme>();
  /** Times the lexemes were dropped (a page must not mix Lexemes from before and after). */
  private lexemeGeneration = 0;
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
    const bounds = pieceBounds(text);
    if (!bounds) return null;
    for (let attempt = 0; attempt < 3; attempt++) {
      const literal = await this.assembleFrom(text, bounds);
      if (literal !== RETRY) return literal;
    }
    return null;
  }

  /**
   * The pieces' vector, or RETRY when the lexemes were dropped while the new pieces were read
   * (the page would mix Lexemes of before and after).
   */
  private async assembleFrom(text: string, bounds: number[]): Promise<string | null | typeof RETRY> {
    // Room is made between pages, never in the middle of one. Lexemes are far fewer than pieces
    // and stay when the pieces go, so pages in flight keep theirs; they go when they fill up too.
    if (this.pieces.size >= this.options.maxPieces) this.pieces = new PieceTable<PieceVector>();
    if (this.lexemes.size >= this.options.maxPieces) this.forgetLexemes();
    const vectors = new Array<PieceVector>(bounds.length / 2);
    // Pieces not remembered, each with where it stands in the text.
    const missing = new Map<string, number[]>();
    for (let i = 0; i < vectors.length; i++) {
      const start = bounds[2 * i]!;
      const end = bounds[2 * i + 1]!;
      const vector = this.pieces.find(text, start, end);
      if (vector !== undefined) {
        vectors[i] = vector;
        continue;
      }
      const piece = text.slice(start, end);
      const at = missing.get(piece);
      if (at) at.push(i);
      else if (piece.toLowerCase().includes(SENTINEL)) return null;
      else missing.set(piece, [i]);
    }
    if (missing.size > 0) {
      const generation = this.lexemeGeneration;
      const read = await this.read([...missing.keys()]);
      if (!read) return null;
      // Another page dropped the lexemes meanwhile: this page's remembered vectors hold the
      // Lexemes of before, the new ones would be Lexemes of after (the same word twice).
      if (this.lexemeGeneration !== generation) return RETRY;
      for (const [piece, raw] of read) {
        const vector = this.compact(raw);
        for (const i of missing.get(piece)!) vectors[i] = vector;
        this.pieces.add(detached(piece), vector);
      }
    }
    return assemble(vectors);
  }

  private forgetLexemes(): void {
    this.pieces = new PieceTable<PieceVector>();
    this.lexemes = new Map();
    this.lexemeGeneration++;
  }

  /** The one Lexeme of `text` in this process. */
  private lexeme(text: string): Lexeme {
    let lexeme = this.lexemes.get(text);
    if (!lexeme)
      this.lexemes.set(text, (lexeme = { quoted: quoteLexeme(text), page: 0, written: '', count: 0, last: 0 }));
    return lexeme;
  }

  /**
   * What Postgres makes of each new piece: one `to_tsvector` per call of up to PIECES_PER_CALL
   * pieces, all calls in one statement; `null` when a call reached Postgres's limits.
   */
  private async read(pieces: string[]): Promise<Map<string, RawVector> | null> {
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
    const out = new Map<string, RawVector>();
    for (const [call, row] of rows.entries()) {
      const lexemes = parseTsvector(String(row.vector));
      // A lexeme at Postgres's limits (255 positions, position 16383) may have lost positions.
      if (lexemes.some(([, p]) => p.length >= MAX_POSITIONS || p[p.length - 1]! >= MAX_POSITION)) return null;
      const batch = pieces.slice(call * PIECES_PER_CALL, (call + 1) * PIECES_PER_CALL);
      const vectors = splitCall(lexemes, batch.length);
      if (!vectors) return null;
      batch.forEach((piece, i) => out.set(piece, vectors[i]!));
    }
    return out;
  }

  /** A piece's vector with its lexemes made the process's own, a one-word piece as its lexeme alone. */
  private compact(vector: RawVector): PieceVector {
    const lexemes = vector.lexemes.map(([text, positions]): [Lexeme, number[]] => [this.lexeme(text), positions]);
    if (vector.count !== 1) return { count: vector.count, lexemes };
    if (lexemes.length === 0) return null;
    const [[lexeme, positions]] = lexemes as [[Lexeme, number[]]];
    return lexemes.length === 1 && positions.length === 1 ? lexeme : { count: 1, lexemes };
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
 * Cuts one call's vector back into its pieces' vectors at the sentinel's positions; null when
 * the sentinel is not where it was put.
 */
function splitCall(lexemes: Array<[string, number[]]>, pieces: number): RawVector[] | null {
  const sentinel = lexemes.find(([lexeme]) => lexeme === SENTINEL)?.[1] ?? [];
  if (sentinel.length !== pieces) return null;
  const vectors = sentinel.map((at, i) => ({
    count: at - (i === 0 ? 0 : sentinel[i - 1]!) - 1,
    lexemes: [] as Array<[string, number[]]>,
  }));
  for (const [lexeme, positions] of lexemes) {
    if (lexeme === SENTINEL) continue;
    let piece = 0;
    for (const position of positions) {
      while (position > sentinel[piece]!) piece++;
      const base = piece === 0 ? 0 : sentinel[piece - 1]!;
      const vector = vectors[piece]!;
      const last = vector.lexemes[vector.lexemes.length - 1];
      if (last && last[0] === lexeme) last[1].push(position - base);
      else vector.lexemes.push([lexeme, [position - base]]);
    }
  }
  return vectors;
}

/**
 * The pieces' vectors, shifted and joined as `to_tsvector` joins a text's words: a position past
 * 16383 is written as 16383, a lexeme keeps its first 255 distinct positions and none after a
 * 16383.
 */
function assemble(vectors: PieceVector[]): string {
  const page = ++pages;
  const used: Lexeme[] = [];
  let base = 0;
  for (const vector of vectors) {
    if (vector === null) base += 1;
    else if ('quoted' in vector) addPosition(vector, ++base, page, used);
    else {
      for (const [lexeme, relative] of vector.lexemes) {
        for (const r of relative) addPosition(lexeme, base + r, page, used);
      }
      base += vector.count;
    }
  }
  let out = '';
  for (const lexeme of used) {
    out += out === '' ? lexeme.written : ` ${lexeme.written}`;
    lexeme.written = '';
  }
  return out;
}

/** Writes one more position of a lexeme on `page`, within Postgres's limits (see `assemble`). */
function addPosition(lexeme: Lexeme, at: number, page: number, used: Lexeme[]): void {
  const position = at < MAX_POSITION ? at : MAX_POSITION;
  if (lexeme.page !== page) {
    lexeme.page = page;
    lexeme.written = `${lexeme.quoted}:${POSITIONS[position]!}`;
    lexeme.count = 1;
    lexeme.last = position;
    used.push(lexeme);
    return;
  }
  if (lexeme.count >= MAX_POSITIONS || lexeme.last === MAX_POSITION || lexeme.last === position) return;
  lexeme.written += `,${POSITIONS[position]!}`;
  lexeme.count++;
  lexeme.last = position;
}

/** Positions as text, written once (a page writes thousands). */
const POSITIONS = Array.from({ length: MAX_POSITION + 1 }, (_, i) => String(i));

/** What `assembleFrom` answers when it has to start again. */
const RETRY = Symbol('retry');

/** Pages assembled in this process: marks which page a Lexeme's positions belong to. */
let pages = 0;
