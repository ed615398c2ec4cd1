import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '../../../src/engine/guarded-fetch.js';
import { createOutboundGuard } from '../../../src/engine/outbound-guard.js';
import { AppError } from '../../../src/errors.js';
import { createTestResolver } from '../../contract/engine.contract.js';
import { html, redirect, startFixtureServer, type FixtureServer } from '../../support/fixture-server.js';

/** The refusal a guarded fetch failed with (fetch wraps it: `TypeError: fetch failed`, cause AppError). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  const cause = (err as { cause?: unknown } | null)?.cause;
  if (!(cause instanceof AppError)) throw new Error(`expected a guard refusal, got ${String(err)}`, { cause: err });
  return cause;
}

describe('createGuardedFetch', () => {
  let trusted: FixtureServer;
  let other: FixtureServer;
  const dns = createTestResolver({ 'models.internal': [['127.0.0.1']] });
  const guard = createOutboundGuard({ allowPrivate: false, denyDomains: [] }, { resolve: dns });

  beforeAll(async () => {
    other = await startFixtureServer({ '/': html('<p>internal admin</p>') });
    trusted = await startFixtureServer({
      '/v1/models': html('{"data":[]}'),
      '/to-other': redirect(`http://127.0.0.1:${other.port}/`),
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
      '/big': html('x'.repeat(5000)),
    });
  });
  afterAll(async () => {
    await trusted.close();
    await other.close();
  });

  it('reaches a trusted origin on loopback while other private addresses stay refused', async () => {
    const guarded = createGuardedFetch(guard, { trustedOrigins: [`${trusted.origin}/v1`] });
    try {
      const res = await guarded.fetch(trusted.url('/v1/models'));
      expect(await res.text()).toBe('{"data":[]}');
      const err = await refusal(guarded.fetch(other.url('/')));
      expect(err).toMatchObject({ code: 'blacklisted_domain' });
      expect(err.detail).toMatch(/127\.0\.0\.1 \(loopback\)/);
      expect(other.hits('/')).toBe(0);
    } finally {
      await guarded.close();
    }
  });

  it('trusts a host name and port, resolved through the given resolver', async () => {
    const guarded = createGuardedFetch(guard, {
      trustedOrigins: [`http://models.internal:${trusted.port}`],
      resolve: dns,
    });
    const untrusted = createGuardedFetch(guard, { resolve: dns });
    try {
      const res = await guarded.fetch(`http://models.internal:${trusted.port}/v1/models`);
      expect(res.status).toBe(200);
      const err = await refusal(untrusted.fetch(`http://models.internal:${trusted.port}/v1/models`));
      expect(err.detail).toMatch(/models\.internal resolves to 127\.0\.0\.1/);
    } finally {
      await guarded.close();
      await untrusted.close();
    }
  });

  it('refuses what a trusted origin redirects to, when the guard refuses it', async () => {
    const guarded = createGuardedFetch(guard, { trustedOrigins: [trusted.origin] });
    try {
      await refusal(guarded.fetch(trusted.url('/to-other')));
      expect(other.hits('/')).toBe(0);
      const metadata = await refusal(guarded.fetch(trusted.url('/to-metadata')));
      expect(metadata.detail).toMatch(/metadata/);
    } finally {
      await guarded.close();
    }
  });

  it('never trusts a cloud metadata address, even when configured', async () => {
    const guarded = createGuardedFetch(guard, { trustedOrigins: ['http://169.254.169.254'] });
    try {
      const err = await refusal(guarded.fetch('http://169.254.169.254/latest/meta-data/'));
      expect(err.detail).toMatch(/cloud metadata endpoints are never fetched/);
    } finally {
      await guarded.close();
    }
  });

  it('trusts only the port of the origin (80 when none is given)', async () => {
    const guarded = createGuardedFetch(guard, { trustedOrigins: ['http://127.0.0.1'] });
    try {
      await refusal(guarded.fetch(trusted.url('/v1/models')));
    } finally {
      await guarded.close();
    }
  });

  it('fails a body larger than the limit while it is read', async () => {
    const guarded = createGuardedFetch(guard, { trustedOrigins: [trusted.origin], maxResponseBytes: 1000 });
    try {
      const res = await guarded.fetch(trusted.url('/big'));
      await expect(res.text()).rejects.toThrow('response body larger than 1000 bytes');
    } finally {
      await guarded.close();
    }
  });
});
