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
import { grown, MISSING, PieceTable } from './piece-table.js';
import { pieceBounds } from './search-pieces.js';

/** Runs one statement and returns its rows (the pages module passes the database). */
export type SearchVectorQuery = (sql: string, params: string[]) => Promise<Array<Record<string, unknown>>>;

/**
 * What Postgres made of one piece, as the piece table keeps it (one number). Most pieces are one
 * word: those are kept as their lexeme's id (≥ 0) or STOP_WORD, one position taken, the lexeme
 * at it. Others are `MULTI − k`, the k-th of `multis`: how many positions the piece takes (words,
 * stop words included; not blanks or tags) and its lexemes with positions counted from 1.
 */
const STOP_WORD = -1;
const MULTI = -2;

/** A piece of several words: `entries` holds, for each lexeme, its id, n, then its n positions. */
interface MultiVector {
  count: number;
  entries: Int32Array;
}

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

/** A lexeme as a tsvector literal writes it between its quotes. */
function escapeLexeme(lexeme: string): string {
  return lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''");
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
 * The lexemes of a process, each an id: its literal form in `inner`, and scratch room in typed
 * arrays for the page being assembled (`assemble` runs without awaiting, so one page at a time
 * uses it). A lexeme costs its one string and its entry in `ids`; nothing else is an object.
 */
class Lexemes {
  /** Id of each lexeme, by the lexeme. */
  private readonly ids = new Map<string, number>();
  /**
   * The lexeme as a tsvector literal writes it between its quotes, by id: the very string that
   * keys `ids` unless it holds a quote or a backslash.
   */
  private readonly inner: string[] = [];
  /** The page whose positions `count`, `last`, `first` and `tail` hold, by id. */
  private page = new Int32Array(1024);
  private count = new Int32Array(1024);
  private last = new Int32Array(1024);
  /** The lexeme's first and last position on the page, as entries of `positions`. */
  private first = new Int32Array(1024);
  private tail = new Int32Array(1024);
  /** The page's positions: value, and the entry of the same lexeme's next one (−1: none). */
  private positions = new Int32Array(4096);
  private next = new Int32Array(4096);
  /** Pages assembled: tells which page a lexeme's scratch belongs to. */
  private pages = 0;

  get size(): number {
    return this.inner.length;
  }

  /** The id of `lexeme` (as `to_tsvector` wrote it, unquoted). */
  id(lexeme: string): number {
    let id = this.ids.get(lexeme);
    if (id === undefined) {
      id = this.inner.push(/['\\]/.test(lexeme) ? escapeLexeme(lexeme) : lexeme) - 1;
      this.ids.set(lexeme, id);
      if (id === this.page.length) {
        const size = id * 2;
        this.page = grown(this.page, size);
        this.count = grown(this.count, size);
        this.last = grown(this.last, size);
        this.first = grown(this.first, size);
        this.tail = grown(this.tail, size);
      }
    }
    return id;
  }

  /**
   * The pieces' vectors, shifted and joined as `to_tsvector` joins a text's words: a position
   * past 16383 is written as 16383, a lexeme keeps its first 255 distinct positions and none
   * after a 16383. `values` are the pieces' values (see STOP_WORD), `multis` what MULTI − k means.
   */
  assemble(values: Int32Array, multis: MultiVector[]): string {
    // Page numbers are Int32 in `page`: start again long before they would wrap.
    if (this.pages === 0x7fffffff) {
      this.pages = 0;
      this.page.fill(0);
    }
    const page = ++this.pages;
    const { page: pageOf, count, last, first, tail } = this;
    let { positions, next } = this;
    const used: number[] = [];
    let written = 0;
    const add = (id: number, at: number): void => {
      const position = at < MAX_POSITION ? at : MAX_POSITION;
      if (pageOf[id] === page) {
        const previous = last[id]!;
        if (count[id]! >= MAX_POSITIONS || previous === MAX_POSITION || previous === position) return;
        count[id]!++;
        next[tail[id]!] = written;
      } else {
        pageOf[id] = page;
        count[id] = 1;
        first[id] = written;
        used.push(id);
      }
      last[id] = position;
      tail[id] = written;
      if (written === positions.length) {
        this.positions = positions = grown(positions, written * 2);
        this.next = next = grown(next, written * 2);
      }
      positions[written] = position;
      next[written++] = -1;
    };
    let base = 0;
    for (let v = 0; v < values.length; v++) {
      const value = values[v]!;
      if (value === STOP_WORD) base += 1;
      else if (value >= 0) add(value, ++base);
      else {
        const { count, entries } = multis[MULTI - value]!;
        for (let e = 0; e < entries.length; e += 2 + entries[e + 1]!) {
          for (let p = e + 2; p < e + 2 + entries[e + 1]!; p++) add(entries[e]!, base + entries[p]!);
        }
        base += count;
      }
    }
    let out = '';
    for (let u = 0; u < used.length; u++) {
      const id = used[u]!;
      let entry = first[id]!;
      out += `${u === 0 ? '' : ' '}'${this.inner[id]!}':${POSITIONS[positions[entry]!]!}`;
      for (entry = next[entry]!; entry !== -1; entry = next[entry]!) out += `,${POSITIONS[positions[entry]!]!}`;
    }
    return out;
  }
}

/** Positions as text, written once (a page writes thousands). */
const POSITIONS = Array.from({ length: MAX_POSITION + 1 }, (_, i) => String(i));

/** What `assembleFrom` answers when it has to start again. */
const RETRY = Symbol('retry');
