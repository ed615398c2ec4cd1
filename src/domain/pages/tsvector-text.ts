/** Reading what `to_tsvector` answers, as text, back into lexemes and pieces (search-vector.ts). */

/** The piece that separates new pieces in one `to_tsvector` call; checked against Postgres once. */
export const SENTINEL = 'zqxj';

/** A piece's vector as read from the database, before its lexemes are the process's own. */
export interface RawVector {
  count: number;
  lexemes: Array<[string, number[]]>;
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

/**
 * Cuts one call's vector back into its pieces' vectors at the sentinel's positions; null when
 * the sentinel is not where it was put.
 */
export function splitCall(lexemes: Array<[string, number[]]>, pieces: number): RawVector[] | null {
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
