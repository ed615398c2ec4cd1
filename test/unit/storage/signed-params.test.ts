import { describe, expect, it } from 'vitest';
import { signParams, verifyParams } from '../../../src/storage/signed-params.js';

const SECRET = 'unit-test-secret-0123456789abcdef';

describe('signParams / verifyParams', () => {
  const params = { map: 'map_123', offset: '200' };
  const sig = signParams(SECRET, 'map-cursor', params);

  it('produces a hex HMAC-SHA256 that verifies, whatever the parameter order', () => {
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyParams(SECRET, 'map-cursor', { offset: '200', map: 'map_123' }, sig)).toBe(true);
    expect(signParams(SECRET, 'map-cursor', { offset: '200', map: 'map_123' })).toBe(sig);
  });

  it('rejects a changed, added or removed parameter', () => {
    expect(verifyParams(SECRET, 'map-cursor', { ...params, offset: '201' }, sig)).toBe(false);
    expect(verifyParams(SECRET, 'map-cursor', { ...params, limit: '10' }, sig)).toBe(false);
    expect(verifyParams(SECRET, 'map-cursor', { map: 'map_123' }, sig)).toBe(false);
    expect(verifyParams(SECRET, 'map-cursor', { ...params, offset: '' }, sig)).toBe(false);
  });

  it('keeps names and values apart (no ambiguity through separators)', () => {
    const a = signParams(SECRET, 's', { a: 'b&c=d' });
    expect(verifyParams(SECRET, 's', { a: 'b', c: 'd' }, a)).toBe(false);
    const b = signParams(SECRET, 's', { 'a=b': 'c' });
    expect(verifyParams(SECRET, 's', { a: 'b=c' }, b)).toBe(false);
  });

  it('binds the scope and the secret', () => {
    expect(verifyParams(SECRET, 'blob-url', params, sig)).toBe(false);
    expect(verifyParams(`${SECRET}x`, 'map-cursor', params, sig)).toBe(false);
  });

  it('treats malformed signatures as invalid instead of throwing', () => {
    for (const bad of ['', 'zz', sig.toUpperCase(), sig.slice(0, 63), `${sig}00`, `${sig.slice(0, 62)}  `]) {
      expect(verifyParams(SECRET, 'map-cursor', params, bad), bad).toBe(false);
    }
  });

  it('refuses weak secrets and multi-line scopes', () => {
    expect(() => signParams('short', 's', {})).toThrow(/at least 16/);
    expect(() => signParams(SECRET, 'a\nb', {})).toThrow(/scope/);
    expect(() => signParams(SECRET, '', {})).toThrow(/scope/);
  });
});
