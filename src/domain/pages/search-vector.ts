/**
 * A page's text vector for the stored-pages index, built as Postgres's own
 * `to_tsvector('english', text)` builds it, without Postgres parsing the page (docs/answers.md,
 * "The stored-pages index: a text's vector from its pieces").
 *
 * Why: on the embedded database the text-search parser (WebAssembly) is the largest part of a
 * page's insert (bench/results/s26-page-insert.md). But a page is made of
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
import { MISSING, PieceTable } from './piece-table.js';
import { Lexemes, MAX_POSITION, MAX_POSITIONS, MULTI, STOP_WORD, type MultiVector } from './search-lexemes.js';
import { pieceBounds } from './search-pieces.js';
import { parseTsvector, SENTINEL, splitCall, type RawVector } from './tsvector-text.js';

/** Runs one statement and returns its rows (the pages module passes the database). */
export type SearchVectorQuery = (sql: string, params: string[]) => Promise<Array<Record<string, unknown>>>;

/** New pieces parsed in one call; a lexeme keeps 255 positions, the sentinel included. */
const PIECES_PER_CALL = 200;

export interface SearchVectorsOptions {
  /**
   * Pieces remembered (and lexemes: far fewer); when full, they are forgotten and learnt again.
   * 0: every text is left to `to_tsvector`.
   */
  maxPieces: number;
}

/** Builds pages' text vectors from remembered pieces; one per process or thread. */
export class SearchVectors {
  private pieces = new PieceTable();
  /** The pieces of several words (their values in `pieces` point here); dropped with the pieces. */
  private multis: MultiVector[] = [];
  private lexemes = new Lexemes();
  /** Times the lexemes were dropped (a page must not mix ids from before and after). */
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
   * (the page would mix ids of before and after).
   */
  private async assembleFrom(text: string, bounds: number[]): Promise<string | null | typeof RETRY> {
    // Room is made between pages, never in the middle of one. Lexemes are far fewer than pieces
    // and stay when the pieces go, so pages in flight keep theirs; they go when they fill up too.
    if (this.pieces.size >= this.options.maxPieces) this.forgetPieces();
    if (this.lexemes.size >= this.options.maxPieces) this.forgetLexemes();
    const values = new Int32Array(bounds.length / 2);
    // This page's pieces of several words (its values point here, not into `this.multis`, which a
    // reset while new pieces are read would replace).
    const multis: MultiVector[] = [];
    // Pieces not remembered, each with where it stands in the text.
    const missing = new Map<string, number[]>();
    for (let i = 0; i < values.length; i++) {
      const start = bounds[2 * i]!;
      const end = bounds[2 * i + 1]!;
      const value = this.pieces.find(text, start, end);
      if (value !== MISSING) {
        values[i] = value > MULTI ? value : MULTI - (multis.push(this.multis[MULTI - value]!) - 1);
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
      // Another page dropped the lexemes meanwhile: this page's remembered values hold the ids of
      // before, the new ones would be ids of after (the same word twice, or another word).
      if (this.lexemeGeneration !== generation) return RETRY;
      for (const [piece, raw] of read) {
        const vector = this.compact(raw);
        // A piece of several words: one value for this page, another for the table.
        const value = typeof vector === 'number' ? vector : MULTI - (multis.push(vector) - 1);
        const remembered = typeof vector === 'number' ? vector : MULTI - (this.multis.push(vector) - 1);
        for (const i of missing.get(piece)!) values[i] = value;
        this.pieces.add(piece, 0, piece.length, remembered);
      }
    }
    return this.lexemes.assemble(values, multis);
  }

  private forgetPieces(): void {
    this.pieces = new PieceTable();
    this.multis = [];
  }

  private forgetLexemes(): void {
    this.forgetPieces();
    this.lexemes = new Lexemes();
    this.lexemeGeneration++;
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
  private compact(vector: RawVector): number | MultiVector {
    const { count, lexemes } = vector;
    if (count === 1 && lexemes.length === 0) return STOP_WORD;
    if (count === 1 && lexemes.length === 1 && lexemes[0]![1].length === 1) return this.lexemes.id(lexemes[0]![0]);
    const entries: number[] = [];
    for (const [text, positions] of lexemes) entries.push(this.lexemes.id(text), positions.length, ...positions);
    return { count, entries: Int32Array.from(entries) };
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

/** What `assembleFrom` answers when it has to start again. */
const RETRY = Symbol('retry');
