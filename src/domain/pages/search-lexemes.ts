/**
 * The lexemes of a process and how a page's tsvector literal is written from its pieces' values
 * (search-vector.ts cuts the page and reads new pieces; this writes the literal).
 */
import { grown } from './piece-table.js';

/**
 * What Postgres made of one piece, as the piece table keeps it (one number). Most pieces are one
 * word: those are kept as their lexeme's id (≥ 0) or STOP_WORD, one position taken, the lexeme
 * at it. Others are `MULTI − k`, the k-th of `multis`: how many positions the piece takes (words,
 * stop words included; not blanks or tags) and its lexemes with positions counted from 1.
 */
export const STOP_WORD = -1;
export const MULTI = -2;

/** A piece of several words: `entries` holds, for each lexeme, its id, n, then its n positions. */
export interface MultiVector {
  count: number;
  entries: Int32Array;
}

/** A position Postgres writes as 16383 and stops at (MAXENTRYPOS − 1). */
export const MAX_POSITION = 16383;
/** Positions Postgres keeps of one lexeme (MAXNUMPOS − 1). */
export const MAX_POSITIONS = 255;

/** A lexeme as a tsvector literal writes it between its quotes. */
function escapeLexeme(lexeme: string): string {
  return lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''");
}

/**
 * The lexemes of a process, each an id: its literal form in `inner`, and scratch room in typed
 * arrays for the page being assembled (`assemble` runs without awaiting, so one page at a time
 * uses it). A lexeme costs its one string and its entry in `ids`; nothing else is an object.
 */
export class Lexemes {
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
