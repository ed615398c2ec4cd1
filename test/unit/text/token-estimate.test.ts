import { describe, expect, it } from 'vitest';
import { cutToTokens, estimateTokens } from '../../../src/text/token-estimate.js';

describe('estimateTokens', () => {
  it('counts ASCII at four characters a token, CJK at one, other scripts at two', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd'.repeat(25))).toBe(25);
    expect(estimateTokens('東京タワー')).toBe(5);
    expect(estimateTokens('Москва')).toBe(3);
    // An emoji is a surrogate pair: one character, half a token.
    expect(estimateTokens('😀😀')).toBe(1);
  });
});

describe('cutToTokens', () => {
  it('keeps the whole text when it fits', () => {
    expect(cutToTokens('short text', 10)).toBe('short text');
  });

  it('cuts after the last whole word within the budget', () => {
    expect(cutToTokens('alpha beta gamma delta', 4)).toBe('alpha beta');
  });

  it('never splits a surrogate pair', () => {
    const cut = cutToTokens('😀😀😀', 1);
    expect(cut).toBe('😀😀');
  });
});
