import { describe, expect, it } from 'vitest';
import { MISSING, PieceTable } from '../../../src/domain/pages/piece-table.js';

describe('PieceTable', () => {
  it('finds a piece by where it stands in any text, and answers MISSING for others', () => {
    const table = new PieceTable();
    table.add('alpha', 0, 5, 7);
    table.add('(beta)', 1, 5, -3);
    expect(table.find('an alpha here', 3, 8)).toBe(7);
    expect(table.find('beta', 0, 4)).toBe(-3);
    expect(table.find('alph', 0, 4)).toBe(MISSING);
    expect(table.find('alphas', 0, 6)).toBe(MISSING);
    expect(table.find('Alpha', 0, 5)).toBe(MISSING);
    expect(table.find('', 0, 0)).toBe(MISSING);
    expect(table.size).toBe(2);
  });

  it('keeps the first value of a piece added twice', () => {
    const table = new PieceTable();
    table.add('word', 0, 4, 1);
    table.add('a word', 2, 6, 2);
    expect(table.find('word', 0, 4)).toBe(1);
    expect(table.size).toBe(1);
  });

  it('keeps every piece through its growth: slots, entries and characters', () => {
    const table = new PieceTable();
    const pieces = Array.from({ length: 5_000 }, (_, i) => `p${i.toString(36)}-${'x'.repeat(i % 7)}é`);
    const long = 'y'.repeat(10_000);
    pieces.forEach((piece, i) => table.add(piece, 0, piece.length, i));
    table.add(`${long}!`, 0, long.length, -1);
    expect(table.size).toBe(5_001);
    const text = pieces.join(' ');
    let at = 0;
    for (const [i, piece] of pieces.entries()) {
      expect(table.find(text, at, at + piece.length)).toBe(i);
      at += piece.length + 1;
    }
    expect(table.find(long, 0, long.length)).toBe(-1);
    expect(table.find(long, 1, long.length)).toBe(MISSING);
  });
});
