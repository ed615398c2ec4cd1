import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { createBlobUrlSigner, createBlobUrlVerifier } from '../../../src/storage/blob-urls.js';

const SECRET = 'unit-test-secret-0123456789abcdef';
const T0 = Date.UTC(2030, 0, 1); // a fixed clock, in ms
let now = T0;
const signer = createBlobUrlSigner({ secret: SECRET, baseUrl: () => 'https://api.example.test/', now: () => now });
const verifier = createBlobUrlVerifier(SECRET, { now: () => now });

function parts(url: string): { key: string; query: URLSearchParams; url: URL } {
  const parsed = new URL(url);
  const key = parsed.pathname
    .replace(/^\/blobs\//, '')
    .split('/')
    .map(decodeURIComponent)
    .join('/');
  return { key, query: parsed.searchParams, url: parsed };
}

function rejection(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('signed blob URLs', () => {
  it('have the documented shape and verify for their method and key', () => {
    now = T0;
    const url = signer.signGet('teams/t1/a b.md', { expiresInSeconds: 60, filename: 'a b.md' });
    expect(url).toMatch(
      /^https:\/\/api\.example\.test\/blobs\/teams\/t1\/a%20b\.md\?expires=\d+&filename=a\+b\.md&sig=[0-9a-f]{64}$/,
    );
    const { key, query } = parts(url);
    expect(verifier.verify('GET', key, query)).toEqual({
      key: 'teams/t1/a b.md',
      method: 'GET',
      expires: T0 / 1000 + 60,
      filename: 'a b.md',
    });
  });

  it('expire after their lifetime, to the second', () => {
    now = T0;
    const { key, query } = parts(signer.signGet('k', { expiresInSeconds: 10 }));
    now = T0 + 10_999;
    expect(verifier.verify('GET', key, query).expires).toBe(T0 / 1000 + 10);
    now = T0 + 11_000;
    expect(rejection(() => verifier.verify('GET', key, query))).toMatchObject({
      status: 403,
      code: 'signed_url_expired',
    });
    now = T0;
  });

  it('refuse another key, another method, and any changed, added, dropped or repeated parameter', () => {
    const { key, query } = parts(signer.signGet('a/b', { expiresInSeconds: 60, filename: 'b.txt' }));
    const variants: [string, string, URLSearchParams][] = [];
    const edit = (change: (q: URLSearchParams) => void): URLSearchParams => {
      const copy = new URLSearchParams(query);
      change(copy);
      return copy;
    };
    variants.push(['GET', 'a/c', query], ['PUT', key, query]);
    variants.push(['GET', key, edit((q) => q.set('expires', String(Number(q.get('expires')) + 3600)))]);
    variants.push(['GET', key, edit((q) => q.set('filename', 'evil.html'))]);
    variants.push(['GET', key, edit((q) => q.delete('filename'))]);
    variants.push(['GET', key, edit((q) => q.append('content_type', 'text/html'))]);
    variants.push(['GET', key, edit((q) => q.append('__proto__', 'x'))]);
    variants.push(['GET', key, edit((q) => q.append('method', 'GET'))]);
    variants.push(['GET', key, edit((q) => q.append('filename', 'b.txt'))]);
    variants.push(['GET', key, edit((q) => q.append('sig', q.get('sig')!))]);
    variants.push(['GET', key, edit((q) => q.delete('sig'))]);
    variants.push(['GET', key, edit((q) => q.set('sig', q.get('sig')!.toUpperCase()))]);
    for (const [method, k, q] of variants) {
      const err = rejection(() => verifier.verify(method as 'GET' | 'PUT', k, q));
      expect(err, `${method} ${k} ?${q.toString()}`).toMatchObject({ status: 403, code: 'signed_url_invalid' });
    }
    expect(verifier.verify('GET', key, query).key).toBe('a/b');
  });

  it('refuse URLs signed with another secret', () => {
    const other = createBlobUrlSigner({ secret: `${SECRET}-other`, baseUrl: () => 'http://x', now: () => now });
    const { key, query } = parts(other.signGet('a', { expiresInSeconds: 60 }));
    expect(rejection(() => verifier.verify('GET', key, query)).code).toBe('signed_url_invalid');
  });

  it('carry the content type and size limit of uploads under the signature', () => {
    const signed = signer.signPut('uploads/f.json', {
      expiresInSeconds: 600,
      contentType: 'application/json',
      maxBytes: 1000,
    });
    const { key, query } = parts(signed.url);
    expect(verifier.verify('PUT', key, query)).toMatchObject({
      contentType: 'application/json',
      maxBytes: 1000,
      id: signed.id,
      expires: signed.expires,
    });
    const bigger = new URLSearchParams(query);
    bigger.set('max_bytes', '1000000');
    expect(rejection(() => verifier.verify('PUT', key, bigger)).code).toBe('signed_url_invalid');
    const defaults = parts(signer.signPut('u', { expiresInSeconds: 1, contentType: 'application/json' }).url);
    expect(verifier.verify('PUT', defaults.key, defaults.query).maxBytes).toBe(200 * 1024 * 1024);
  });

  it('refuse to sign what could not be served safely', () => {
    expect(() => signer.signGet('../x', { expiresInSeconds: 60 })).toThrow(/invalid object key/);
    expect(() => signer.signGet('x', { expiresInSeconds: 0 })).toThrow(/expiresInSeconds/);
    expect(() => signer.signGet('x', { expiresInSeconds: 1.5 })).toThrow(/expiresInSeconds/);
    expect(() => signer.signGet('x', { expiresInSeconds: 60, filename: 'a\r\nb' })).toThrow(/filename/);
    expect(() => signer.signGet('x', { expiresInSeconds: 60, filename: '../x' })).toThrow(/filename/);
    expect(() => signer.signPut('x', { expiresInSeconds: 60, contentType: 'text/html\r\nX: y' })).toThrow(
      /content type/,
    );
    expect(() => signer.signPut('x', { expiresInSeconds: 60, contentType: 'a/b', maxBytes: -1 })).toThrow(/maxBytes/);
  });
});
